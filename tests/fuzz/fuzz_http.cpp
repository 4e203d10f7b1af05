// libFuzzer target for the HTTP request layer of `egtb serve`: the input is the raw bytes of a
// request, answered as a connection answers them (server::answer_bytes: Beast's parser under the
// server's limits, the Host and Origin checks, then the routes of server::Service and the
// application layer below them: FENs, signatures, query bodies and CQL) over an empty table
// directory, so that every route that reads tables ends in its 404 quickly. Checked, besides no
// crash, hang, leak or undefined behaviour: an answer has a status the server gives (200-599) and
// an error answer's body is a JSON object with its message.
// Built with -DEGTB_FUZZ=ON under clang 16 (scripts/fuzz.sh):
//   build-fuzz/tests/fuzz/fuzz_http build-fuzz/corpus-http tests/fuzz/corpus/http -max_total_time=600
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <system_error>

#include "server/http_server.hpp"
#include "server/service.hpp"

namespace {

using namespace egtb::server;

// An empty directory of its own, removed when the process exits (libFuzzer ends a run of
// -max_total_time with exit()), so that runs leave nothing in the temporary directory.
struct EmptyDirectory {
  std::filesystem::path path;
  EmptyDirectory() {
    std::string name = (std::filesystem::temp_directory_path() / "egtb-fuzz-http-XXXXXX").string();
    if (!::mkdtemp(name.data())) std::abort();
    path = name;
  }
  ~EmptyDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

// A service over an empty directory of its own, made once.
Service& service() {
  static const EmptyDirectory directory;
  static Service s([] {
    ServiceOptions o;
    o.directory = directory.path;
    o.cache_bytes = size_t{1} << 20;
    o.work_threads = 1;
    return o;
  }());
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ServerOptions options;
  options.port = 8080;
  const std::optional<Response> r =
      answer_bytes(std::string_view(reinterpret_cast<const char*>(data), size), options, service());
  if (!r) return 0;
  if (r->status < 200 || r->status > 599) std::abort();
  if (r->status >= 400 && r->content_type == "application/json") {
    const nlohmann::json body = nlohmann::json::parse(r->body, nullptr, false);
    if (!body.is_object() || !body.contains("error")) std::abort();
  }
  return 0;
}
