/*
 * fen_board.h: FEN lines read into bitboards, for the C programs that probe lists of positions
 * (tests/capi/capi_check.c, and bench/fathom_probe.c, which probes Syzygy files with Fathom and
 * uses nothing of egtb). Plain C11; the including file defines _POSIX_C_SOURCE 200809L (strdup).
 * A bitboard has bit i for square i, a1 = 0, b1 = 1, ..., h8 = 63 (egtb's and Fathom's layout):
 * "8/8/8/8/4k3/8/1Q6/K7 b - - 0 1" is queens = 1 << 9 (b2), kings = 1 << 0 | 1 << 36 (a1, e4),
 * white = 1 << 0 | 1 << 9, black = 1 << 36.
 */
#ifndef EGTB_TESTS_CAPI_FEN_BOARD_H
#define EGTB_TESTS_CAPI_FEN_BOARD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct board {
  uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
  unsigned castling; /* 1 when the FEN has castling rights */
  unsigned ep_square;
  unsigned rule50; /* the FEN's halfmove clock */
  int white_to_move;
} board;

typedef struct fen_list {
  char **fens;
  board *boards;
  size_t count;
} fen_list;

static uint64_t *piece_set(board *b, char letter) {
  switch (letter) {
    case 'k': return &b->kings;
    case 'q': return &b->queens;
    case 'r': return &b->rooks;
    case 'b': return &b->bishops;
    case 'n': return &b->knights;
    case 'p': return &b->pawns;
    default: return NULL;
  }
}

/* Parses the placement, side to move and e.p. fields of a FEN; 0 when they are malformed. */
static int parse_board(const char *fen, board *b) {
  int rank = 7, file = 0;
  const char *c = fen;
  memset(b, 0, sizeof *b);
  for (; *c && *c != ' '; ++c) {
    if (*c == '/') {
      --rank;
      file = 0;
    } else if (*c >= '1' && *c <= '8') {
      file += *c - '0';
    } else {
      const char lower = (char)(*c | 0x20);
      uint64_t *set = piece_set(b, lower);
      if (!set || rank < 0 || file > 7) return 0;
      const uint64_t bit = (uint64_t)1 << (rank * 8 + file);
      *set |= bit;
      if (*c == lower) b->black |= bit;
      else b->white |= bit;
      ++file;
    }
  }
  if (c[0] != ' ' || (c[1] != 'w' && c[1] != 'b') || c[2] != ' ') return 0;
  b->white_to_move = c[1] == 'w';
  c += 3;
  b->castling = *c != '-';
  while (*c && *c != ' ') ++c;
  if (c[0] == ' ' && c[1] >= 'a' && c[1] <= 'h' && c[2] >= '1' && c[2] <= '8')
    b->ep_square = (unsigned)((c[2] - '1') * 8 + (c[1] - 'a'));
  if (*c) c = strchr(c + 1, ' ');
  if (c) b->rule50 = (unsigned)strtoul(c + 1, NULL, 10);
  return 1;
}

/* The FEN lines of `in`, blank ones skipped; a malformed one is kept as an empty board, which every
 * probe refuses. */
static fen_list read_fens(FILE *in) {
  fen_list list = {NULL, NULL, 0};
  size_t capacity = 0;
  char line[512];
  while (fgets(line, sizeof line, in)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (!line[0]) continue;
    if (list.count == capacity) {
      capacity = capacity ? 2 * capacity : 1024;
      list.fens = realloc(list.fens, capacity * sizeof *list.fens);
      list.boards = realloc(list.boards, capacity * sizeof *list.boards);
      if (!list.fens || !list.boards) exit(2);
    }
    list.fens[list.count] = strdup(line);
    if (!parse_board(line, &list.boards[list.count])) memset(&list.boards[list.count], 0, sizeof(board));
    ++list.count;
  }
  return list;
}

#endif
