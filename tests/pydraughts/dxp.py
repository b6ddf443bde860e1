#!/usr/bin/env python3
"""Drive `salto dxp --listen` with pydraughts' DXP client (DXPEngine), as a
user of pydraughts would: pydraughts is the initiator and plays white with
random legal moves; Salto, the follower, plays black. Every move Salto
sends must be in pydraughts' own legal move list.

pydraughts plays white because its client (0.6.7, `MySocket.receive`)
reads up to the first NUL and drops whatever else the same read returned:
when the follower moves first, its GAMEACC and first MOVE can arrive in
one read, the move is lost and `DXPEngine.play` waits forever. With
pydraughts moving first, Salto only ever sends one message and then waits.

pydraughts' debug log goes to stderr, which the test shows on failure.

Usage: dxp.py PORT PLIES
Prints "ok PLIES FEN" and exits 0 when every move passed; 1 otherwise.
"""

import logging
import os
import random
import sys

import draughts
from draughts.engine import DXPEngine


def main():
    port, plies = int(sys.argv[1]), int(sys.argv[2])
    logging.basicConfig(
        level=logging.DEBUG,
        stream=sys.stderr,
        format="%(relativeCreated)d ms %(threadName)s: %(message)s",
    )
    engine = DXPEngine(
        None,
        {"engine-opened": True, "ip": "127.0.0.1", "port": port},
        initial_time=120,
    )
    board = draughts.Board(variant="standard")
    rng = random.Random(7)
    played = 0
    while played < plies and not board.is_over():
        legal = board.legal_moves()
        if board.turn == draughts.BLACK:
            result = engine.play(board)
            move = result.move
            if move is None:
                print(f"no move from Salto after {played} plies", file=sys.stderr)
                return 1
            if not any(m.board_move == move.board_move for m in legal):
                print(f"illegal move from Salto: {move.board_move} in {board.fen}", file=sys.stderr)
                return 1
        else:
            move = rng.choice(legal)
        board.push(move)
        played += 1
    # GAMEEND, then the connection is closed.
    engine.quit()
    print(f"ok {played} {board.fen}", flush=True)
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # pydraughts' receiver thread may outlive the socket: do not wait for it.
    os._exit(code)
