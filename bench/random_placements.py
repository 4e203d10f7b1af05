#!/usr/bin/env python3
"""Random placements of the men of table signatures as FEN lines, for timing `egtb probe --epd`.

    bench/random_placements.py COUNT SIG... [--seed S] > placements.epd

Each line takes a signature in turn (KQk, KRk, KQk, ...), puts its men on distinct random squares
(pawns on ranks 2-7) and picks the side to move at random; nothing checks legality, so some
lines are illegal placements (the side not to move in check, say) that egtb probe reports as such.
The same COUNT, signatures and seed give the same lines.
"""
import argparse
import random


def placement(signature: str, rng: random.Random) -> str:
    board = [None] * 64
    squares = list(range(64))
    rng.shuffle(squares)
    white = signature[: signature.index("k", 1)]
    black = signature[len(white):]
    men = [c.upper() for c in white] + [c.lower() for c in black]
    for man in men:
        square = next(s for s in squares if board[s] is None and (man not in "Pp" or 8 <= s < 56))
        board[square] = man
    ranks = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for file in range(8):
            man = board[rank * 8 + file]
            if man is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + man
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks) + " " + rng.choice("wb") + " - - 0 1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("signatures", nargs="+")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for i in range(args.count):
        print(placement(args.signatures[i % len(args.signatures)], rng))


if __name__ == "__main__":
    main()
