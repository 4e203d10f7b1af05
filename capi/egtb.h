/*
 * egtb.h: probing Lasker-chess endgame tables from C or C++ (libegtb), for chess engines.
 *
 * Shaped like the Fathom API engines use for Syzygy tables: positions go in as bitboards, the
 * result comes back in a small struct, nothing is allocated per probe and no FEN is parsed on the
 * hot path. Tables are built by the egtb command (`egtb generate --all 5 --dir DIR`).
 *
 *   char err[256];
 *   egtb_tablebase *tb = egtb_open("tables", 256, err, sizeof err);
 *   if (!tb) { fprintf(stderr, "%s\n", err); return; }
 *   egtb_result r;
 *   if (egtb_probe(tb, white, black, kings, queens, rooks, bishops, knights, pawns,
 *                  ep_square, white_to_move, &r) == EGTB_OK)
 *     ... r.lasker, r.dtm, r.dts ...
 *   egtb_close(tb);
 *
 * Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63; bit i of a bitboard is square i. Values are
 * from the side to move (Lasker chess): 4 forces mate, 3 forces stalemate of the opponent, 2 draw,
 * 1 is stalemated, 0 is mated. Depths are plies: DTM for values 4 and 0 (odd when winning, even
 * when losing, 0 for a checkmated side to move), DTS for 3 and 1; -1 where the value has none.
 * Tables hold positions without castling rights and count no 50-move rule (egtb_probe_game says
 * when a game's castling rights or 50-move counter make its position not probeable).
 *
 * Several directories: egtb_add_directory adds one to a tablebase; a table is read from the first
 * directory, in the order given, that has its file.
 *
 * The principal variation: egtb_probe_pv fills an array of 16-bit moves (egtb_move) with the
 * optimal line to the mate or stalemate the position's value promises.
 *
 * Other rule sets: egtb_open_rules opens the tables of stalemate-wins (a stalemate loses like
 * mate) or stalemate-passes (a stalemated side passes) instead, built by `egtb generate --rules`.
 * Their values are EGTB_WIN 4, EGTB_DRAW 2 and EGTB_LOSS 0 in the `lasker` fields, and their
 * depth, in the `dtm` fields, is the rules' metric: under stalemate-passes DTM (plies to mate,
 * passes counted), under stalemate-wins DTE (plies to the first mate or stalemate, both of which
 * end the game there); `dts` is always -1 (egtb_depth_metric names the metric).
 *
 * Threads: every probe function may be called from any number of threads at once on one
 * tablebase; egtb_close must not run while another thread probes it. Tables open on the first
 * probe that needs them and decoded blocks are cached (cache_mb of egtb_open), so the first probes
 * of a table are slower. No C++ exception leaves the library: each function returns a status.
 *
 * Versions: EGTB_VERSION_* name the header's version, egtb_version() the library's; the shared
 * library's symbols carry the version node EGTB_0 (its soname is libegtb.so.0).
 */
#ifndef EGTB_H
#define EGTB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EGTB_VERSION_MAJOR 0
#define EGTB_VERSION_MINOR 1
#define EGTB_VERSION_PATCH 0

/* The most legal moves a chess position has is 218; a root-move array of this size always fits. */
#define EGTB_MAX_MOVES 256

/* Lasker values, from the side to move. */
enum egtb_value {
  EGTB_MATED = 0,      /* will be checkmated */
  EGTB_STALEMATED = 1, /* will be stalemated, cannot do better */
  EGTB_DRAW = 2,
  EGTB_STALEMATES = 3, /* forces stalemate of the opponent, cannot force mate */
  EGTB_MATES = 4       /* forces checkmate */
};

/* Defined by headers that have egtb_open_rules and the rest of the rule sets' API. */
#define EGTB_HAVE_RULES 1
/* Defined by headers that have egtb_add_directory, egtb_probe_game and egtb_probe_pv. */
#define EGTB_HAVE_ENGINE_PROBES 1
/* Defined by headers that have egtb_probe_stalemate (stalemate-only tables beside Syzygy's). */
#define EGTB_HAVE_STALEMATE_PROBE 1
/* Defined by headers that have egtb_probe_value (value files, for probes in search). */
#define EGTB_HAVE_VALUE_PROBE 1

/* The values of the other rule sets (egtb_open_rules), from the side to move. */
enum egtb_rules_value { EGTB_LOSS = 0, EGTB_WIN = 4 /* and EGTB_DRAW, 2 */ };

/* The rule sets (egtb_open_rules), as `egtb generate --rules` names them. */
enum egtb_rules {
  EGTB_RULES_LASKER = 0,          /* "lasker": stalemating the opponent is a lesser win */
  EGTB_RULES_STALEMATE_WINS = 1,  /* "stalemate-wins": a stalemated side loses, as if mated */
  EGTB_RULES_STALEMATE_PASSES = 2 /* "stalemate-passes": a stalemated side passes (UCI "0000") */
};

/* What the depth in the dtm fields counts (egtb_depth_metric). */
enum egtb_metric {
  EGTB_METRIC_DTM = 0, /* plies to mate */
  EGTB_METRIC_DTE = 2  /* plies to the first mate or stalemate (stalemate-wins) */
};

/* What a call returns: EGTB_OK, or why it failed (egtb_last_error() has the message). */
enum egtb_status {
  EGTB_OK = 0,
  EGTB_MISSING_TABLE = 1,    /* the table of the position's material is not in the directory */
  EGTB_TOO_MANY_MEN = 2,     /* more men than any table holds */
  EGTB_CASTLING = 3,         /* castling rights (egtb_probe_fen): tables hold none */
  EGTB_INVALID_POSITION = 4, /* not a legal position, inconsistent bitboards or a bad FEN */
  EGTB_TABLE_ERROR = 5,      /* a damaged or unreadable table file, or tables that contradict */
  EGTB_BAD_ARGUMENT = 6,     /* a null pointer, too small an array, a bad number, not a directory */
  EGTB_INTERNAL_ERROR = 7,   /* out of memory, or a bug */
  EGTB_RULE50 = 8            /* egtb_probe_game: the 50-move rule may change the value */
};

/* Piece types, as in egtb_root_move.promotion. */
enum egtb_piece {
  EGTB_NO_PIECE = 0,
  EGTB_PAWN = 1,
  EGTB_KNIGHT = 2,
  EGTB_BISHOP = 3,
  EGTB_ROOK = 4,
  EGTB_QUEEN = 5,
  EGTB_KING = 6
};

/* The result of a probe. On failure status says why and the other fields are -1. */
typedef struct egtb_result {
  int status; /* enum egtb_status */
  int lasker; /* enum egtb_value, for the side to move (other rules: 4, 2 or 0) */
  int dtm;    /* plies to mate for values 4 and 0, else -1 (other rules: egtb_depth_metric) */
  int dts;    /* plies to stalemate for values 3 and 1, else -1 (other rules: -1) */
} egtb_result;

/* A legal move of the probed position with its value for the side playing it: lasker is 4 minus
 * the value of the position after the move, and dtm or dts count the plies from the probed
 * position to the mate or stalemate, the move included (the depth after it plus one). So the
 * first (best) root move has the probed position's own value and depth. */
typedef struct egtb_root_move {
  int from;      /* square 0-63 */
  int to;        /* square 0-63; an e.p. capture goes to the e.p. square */
  int promotion; /* enum egtb_piece promoted to, or EGTB_NO_PIECE */
  char uci[8];   /* the move in UCI, NUL-terminated: "e7e8q"; a pass (stalemate-passes) is "0000",
                    from and to 0 */
  int lasker;    /* value for the mover, enum egtb_value (other rules: 4, 2 or 0) */
  int dtm;       /* for the mover, move included, or -1 */
  int dts;       /* for the mover, move included, or -1 */
} egtb_root_move;

/* A move of a principal variation (egtb_probe_pv) in 16 bits, laid out as Fathom's TB_MOVE: the
 * square moved to in bits 0-5, the square moved from in bits 6-11 and the piece promoted to in bits
 * 12-14, an enum egtb_piece (EGTB_QUEEN is 5: Fathom numbers promotions otherwise). Example: e7e8q,
 * from e7 (52) to e8 (60) promoting to a queen, is 60 | 52 << 6 | 5 << 12 = 23868 (0x5d3c); an
 * e.p. capture goes to the e.p. square; a pass (stalemate-passes) is 0. */
typedef uint16_t egtb_move;
#define EGTB_MOVE_TO(move) ((unsigned)(move) & 0x3fu)
#define EGTB_MOVE_FROM(move) (((unsigned)(move) >> 6) & 0x3fu)
#define EGTB_MOVE_PROMOTION(move) (((unsigned)(move) >> 12) & 0x7u)

typedef struct egtb_tablebase egtb_tablebase;

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *egtb_version(void);

/* Opens the tables of a directory with a cache of decoded blocks of cache_mb MiB (0: 256). Returns
 * NULL when the directory cannot be used, with the reason in errbuf (errlen bytes, may be 0). */
egtb_tablebase *egtb_open(const char *directory, size_t cache_mb, char *errbuf, size_t errlen);

/* The same for the tables of a rule set (enum egtb_rules): <SIG>.stalemate-wins.egtb and
 * <SIG>.stalemate-passes.egtb beside the Lasker tables. NULL with a message for an unknown
 * rules number. egtb_open(d, c, e, n) is egtb_open_rules(d, EGTB_RULES_LASKER, c, e, n). */
egtb_tablebase *egtb_open_rules(const char *directory, int rules, size_t cache_mb, char *errbuf,
                                size_t errlen);

/* The rule set of a tablebase (enum egtb_rules), and its name ("lasker", "stalemate-wins",
 * "stalemate-passes"; NULL for an unknown number). */
int egtb_rules(const egtb_tablebase *tb);
const char *egtb_rules_name(int rules);

/* What the depth of values 4 and 0 in the dtm fields counts under the tablebase's rules (enum
 * egtb_metric): EGTB_METRIC_DTE under stalemate-wins, EGTB_METRIC_DTM under the others. */
int egtb_depth_metric(const egtb_tablebase *tb);

/* Adds a directory to a tablebase, searched after those it has (Fathom's SyzygyPath "dir1:dir2"):
 * a table is read from the first directory that has its file. May run while other threads probe
 * the tablebase: a table missing so far is found in the new directory from then on. Returns EGTB_OK,
 * or EGTB_BAD_ARGUMENT (NULL, or not a directory) with egtb_last_error(). */
int egtb_add_directory(egtb_tablebase *tb, const char *directory);

/* Closes the tables and frees the tablebase; NULL is ignored. */
void egtb_close(egtb_tablebase *tb);

/* The most men of any table in the directory (0 when there is none): positions with more men
 * need not be probed (Fathom's TB_LARGEST). */
int egtb_max_men(const egtb_tablebase *tb);

/* Probes a position given as bitboards: the men of each colour, the men of each type, the e.p.
 * square (the square a pawn skipped with its double step, e.g. 20 for e3; 0 for none, as in
 * Fathom; it counts when an e.p. capture is legal) and the side to move (non-zero: White).
 * Fills *result and returns its status. */
int egtb_probe(const egtb_tablebase *tb, uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
               uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned ep_square,
               int white_to_move, egtb_result *result);

/* The same for a FEN (six fields, or the first four). */
int egtb_probe_fen(const egtb_tablebase *tb, const char *fen, egtb_result *result);

/* egtb_probe for a position of a game, with the two things the tables leave out (the arguments of
 * Fathom's tb_probe_wdl): `castling`, the castling rights in any encoding, non-zero fails with
 * EGTB_CASTLING (tables hold no position with castling rights); `rule50`, the 50-move counter
 * (plies since the last capture or pawn move, the FEN's halfmove clock). The tables count no
 * 50-move rule, so their value is the value under the rule only when the game ends, by the mate or
 * stalemate the value promises, before the counter reaches 100 plies: for a draw, and when rule50
 * plus the depth (DTM or DTS) is at most 100 (a mate on the 100th ply counts, as in FIDE's rules).
 * Otherwise the call fails with EGTB_RULE50, the result's fields -1: the position may be a draw
 * under the rule (the line may yet capture or push a pawn, which resets the counter: the table
 * cannot tell). Example: a mate in DTM 21 plies is EGTB_OK with rule50 79 and EGTB_RULE50 with 80.
 * egtb_probe gives the table's value regardless. */
int egtb_probe_game(const egtb_tablebase *tb, uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                    uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned rule50,
                    unsigned castling, unsigned ep_square, int white_to_move, egtb_result *result);

/* Probes a position and every legal move of it, for ordering the moves at the root of a search:
 * fills *result like egtb_probe, moves[0 .. *count - 1] best first (the mover's value, then the
 * winner's shortest or the loser's longest depth, then UCI text: the order of `egtb probe`) and
 * *count. A position with no legal move (mate or stalemate) has *count 0. EGTB_BAD_ARGUMENT when
 * capacity is too small (EGTB_MAX_MOVES always suffices); a move into a missing table fails the
 * whole call with EGTB_MISSING_TABLE. */
int egtb_probe_root(const egtb_tablebase *tb, uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                    uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned ep_square,
                    int white_to_move, egtb_result *result, egtb_root_move *moves, size_t capacity,
                    size_t *count);

/* The same for a FEN. */
int egtb_probe_root_fen(const egtb_tablebase *tb, const char *fen, egtb_result *result, egtb_root_move *moves,
                        size_t capacity, size_t *count);

/* Probes what a stalemate-only table holds (`egtb generate --metrics dts`; a full table answers the
 * same): result->lasker is EGTB_STALEMATES (3) or EGTB_STALEMATED (1) with result->dts, or 2 with
 * dtm and dts -1 for "not a stalemate win or loss": the position is a mate, a draw or a loss to
 * mate, which these tables do not tell apart. For engines that probe Syzygy's WDL and DTZ tables
 * (Fathom) for the rest: a Syzygy win (cursed ones included: these tables count no 50-move rule)
 * is Lasker 4 and a loss 0 (Lasker tables solve mates first, as chess does; stalemates decide
 * only among chess's draws), and a Syzygy draw is what this call answers, 3, 1 or 2
 * (docs/c-library.md has the worked example). Arguments as egtb_probe's; a table built without
 * DTS (--metrics dtm) fails with EGTB_MISSING_TABLE, as egtb_probe does on a stalemate-only one. */
int egtb_probe_stalemate(const egtb_tablebase *tb, uint64_t white, uint64_t black, uint64_t kings,
                         uint64_t queens, uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns,
                         unsigned ep_square, int white_to_move, egtb_result *result);

/* The same for a FEN. */
int egtb_probe_stalemate_fen(const egtb_tablebase *tb, const char *fen, egtb_result *result);

/* Probes the value of a position alone, for probes in search: result->lasker, with dtm and dts -1.
 * It reads the value files (<SIG>.egv beside <SIG>.egtb, written from the tables by `egtb recompress
 * SIG --value-files`), which hold the values without depths (11.5 MB for the 3-4-man set, a third of
 * its tables' bytes): each is read whole into memory on its first probe and probed there, decoding
 * no block (a few hundred nanoseconds a probe; egtb_probe may decode a block of 32,768 entries). A missing value
 * file fails with EGTB_MISSING_TABLE, its message naming the command that writes it, whether or
 * not the table file is there; a damaged one with EGTB_TABLE_ERROR. Arguments as egtb_probe's. */
int egtb_probe_value(const egtb_tablebase *tb, uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                     uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned ep_square,
                     int white_to_move, egtb_result *result);

/* The same for a FEN. */
int egtb_probe_value_fen(const egtb_tablebase *tb, const char *fen, egtb_result *result);

/* Probes a position and its principal variation: the optimal line `egtb probe` prints as its pv,
 * from the position to the mate or stalemate its value promises (the winner's moves shortest, the
 * loser's longest), as many plies as the depth; none for a draw or a game over. Fills *result like
 * egtb_probe, *length with the line's length and pv[0 .. min(*length, capacity) - 1] with its first
 * moves (egtb_move): when *length > capacity the line was cut, as snprintf cuts a string. A move
 * into a missing table fails the call with EGTB_MISSING_TABLE. */
int egtb_probe_pv(const egtb_tablebase *tb, uint64_t white, uint64_t black, uint64_t kings, uint64_t queens,
                  uint64_t rooks, uint64_t bishops, uint64_t knights, uint64_t pawns, unsigned ep_square,
                  int white_to_move, egtb_result *result, egtb_move *pv, size_t capacity, size_t *length);

/* The same for a FEN. */
int egtb_probe_pv_fen(const egtb_tablebase *tb, const char *fen, egtb_result *result, egtb_move *pv,
                      size_t capacity, size_t *length);

/* The name of a status: "ok", "missing table", ... */
const char *egtb_status_name(int status);

/* The message of the last call that failed on this thread ("" when none failed): the FEN error,
 * the missing table with the command that builds it, the damaged file. Valid until this thread's
 * next failing call. */
const char *egtb_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* EGTB_H */
