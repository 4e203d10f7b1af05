// libegtb: the C library for engines (capi/egtb.h), a thin adapter over the application layer.
// Each entry point turns its C arguments into a Position (api/position_input.hpp), asks the
// Tablebase or api, and writes plain structs back. Every exception stops at this boundary: it
// becomes a status code and a thread-local message (egtb_last_error).
#include "capi/egtb.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>

#include "api/errors.hpp"
#include "api/position_input.hpp"
#include "api/probe.hpp"
#include "api/signatures.hpp"
#include "egtb/core/notation.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/line.hpp"

struct egtb_tablebase {
  std::unique_ptr<egtb::Tablebase> tables;
  std::atomic<int> max_men = 0;  // of every directory; egtb_add_directory may raise it under probes
};

namespace {

using namespace egtb;

static_assert(EGTB_PAWN == to_index(PieceType::Pawn) && EGTB_QUEEN == to_index(PieceType::Queen) &&
              EGTB_KING == to_index(PieceType::King));
static_assert(EGTB_MATED == to_index(Lasker::Mated) && EGTB_MATES == to_index(Lasker::Mates));

thread_local std::string last_error;

// Records the message of a failed call and marks *result failed; returns the status.
int fail(egtb_result* result, int status, const char* message) noexcept {
  try {
    last_error = message;
  } catch (...) {
    last_error.clear();
  }
  if (result) *result = {status, -1, -1, -1};
  return status;
}

int fail(egtb_result* result, int status, const std::string& message) noexcept {
  return fail(result, status, message.c_str());
}

int status_of(ProbeError::Kind kind) {
  switch (kind) {
    case ProbeError::Kind::MissingTable:
    case ProbeError::Kind::MissingMetric: return EGTB_MISSING_TABLE;
    case ProbeError::Kind::TooManyMen: return EGTB_TOO_MANY_MEN;
    case ProbeError::Kind::Castling: return EGTB_CASTLING;
    case ProbeError::Kind::InvalidPosition: return EGTB_INVALID_POSITION;
    case ProbeError::Kind::Inconsistent: return EGTB_TABLE_ERROR;
  }
  return EGTB_INTERNAL_ERROR;
}

int fail(egtb_result* result, const ProbeError& e) noexcept {
  return fail(result, status_of(e.kind), e.message);
}

// Runs `body` (which returns a status), turning every exception into a status and a message.
template <class Body>
int guarded(egtb_result* result, Body&& body) noexcept {
  try {
    return body();
  } catch (const api::InputError& e) {
    return fail(result, EGTB_INVALID_POSITION, e.what());
  } catch (const api::MissingTableError& e) {
    return fail(result, EGTB_MISSING_TABLE, e.what());
  } catch (const StoreError& e) {
    return fail(result, EGTB_TABLE_ERROR, e.what());
  } catch (const std::bad_alloc&) {
    return fail(result, EGTB_INTERNAL_ERROR, "out of memory");
  } catch (const std::exception& e) {
    return fail(result, EGTB_INTERNAL_ERROR, e.what());
  } catch (...) {
    return fail(result, EGTB_INTERNAL_ERROR, "unknown error");
  }
}

static_assert(EGTB_RULES_LASKER == rules_id(Rules::Lasker) &&
              EGTB_RULES_STALEMATE_WINS == rules_id(Rules::StalemateWins) &&
              EGTB_RULES_STALEMATE_PASSES == rules_id(Rules::StalematePasses));
static_assert(EGTB_METRIC_DTM == to_index(Metric::Dtm) && EGTB_METRIC_DTE == to_index(Metric::Dte));

// The metric of the `dtm` fields: DTM, or the one metric of rules without DTM (DTE).
Metric win_metric(Rules rules) { return metric_of(rules, Lasker::Mates); }

void fill(egtb_result& result, Rules rules, Score s) {
  result = {EGTB_OK, to_index(s.value()), depth_in(rules, s, win_metric(rules)).value_or(-1),
            depth_in(rules, s, Metric::Dts).value_or(-1)};
}

void fill(egtb_root_move& out, Rules rules, const MoveValue& m) {
  out.from = to_index(m.move.from());
  out.to = to_index(m.move.to());
  out.promotion = m.move.kind() == MoveKind::Promotion ? to_index(m.move.promotion()) : EGTB_NO_PIECE;
  const std::string uci = to_uci(m.move);
  std::memset(out.uci, 0, sizeof out.uci);
  std::memcpy(out.uci, uci.data(), std::min(uci.size(), sizeof out.uci - 1));
  out.lasker = to_index(m.value());
  out.dtm = api::mover_depth(rules, m, win_metric(rules)).value_or(-1);
  out.dts = api::mover_depth(rules, m, Metric::Dts).value_or(-1);
}

// The position of the C arguments, or a status after fail().
struct PositionArgument {
  Position position;
  int status = EGTB_OK;
};

PositionArgument from_sets(egtb_result* result, const api::BoardSets& sets) {
  auto pos = api::position_from_sets(sets);
  if (!pos) return {{}, fail(result, EGTB_INVALID_POSITION, "bitboards: " + pos.error())};
  return {*pos, EGTB_OK};
}

PositionArgument from_bitboards(egtb_result* result, const uint64_t sets[8], unsigned ep_square,
                                int white_to_move) {
  if (ep_square >= SquareCount) return {{}, fail(result, EGTB_BAD_ARGUMENT, "ep_square must be 0 to 63")};
  const api::BoardSets board{sets[0],
                             sets[1],
                             sets[2],
                             sets[3],
                             sets[4],
                             sets[5],
                             sets[6],
                             sets[7],
                             ep_square == 0 ? Square::None : square_at(static_cast<int>(ep_square)),
                             white_to_move ? Color::White : Color::Black};
  return from_sets(result, board);
}

PositionArgument from_fen(egtb_result* result, const char* fen) {
  if (!fen) return {{}, fail(result, EGTB_BAD_ARGUMENT, "fen is NULL")};
  return {api::parse_position(fen), EGTB_OK};
}

int probe(const egtb_tablebase* tb, const PositionArgument& arg, egtb_result* result) {
  if (arg.status != EGTB_OK) return arg.status;
  const auto score = tb->tables->probe(arg.position);
  if (!score) return fail(result, score.error());
  fill(*result, tb->tables->rules(), *score);
  return EGTB_OK;
}

// egtb_probe_stalemate: the score as a stalemate-only table holds it (Tablebase::probe_stalemate).
int probe_stalemate(const egtb_tablebase* tb, const PositionArgument& arg, egtb_result* result) {
  if (arg.status != EGTB_OK) return arg.status;
  const auto score = tb->tables->probe_stalemate(arg.position);
  if (!score) return fail(result, score.error());
  fill(*result, tb->tables->rules(), *score);
  return EGTB_OK;
}

// egtb_probe_value: the value from the value files (Tablebase::probe_value), no depth.
int probe_value(const egtb_tablebase* tb, const PositionArgument& arg, egtb_result* result) {
  if (arg.status != EGTB_OK) return arg.status;
  const auto value = tb->tables->probe_value(arg.position);
  if (!value) return fail(result, value.error());
  *result = {EGTB_OK, to_index(*value), -1, -1};
  return EGTB_OK;
}

// The plies of the 50-move rule: a game may be drawn once this many pass without a capture or
// a pawn move.
constexpr unsigned Rule50Plies = 100;

// egtb_probe_game: the probe, failed with EGTB_RULE50 when the value is a mate or stalemate that
// may not come before the 50-move counter reaches 100 plies.
int probe_game(const egtb_tablebase* tb, const PositionArgument& arg, unsigned rule50, egtb_result* result) {
  if (const int status = probe(tb, arg, result); status != EGTB_OK) return status;
  const int depth = std::max(result->dtm, result->dts);  // the value's metric; -1 for a draw
  if (depth <= 0 || rule50 <= Rule50Plies - std::min(static_cast<unsigned>(depth), Rule50Plies))
    return EGTB_OK;
  return fail(result, EGTB_RULE50,
              "the 50-move counter " + std::to_string(rule50) + " plus the depth " + std::to_string(depth) +
                  " exceeds 100 plies: under the 50-move rule the value may not hold");
}

// The 16-bit form of a move (egtb_move in egtb.h).
egtb_move packed(Move m) {
  if (m.is_null()) return 0;  // a pass
  const int promotion = m.kind() == MoveKind::Promotion ? to_index(m.promotion()) : EGTB_NO_PIECE;
  return static_cast<egtb_move>(to_index(m.to()) | to_index(m.from()) << 6 | promotion << 12);
}

int probe_pv(const egtb_tablebase* tb, const PositionArgument& arg, egtb_result* result, egtb_move* pv,
             size_t capacity, size_t* length) {
  if (!length || (capacity > 0 && !pv)) return fail(result, EGTB_BAD_ARGUMENT, "pv or length is NULL");
  *length = 0;
  if (const int status = probe(tb, arg, result); status != EGTB_OK) return status;
  const auto line = optimal_line(*tb->tables, arg.position);
  if (!line) return fail(result, line.error());
  *length = line->size();
  for (size_t i = 0; i < std::min(capacity, line->size()); ++i) pv[i] = packed((*line)[i]);
  return EGTB_OK;
}

int probe_root(const egtb_tablebase* tb, const PositionArgument& arg, egtb_result* result,
               egtb_root_move* moves, size_t capacity, size_t* count) {
  if (!count || (capacity > 0 && !moves)) return fail(result, EGTB_BAD_ARGUMENT, "moves or count is NULL");
  *count = 0;
  if (const int status = probe(tb, arg, result); status != EGTB_OK) return status;
  const auto values = move_values(*tb->tables, arg.position);
  if (!values) return fail(result, values.error());
  if (values->size() > capacity)
    return fail(result, EGTB_BAD_ARGUMENT,
                "the position has " + std::to_string(values->size()) +
                    " legal moves, more than the capacity " + std::to_string(capacity));
  for (const MoveValue& m : *values) fill(moves[(*count)++], tb->tables->rules(), m);
  return EGTB_OK;
}

// The most men of any table present (egtb_max_men).
int largest_table(const Tablebase& tables) {
  int men = 0;
  for (const Material& m : api::available_tables(tables)) men = std::max(men, m.men());
  return men;
}

bool bad_arguments(const egtb_tablebase* tb, egtb_result* result) {
  if (tb && result) return false;
  fail(result, EGTB_BAD_ARGUMENT, "tb or result is NULL");
  return true;
}

void copy_message(char* buffer, size_t size, const char* message) {
  if (!buffer || size == 0) return;
  const size_t n = std::min(std::strlen(message), size - 1);
  std::memcpy(buffer, message, n);
  buffer[n] = '\0';
}

}  // namespace

extern "C" {

const char* egtb_version(void) { return EGTB_VERSION; }

egtb_tablebase* egtb_open(const char* directory, size_t cache_mb, char* errbuf, size_t errlen) {
  return egtb_open_rules(directory, EGTB_RULES_LASKER, cache_mb, errbuf, errlen);
}

egtb_tablebase* egtb_open_rules(const char* directory, int rules, size_t cache_mb, char* errbuf,
                                size_t errlen) {
  copy_message(errbuf, errlen, "");
  egtb_tablebase* opened = nullptr;
  const int status = guarded(nullptr, [&]() -> int {
    if (!directory) return fail(nullptr, EGTB_BAD_ARGUMENT, "directory is NULL");
    const std::optional<Rules> r = rules < 0 ? std::nullopt : rules_from_id(static_cast<uint32_t>(rules));
    if (!r)
      return fail(
          nullptr, EGTB_BAD_ARGUMENT,
          "rules must be EGTB_RULES_LASKER, EGTB_RULES_STALEMATE_WINS or EGTB_RULES_STALEMATE_PASSES, "
          "not " +
              std::to_string(rules));
    TablebaseOptions options;
    options.rules = *r;
    if (cache_mb > 0) options.cache_bytes = cache_mb << 20;
    auto tb = std::make_unique<egtb_tablebase>();
    tb->tables = api::open_tablebase(directory, options);
    tb->max_men = largest_table(*tb->tables);
    opened = tb.release();
    return EGTB_OK;
  });
  if (status != EGTB_OK) copy_message(errbuf, errlen, last_error.c_str());
  return opened;
}

int egtb_rules(const egtb_tablebase* tb) {
  return static_cast<int>(rules_id(tb ? tb->tables->rules() : Rules::Lasker));
}

const char* egtb_rules_name(int rules) {
  const std::optional<Rules> r = rules < 0 ? std::nullopt : rules_from_id(static_cast<uint32_t>(rules));
  return r ? rules_name(*r).data() : nullptr;
}

int egtb_depth_metric(const egtb_tablebase* tb) {
  return static_cast<int>(to_index(win_metric(tb ? tb->tables->rules() : Rules::Lasker)));
}

int egtb_add_directory(egtb_tablebase* tb, const char* directory) {
  return guarded(nullptr, [&]() -> int {
    if (!tb || !directory) return fail(nullptr, EGTB_BAD_ARGUMENT, "tb or directory is NULL");
    try {
      api::add_directory(*tb->tables, directory);
    } catch (const api::InputError& e) {
      return fail(nullptr, EGTB_BAD_ARGUMENT, e.what());
    }
    const int men = largest_table(*tb->tables);
    int seen = tb->max_men;
    while (seen < men && !tb->max_men.compare_exchange_weak(seen, men)) {
    }
    return EGTB_OK;
  });
}

void egtb_close(egtb_tablebase* tb) { delete tb; }

int egtb_max_men(const egtb_tablebase* tb) { return tb ? tb->max_men.load() : 0; }

int egtb_probe(const egtb_tablebase* tb, uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
               uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned ep_square,
               int white_to_move, egtb_result* result) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  const uint64_t sets[8] = {white, black, kings, queens, rooks, bishops, knights, pawns};
  return guarded(result,
                 [&] { return probe(tb, from_bitboards(result, sets, ep_square, white_to_move), result); });
}

int egtb_probe_fen(const egtb_tablebase* tb, const char* fen, egtb_result* result) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  return guarded(result, [&] { return probe(tb, from_fen(result, fen), result); });
}

int egtb_probe_stalemate(const egtb_tablebase* tb, uint64_t white, uint64_t black, uint64_t kings,
                         uint64_t queens, uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns,
                         unsigned ep_square, int white_to_move, egtb_result* result) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  const uint64_t sets[8] = {white, black, kings, queens, rooks, bishops, knights, pawns};
  return guarded(result, [&] {
    return probe_stalemate(tb, from_bitboards(result, sets, ep_square, white_to_move), result);
  });
}

int egtb_probe_stalemate_fen(const egtb_tablebase* tb, const char* fen, egtb_result* result) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  return guarded(result, [&] { return probe_stalemate(tb, from_fen(result, fen), result); });
}

int egtb_probe_value(const egtb_tablebase* tb, uint64_t white, uint64_t black, uint64_t kings,
                     uint64_t queens, uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns,
                     unsigned ep_square, int white_to_move, egtb_result* result) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  const uint64_t sets[8] = {white, black, kings, queens, rooks, bishops, knights, pawns};
  return guarded(result, [&] {
    return probe_value(tb, from_bitboards(result, sets, ep_square, white_to_move), result);
  });
}

int egtb_probe_value_fen(const egtb_tablebase* tb, const char* fen, egtb_result* result) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  return guarded(result, [&] { return probe_value(tb, from_fen(result, fen), result); });
}

int egtb_probe_game(const egtb_tablebase* tb, uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                    uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned rule50,
                    unsigned castling, unsigned ep_square, int white_to_move, egtb_result* result) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  if (castling != 0)
    return fail(result, EGTB_CASTLING,
                "the position has castling rights; tables hold positions without them");
  const uint64_t sets[8] = {white, black, kings, queens, rooks, bishops, knights, pawns};
  return guarded(result, [&] {
    return probe_game(tb, from_bitboards(result, sets, ep_square, white_to_move), rule50, result);
  });
}

int egtb_probe_pv(const egtb_tablebase* tb, uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                  uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned ep_square,
                  int white_to_move, egtb_result* result, egtb_move* pv, size_t capacity, size_t* length) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  const uint64_t sets[8] = {white, black, kings, queens, rooks, bishops, knights, pawns};
  return guarded(result, [&] {
    return probe_pv(tb, from_bitboards(result, sets, ep_square, white_to_move), result, pv, capacity, length);
  });
}

int egtb_probe_pv_fen(const egtb_tablebase* tb, const char* fen, egtb_result* result, egtb_move* pv,
                      size_t capacity, size_t* length) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  return guarded(result, [&] { return probe_pv(tb, from_fen(result, fen), result, pv, capacity, length); });
}

int egtb_probe_root(const egtb_tablebase* tb, uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                    uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned ep_square,
                    int white_to_move, egtb_result* result, egtb_root_move* moves, size_t capacity,
                    size_t* count) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  const uint64_t sets[8] = {white, black, kings, queens, rooks, bishops, knights, pawns};
  return guarded(result, [&] {
    return probe_root(tb, from_bitboards(result, sets, ep_square, white_to_move), result, moves, capacity,
                      count);
  });
}

int egtb_probe_root_fen(const egtb_tablebase* tb, const char* fen, egtb_result* result, egtb_root_move* moves,
                        size_t capacity, size_t* count) {
  if (bad_arguments(tb, result)) return EGTB_BAD_ARGUMENT;
  return guarded(result,
                 [&] { return probe_root(tb, from_fen(result, fen), result, moves, capacity, count); });
}

const char* egtb_status_name(int status) {
  switch (status) {
    case EGTB_OK: return "ok";
    case EGTB_MISSING_TABLE: return "missing table";
    case EGTB_TOO_MANY_MEN: return "too many men";
    case EGTB_CASTLING: return "castling rights";
    case EGTB_INVALID_POSITION: return "invalid position";
    case EGTB_TABLE_ERROR: return "table error";
    case EGTB_BAD_ARGUMENT: return "bad argument";
    case EGTB_INTERNAL_ERROR: return "internal error";
    case EGTB_RULE50: return "50-move rule";
    default: return "unknown status";
  }
}

const char* egtb_last_error(void) { return last_error.c_str(); }

}  // extern "C"
