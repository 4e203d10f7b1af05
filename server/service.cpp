#include "server/service.hpp"

#include <stdexcept>
#include <utility>

#include "api/errors.hpp"
#include "api/json.hpp"
#include "api/options.hpp"
#include "api/position_input.hpp"
#include "api/probe.hpp"
#include "api/query.hpp"
#include "api/signatures.hpp"
#include "api/statistics.hpp"
#include "api/tables.hpp"
#include "egtb/store/block_cache.hpp"
#include "egtb/store/error.hpp"
#include "server/url.hpp"

namespace egtb::server {

namespace {

using api::Json;

// A request over one of the server's limits: 413 or 422.
class LimitError : public std::runtime_error {
public:
  LimitError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
  [[nodiscard]] int status() const { return status_; }

private:
  int status_;
};

constexpr std::string_view ApiPrefix = "/api/";
constexpr std::string_view StatsPrefix = "/api/stats/";

// The header of the page: its scripts, styles and requests come from this server alone.
constexpr const char* PagePolicy =
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

std::string required_fen(const Request& r) {
  const std::optional<std::string> fen = query_parameter(r.query, "fen");
  if (!fen)
    throw api::InputError("missing parameter fen, e.g. " + r.path + "?fen=8/8/8/8/8/8/8/K1k5_w_-_-_0_1");
  return *fen;
}

// The body of a POST as a JSON object.
Json body_object(const Request& r) {
  Json body;
  try {
    body = Json::parse(r.body);
  } catch (const Json::parse_error& e) {
    throw api::InputError(std::string("the request body is not JSON: ") + e.what());
  }
  if (!body.is_object()) throw api::InputError("the request body must be a JSON object");
  return body;
}

// The words of the "tables" of a query request: a list of strings, or one string of words separated
// by spaces or commas.
std::vector<std::string> table_words(const Json& body) {
  std::vector<std::string> words;
  const Json& tables = body.contains("tables") ? body["tables"] : Json();
  if (tables.is_array()) {
    for (const Json& t : tables) {
      if (!t.is_string()) throw api::InputError("\"tables\" must be a list of signatures such as \"KBk\"");
      words.push_back(t.get<std::string>());
    }
  } else if (tables.is_string()) {
    std::string word;
    for (char c : tables.get<std::string>() + " ")
      if (c != ' ' && c != ',')
        word += c;
      else if (!word.empty())
        words.push_back(std::exchange(word, ""));
  }
  if (words.empty())
    throw api::InputError("\"tables\" must name at least one table, e.g. [\"KBk\", \"KNk\"]");
  return words;
}

// The tables of a query request: its signatures in the orientation written, or every table present
// for the one word "all" (api::scan_tables).
std::vector<Material> query_tables(const Json& body, const Tablebase& tablebase, size_t max_tables) {
  const std::vector<std::string> words = table_words(body);
  const auto too_many = [&](size_t count) {
    if (count > max_tables)
      throw LimitError(422, "a query reads at most " + std::to_string(max_tables) + " tables");
  };
  too_many(words.size());
  std::vector<Material> tables = api::scan_tables(tablebase, words, std::nullopt);
  too_many(tables.size());
  return tables;
}

uint64_t query_limit(const Json& body, const ServiceOptions& o) {
  if (!body.contains("limit") || body["limit"].is_null()) return o.default_query_limit;
  const Json& limit = body["limit"];
  if (!limit.is_number_integer()) throw api::InputError("\"limit\" must be a whole number");
  if (limit.get<int64_t>() < 1 || limit.get<int64_t>() > static_cast<int64_t>(o.max_query_limit))
    throw LimitError(422, "\"limit\" must be from 1 to " + std::to_string(o.max_query_limit));
  return limit.get<uint64_t>();
}

std::string string_field(const Json& body, const char* name, const std::string& fallback) {
  if (!body.contains(name) || body[name].is_null()) return fallback;
  if (!body[name].is_string()) throw api::InputError(std::string("\"") + name + "\" must be a string");
  return body[name].get<std::string>();
}

// A probe's path: /api/lasker (the rules of the request) or /api/<rules> for the other rule sets,
// each with /mainline for the optimal line.
struct ProbePath {
  std::optional<Rules> rules;  // the rules the path names; none for /api/lasker
  bool mainline = false;
};

std::optional<ProbePath> probe_path(std::string_view path) {
  if (!path.starts_with(ApiPrefix)) return std::nullopt;
  path.remove_prefix(ApiPrefix.size());
  constexpr std::string_view Mainline = "/mainline";
  const bool mainline = path.ends_with(Mainline);
  if (mainline) path.remove_suffix(Mainline.size());
  if (path == "lasker") return ProbePath{std::nullopt, mainline};
  const std::optional<Rules> rules = parse_rules(path);
  if (!rules || *rules == Rules::Lasker) return std::nullopt;
  return ProbePath{rules, mainline};
}

// The methods a path answers, as its Allow header lists them: POST for queries, GET (and so HEAD,
// which the HTTP layer answers as GET without the body) for everything else; OPTIONS everywhere.
constexpr const char* ReadMethods = "GET, HEAD, OPTIONS";
constexpr const char* QueryMethods = "POST, OPTIONS";

const char* allowed_methods(std::string_view path) {
  return path == "/api/query" ? QueryMethods : ReadMethods;
}

bool allows(std::string_view path, std::string_view method) {
  return path == "/api/query" ? method == "POST" : method == "GET";
}

Response method_not_allowed(const Service& s, const Request& r) {
  const char* allowed = allowed_methods(r.path);
  Response out = s.error(405, "this resource answers " + std::string(allowed) + " only, not " + r.method);
  out.headers.emplace_back("Allow", allowed);
  return out;
}

}  // namespace

Service::Service(const ServiceOptions& options) : options_(options) {
  const auto cache = std::make_shared<BlockCache>(options.cache_bytes, BlockCache::Memory::HugePagePool);
  for (Rules rules : AllRules)
    tablebases_[rules_id(rules)] =
        std::make_unique<Tablebase>(options.directory, TablebaseOptions{options.cache_bytes, rules}, cache);
}

Rules Service::rules_of(const Request& r, std::optional<Rules> fixed) const {
  const std::optional<std::string> name = query_parameter(r.query, "rules");
  if (!name) return fixed.value_or(options_.rules);
  const Rules rules = api::rules_named(*name, "rules");
  if (fixed && rules != *fixed)
    throw api::InputError(r.path + " answers under the rules " + std::string(rules_name(*fixed)) + ", not " +
                          *name + " (use /api/lasker?rules=" + *name + ")");
  return rules;
}

Response Service::handle(const Request& request) {
  try {
    return route(request);
  } catch (const api::InputError& e) {
    return json(400, api::json_line(api::error_json(e.what(), e.location())));
  } catch (const api::MissingTableError& e) {
    return json(404, api::json_line(api::error_json(e.what(), {}, e.table())));
  } catch (const LimitError& e) {
    return error(e.status(), e.what());
  } catch (const StoreError& e) {
    return error(500, e.what());
  }
}

bool Service::is_slow(const Request& request) const {
  return request.path == "/api/query" || request.path.starts_with(StatsPrefix);
}

Response Service::error(int status, const std::string& message) const {
  return json(status, api::json_line(api::error_json(message)));
}

bool Service::allows_origin(std::string_view origin) const {
  return options_.cors_origin == "*" || (!options_.cors_origin.empty() && origin == options_.cors_origin);
}

Response Service::route(const Request& r) {
  if (r.method == "OPTIONS") return options(r);
  if (!allows(r.path, r.method)) return method_not_allowed(*this, r);
  if (!r.path.starts_with(ApiPrefix)) return file(r);
  if (const std::optional<ProbePath> p = probe_path(r.path))
    return probe(r, rules_of(r, p->rules), p->mainline);
  if (r.path == "/api/stalemate") return stalemate(r);
  if (r.path == "/api/tables") return tables(r);
  if (r.path == "/api/rules") return json(200, api::json_line(api::all_rules_json(options_.rules)));
  if (r.path.starts_with(StatsPrefix)) return stats(percent_decode(r.path.substr(StatsPrefix.size())), r);
  if (r.path == "/api/query") return query(r);
  return error(404, "no API resource " + r.path + " (see README.md, egtb serve)");
}

// OPTIONS: 204 with the methods of the path (Allow), and the CORS preflight's answer when an
// origin is allowed (--cors-origin).
Response Service::options(const Request& r) const {
  Response out{204, "text/plain", "", {{"Allow", allowed_methods(r.path)}}};
  if (!options_.cors_origin.empty()) {
    out.headers.emplace_back("Access-Control-Allow-Origin", options_.cors_origin);
    out.headers.emplace_back("Access-Control-Allow-Methods", allowed_methods(r.path));
    out.headers.emplace_back("Access-Control-Allow-Headers", "Content-Type");
  }
  return out;
}

Response Service::probe(const Request& r, Rules rules, bool mainline) {
  const Position pos = api::parse_position(required_fen(r));
  const api::ProbeReport report =
      api::probe_or_throw(tablebase(rules), pos, mainline ? api::ProbeDetail::Full : api::ProbeDetail::Moves);
  return json(200, api::json_line(mainline ? api::mainline_json(report)
                                           : api::to_json(report, api::ProbeDetail::Moves)));
}

Response Service::stalemate(const Request& r) {
  const Position pos = api::parse_position(required_fen(r));
  return json(200,
              api::json_line(api::to_json(api::probe_stalemate_or_throw(tablebase(Rules::Lasker), pos))));
}

Response Service::tables(const Request& r) {
  const Rules rules = rules_of(r);
  return json(200, api::json_line(api::tables_json(api::list_tables(tablebase(rules)), rules)));
}

Response Service::stats(const std::string& signature, const Request& r) {
  const indexing::Convention c =
      api::convention_named(query_parameter(r.query, "convention").value_or("index462"), "convention");
  const Rules rules = rules_of(r);
  const Cancellation budget(r.cancellation, Cancellation::Clock::now() + options_.stats_budget);
  try {
    return json(200, api::json_line(api::to_json(*statistics_.get(tablebase(rules), signature,
                                                                  {c, options_.work_threads, &budget}))));
  } catch (const Cancelled&) {
    return error(503, budget.past_deadline()
                          ? "the statistics take longer than the server's limit of " +
                                std::to_string(options_.stats_budget.count() / 1000) + " s"
                          : "the statistics were cancelled: the client left or the server is stopping");
  }
}

Response Service::query(const Request& r) {
  const Json body = body_object(r);
  api::BoundedQuery request;
  const Rules rules =
      api::rules_named(string_field(body, "rules", std::string(rules_name(options_.rules))), "\"rules\"");
  const Tablebase& tb = tablebase(rules);
  request.tables = query_tables(body, tb, options_.max_query_tables);
  request.limit = query_limit(body, options_);
  request.budget = options_.query_budget;
  request.cancellation = r.cancellation;
  request.options.directory = options_.directory;
  request.options.rules = rules;
  request.options.convention =
      api::convention_named(string_field(body, "convention", "index462"), "convention");
  request.options.threads = options_.work_threads;
  const std::string source = string_field(body, "query", "");
  if (source.find_first_not_of(" \t\r\n") == std::string::npos)
    throw api::InputError("\"query\" must hold a CQL query, e.g. \"stalemate\"");
  const api::BoundedResult result = api::run_bounded(api::prepare_query(source), request);
  return json(200, api::json_line(api::to_json(result, request.options.convention, rules)));
}

Response Service::file(const Request& r) const {
  const Asset* asset = assets_.find(r.path);
  if (!asset) return {404, "text/plain; charset=utf-8", "not found\n", {}};
  Response out{200, asset->content_type, asset->body, {{"ETag", asset->etag}, {"Cache-Control", "no-cache"}}};
  out.headers.emplace_back("X-Content-Type-Options", "nosniff");
  if (asset->content_type.starts_with("text/html"))
    out.headers.emplace_back("Content-Security-Policy", PagePolicy);
  if (r.if_none_match == asset->etag) {
    out.status = 304;
    out.body.clear();
  }
  return out;
}

Response Service::json(int status, const std::string& body) const {
  Response r{status, "application/json", body, {{"Cache-Control", "no-cache"}}};
  if (!options_.cors_origin.empty())
    r.headers.emplace_back("Access-Control-Allow-Origin", options_.cors_origin);
  return r;
}

}  // namespace egtb::server
