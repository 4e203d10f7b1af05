-- wrk script of bench/load_test.sh: GET /api/lasker over a list of FENs (one per line, the file
-- named after --), each thread starting at its own place in the list; prints requests per second,
-- latency percentiles and errors, non-2xx answers included.
local fens = {}
local next_index = 1

function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then fens[#fens + 1] = line:gsub(" ", "_") end
  end
  next_index = math.random(#fens)
end

function request()
  next_index = next_index % #fens + 1
  return wrk.format("GET", "/api/lasker?fen=" .. fens[next_index])
end

function done(summary, latency, requests)
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.status + e.timeout
  io.write(string.format("requests %d in %.1f s: %.0f requests/s\n", summary.requests, summary.duration / 1e6,
    summary.requests / (summary.duration / 1e6)))
  io.write(string.format("latency p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
  io.write(string.format("errors %d (connect %d, read %d, write %d, non-2xx %d, timeout %d)\n", errors, e.connect,
    e.read, e.write, e.status, e.timeout))
end
