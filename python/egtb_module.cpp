// egtb._egtb: the Python module's extension (pybind11), a thin adapter over the application layer
// (api/): it turns Python arguments into api requests, api results into Python objects and api
// errors into Python exceptions, and computes nothing of its own. The package around it
// (python/egtb/__init__.py) defines the exception classes and Record, the dict type of results.
//
// Directories are str or os.PathLike (pathlib.Path). Results: every dict is a JSON object of
// api/json.hpp converted key by key (the same keys in the same order as the command line's
// --json), made a Record so that keys read as attributes.
// Errors (api/errors.hpp): InputError -> ValueError, MissingTableError -> egtb.MissingTableError
// (a KeyError), egtb::StoreError -> egtb.TableError; a probe of a position no table can hold
// (castling rights, too many men) -> egtb.OutsideTablesError (a KeyError, as python-chess's
// tablebases raise for these).
// Signatures: every docstring starts with the function's text signature ("name(a, *, b=1)\n--\n\n",
// CPython's own form), so that inspect.signature and help() show the parameters; egtb/_egtb.pyi
// has them with their types (tests/python/test_package.py checks that the two agree).
// Rules (egtb/store/rules.hpp): every function that reads or builds tables takes rules="lasker" (the
// default), "stalemate-wins" or "stalemate-passes"; a Tablebase reads the tables of one rule set.
// Threads: the GIL is released while C++ works (probes, generation, statistics, scans); a
// Tablebase may be shared by Python threads, and close() waits for no one: a probe under way
// keeps the tables it uses alive until it returns.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/errors.hpp"
#include "api/generate.hpp"
#include "api/json.hpp"
#include "api/options.hpp"
#include "api/position_input.hpp"
#include "api/probe.hpp"
#include "api/query.hpp"
#include "api/query_stream.hpp"
#include "api/recompress.hpp"
#include "api/sample.hpp"
#include "api/signatures.hpp"
#include "api/statistics.hpp"
#include "api/tables.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/store/error.hpp"

namespace py = pybind11;

namespace egtb::python {

namespace {

using api::Json;

// A class or function of the egtb package (python/egtb/__init__.py).
py::object package_attr(const char* name) { return py::module_::import("egtb").attr(name); }

// A JSON value as Python objects, objects as instances of `record` (a dict type).
py::object to_python(const Json& j, const py::handle& record) {
  switch (j.type()) {
    case Json::value_t::boolean: return py::bool_(j.get<bool>());
    case Json::value_t::number_integer: return py::int_(j.get<int64_t>());
    case Json::value_t::number_unsigned: return py::int_(j.get<uint64_t>());
    case Json::value_t::number_float: return py::float_(j.get<double>());
    case Json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case Json::value_t::array: {
      py::list out;
      for (const Json& item : j) out.append(to_python(item, record));
      return out;
    }
    case Json::value_t::object: {
      py::object out = record();
      for (const auto& item : j.items()) out[py::str(item.key())] = to_python(item.value(), record);
      return out;
    }
    default: return py::none();
  }
}

py::object to_record(const Json& j) { return to_python(j, package_attr("Record")); }

// The UTF-8 text of a Python str.
std::string_view text_of(py::handle s) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(s.ptr(), &size);
  if (!data) throw py::error_already_set();
  return {data, static_cast<size_t>(size)};
}

// A position given as a FEN string or as any object with a fen() method (a python-chess Board).
Position position_of(py::handle position) {
  if (PyUnicode_Check(position.ptr())) return api::parse_position(text_of(position));
  if (py::hasattr(position, "fen")) {
    const py::object fen = position.attr("fen")();
    if (PyUnicode_Check(fen.ptr())) return api::parse_position(text_of(fen));
  }
  throw py::type_error("position must be a FEN string or an object with a fen() method, not " +
                       std::string(py::str(py::type::handle_of(position).attr("__name__"))));
}

// Signatures given as one string ("KQk") or an iterable of strings.
std::vector<std::string> signature_texts(py::handle signatures) {
  if (PyUnicode_Check(signatures.ptr())) return {std::string(text_of(signatures))};
  std::vector<std::string> texts;
  for (py::handle s : signatures) {
    if (!PyUnicode_Check(s.ptr())) throw py::type_error("signatures must be strings such as 'KQk'");
    texts.emplace_back(text_of(s));
  }
  return texts;
}

Rules rules_of(const std::string& name) { return api::rules_named(name, "rules"); }

// A thread count: None is every core.
int threads_of(std::optional<int> threads) {
  if (threads && *threads < 1) throw py::value_error("threads must be at least 1, or None for every core");
  return threads.value_or(0);
}

// Raises the Python exception of a probe that failed: OutsideTablesError for a position no table
// holds, else what api::raise throws.
[[noreturn]] void raise_probe_error(const ProbeError& e);

// The default cache_mb of open_tablebase: TablebaseOptions' default, 256 MiB.
constexpr double DefaultCacheMb = static_cast<double>(TablebaseOptions::DefaultCacheBytes >> 20);

class PyTablebase {
public:
  PyTablebase(const std::filesystem::path& directory, double cache_mb, const std::string& rules)
      : directory_(directory.string()) {
    TablebaseOptions options;
    options.rules = rules_of(rules);
    if (!(cache_mb >= 1)) throw py::value_error("cache_mb must be at least 1");
    options.cache_bytes = static_cast<size_t>(cache_mb * (1 << 20));
    tables_ = api::open_tablebase(directory, options);
    rules_ = options.rules;
  }

  struct Scored {
    Expected<Score, ProbeError> score;
    Rules rules;
  };

  // The score of a position, as Tablebase::probe gives it, the GIL released while probing.
  [[nodiscard]] Scored score(py::handle position) const {
    const Position pos = position_of(position);
    const std::shared_ptr<const Tablebase> tb = tables();
    const py::gil_scoped_release release;
    return {tb->probe(pos), tb->rules()};
  }

  // What a stalemate-only table holds of a position (Tablebase::probe_stalemate).
  [[nodiscard]] Expected<Score, ProbeError> stalemate_score(py::handle position) const {
    const Position pos = position_of(position);
    const std::shared_ptr<const Tablebase> tb = tables();
    const py::gil_scoped_release release;
    return tb->probe_stalemate(pos);
  }

  // The value from the value files alone (Tablebase::probe_value).
  [[nodiscard]] Expected<Lasker, ProbeError> file_value(py::handle position) const {
    const Position pos = position_of(position);
    const std::shared_ptr<const Tablebase> tb = tables();
    const py::gil_scoped_release release;
    return tb->probe_value(pos);
  }

  [[nodiscard]] py::object probe(py::handle position) const {
    auto report = full_report(position);
    if (!report) raise_probe_error(report.error());
    return report_object(*report);
  }

  [[nodiscard]] py::object get(py::handle position, py::object fallback) const {
    auto report = full_report(position);
    return report ? report_object(*report) : fallback;
  }

  [[nodiscard]] std::shared_ptr<const Tablebase> tables() const {
    if (!tables_) throw py::value_error("the tablebase is closed");
    return tables_;
  }

  // Probes search `directory` too, after the directories already there (python-chess's
  // add_directory).
  void add_directory(const std::filesystem::path& directory) {
    if (!tables_) throw py::value_error("the tablebase is closed");
    api::add_directory(*tables_, directory);
  }

  void close() { tables_.reset(); }
  [[nodiscard]] bool closed() const { return tables_ == nullptr; }
  [[nodiscard]] const std::string& directory() const { return directory_; }
  [[nodiscard]] std::vector<std::string> directories() const {
    std::vector<std::string> out;
    for (const std::filesystem::path& d : tables()->directories()) out.push_back(d.string());
    return out;
  }
  [[nodiscard]] Rules rules() const { return rules_; }

private:
  std::string directory_;
  Rules rules_ = Rules::Lasker;
  std::shared_ptr<Tablebase> tables_;

  [[nodiscard]] Expected<api::ProbeReport, ProbeError> full_report(py::handle position) const {
    const Position pos = position_of(position);
    const std::shared_ptr<const Tablebase> tb = tables();
    const py::gil_scoped_release release;
    return api::probe(*tb, pos, api::ProbeDetail::Full);
  }

  // The report as a ProbeResult: the keys of `egtb probe --json`, `line` and `final` beside them.
  [[nodiscard]] static py::object report_object(const api::ProbeReport& report) {
    const Json main = api::mainline_json(report);
    py::object result = to_python(api::to_json(report, api::ProbeDetail::Full), package_attr("ProbeResult"));
    result.attr("line") = to_record(main["mainline"]);
    result.attr("final") = to_record(main["final"]);
    return result;
  }
};

// What probe_<field> reads of a score: the value or a depth (plies, None where the value has
// none), and whether the tablebase's rules have it (probe_lasker and probe_dts read Lasker tables
// only, probe_dte stalemate-wins tables, probe_dtm the tables of Lasker and stalemate-passes).
struct ScoreField {
  const char* name;
  py::object (*read)(Rules, Score);
  std::optional<Metric> metric;  // the metric the field reads, when it is one metric's depth
};

py::object value_of(Rules, Score s) { return py::int_(to_index(s.value())); }
py::object depth_of(Rules r, Score s) {
  return s.value() == Lasker::Draw ? py::none() : py::cast(depth_in(r, s, metric_of(r, s.value())));
}
template <Metric M>
py::object metric_depth(Rules r, Score s) {
  return py::cast(depth_in(r, s, M));
}

constexpr ScoreField LaskerField{"lasker", &value_of, std::nullopt};
constexpr ScoreField ValueField{"value", &value_of, std::nullopt};
constexpr ScoreField DepthField{"depth", &depth_of, std::nullopt};
constexpr ScoreField DtmField{"dtm", &metric_depth<Metric::Dtm>, Metric::Dtm};
constexpr ScoreField DtsField{"dts", &metric_depth<Metric::Dts>, Metric::Dts};
constexpr ScoreField DteField{"dte", &metric_depth<Metric::Dte>, Metric::Dte};

// Raises ValueError when the tablebase's rules have no such field.
void check_field(const ScoreField& field, Rules rules) {
  const bool lasker_only = &field == &LaskerField;
  if (lasker_only ? rules == Rules::Lasker : !field.metric || all_metrics(rules).contains(*field.metric))
    return;
  throw py::value_error(
      std::string("probe_") + field.name + ": " + std::string(rules_name(rules)) + " tables have no " +
      field.name + (lasker_only ? " value" : " depth") +
      " (their values are 4 win, 2 draw, 0 loss; probe_value and probe_depth read any rules)");
}

// tb.probe_<field>(position): raises what a probe fails with.
template <const ScoreField& field>
py::object probe_field(const PyTablebase& tb, py::handle position) {
  check_field(field, tb.rules());
  const auto [score, rules] = tb.score(position);
  if (!score) raise_probe_error(score.error());
  return field.read(rules, *score);
}

// tb.get_<field>(position, default): `default` when the tables cannot answer (Tablebase::try_probe).
template <const ScoreField& field>
py::object get_field(const PyTablebase& tb, py::handle position, py::object fallback) {
  check_field(field, tb.rules());
  const auto [score, rules] = tb.score(position);
  return score ? field.read(rules, *score) : fallback;
}

// (lasker, dts) of a stalemate probe: (3, DTS) or (1, DTS), or (2, None) for "not a stalemate win or
// loss".
py::tuple stalemate_tuple(Rules rules, Score s) {
  return py::make_tuple(to_index(s.value()), py::cast(depth_in(rules, s, Metric::Dts)));
}

// tb.probe_stalemate(position): raises what a probe fails with.
py::tuple probe_stalemate(const PyTablebase& tb, py::handle position) {
  check_field(LaskerField, tb.rules());
  const auto score = tb.stalemate_score(position);
  if (!score) raise_probe_error(score.error());
  return stalemate_tuple(tb.rules(), *score);
}

// tb.get_stalemate(position, default): `default` when the tables cannot answer.
py::object get_stalemate(const PyTablebase& tb, py::handle position, py::object fallback) {
  check_field(LaskerField, tb.rules());
  const auto score = tb.stalemate_score(position);
  return score ? stalemate_tuple(tb.rules(), *score) : fallback;
}

// tb.probe_value_file(position): raises what a probe fails with.
int probe_value_file(const PyTablebase& tb, py::handle position) {
  const auto value = tb.file_value(position);
  if (!value) raise_probe_error(value.error());
  return to_index(*value);
}

// tb.get_value_file(position, default): `default` when the value files cannot answer.
py::object get_value_file(const PyTablebase& tb, py::handle position, py::object fallback) {
  const auto value = tb.file_value(position);
  return value ? py::int_(to_index(*value)) : fallback;
}

// The matches of a query, pulled from an api::QueryStream a batch at a time.
class PyQueryIterator {
public:
  explicit PyQueryIterator(std::unique_ptr<api::QueryStream> stream, indexing::Convention convention)
      : stream_(std::move(stream)), convention_(convention) {}
  PyQueryIterator(PyQueryIterator&&) = default;
  // Stops the scan; other Python threads run while its thread finishes the block at hand.
  ~PyQueryIterator() {
    if (!stream_) return;
    const py::gil_scoped_release release;
    stream_.reset();
  }

  py::object next() {
    while (pending_.empty()) {
      if (finished_) throw py::stop_iteration();
      api::QueryStream::Batch batch;
      {
        const py::gil_scoped_release release;
        batch = stream_->next(BatchSize, std::chrono::milliseconds(100));
      }
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      finished_ = batch.finished;
      for (Json& m : batch.matches) pending_.push_back(std::move(m));
    }
    const Json match = std::move(pending_.front());
    pending_.pop_front();
    return to_record(match);
  }

  // The counts of the scan once every match was read, else None.
  py::object summary() const {
    if (!finished_ || !pending_.empty()) return py::none();
    return to_record(api::to_json(stream_->summary(), convention_));
  }

private:
  static constexpr size_t BatchSize = 256;
  std::unique_ptr<api::QueryStream> stream_;
  indexing::Convention convention_;
  std::deque<Json> pending_;
  bool finished_ = false;
};

query::ScanOptions scan_options(const std::filesystem::path& directory, const std::string& convention,
                                std::optional<int> threads, const std::string& rules) {
  query::ScanOptions o;
  o.directory = directory;
  o.rules = rules_of(rules);
  o.convention = api::convention_named(convention, "convention");
  o.threads = threads_of(threads);
  return o;
}

// The tables a query scans: the signatures as written, "all" for every table present, after every
// table of 3 to `all` men present (api::scan_tables).
std::vector<Material> scan_tables(py::handle signatures, std::optional<int> all,
                                  const query::ScanOptions& o) {
  return api::scan_tables(Tablebase(o.directory, TablebaseOptions{0, o.rules}), signature_texts(signatures),
                          all);
}

PyQueryIterator run_query(py::handle signatures, const std::string& source,
                          const std::filesystem::path& directory, std::optional<int64_t> limit,
                          const std::string& convention, std::optional<int> threads, const std::string& rules,
                          std::optional<int> all) {
  if (limit && *limit < 1) throw py::value_error("limit must be at least 1, or None for every match");
  query::ScanOptions o = scan_options(directory, convention, threads, rules);
  o.limit = static_cast<uint64_t>(limit.value_or(0));
  const std::vector<Material> tables = scan_tables(signatures, all, o);
  auto stream = std::make_unique<api::QueryStream>(api::prepare_query(source), tables, o);
  return PyQueryIterator(std::move(stream), o.convention);
}

py::object count_query(py::handle signatures, const std::string& source,
                       const std::filesystem::path& directory, const std::string& convention,
                       std::optional<int> threads, const std::string& rules, std::optional<int> all) {
  query::ScanOptions o = scan_options(directory, convention, threads, rules);
  o.list = false;
  const std::vector<Material> tables = scan_tables(signatures, all, o);
  const query::ScanQuery q = api::prepare_query(source);
  Cancellation interrupted;
  o.cancellation = &interrupted;
  auto scan = std::async(std::launch::async, [&] { return api::query_tables(q, tables, o, {}); });
  while (true) {
    {
      const py::gil_scoped_release release;
      if (scan.wait_for(std::chrono::milliseconds(100)) == std::future_status::ready) break;
    }
    if (PyErr_CheckSignals() == 0) continue;
    interrupted.cancel();  // Ctrl-C: the scan ends within milliseconds
    {
      const py::gil_scoped_release release;
      scan.wait();
    }
    throw py::error_already_set();
  }
  return to_record(api::to_json(scan.get(), o.convention));
}

py::list table_stats(py::handle signatures, const std::filesystem::path& directory,
                     const std::string& convention, std::optional<int> threads, std::optional<int> all,
                     const std::string& rules) {
  const api::StatsRequest request{directory,
                                  signature_texts(signatures),
                                  all,
                                  {api::convention_named(convention, "convention"), threads_of(threads)},
                                  rules_of(rules)};
  std::vector<stats::TableStatistics> tables;
  {
    const py::gil_scoped_release release;
    tables = api::table_statistics(request);
  }
  py::list out;
  for (const stats::TableStatistics& t : tables) {
    if (const auto warning = api::incomplete_table_warning(t))
      if (PyErr_WarnEx(PyExc_UserWarning, warning->c_str(), 1) != 0) throw py::error_already_set();
    out.append(to_record(api::to_json(t)));
  }
  return out;
}

// True on a thread running a callback of generate(): a generate() called from it would wait
// forever for the table locks of the call under way.
thread_local bool in_generate_callback = false;

// Calls `callback` (may be None) with a record, the GIL held; first lets Python handle signals,
// so that Ctrl-C stops a long build and a wait for another process's lock.
void call_back(const py::object& callback, const Json& record) {
  const py::gil_scoped_acquire acquire;
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  if (callback.is_none()) return;
  in_generate_callback = true;
  try {
    callback(to_record(record));
  } catch (...) {
    in_generate_callback = false;
    throw;
  }
  in_generate_callback = false;
}

// max_memory: bytes as an int, or a size as a str ("800M", "2G"); None: no limit, each table's
// path chosen as without --max-memory (retro::default_plan).
uint64_t max_memory_of(const py::object& max_memory) {
  if (max_memory.is_none()) return 0;
  if (PyUnicode_Check(max_memory.ptr())) return api::bytes_named(text_of(max_memory), "max_memory");
  if (!PyLong_Check(max_memory.ptr()) || PyBool_Check(max_memory.ptr()))
    throw py::type_error("max_memory must be a number of bytes or a size such as '800M', or None");
  const auto bytes = max_memory.cast<int64_t>();
  if (bytes < 1) throw py::value_error("max_memory must be at least 1 byte, or None for no limit");
  return static_cast<uint64_t>(bytes);
}

py::list generate_tables(py::handle signatures, const std::filesystem::path& directory,
                         std::optional<int> threads, const py::object& progress, const py::object& on_table,
                         const std::optional<std::string>& metrics, bool force, std::optional<int> all,
                         const std::string& rules, int compression_level, const py::object& max_memory,
                         bool no_closure, const std::optional<std::filesystem::path>& full_directory) {
  if (in_generate_callback)
    throw std::runtime_error(
        "egtb.generate cannot be called from a progress or on_table callback of "
        "egtb.generate (it would wait for the locks of the tables being built)");
  api::GenerateRequest request;
  request.signatures = signature_texts(signatures);
  request.all = all;
  request.directory = directory;
  request.threads = threads_of(threads);
  request.rules = rules_of(rules);
  if (metrics) request.metrics = api::metrics_named(*metrics, "metrics");
  request.full_directory = full_directory;
  request.force = force;
  request.closure = !no_closure;
  request.compression_level = compression_level;
  request.max_memory = max_memory_of(max_memory);
  api::GenerateCallbacks callbacks;
  callbacks.progress = [&](const Material& m, const retro::Progress& p) {
    call_back(progress, api::to_json(m, p));
  };
  callbacks.waiting = [](const std::vector<Material>&) { call_back(py::none(), nullptr); };
  callbacks.on_table = [&](const retro::GenerateRecord& r) { call_back(on_table, api::to_json(r)); };
  std::vector<retro::GenerateRecord> records;
  {
    const py::gil_scoped_release release;
    records = api::generate(request, callbacks, api::OptionSpelling::Keyword);
  }
  py::list out;
  for (const retro::GenerateRecord& r : records) out.append(to_record(api::to_json(r)));
  return out;
}

py::list write_value_files(py::handle signatures, const std::filesystem::path& directory,
                           std::optional<int> all, const std::string& rules, uint64_t block_entries,
                           const py::object& on_table) {
  api::check_value_block_entries(block_entries, "block_entries");
  api::RecompressRequest request;
  request.directory = directory;
  request.rules = rules_of(rules);
  request.signatures = signature_texts(signatures);
  request.all = all;
  request.value_file_block_entries = static_cast<uint32_t>(block_entries);
  std::vector<api::RecompressedTable> written;
  {
    const py::gil_scoped_release release;
    written = api::recompress(request, {},
                              [&](const api::RecompressedTable& t) { call_back(on_table, api::to_json(t)); });
  }
  py::list out;
  for (const api::RecompressedTable& t : written) out.append(to_record(api::to_json(t)));
  return out;
}

py::list sample_positions(const std::filesystem::path& directory, size_t count, uint64_t seed,
                          const std::string& rules) {
  const std::unique_ptr<Tablebase> tb =
      api::open_tablebase(directory, {TablebaseOptions::DefaultCacheBytes, rules_of(rules)});
  std::vector<Position> positions;
  {
    const py::gil_scoped_release release;
    positions = api::random_positions(*tb, count, seed);
  }
  py::list out;
  for (const Position& pos : positions) out.append(py::str(to_fen(pos)));
  return out;
}

// Raises an instance of the package's exception class `name` built from `args` (the message, and
// the detail the class has: a table, a path).
template <class... Args>
void raise_package_error(const char* name, const Args&... args) {
  const py::object error = package_attr(name)(args...);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
}

void raise_probe_error(const ProbeError& e) {
  if (e.kind == ProbeError::Kind::Castling || e.kind == ProbeError::Kind::TooManyMen) {
    raise_package_error("OutsideTablesError", e.message);
    throw py::error_already_set();
  }
  api::raise(e);
}

void translate_errors(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const api::InputError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const api::MissingTableError& e) {
    raise_package_error("MissingTableError", e.what(), e.table());
  } catch (const StoreError& e) {
    raise_package_error("TableError", e.what(), e.path().string());
  }
}

// tb.probe_<field> and tb.get_<field>, with their docstrings.
template <const ScoreField& field>
void define_field(py::class_<PyTablebase>& c, const std::string& doc) {
  using namespace pybind11::literals;
  const std::string probe = std::string("probe_") + field.name;
  const std::string get = std::string("get_") + field.name;
  c.def(probe.c_str(), &probe_field<field>, "position"_a, (probe + "(self, position)\n--\n\n" + doc).c_str());
  c.def(get.c_str(), &get_field<field>, "position"_a, "default"_a = py::none(),
        (get + "(self, position, default=None)\n--\n\n" + probe + "(), or `default` when the tables cannot " +
         "answer (missing table, too many men, castling rights).")
            .c_str());
}

void define_tablebase(py::module_& m) {
  using namespace pybind11::literals;
  py::class_<PyTablebase> c(m, "Tablebase",
                            "Tablebase(directory, *, cache_mb=256, rules='lasker')\n--\n\n"
                            "Directories of tables; open with egtb.open_tablebase(directory).");
  // pybind11 lets Tablebase.__new__(Tablebase) make an instance whose C++ object was never
  // constructed, whose methods would read raw memory (pybind/pybind11#6153): __new__ builds the
  // whole object, and __init__ has nothing left to do.
  c.def_static(
      "__new__",
      [](const py::object&, const std::string& directory, double cache_mb, const std::string& rules) {
        return PyTablebase(directory, cache_mb, rules);
      },
      "cls"_a, "directory"_a, py::kw_only(), "cache_mb"_a = DefaultCacheMb, "rules"_a = "lasker",
      "__new__(cls, directory, *, cache_mb=256, rules='lasker')\n--\n\n");
  c.def(
      "__init__", [](const py::object&, const py::args&, const py::kwargs&) {},
      "__init__(self, *args, **kwargs)\n--\n\n");
  c.def("probe", &PyTablebase::probe, "position"_a,
        "probe(self, position)\n--\n\n"
        "The value, depths, every legal move and the optimal line of a position (a ProbeResult).");
  c.def("get", &PyTablebase::get, "position"_a, "default"_a = py::none(),
        "get(self, position, default=None)\n--\n\n"
        "probe(), or `default` when the tables cannot answer (missing table, too many men, castling "
        "rights).");
  define_field<LaskerField>(c, "The Lasker value 0-4 of the side to move (Lasker tables).");
  define_field<ValueField>(c,
                           "The value of the side to move under the rules: 0-4 under Lasker, 4 win, 2 "
                           "draw, 0 loss under the others.");
  define_field<DepthField>(c,
                           "The depth of the value in its rules' metric (DTM, DTS or DTE), None for a draw.");
  define_field<DtmField>(c,
                         "Plies to mate for values 4 and 0, else None (Lasker and stalemate-passes tables).");
  define_field<DtsField>(c, "Plies to stalemate for values 3 and 1, else None (Lasker tables).");
  define_field<DteField>(
      c, "Plies to the first mate or stalemate for values 4 and 0, else None (stalemate-wins tables).");
  c.def("probe_stalemate", &probe_stalemate, "position"_a,
        "probe_stalemate(self, position)\n--\n\n"
        "(lasker, dts) as a stalemate-only table holds it (egtb generate --metrics dts; a full table "
        "answers the same): (3, DTS) or (1, DTS), or (2, None) for 'not a stalemate win or loss' (a mate, "
        "a draw or a loss to mate). Beside Syzygy: a win is 4, a loss 0, a draw this call's value.");
  c.def("get_stalemate", &get_stalemate, "position"_a, "default"_a = py::none(),
        "get_stalemate(self, position, default=None)\n--\n\n"
        "probe_stalemate(), or `default` when the tables cannot answer (missing table, too many men, "
        "castling rights).");
  c.def("probe_value_file", &probe_value_file, "position"_a,
        "probe_value_file(self, position)\n--\n\n"
        "probe_value() from the value files alone (SIG.egv, written by egtb recompress --value-files): no "
        "depth is decoded, for probes in search. Each file is read whole into memory on its first "
        "probe; a missing one raises MissingTableError whether or not the table is there.");
  c.def("get_value_file", &get_value_file, "position"_a, "default"_a = py::none(),
        "get_value_file(self, position, default=None)\n--\n\n"
        "probe_value_file(), or `default` when the value files cannot answer (missing value file, too "
        "many men, castling rights).");
  c.def("add_directory", &PyTablebase::add_directory, "directory"_a,
        "add_directory(self, directory)\n--\n\n"
        "Probes search this directory too, after those already there: a table is read from the first "
        "directory that has it.");
  c.def(
      "tables",
      [](const PyTablebase& tb) {
        std::vector<std::string> names;
        for (const Material& t : api::available_tables(*tb.tables())) names.push_back(t.str());
        return names;
      },
      "tables(self)\n--\n\nThe canonical signatures of the tables in the directories.");
  c.def("close", &PyTablebase::close, "close(self)\n--\n\nCloses the tables; probes under way finish first.");
  c.def_property_readonly("closed", &PyTablebase::closed);
  c.def_property_readonly("directory", &PyTablebase::directory, "The first directory.");
  c.def_property_readonly("directories", &PyTablebase::directories,
                          "Every directory, in the order searched (add_directory).");
  c.def_property_readonly(
      "rules", [](const PyTablebase& tb) { return std::string(rules_name(tb.rules())); },
      "The rules of the tables read: lasker, stalemate-wins or stalemate-passes.");
  c.def(
      "__enter__", [](py::object self) { return self; }, "__enter__(self)\n--\n\n");
  c.def(
      "__exit__", [](PyTablebase& tb, py::args) { tb.close(); }, "__exit__(self, *args)\n--\n\n");
  c.def(
      "__repr__",
      [](const PyTablebase& tb) {
        const std::string rules =
            tb.rules() == Rules::Lasker ? "" : " rules=" + std::string(rules_name(tb.rules()));
        return "<egtb.Tablebase " + py::repr(py::str(tb.directory())).cast<std::string>() + rules +
               (tb.closed() ? " (closed)>" : ">");
      },
      "__repr__(self)\n--\n\n");
}

void define_functions(py::module_& m) {
  using namespace pybind11::literals;
  m.def(
      "open_tablebase",
      [](const std::filesystem::path& directory, double cache_mb, const std::string& rules) {
        return PyTablebase(directory, cache_mb, rules);
      },
      "directory"_a, py::kw_only(), "cache_mb"_a = DefaultCacheMb, "rules"_a = "lasker",
      "open_tablebase(directory, *, cache_mb=256, rules='lasker')\n--\n\n"
      "Opens a directory of tables of one rule set, with a cache of decoded blocks of cache_mb MiB; each "
      "table opens on the first probe that needs it.");
  m.def("generate", &generate_tables, "signatures"_a, "directory"_a, py::kw_only(), "threads"_a = py::none(),
        "progress"_a = py::none(), "on_table"_a = py::none(), "metrics"_a = py::none(), "force"_a = false,
        "all"_a = py::none(), "rules"_a = "lasker", "compression_level"_a = DefaultCompressionLevel,
        "max_memory"_a = py::none(), "no_closure"_a = false, "full_directory"_a = py::none(),
        "generate(signatures, directory, *, threads=None, progress=None, on_table=None, metrics=None, "
        "force=False, all=None, rules='lasker', compression_level=3, max_memory=None, no_closure=False, "
        "full_directory=None)\n--\n\n"
        "Builds tables after every table they depend on; a record per table. metrics='dts' writes "
        "stalemate-only tables from the full ones in full_directory (built there when missing).");
  m.def("write_value_files", &write_value_files, "signatures"_a, "directory"_a, py::kw_only(),
        "all"_a = py::none(), "rules"_a = "lasker", "block_entries"_a = DefaultValueBlockEntries,
        "on_table"_a = py::none(),
        "write_value_files(signatures, directory, *, all=None, rules='lasker', block_entries=1024, "
        "on_table=None)\n--\n\n"
        "Writes the value file of each table named (SIG.egv beside SIG.egtb, as egtb recompress "
        "--value-files), leaving the tables as they are; a record per table.");
  m.def(
      "stats", &table_stats, "signatures"_a, "directory"_a, py::kw_only(), "convention"_a = "index462",
      "threads"_a = py::none(), "all"_a = py::none(), "rules"_a = "lasker",
      "stats(signatures, directory, *, convention='index462', threads=None, all=None, rules='lasker')\n--\n\n"
      "The statistics of tables, a record per table.");
  m.def("query", &run_query, "signatures"_a, "query"_a, "directory"_a, py::kw_only(), "limit"_a = py::none(),
        "convention"_a = "index462", "threads"_a = py::none(), "rules"_a = "lasker", "all"_a = py::none(),
        "query(signatures, query, directory, *, limit=None, convention='index462', threads=None, "
        "rules='lasker', all=None)\n--\n\n"
        "An iterator over the positions that match a CQL query.");
  m.def("count", &count_query, "signatures"_a, "query"_a, "directory"_a, py::kw_only(),
        "convention"_a = "index462", "threads"_a = py::none(), "rules"_a = "lasker", "all"_a = py::none(),
        "count(signatures, query, directory, *, convention='index462', threads=None, rules='lasker', "
        "all=None)\n--\n\n"
        "The number of positions that match a CQL query, per table.");
  m.def("random_positions", &sample_positions, "directory"_a, "count"_a, py::kw_only(), "seed"_a = 1,
        "rules"_a = "lasker",
        "random_positions(directory, count, *, seed=1, rules='lasker')\n--\n\n"
        "FENs of random legal positions of the tables in a directory (the positions of egtb bench probe).");
}

// The module's contents.
void define_module(py::module_& m) {
  py::options options;
  options.disable_function_signatures();  // the docstrings carry them (see the top of this file)
  m.doc() = "The C++ extension of the egtb package (see help(egtb)).";
  m.attr("__version__") = EGTB_VERSION;
  m.attr("MATED") = to_index(Lasker::Mated);
  m.attr("STALEMATED") = to_index(Lasker::Stalemated);
  m.attr("DRAW") = to_index(Lasker::Draw);
  m.attr("STALEMATES") = to_index(Lasker::Stalemates);
  m.attr("MATES") = to_index(Lasker::Mates);
  m.attr("WIN") = to_index(Lasker::Mates);  // the values of the other rules
  m.attr("LOSS") = to_index(Lasker::Mated);
  py::list rules;
  for (Rules r : AllRules) rules.append(py::str(std::string(rules_name(r))));
  m.attr("RULES") = py::tuple(rules);
  py::register_exception_translator(&translate_errors);
  define_tablebase(m);
  py::class_<PyQueryIterator>(m, "QueryIterator", "The matches of egtb.query(), one record each.")
      .def_static(
          "__new__",
          [](const py::args&) -> py::object {
            throw py::type_error("egtb.QueryIterator cannot be made directly: call egtb.query()");
          },
          "__new__(*args)\n--\n\n")
      .def(
          "__iter__", [](py::object self) { return self; }, "__iter__(self)\n--\n\n")
      .def("__next__", &PyQueryIterator::next, "__next__(self)\n--\n\n")
      .def_property_readonly("summary", &PyQueryIterator::summary,
                             "The counts of the scan once every match was read (else None).");
  define_functions(m);
}

}  // namespace

}  // namespace egtb::python

PYBIND11_MODULE(_egtb, m) { egtb::python::define_module(m); }
