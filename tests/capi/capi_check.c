/*
 * capi_check: a C11 program that uses libegtb only through its installed header, for the tests of
 * the C library (tests/capi/test_capi.py) and its benchmark (bench/bench_bindings.py).
 *
 *   capi_check open DIR [RULES]         opens DIR: "max_men N version V rules NAME metric M", or
 *                                       "error: MESSAGE" and exit 1
 *   capi_check probe DIR [RULES] < FENS for each FEN line: the probe by bitboards (the board parsed
 *                                       here, not by the library), checked equal to the probe by
 *                                       FEN, and the root moves by bitboards, checked equal to the
 *                                       root moves by FEN; prints
 *                                       "status lasker dtm dts|uci lasker dtm dts|..." per line
 *   capi_check pv DIR [RULES] < FENS    for each FEN line: the principal variation by bitboards,
 *                                       checked equal to the one by FEN and to a cut one (capacity
 *                                       2); prints "status length|uci uci ..." (the moves decoded
 *                                       with EGTB_MOVE_FROM, _TO and _PROMOTION)
 *   capi_check value DIR [RULES] < FENS for each FEN line: egtb_probe_value by bitboards and by FEN,
 *                                       checked equal to each other and to egtb_probe_fen's value or
 *                                       failure; prints "status lasker"
 *   capi_check time DIR full|value [MB] < FENS  one thread probes every FEN (egtb_probe, or
 *                                       egtb_probe_value) twice on a tablebase opened cold (a block
 *                                       cache of MB MiB, default 1024): "first_pass_ns N warm_ns N
 *                                       probes N ok N", nanoseconds per probe of each pass
 *   capi_check game DIR < FENS          for each FEN line: egtb_probe_game with the FEN's castling
 *                                       rights and halfmove clock: "status lasker dtm dts"
 *   capi_check dirs DIR1 DIR2 < FENS    opens DIR1 and probes every FEN ("max_men N" then a status
 *                                       per FEN), adds DIR2 with egtb_add_directory and probes them
 *                                       again; a file added as a directory is refused first
 * RULES is the name of a rule set (lasker, stalemate-wins, stalemate-passes; default lasker), opened
 * with egtb_open_rules.
 *   capi_check errors DIR               calls that must fail, with their status and message
 *   capi_check threads DIR N < FENS     N threads probe every FEN (by bitboards) on one tablebase
 *                                       opened cold, each in its own order, several rounds, and
 *                                       compare with a single-threaded probe; exit 1 on a mismatch
 *   capi_check bench DIR N < FENS       one thread probes every FEN to warm the cache, then N
 *                                       threads probe them all again; prints probes per second
 *                                       per thread and in total (wall time), and per second of
 *                                       the threads' CPU time
 */
#define _POSIX_C_SOURCE 200809L

#include <egtb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fen_board.h"

static int has_castling(const char *fen) {
  const char *c = strchr(fen, ' ');
  return c && (c = strchr(c + 1, ' ')) && c[1] != '-';
}

/* The decoded-block cache of the benchmark: 1 GiB, as `egtb bench probe` (all 3-4-man tables need
 * about 310 MiB); the other modes use the library's default. */
enum { BenchCacheMb = 1024 };

/* The number of the rule set named `name` (egtb_rules_name), or -1. */
static int rules_number(const char *name) {
  for (int r = 0; egtb_rules_name(r); ++r)
    if (strcmp(egtb_rules_name(r), name) == 0) return r;
  return -1;
}

static egtb_tablebase *open_or_exit(const char *dir, size_t cache_mb, const char *rules) {
  char error[512];
  egtb_tablebase *tb = rules ? egtb_open_rules(dir, rules_number(rules), cache_mb, error, sizeof error)
                             : egtb_open(dir, cache_mb, error, sizeof error);
  if (!tb) {
    printf("error: %s\n", error);
    exit(1);
  }
  return tb;
}

static int probe_board(const egtb_tablebase *tb, const board *b, egtb_result *r) {
  return egtb_probe(tb, b->white, b->black, b->kings, b->queens, b->rooks, b->bishops, b->knights, b->pawns,
                    b->ep_square, b->white_to_move, r);
}

static int same_result(const egtb_result *a, const egtb_result *b) {
  return a->status == b->status && a->lasker == b->lasker && a->dtm == b->dtm && a->dts == b->dts;
}

static int same_moves(const egtb_root_move *a, const egtb_root_move *b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(a[i].uci, b[i].uci) != 0 || a[i].lasker != b[i].lasker || a[i].dtm != b[i].dtm ||
        a[i].dts != b[i].dts || a[i].from != b[i].from || a[i].to != b[i].to || a[i].promotion != b[i].promotion)
      return 0;
  return 1;
}

/* Probes one FEN every way; prints its line; 0 when two ways disagree. */
static int check_one(const egtb_tablebase *tb, const char *fen, const board *b) {
  static egtb_root_move by_fen[EGTB_MAX_MOVES], by_board[EGTB_MAX_MOVES];
  egtb_result fen_result, board_result, root_fen, root_board;
  size_t fen_count = 0, board_count = 0;
  egtb_probe_fen(tb, fen, &fen_result);
  egtb_probe_root_fen(tb, fen, &root_fen, by_fen, EGTB_MAX_MOVES, &fen_count);
  int ok = same_result(&fen_result, &root_fen) || root_fen.status != EGTB_OK;
  if (!has_castling(fen) && fen_result.status != EGTB_INVALID_POSITION) {
    probe_board(tb, b, &board_result);
    egtb_probe_root(tb, b->white, b->black, b->kings, b->queens, b->rooks, b->bishops, b->knights, b->pawns,
                    b->ep_square, b->white_to_move, &root_board, by_board, EGTB_MAX_MOVES, &board_count);
    ok = ok && same_result(&fen_result, &board_result) && same_result(&root_fen, &root_board) &&
         fen_count == board_count && same_moves(by_fen, by_board, fen_count);
  }
  if (!ok) fprintf(stderr, "capi_check: the ways of probing disagree on %s\n", fen);
  printf("%d %d %d %d", fen_result.status, fen_result.lasker, fen_result.dtm, fen_result.dts);
  for (size_t i = 0; root_fen.status == EGTB_OK && i < fen_count; ++i)
    printf("|%s %d %d %d", by_fen[i].uci, by_fen[i].lasker, by_fen[i].dtm, by_fen[i].dts);
  printf("\n");
  return ok;
}

/* A move of a principal variation in UCI ("e7e8q"; "0000" for a pass), decoded as egtb.h says. */
static void move_text(egtb_move move, char uci[6]) {
  const unsigned from = EGTB_MOVE_FROM(move), to = EGTB_MOVE_TO(move);
  if (move == 0) {
    strcpy(uci, "0000");
    return;
  }
  uci[0] = (char)('a' + from % 8);
  uci[1] = (char)('1' + from / 8);
  uci[2] = (char)('a' + to % 8);
  uci[3] = (char)('1' + to / 8);
  uci[4] = " pnbrqk"[EGTB_MOVE_PROMOTION(move)];
  uci[uci[4] == ' ' ? 4 : 5] = '\0';
}

enum { PvCapacity = 1024 };

/* The principal variation of one FEN every way; prints its line; 0 when two ways disagree. */
static int check_pv(const egtb_tablebase *tb, const char *fen, const board *b) {
  static egtb_move by_fen[PvCapacity], by_board[PvCapacity];
  egtb_move cut[2] = {0, 0};
  egtb_result fen_result, board_result, cut_result;
  size_t fen_length = 0, board_length = 0, cut_length = 0;
  egtb_probe_pv_fen(tb, fen, &fen_result, by_fen, PvCapacity, &fen_length);
  int ok = egtb_probe_pv_fen(tb, fen, &cut_result, cut, 2, &cut_length) == cut_result.status &&
           same_result(&fen_result, &cut_result) && cut_length == fen_length &&
           memcmp(cut, by_fen, (fen_length < 2 ? fen_length : 2) * sizeof *cut) == 0;
  if (!has_castling(fen) && fen_result.status != EGTB_INVALID_POSITION) {
    egtb_probe_pv(tb, b->white, b->black, b->kings, b->queens, b->rooks, b->bishops, b->knights, b->pawns,
                  b->ep_square, b->white_to_move, &board_result, by_board, PvCapacity, &board_length);
    ok = ok && same_result(&fen_result, &board_result) && board_length == fen_length &&
         memcmp(by_board, by_fen, fen_length * sizeof *by_fen) == 0;
  }
  if (!ok) fprintf(stderr, "capi_check: the ways of reading the pv disagree on %s\n", fen);
  printf("%d %zu|", fen_result.status, fen_length);
  for (size_t i = 0; i < fen_length && i < PvCapacity; ++i) {
    char uci[6];
    move_text(by_fen[i], uci);
    printf(i ? " %s" : "%s", uci);
  }
  printf("\n");
  return ok;
}

/* egtb_probe_stalemate of one FEN by FEN and by bitboards; prints "status lasker dtm dts"; 0 when the
 * two disagree. */
static int check_stalemate(const egtb_tablebase *tb, const char *fen, const board *b) {
  egtb_result fen_result, board_result;
  egtb_probe_stalemate_fen(tb, fen, &fen_result);
  int ok = 1;
  if (!has_castling(fen) && fen_result.status != EGTB_INVALID_POSITION) {
    egtb_probe_stalemate(tb, b->white, b->black, b->kings, b->queens, b->rooks, b->bishops, b->knights, b->pawns,
                         b->ep_square, b->white_to_move, &board_result);
    ok = same_result(&fen_result, &board_result);
  }
  if (!ok) fprintf(stderr, "capi_check: the ways of probing stalemates disagree on %s\n", fen);
  printf("%d %d %d %d\n", fen_result.status, fen_result.lasker, fen_result.dtm, fen_result.dts);
  return ok;
}

/* The value probe by bitboards and by FEN, each checked equal to the full probe's value (or its
 * failure); prints "status lasker" of the value probe. */
static int check_value(const egtb_tablebase *tb, const char *fen, const board *b) {
  egtb_result full, by_fen, by_board;
  egtb_probe_fen(tb, fen, &full);
  egtb_probe_value_fen(tb, fen, &by_fen);
  int ok = by_fen.status == full.status && by_fen.lasker == full.lasker && by_fen.dtm == -1 && by_fen.dts == -1;
  if (!has_castling(fen) && full.status != EGTB_INVALID_POSITION) {
    egtb_probe_value(tb, b->white, b->black, b->kings, b->queens, b->rooks, b->bishops, b->knights, b->pawns,
                     b->ep_square, b->white_to_move, &by_board);
    ok = ok && same_result(&by_fen, &by_board);
  }
  if (!ok)
    fprintf(stderr, "capi_check: value probe %d %d, full probe %d %d on %s (%s)\n", by_fen.status, by_fen.lasker,
            full.status, full.lasker, fen, egtb_last_error());
  printf("%d %d\n", by_fen.status, by_fen.lasker);
  return ok;
}

typedef int check_function(const egtb_tablebase *tb, const char *fen, const board *b);

/* Runs `check` (check_one or check_pv) on every FEN of the standard input; 1 when one failed. */
static int run_checks(const char *dir, const char *rules, check_function *check) {
  const fen_list list = read_fens(stdin);
  egtb_tablebase *tb = open_or_exit(dir, 0, rules);
  int ok = 1;
  for (size_t i = 0; i < list.count; ++i) ok = check(tb, list.fens[i], &list.boards[i]) && ok;
  egtb_close(tb);
  return ok ? 0 : 1;
}

static int run_game(const char *dir) {
  const fen_list list = read_fens(stdin);
  egtb_tablebase *tb = open_or_exit(dir, 0, NULL);
  for (size_t i = 0; i < list.count; ++i) {
    const board *b = &list.boards[i];
    egtb_result r;
    egtb_probe_game(tb, b->white, b->black, b->kings, b->queens, b->rooks, b->bishops, b->knights, b->pawns,
                    b->rule50, b->castling, b->ep_square, b->white_to_move, &r);
    printf("%d %d %d %d\n", r.status, r.lasker, r.dtm, r.dts);
  }
  egtb_close(tb);
  return 0;
}

static void probe_all(const egtb_tablebase *tb, const fen_list *list) {
  printf("max_men %d\n", egtb_max_men(tb));
  for (size_t i = 0; i < list->count; ++i) {
    egtb_result r;
    probe_board(tb, &list->boards[i], &r);
    printf("%d %d %d %d\n", r.status, r.lasker, r.dtm, r.dts);
  }
}

static void report(const char *what, int status);

static int run_dirs(const char *first, const char *second) {
  const fen_list list = read_fens(stdin);
  egtb_tablebase *tb = open_or_exit(first, 0, NULL);
  probe_all(tb, &list);
  report("a file", egtb_add_directory(tb, __FILE__));
  report("null", egtb_add_directory(tb, NULL));
  report("added", egtb_add_directory(tb, second));
  probe_all(tb, &list);
  egtb_close(tb);
  return 0;
}

typedef struct worker {
  const egtb_tablebase *tb;
  const fen_list *list;
  const egtb_result *expected; /* NULL: benchmark */
  size_t start, stride;        /* positions visited in the order start + i * stride mod count */
  int rounds;
  size_t mismatches;
  double seconds;     /* wall */
  double cpu_seconds; /* of this thread */
} worker;

static double now(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *work(void *arg) {
  worker *w = arg;
  const size_t n = w->list->count;
  const double start = now(CLOCK_MONOTONIC), cpu_start = now(CLOCK_THREAD_CPUTIME_ID);
  for (int round = 0; round < w->rounds; ++round) {
    for (size_t i = 0; i < n; ++i) {
      const size_t k = (w->start + i * w->stride + (size_t)round) % n;
      egtb_result r;
      probe_board(w->tb, &w->list->boards[k], &r);
      if (w->expected && !same_result(&r, &w->expected[k])) ++w->mismatches;
    }
  }
  w->seconds = now(CLOCK_MONOTONIC) - start;
  w->cpu_seconds = now(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
  return NULL;
}

/* Runs `threads` workers over the list; returns the mismatches (benchmark: prints the rate). */
static size_t run_workers(const egtb_tablebase *tb, const fen_list *list, const egtb_result *expected, int threads,
                          int rounds) {
  pthread_t ids[64];
  worker workers[64];
  size_t mismatches = 0;
  double seconds = 0, cpu_seconds = 0;
  for (int t = 0; t < threads; ++t) {
    /* The test: strides coprime with most counts, each thread walks the positions in its own
     * order. The benchmark: in order, as `egtb bench probe`, each thread from its own start. */
    const size_t start = expected ? 0 : list->count / (size_t)threads * (size_t)t;
    const size_t stride = expected ? (size_t)(2 * t + 1) * 7919u : 1;
    workers[t] = (worker){tb, list, expected, start, stride, rounds, 0, 0, 0};
    pthread_create(&ids[t], NULL, work, &workers[t]);
  }
  for (int t = 0; t < threads; ++t) {
    pthread_join(ids[t], NULL);
    mismatches += workers[t].mismatches;
    seconds = workers[t].seconds > seconds ? workers[t].seconds : seconds;
    cpu_seconds += workers[t].cpu_seconds;
  }
  if (!expected) {
    const double probes = (double)list->count * rounds;
    printf("threads %d probes/s per thread %.0f total %.0f per cpu second %.0f\n", threads, probes / seconds,
           probes * threads / seconds, probes * threads / cpu_seconds);
  }
  return mismatches;
}

static int run_threads(const char *dir, int threads) {
  const fen_list list = read_fens(stdin);
  egtb_result *expected = malloc(list.count * sizeof *expected);
  egtb_tablebase *reference = open_or_exit(dir, 0, NULL);
  for (size_t i = 0; i < list.count; ++i) probe_board(reference, &list.boards[i], &expected[i]);
  egtb_close(reference);
  egtb_tablebase *tb = open_or_exit(dir, 0, NULL); /* cold: the threads race to open the tables */
  const size_t mismatches = run_workers(tb, &list, expected, threads, 4);
  egtb_close(tb);
  printf("threads %d positions %zu rounds 4 mismatches %zu\n", threads, list.count, mismatches);
  return mismatches == 0 ? 0 : 1;
}

static int run_bench(const char *dir, int threads) {
  const fen_list list = read_fens(stdin);
  egtb_tablebase *tb = open_or_exit(dir, BenchCacheMb, NULL);
  run_workers(tb, &list, NULL, 1, 1); /* warms the block cache; its rate is the cold one */
  run_workers(tb, &list, NULL, threads, 1);
  egtb_close(tb);
  return 0;
}

static int probe_board_value(const egtb_tablebase *tb, const board *b, egtb_result *r) {
  return egtb_probe_value(tb, b->white, b->black, b->kings, b->queens, b->rooks, b->bishops, b->knights,
                          b->pawns, b->ep_square, b->white_to_move, r);
}

/* Nanoseconds per probe of one pass over the list, and the probes that succeeded. */
static double timed_pass(const egtb_tablebase *tb, const fen_list *list, int value_only, size_t *ok) {
  const double start = now(CLOCK_MONOTONIC);
  *ok = 0;
  for (size_t i = 0; i < list->count; ++i) {
    egtb_result r;
    const int status =
        value_only ? probe_board_value(tb, &list->boards[i], &r) : probe_board(tb, &list->boards[i], &r);
    *ok += status == EGTB_OK;
  }
  return (now(CLOCK_MONOTONIC) - start) * 1e9 / (double)(list->count ? list->count : 1);
}

/* `time DIR full|value [CACHE_MB]`: one thread probes the list twice on a tablebase opened cold (a
 * decoded-block cache of CACHE_MB MiB, default BenchCacheMb): the first pass opens the tables (or
 * reads the value files) as it goes, the second finds them open. Prints "first_pass_ns N warm_ns N
 * probes N ok N". */
static int run_time(const char *dir, const char *kind, size_t cache_mb) {
  const int value_only = strcmp(kind, "value") == 0;
  if ((!value_only && strcmp(kind, "full") != 0) || cache_mb == 0) return 2;
  const fen_list list = read_fens(stdin);
  egtb_tablebase *tb = open_or_exit(dir, cache_mb, NULL);
  size_t ok = 0;
  const double first = timed_pass(tb, &list, value_only, &ok);
  const double warm = timed_pass(tb, &list, value_only, &ok);
  egtb_close(tb);
  printf("first_pass_ns %.0f warm_ns %.0f probes %zu ok %zu\n", first, warm, list.count, ok);
  return 0;
}

/* Prints "<what>: <status name>: <message>" for one call. */
static void report(const char *what, int status) {
  printf("%s: %s: %s\n", what, egtb_status_name(status), status == EGTB_OK ? "" : egtb_last_error());
}

/* Calls that must fail, each reported: bad bitboards, bad arguments, a small root-move array. */
static int run_errors(const char *dir) {
  egtb_tablebase *tb = open_or_exit(dir, 0, NULL);
  const uint64_t e1 = (uint64_t)1 << 4, e8 = (uint64_t)1 << 60, d1 = (uint64_t)1 << 3;
  egtb_result r;
  egtb_root_move moves[2];
  size_t count = 0;
  report("two types", egtb_probe(tb, e1 | d1, e8, e1 | e8 | d1, d1, d1, 0, 0, 0, 0, 1, &r));
  report("no colour", egtb_probe(tb, e1, e8, e1 | e8, d1, 0, 0, 0, 0, 0, 1, &r));
  report("no type", egtb_probe(tb, e1 | d1, e8, e1 | e8, 0, 0, 0, 0, 0, 0, 1, &r));
  report("ep square 64", egtb_probe(tb, e1 | d1, e8, e1 | e8, d1, 0, 0, 0, 0, 64, 1, &r));
  report("null result", egtb_probe(tb, e1 | d1, e8, e1 | e8, d1, 0, 0, 0, 0, 0, 1, NULL));
  report("null fen", egtb_probe_fen(tb, NULL, &r));
  report("null tablebase", egtb_probe_fen(NULL, "8/8/8/8/8/8/8/K6k w - - 0 1", &r));
  report("two moves", egtb_probe_root(tb, e1 | d1, e8, e1 | e8, d1, 0, 0, 0, 0, 0, 1, &r, moves, 2, &count));
  report("queen", egtb_probe(tb, e1 | d1, e8, e1 | e8, d1, 0, 0, 0, 0, 0, 1, &r));
  printf("queen: lasker %d dtm %d dts %d\n", r.lasker, r.dtm, r.dts);
  egtb_close(tb);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 3 && strcmp(argv[1], "open") == 0) {
    egtb_tablebase *tb = open_or_exit(argv[2], 0, argc >= 4 ? argv[3] : NULL);
    printf("max_men %d version %s rules %s metric %s\n", egtb_max_men(tb), egtb_version(),
           egtb_rules_name(egtb_rules(tb)), egtb_depth_metric(tb) == EGTB_METRIC_DTE ? "dte" : "dtm");
    egtb_close(tb);
    return 0;
  }
  const char *rules = argc >= 4 ? argv[3] : NULL;
  if (argc >= 3 && strcmp(argv[1], "probe") == 0) return run_checks(argv[2], rules, check_one);
  if (argc >= 3 && strcmp(argv[1], "errors") == 0) return run_errors(argv[2]);
  if (argc >= 3 && strcmp(argv[1], "pv") == 0) return run_checks(argv[2], rules, check_pv);
  if (argc >= 3 && strcmp(argv[1], "stalemate") == 0) return run_checks(argv[2], rules, check_stalemate);
  if (argc >= 3 && strcmp(argv[1], "value") == 0) return run_checks(argv[2], rules, check_value);
  if (argc >= 4 && strcmp(argv[1], "time") == 0)
    return run_time(argv[2], argv[3], argc >= 5 ? (size_t)strtoul(argv[4], NULL, 10) : BenchCacheMb);
  if (argc >= 3 && strcmp(argv[1], "game") == 0) return run_game(argv[2]);
  if (argc >= 4 && strcmp(argv[1], "dirs") == 0) return run_dirs(argv[2], argv[3]);
  const int threads = argc >= 4 ? atoi(argv[3]) : 1;
  if (threads < 1 || threads > 64) return 2;
  if (argc >= 3 && strcmp(argv[1], "threads") == 0) return run_threads(argv[2], threads);
  if (argc >= 3 && strcmp(argv[1], "bench") == 0) return run_bench(argv[2], threads);
  fprintf(stderr,
          "usage: capi_check open|probe|pv|stalemate|value|time|game|dirs|errors|threads|bench DIR "
          "[RULES|THREADS|DIR2|full|value [MB]] < FENS\n");
  return 2;
}
