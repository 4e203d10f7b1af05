// egtb serve [--dir DIR] [--host H] [--port P] [--threads N] ...: the web page and JSON API of
// server/service.hpp on an HTTP server (server/http_server.hpp) until SIGINT or SIGTERM.
#include <filesystem>
#include <iostream>

#include "api/signatures.hpp"
#include "query/source.hpp"
#include "server/http_server.hpp"
#include "server/service.hpp"
#include "server/url.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

constexpr const char* ServeSummary =
    "Serve a web page and a JSON API to probe, explore and query the tables of DIR (see README.md,\n"
    "egtb serve): GET /api/lasker?fen=FEN, /api/lasker/mainline?fen=FEN, /api/tables,\n"
    "/api/stats/SIG?convention=C, POST /api/query. Each request may name its rule set (rules=NAME;\n"
    "/api/stalemate-wins?fen=FEN, /api/stalemate-passes?fen=FEN); --rules is the default. Listens\n"
    "on the loopback address by default; prints the URL, and stops cleanly on Ctrl-C (SIGINT) or\n"
    "SIGTERM.";

CommandLine serve_command_line() {
  CommandLine cl("serve", ServeSummary);
  const auto text = [](const char* name) { return po::value<std::string>()->value_name(name); };
  cl.options()("dir", text("DIR"), "the table directory (default: tables)");
  cl.options()("host", text("ADDRESS"),
               "the IP address to listen on (default 127.0.0.1; 0.0.0.0 for every one)");
  cl.options()("port", text("PORT"), "the port (default 8080; 0: any free port, printed on start)");
  cl.options()("threads", text("N"), "threads answering requests (default: one per core)");
  cl.options()("cache-mb", text("MB"), "decoded-block cache of probes in MiB (default 1024)");
  cl.options()("query-seconds", text("S"), "wall time one query may scan (default 5)");
  cl.options()("query-limit", text("N"), "the most matches one query may list (default 1000)");
  cl.options()("cors-origin", text("ORIGIN"),
               "allow pages of ORIGIN (e.g. http://localhost:3000, or *) to call the API (default: none)");
  cl.rules_option();
  return cl;
}

server::ServiceOptions service_options(const CommandLine& cl) {
  server::ServiceOptions o;
  o.directory = cl.option("dir", "tables");
  if (!std::filesystem::is_directory(o.directory))
    throw UsageError("serve: '" + o.directory.string() +
                     "' is not a directory (build tables with: egtb generate " + "--all 4 --dir " +
                     o.directory.string() + ")");
  o.cache_bytes = cache_bytes_option(cl);
  o.query_budget =
      std::chrono::seconds(parse_int(cl.option("query-seconds", "5"), "--query-seconds", 1, 3600));
  o.max_query_limit =
      static_cast<uint64_t>(parse_int(cl.option("query-limit", "1000"), "--query-limit", 1, 1'000'000));
  o.cors_origin = cl.option("cors-origin", "");
  if (!o.cors_origin.empty() && !server::is_origin(o.cors_origin))
    throw UsageError("serve: --cors-origin '" + query::quote_source(o.cors_origin) + "'" +
                     " is not an origin: give a scheme, a host and an optional port, e.g. "
                     "http://localhost:3000, or *");
  o.rules = rules_of(cl);
  return o;
}

server::ServerOptions server_options(const CommandLine& cl) {
  server::ServerOptions o;
  o.host = cl.option("host", "127.0.0.1");
  o.port = static_cast<uint16_t>(parse_int(cl.option("port", "8080"), "--port", 0, 65535));
  o.threads = threads_option(cl);
  return o;
}

std::string url(const std::string& host, uint16_t port) {
  const std::string shown = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host;
  const bool v6 = shown.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + shown + "]" : shown) + ":" + std::to_string(port) + "/";
}

}  // namespace

int cmd_serve(const std::vector<std::string>& args) {
  CommandLine cl = serve_command_line();
  if (!cl.parse(args)) return ExitSuccess;
  const server::ServiceOptions service_opts = service_options(cl);
  const server::ServerOptions server_opts = server_options(cl);
  server::Service service(service_opts);
  server::HttpServer http(server_opts, service);
  const Rules rules = service_opts.rules;
  const size_t tables = api::available_tables(Tablebase(service_opts.directory, {0, rules})).size();
  const std::string kind = rules == Rules::Lasker ? "" : std::string(rules_name(rules)) + " ";
  const std::string rules_option = rules == Rules::Lasker ? "" : " --rules " + std::string(rules_name(rules));
  std::cout << "egtb serve: " << url(server_opts.host, http.port()) << "  (" << tables << " " << kind
            << "tables in " << service_opts.directory.string() << "; Ctrl-C stops)" << std::endl;
  if (tables == 0)
    std::cerr << "egtb serve: no " << kind << "tables in " << service_opts.directory.string()
              << " yet (build them with: egtb generate --all 4" << rules_option << " --dir "
              << service_opts.directory.string() << ")\n";
  if (server_opts.host != "127.0.0.1" && server_opts.host != "::1" && server_opts.host != "localhost")
    std::cerr << "egtb serve: listening on " << server_opts.host << ", reachable from other machines\n";
  http.run(true);
  std::cout << "egtb serve: stopped" << std::endl;
  return ExitSuccess;
}

}  // namespace egtb::cli
