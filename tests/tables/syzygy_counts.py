#!/usr/bin/env python3
"""Compares the wins, draws and losses per side to move of pawnless tables with the Syzygy
statistics (the files of data/syzygy/: a table, a side, its wins, draws and losses a line).

Syzygy counts identical men as labelled and each class of symmetric labelled positions once. For a
pawnless table Burnside's lemma gives that count from two counts of unlabelled placements: P, every
legal placement (egtb stats --convention physical), and D, those with every man on the a1-h8
diagonal. A labelled position is fixed by the reflection in that diagonal only when every man
stands on it (as many lie on a8-h1), and by no other symmetry of the board, since the kings have no
fixed square. Labelling the men multiplies both counts by L, the product of m! over each kind of
man that appears m times (1 without identical men: KQRBkr), so

    Syzygy's count = L (P + 2 D) / 8,   e.g. KNNk, White to move, draws (Lasker 3 + 2 + 1):
                   = 2 (5,749,036 + 2 x 630) / 8 = 1,437,574.

(egtb's `classes` convention counts classes of unlabelled positions, where two identical men may
swap across the diagonal: without identical men it is Syzygy's count, with them it is not.)

Each value is compared: Lasker 4 against wins, 0 against losses, 3 + 2 + 1 against draws. P comes
from `egtb stats`; D is counted here by listing the diagonal placements and probing each one
(`egtb probe --epd --value-only`), so the check joins egtb's weights to a count made without them.

Usage: syzygy_counts.py EGTB DIR SYZYGY_DIR SIG...   (exit 1 on a difference)
"""
import itertools
import json
import math
import pathlib
import subprocess
import sys

DIAGONAL = [(i, i) for i in range(8)]  # (file, rank) of a1, b2, ..., h8


def square_name(square):
    return "abcdefgh"[square[0]] + str(square[1] + 1)


def fen(men, side):
    """men: {(file, rank): letter}. The FEN of the placement with SIDE to move."""
    ranks = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            letter = men.get((file, rank))
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks) + f" {side} - - 0 1"


def attacked_on_diagonal(men, target, by_white):
    """Whether a man of the colour given attacks TARGET, every man standing on the a1-h8 diagonal:
    only bishops and queens attack along it (a knight's or rook's move never ends on it, and kings
    are never adjacent here), each up to the first man in the way. Pawnless tables only."""
    for step in (1, -1):
        i = target[0] + step
        while 0 <= i < 8:
            letter = men.get((i, i))
            if letter is not None:
                if letter in ("B", "Q") if by_white else letter in ("b", "q"):
                    return True
                break
            i += step
    return False


def diagonal_positions(signature, side):
    """Every legal placement of SIGNATURE (pawnless, White's men in upper case after K, Black's in
    lower case after k) on the a1-h8 diagonal with SIDE to move, as FENs."""
    men = [letter for letter in signature if letter not in "Kk"]
    fens = set()
    for white_king, black_king in itertools.permutations(DIAGONAL, 2):
        if abs(white_king[0] - black_king[0]) <= 1:
            continue
        rest = [s for s in DIAGONAL if s not in (white_king, black_king)]
        for squares in itertools.permutations(rest, len(men)):
            board = {white_king: "K", black_king: "k", **dict(zip(squares, men))}
            not_to_move = black_king if side == "w" else white_king
            if not attacked_on_diagonal(board, not_to_move, by_white=(side == "w")):
                fens.add(fen(board, side))
    return sorted(fens)


def labellings(signature):
    """L: the product of m! over each kind of man appearing m times."""
    return math.prod(math.factorial(signature.count(letter)) for letter in set(signature))


def diagonal_counts(egtb, directory, signature, side):
    """D per Lasker value 0-4, each diagonal position probed."""
    fens = diagonal_positions(signature, side)
    out = subprocess.run([egtb, "probe", "--epd", "-", "--value-only", "--dir", directory],
                         input="\n".join(fens) + "\n", capture_output=True, text=True, check=True).stdout
    counts = [0] * 5
    for line in out.splitlines():
        answer = json.loads(line)
        if "error" in answer:
            raise SystemExit(f"{signature}: {answer}")
        counts[answer["lasker"]] += 1
    assert sum(counts) == len(fens)
    return counts


def syzygy_name(signature):
    """KQRBkr -> KQRBvKR."""
    black = signature.index("k")
    return signature[:black] + "v" + signature[black:].upper()


def read_syzygy(directory):
    """{(table, side): (wins, draws, losses)} from every .txt file of DIRECTORY."""
    rows = {}
    for path in sorted(pathlib.Path(directory).glob("*.txt")):
        for line in open(path, encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            table, side, wins, draws, losses = line.split()
            rows[(table, side)] = (int(wins), int(draws), int(losses))
    return rows


def main():
    egtb, directory, syzygy_directory, signatures = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    syzygy = read_syzygy(syzygy_directory)
    differences = 0
    for signature in signatures:
        if "P" in signature.upper():
            raise SystemExit(f"{signature}: a table with pawns (this count is for pawnless tables)")
        if (syzygy_name(signature), "w") not in syzygy:
            raise SystemExit(f"{signature}: {syzygy_directory} holds no Syzygy statistics of {syzygy_name(signature)}")
        stats = subprocess.run([egtb, "stats", signature, "--dir", directory, "--convention", "physical", "--json"],
                               capture_output=True, text=True, check=True).stdout
        sides = json.loads(stats)["tables"][0]["sides"]
        labels = labellings(signature)
        for side in ("w", "b"):
            physical = sides[side]["lasker"]
            diagonal = diagonal_counts(egtb, directory, signature, side)
            count = [labels * (physical[v] + 2 * diagonal[v]) for v in range(5)]
            if any(c % 8 for c in count):
                raise SystemExit(f"{signature} {side}: L (P + 2D) = {count} is not a multiple of 8")
            ours = (count[4] // 8, (count[3] + count[2] + count[1]) // 8, count[0] // 8)
            theirs = syzygy[(syzygy_name(signature), side)]
            same = ours == theirs
            differences += not same
            print(f"{signature} {side} to move: wins, draws, losses {ours[0]:,} {ours[1]:,} {ours[2]:,}"
                  f" (P {physical}, D {diagonal}); Syzygy {theirs[0]:,} {theirs[1]:,} {theirs[2]:,}"
                  f" {'same' if same else 'DIFFERENT'}")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
