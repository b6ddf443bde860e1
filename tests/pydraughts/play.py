#!/usr/bin/env python3
"""Drive Salto through pydraughts' HubEngine exactly as a user would.

For each variant given, play complete games, engine against itself, with a
short time per move, checking every move the engine plays against
pydraughts' own legal move list and that the game ends by pydraughts' rules.
One international game also exercises pondering: `go ponder` answered by
`ponder-hit`, and `go ponder` answered by `stop`.

Usage: play.py --engine PATH [--variants normal,english,...] [--movetime S]
Exit status 0 when every game passed; 1 otherwise. Known pydraughts bugs
(Turkish kings sliding through their own men) are reported, not failed,
when the engine itself confirms that a move in pydraughts' list is illegal.
"""

import argparse
import re
import sys
import threading
import time

import draughts
from draughts.engine import HubEngine, Limit

# Hub variant name -> pydraughts variant name.
PYDRAUGHTS_NAME = {
    "normal": "standard",
    "english": "english",
    "brazilian": "brazilian",
    "turkish": "turkish",
    "russian": "russian",
    "antidraughts": "antidraughts",
    "breakthrough": "breakthrough",
}

MAX_PLIES = 600


def norm(hub_move):
    """A Hub move as (from, to, sorted captured squares)."""
    parts = re.split(r"[-x]", hub_move.strip())
    nums = [int(p) for p in parts]
    return (nums[0], nums[1], tuple(sorted(nums[2:])))


def log(msg):
    print(msg, flush=True)


class Engines:
    """The engine under test, and a second instance used as a referee."""

    def __init__(self, path, variant):
        self.variant = variant
        self.engine = HubEngine([path, "hub"])
        self.engine.init()
        self.engine.setoption("variant", variant)
        self.referee = HubEngine([path, "hub"])
        self.referee.init()
        self.referee.setoption("variant", variant)

    def engine_rejects(self, board, hub_move):
        """True if Salto says `hub_move` is illegal in `board`'s position."""
        r = self.referee
        moves = " ".join(m.hub_move for m in board.move_stack)
        moves = (moves + " " + hub_move).strip()
        r.send(f'pos pos={board._game.initial_hub_fen} moves="{moves}"')
        r.send("ping")
        rejected = False
        while True:
            line = r.recv()
            if line == "pong":
                return rejected
            if line.startswith("error"):
                rejected = True

    def close(self):
        for e in (self.engine, self.referee):
            try:
                e.quit()
                e.p.wait(timeout=5)
            except Exception:  # noqa: BLE001 - best effort
                e.kill_process()
            for f in (e.p.stdin, e.p.stdout):
                try:
                    f.close()
                except Exception:  # noqa: BLE001 - already closed
                    pass


def play_one(engines, variant, movetime, ponder_every=0, known_bugs=None):
    """Plays one game; returns (ok, description)."""
    board = draughts.Board(variant=PYDRAUGHTS_NAME[variant])
    engine = engines.engine
    limit = Limit(movetime=movetime)
    ply = 0
    pondered = {"hit": 0, "stop": 0}
    while not board.is_over():
        if ply >= MAX_PLIES:
            return False, f"no result after {ply} plies (fen {board.fen})"
        # pydraughts' legal moves, in its board form (cheaper than Move
        # objects; those are built only to report a failure).
        legal_board, _ = board._legal_moves_board()
        use_ponder = ponder_every and ply % ponder_every == 0
        try:
            if use_ponder:
                result = ponder_move(engine, board, limit, ply, pondered)
            else:
                result = engine.play(board, limit, False)
        except Exception as exc:  # pydraughts could not take the engine's move
            legal = board.legal_moves()
            bogus = [m.hub_move for m in legal if engines.engine_rejects(board, m.hub_move)]
            if variant == "turkish" and bogus:
                known_bugs.append(
                    f"turkish ply {ply} fen {board.fen}: pydraughts lists moves Salto rejects "
                    f"{bogus} and could not take Salto's move ({exc!r})"
                )
                return True, f"stopped at ply {ply} by the known pydraughts turkish bug"
            return False, f"ply {ply} fen {board.fen}: pydraughts rejected the engine's move: {exc!r}"
        move = result.move
        if move.board_move not in legal_board:
            legal = board.legal_moves()
            return False, (
                f"ply {ply} fen {board.fen}: illegal move {move.hub_move}; "
                f"legal: {sorted(m.hub_move for m in legal)}"
            )
        # The ponder move: HubEngine.play builds it on a copy of the board
        # after the move, which raises (caught above) unless it is legal.
        board.push(move)
        ply += 1
    winner = board.winner()
    text = {0: "draw", draughts.WHITE: "white wins", draughts.BLACK: "black wins"}.get(winner, repr(winner))
    if ponder_every and (pondered["hit"] == 0 or pondered["stop"] == 0):
        return False, f"pondering not exercised: {pondered}"
    return True, f"{text} after {ply} plies" + (f", pondered {pondered}" if ponder_every else "")


def ponder_move(engine, board, limit, ply, pondered):
    """One move through `go ponder`, ended by ponder-hit or (every other
    time) stop, sent from this thread while another waits for `done`."""
    out = {}

    def run():
        try:
            out["result"] = engine.play(board, limit, True)
        except Exception as exc:  # noqa: BLE001 - reported below
            out["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    time.sleep(0.05)
    if ply % 2 == 0:
        engine.ponderhit()
        pondered["hit"] += 1
    else:
        engine.stop()
        pondered["stop"] += 1
    t.join(timeout=30)
    if t.is_alive():
        raise RuntimeError("no done within 30 s after ponder-hit/stop")
    if "error" in out:
        raise out["error"]
    return out["result"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--variants", default="normal,english,brazilian,turkish,russian,antidraughts,breakthrough")
    ap.add_argument("--movetime", type=float, default=0.01)
    ap.add_argument("--games", type=int, default=1)
    args = ap.parse_args()

    failures = []
    known_bugs = []
    for variant in [v for v in args.variants.split(",") if v]:
        engines = Engines(args.engine, variant)
        try:
            for g in range(args.games):
                t0 = time.time()
                ok, what = play_one(engines, variant, args.movetime, known_bugs=known_bugs)
                log(f"{variant} game {g + 1}: {'ok' if ok else 'FAILED'}: {what} ({time.time() - t0:.1f} s)")
                if not ok:
                    failures.append(f"{variant}: {what}")
            if variant == "normal":
                t0 = time.time()
                ok, what = play_one(engines, variant, args.movetime, ponder_every=3, known_bugs=known_bugs)
                log(f"{variant} ponder game: {'ok' if ok else 'FAILED'}: {what} ({time.time() - t0:.1f} s)")
                if not ok:
                    failures.append(f"{variant} ponder: {what}")
        finally:
            engines.close()
    for b in known_bugs:
        log(f"known pydraughts bug: {b}")
    if failures:
        for f in failures:
            log(f"FAILURE: {f}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
