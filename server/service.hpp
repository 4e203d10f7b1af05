// The routes of `egtb serve`: the JSON API over the application layer (api/) and the web page's
// files. Every JSON body comes from api/json.hpp; errors map to status codes as api/errors.hpp
// says (InputError 400, MissingTableError 404, StoreError 500 with its message) and request limits
// to 413 (a body too large) and 422 (a limit or list over its maximum).
//
//   GET  /api/lasker?fen=FEN            the position's value and every move's, best first
//   GET  /api/lasker/mainline?fen=FEN   the optimal line with each position's value
//   GET  /api/stalemate-wins?fen=FEN, /api/stalemate-passes?fen=FEN (and .../mainline): the same
//                                       under those rules
//   GET  /api/tables                    the tables present, from their headers
//   GET  /api/rules                     the words of each rule set (the page's legend and titles)
//   GET  /api/stats/SIG?convention=C    a table's statistics (computed once, then kept; 503 when the
//                                       client leaves, the server stops or stats_budget passes first)
//   POST /api/query                     {"tables", "query", "limit", "convention", "rules"}: matches
//   GET  /, /app.js, /style.css, ...    the page (server/assets.hpp)
//   OPTIONS any path                    204 with Allow (and the CORS preflight's headers with
//                                       --cors-origin); HEAD is GET without the body (http_server)
//
// Rules (egtb/store/rules.hpp): every request may name the rule set of the tables it reads, as the
// parameter rules=NAME (the query's field "rules"); without it the server's default
// (ServiceOptions::rules, `egtb serve --rules`) applies. /api/stalemate-wins and
// /api/stalemate-passes name theirs in the path. The tablebases of the three rule sets share one
// block cache.
// A FEN may use '_' for spaces, as the lichess tablebase API allows.
#pragma once

#include <array>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "api/statistics.hpp"
#include "egtb/store/tablebase.hpp"
#include "server/assets.hpp"
#include "server/http_server.hpp"

namespace egtb::server {

struct ServiceOptions {
  std::filesystem::path directory = "tables";
  size_t cache_bytes = size_t{1} << 30;  // the decoded-block cache of probes
  int work_threads = 0;                  // threads of one query scan or statistics run; 0: every core
  uint64_t max_query_limit = 1000;       // the most matches one query may ask for
  uint64_t default_query_limit = 100;
  size_t max_query_tables = 200;
  std::chrono::milliseconds query_budget{5000};     // wall time of one query scan
  std::chrono::milliseconds stats_budget{120'000};  // wall time of one table's statistics
  std::string cors_origin;      // empty: no CORS headers (the default); else "*" or an origin (is_origin)
  Rules rules = Rules::Lasker;  // the rules of a request that names none
};

class Service final : public Handler {
public:
  explicit Service(const ServiceOptions& options);

  Response handle(const Request& request) override;
  [[nodiscard]] bool is_slow(const Request& request) const override;
  [[nodiscard]] Response error(int status, const std::string& message) const override;
  [[nodiscard]] bool allows_origin(std::string_view origin) const override;

private:
  ServiceOptions options_;
  std::array<std::unique_ptr<Tablebase>, AllRules.size()> tablebases_;  // by rules_id
  Assets assets_;
  api::StatisticsCache statistics_;

  [[nodiscard]] const Tablebase& tablebase(Rules rules) const { return *tablebases_[rules_id(rules)]; }
  // The rules a request names (its parameter rules), or the server's default; `fixed`, the rules
  // its path names, when it has them (a parameter naming others is an InputError).
  [[nodiscard]] Rules rules_of(const Request& request, std::optional<Rules> fixed = {}) const;
  Response route(const Request& request);
  [[nodiscard]] Response options(const Request& request) const;
  Response probe(const Request& request, Rules rules, bool mainline);
  // GET /api/stalemate?fen=: what a stalemate-only table holds of the position (api::to_json of a
  // StalemateReport), from the Lasker tables, stalemate-only or full.
  Response stalemate(const Request& request);
  Response tables(const Request& request);
  Response stats(const std::string& signature, const Request& request);
  Response query(const Request& request);
  Response file(const Request& request) const;
  Response json(int status, const std::string& body) const;
};

}  // namespace egtb::server
