#include "retro/gaviota.hpp"

#include <gtb-probe.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "egtb/core/fen.hpp"
#include "egtb/store/error.hpp"

namespace egtb::retro {

using indexing::Index;

namespace {

// Entries per parallel task of the comparison.
constexpr Index GaviotaGrain = 1024;
constexpr size_t CacheBytes = size_t{32} << 20;

// Gaviota's globals allow one session at a time.
std::mutex& session_mutex() {
  static std::mutex m;
  return m;
}

// tb_probe_hard is not safe to call from two threads at once, its internal lock
// notwithstanding: on 2 threads it gave wrong DTMs for about 100 KPkp positions (e.g.
// 8/8/7P/4p3/3K4/8/4k3/8 w, White mates in 17 plies, came back as 13).
std::mutex& probe_mutex() {
  static std::mutex m;
  return m;
}

unsigned char gaviota_piece(PieceType pt) {
  switch (pt) {
    case PieceType::Pawn: return tb_PAWN;
    case PieceType::Knight: return tb_KNIGHT;
    case PieceType::Bishop: return tb_BISHOP;
    case PieceType::Rook: return tb_ROOK;
    case PieceType::Queen: return tb_QUEEN;
    case PieceType::King: return tb_KING;
    case PieceType::None: break;
  }
  return tb_NOPIECE;
}

// One side's men as Gaviota lists them: the king first, closed by tb_NOSQUARE / tb_NOPIECE.
struct GaviotaSide {
  std::array<unsigned, 8> squares{};
  std::array<unsigned char, 8> pieces{};

  GaviotaSide(const Position& pos, Color c) {
    size_t n = 0;
    const auto add = [&](Square s) {
      squares[n] = static_cast<unsigned>(to_index(s));
      pieces[n++] = gaviota_piece(type_of(pos.piece_on(s)));
    };
    add(pos.king_square(c));
    Bitboard men = pos.pieces(c) & ~pos.pieces(PieceType::King);
    while (men) add(pop_lsb(men));
    squares[n] = tb_NOSQUARE;
    pieces[n] = tb_NOPIECE;
  }
};

// Gaviota's raw verdict on one position: tb_DRAW, tb_WMATE or tb_BMATE with the DTM, or false.
bool probe_hard(const Position& pos, unsigned& info, unsigned& plies) {
  const GaviotaSide white(pos, Color::White);
  const GaviotaSide black(pos, Color::Black);
  const unsigned stm = pos.side_to_move() == Color::White ? tb_WHITE_TO_MOVE : tb_BLACK_TO_MOVE;
  const unsigned ep = pos.ep_square() == Square::None ? unsigned{tb_NOSQUARE}
                                                      : static_cast<unsigned>(to_index(pos.ep_square()));
  const std::lock_guard lock(probe_mutex());
  return tb_probe_hard(stm, ep, tb_NOCASTLE, white.squares.data(), black.squares.data(), white.pieces.data(),
                       black.pieces.data(), &info, &plies) != 0;
}

// Which of Gaviota's answers a score is: 0 draw, 1 White mates, 2 Black mates.
size_t gaviota_result(const Position& pos, Score gaviota) {
  if (gaviota.value() == Lasker::Draw) return 0;
  const bool white_mates = (gaviota.value() == Lasker::Mates) == (pos.side_to_move() == Color::White);
  return white_mates ? 1 : 2;
}

struct LocalCounts {
  uint64_t positions = 0;
  std::array<uint64_t, 3> results{};
};

void compare_entry(const Table& table, const GaviotaProber& gaviota, Color c, Index i, Position& pos,
                   LocalCounts& counts, VerifyErrorLog& log) {
  if (!table.scheme().decode(i, c, pos)) return;
  ++counts.positions;
  const std::optional<Score> theirs = gaviota.probe(pos);
  if (theirs) ++counts.results[gaviota_result(pos, *theirs)];
  const Score ours = table.at(c, i);
  std::string problem = gaviota_disagreement(ours, theirs);
  if (problem.empty()) return;
  const Score expected = theirs && is_mate_value(theirs->value()) ? *theirs : Score::unknown();
  log.add({c, i, to_fen(pos), ours, expected, std::move(problem)});
}

}  // namespace

// tb_init ... tb_done around one session, with the directory as the only path; holds the session
// lock for its lifetime.
class GaviotaSession {
public:
  explicit GaviotaSession(const std::filesystem::path& dir) : lock_(session_mutex()) {
    paths_ = tbpaths_add(tbpaths_init(), dir.c_str());
    tb_init(0, tb_CP4, paths_);
    if (!tb_is_initialized()) {
      tbpaths_done(paths_);
      throw std::runtime_error("Gaviota probing could not be initialised for " + dir.string());
    }
    tbcache_init(CacheBytes, 0);
    tbstats_reset();
  }
  ~GaviotaSession() {
    tbcache_done();
    tb_done();
    tbpaths_done(paths_);
  }
  GaviotaSession(const GaviotaSession&) = delete;
  GaviotaSession& operator=(const GaviotaSession&) = delete;

private:
  std::lock_guard<std::mutex> lock_;
  const char** paths_ = nullptr;
};

GaviotaProber::GaviotaProber(const std::filesystem::path& gaviota_dir)
    : session_(std::make_unique<GaviotaSession>(gaviota_dir)) {}

GaviotaProber::~GaviotaProber() = default;

std::optional<Score> GaviotaProber::probe(const Position& pos) const {
  unsigned info = tb_UNKNOWN, plies = 0;
  if (!probe_hard(pos, info, plies)) return std::nullopt;
  if (info == tb_DRAW) return Score::draw();
  if (info != tb_WMATE && info != tb_BMATE) return std::nullopt;
  const bool stm_mates = (info == tb_WMATE) == (pos.side_to_move() == Color::White);
  return Score(stm_mates ? Lasker::Mates : Lasker::Mated, static_cast<int>(plies));
}

std::string gaviota_disagreement(Score ours, const std::optional<Score>& gaviota) {
  if (!gaviota) return "Gaviota has no value for the position";
  const bool agree =
      gaviota->value() == Lasker::Draw ? ours.is_valid() && !is_mate_value(ours.value()) : ours == *gaviota;
  return agree ? std::string() : "stored " + describe(ours) + ", Gaviota: " + describe(*gaviota);
}

std::filesystem::path gaviota_file(const std::filesystem::path& gaviota_dir, const Material& material) {
  std::string name = material.normalized().str();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](char ch) { return static_cast<char>(std::tolower(ch)); });
  return gaviota_dir / (name + ".gtb.cp4");
}

GaviotaReport compare_with_gaviota(const Table& table, const std::filesystem::path& gaviota_dir,
                                   const VerifyOptions& options) {
  const Material& material = table.material();
  if (material.men() > 4)
    throw std::invalid_argument("Gaviota tables have at most 4 men, not " + material.str());
  const auto file = gaviota_file(gaviota_dir, material);
  if (!std::filesystem::is_regular_file(file)) throw IoError(file, "no Gaviota table for " + material.str());
  const GaviotaProber gaviota(gaviota_dir);
  VerifyErrorLog log(options.max_errors);
  tbb::enumerable_thread_specific<LocalCounts> local;
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  arena.execute([&] {
    for (Color c : {Color::White, Color::Black})
      tbb::parallel_for(tbb::blocked_range<Index>(0, table.size(), GaviotaGrain),
                        [&](const tbb::blocked_range<Index>& r) {
                          Position pos;
                          for (Index i = r.begin(); i != r.end(); ++i)
                            compare_entry(table, gaviota, c, i, pos, local.local(), log);
                        });
  });
  GaviotaReport report;
  report.material = material;
  for (const LocalCounts& part : local) {
    report.positions_checked += part.positions;
    for (size_t k = 0; k < part.results.size(); ++k) report.gaviota_results[k] += part.results[k];
  }
  report.error_count = log.count();
  report.errors = log.take();
  return report;
}

GaviotaReport compare_with_gaviota(const Table& table, const std::filesystem::path& gaviota_dir,
                                   int threads) {
  VerifyOptions options;
  options.threads = threads;
  return compare_with_gaviota(table, gaviota_dir, options);
}

std::string format_report(const GaviotaReport& report) {
  std::ostringstream out;
  out << report.material.str() << " v Gaviota: " << report.positions_checked << " positions (Gaviota draws "
      << report.gaviota_results[0] << ", White mates " << report.gaviota_results[1] << ", Black mates "
      << report.gaviota_results[2] << "), " << report.error_count << " mismatches\n";
  for (const VerifyError& e : report.errors)
    out << "  " << (e.side_to_move == Color::White ? "wtm" : "btm") << " entry " << e.index << ' ' << e.fen
        << ": " << e.problem << '\n';
  return out.str();
}

}  // namespace egtb::retro
