/*
 * fathom_probe: Fathom's WDL probe of Syzygy files (tb_probe_wdl, github.com/jdart1/Fathom) over a
 * list of FEN lines, the counterpart of tests/capi/capi_check.c's time and value modes for
 * bench/bench_vs_fathom.sh. Fathom's source is not part of egtb and nothing here uses egtb: the
 * script compiles this file with Fathom's (cc -O2 -I tests/capi -I FATHOM_SRC fathom_probe.c
 * FATHOM_SRC/tbprobe.c).
 *
 *   fathom_probe time SYZYGY_DIR < FENS  probes every line twice with tb_probe_wdl, the first pass
 *                                        right after tb_init (the tables are mapped as it goes),
 *                                        the second warm: "first_pass_ns N warm_ns N probes N ok N",
 *                                        nanoseconds per probe of each pass, as capi_check prints
 *   fathom_probe wdl SYZYGY_DIR < FENS   one line per FEN: Fathom's answer 0-4 (TB_LOSS, ...,
 *                                        TB_WIN), or "-" when it is not answered
 *   fathom_probe legal < FENS            the legal lines of FENS, unchanged, in their order
 *
 * Every line is probed with rule50 0, no castling rights and no e.p. square (the FENs of
 * bench/random_placements.py have none). tb_probe_wdl does not check legality (Fathom's
 * tb_probe_root does; over random placements with illegal ones among them it stopped on an
 * assertion of Fathom's lsb(), on an empty bitboard), so this program checks it, outside the timed
 * loops, and probes only legal positions: a line where the side not to move is in check (the kings
 * side by side included), a pawn stands on rank 1 or 8, or the FEN is malformed is not probed and
 * not answered, as egtb fails it. The script times the legal lines.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fen_board.h" /* tests/capi/ */
#include "tbprobe.h"

/* The FEN lines and whether each is legal; an illegal one is never probed. */
typedef struct position_list {
  fen_list fens;
  unsigned char *legal;
} position_list;

static int has(uint64_t set, int file, int rank) {
  return file >= 0 && file < 8 && rank >= 0 && rank < 8 && (set >> (rank * 8 + file) & 1);
}

/* Whether the men of `by` attack the square (file, rank); `white` says whether `by` is White's. */
static int attacked(const board *p, uint64_t by, int white, int file, int rank) {
  static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  static const int ray[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  const uint64_t occupied = p->white | p->black;
  const int pawn_rank = white ? rank - 1 : rank + 1; /* a white pawn on d3 attacks e4 */
  if (has(p->pawns & by, file - 1, pawn_rank) || has(p->pawns & by, file + 1, pawn_rank)) return 1;
  for (int i = 0; i < 8; ++i) {
    if (has(p->knights & by, file + knight[i][0], rank + knight[i][1])) return 1;
    if (has(p->kings & by, file + ray[i][0], rank + ray[i][1])) return 1;
    const uint64_t sliders = (p->queens | (i < 4 ? p->rooks : p->bishops)) & by;
    for (int f = file + ray[i][0], r = rank + ray[i][1]; f >= 0 && f < 8 && r >= 0 && r < 8;
         f += ray[i][0], r += ray[i][1]) {
      if (has(sliders, f, r)) return 1;
      if (has(occupied, f, r)) break;
    }
  }
  return 0;
}

/* Legal as a table position: a king each, the side not to move not in check, no pawn on rank 1
 * or 8. */
static int is_legal(const board *p) {
  const uint64_t back_ranks = 0xff000000000000ffULL;
  const uint64_t mover = p->white_to_move ? p->white : p->black;
  if (__builtin_popcountll(p->kings & p->white) != 1 || __builtin_popcountll(p->kings & p->black) != 1) return 0;
  const int king = __builtin_ctzll(p->kings & ~mover);
  return !(p->pawns & back_ranks) && !attacked(p, mover, p->white_to_move, king % 8, king / 8);
}

static position_list read_positions(FILE *in) {
  position_list list = {read_fens(in), NULL};
  list.legal = malloc(list.fens.count + 1);
  if (!list.legal) exit(2);
  for (size_t i = 0; i < list.fens.count; ++i) list.legal[i] = (unsigned char)is_legal(&list.fens.boards[i]);
  return list;
}

static unsigned probe(const board *p) {
  return tb_probe_wdl(p->white, p->black, p->kings, p->queens, p->rooks, p->bishops, p->knights, p->pawns, 0, 0, 0,
                      p->white_to_move);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Nanoseconds per probe of one pass over the list, and the answered probes. */
static double timed_pass(const position_list *list, size_t *ok) {
  const double start = now();
  *ok = 0;
  for (size_t i = 0; i < list->fens.count; ++i)
    if (list->legal[i]) *ok += probe(&list->fens.boards[i]) != TB_RESULT_FAILED;
  return (now() - start) * 1e9 / (double)(list->fens.count ? list->fens.count : 1);
}

static int run_time(const position_list *list) {
  size_t ok = 0;
  const double first = timed_pass(list, &ok);
  const double warm = timed_pass(list, &ok);
  printf("first_pass_ns %.0f warm_ns %.0f probes %zu ok %zu\n", first, warm, list->fens.count, ok);
  return 0;
}

static int run_wdl(const position_list *list) {
  for (size_t i = 0; i < list->fens.count; ++i) {
    const unsigned wdl = list->legal[i] ? probe(&list->fens.boards[i]) : TB_RESULT_FAILED;
    if (wdl == TB_RESULT_FAILED) puts("-");
    else printf("%u\n", wdl);
  }
  return 0;
}

static int print_legal(const position_list *list) {
  for (size_t i = 0; i < list->fens.count; ++i)
    if (list->legal[i]) puts(list->fens.fens[i]);
  return 0;
}

int main(int argc, char **argv) {
  const int legal = argc == 2 && strcmp(argv[1], "legal") == 0;
  if (!legal && (argc != 3 || (strcmp(argv[1], "time") != 0 && strcmp(argv[1], "wdl") != 0))) {
    fprintf(stderr, "usage: fathom_probe time|wdl SYZYGY_DIR < FENS, or fathom_probe legal < FENS\n");
    return 2;
  }
  const position_list list = read_positions(stdin);
  if (legal) return print_legal(&list);
  if (!tb_init(argv[2]) || TB_LARGEST == 0) {
    fprintf(stderr, "fathom_probe: no Syzygy tables found in %s\n", argv[2]);
    return 1;
  }
  const int status = strcmp(argv[1], "time") == 0 ? run_time(&list) : run_wdl(&list);
  tb_free();
  return status;
}
