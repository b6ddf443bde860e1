#!/usr/bin/env python3
"""Compare Salto's move generator with pydraughts' on random positions.

Plays random games with pydraughts, and from every 7th position after ply
20 compares perft(DEPTH) of pydraughts with `salto perft`. pydraughts
counts a king's two routes with the same from, to and captured pieces as
two moves (Salto and the perft files count them once), so a mismatch is
printed for a look by hand (`salto perft --divide` against pydraughts'
moves one level at a time).

    python3 tools/pydraughts_crosscheck.py --salto target/release/salto \
        --variant russian --games 40 --seed 1 --depth 2

Needs pydraughts 0.6.7 (`pip install pydraughts==0.6.7`).
"""
import argparse
import random
import subprocess

from draughts import Board


def perft(board, depth):
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        board.push(m)
        n += perft(board, depth - 1)
        board.pop()
    return n


def salto_perft(salto, variant, fen, depth):
    out = subprocess.run(
        [salto, "perft", "--variant", variant, "--fen", fen, "--depth", str(depth)],
        capture_output=True, text=True, check=True, env={"SALTO_EGDB": "off"},
    ).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 4 and f[0] == "depth" and f[1] == str(depth):
            return int(f[3])
    raise RuntimeError(f"no depth {depth} line in: {out}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--salto", required=True)
    ap.add_argument("--variant", default="russian")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=2)
    args = ap.parse_args()
    random.seed(args.seed)
    checked = mismatches = kings = 0
    for _ in range(args.games):
        board = Board(variant=args.variant)
        for ply in range(160):
            moves = board.legal_moves()
            if not moves or board.is_over():
                break
            board.push(random.choice(moves))
            if ply >= 20 and ply % 7 == 0:
                fen = board.fen
                want = perft(board, args.depth)
                got = salto_perft(args.salto, args.variant, fen, args.depth)
                checked += 1
                kings += "K" in fen
                if want != got:
                    mismatches += 1
                    print(f"MISMATCH {fen}: pydraughts {want}, salto {got}")
    print(f"checked {checked} positions ({kings} with kings), mismatches {mismatches}")


if __name__ == "__main__":
    main()
