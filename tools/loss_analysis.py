#!/usr/bin/env python3
"""Find and classify the first losing move of an engine in the games it lost.

Usage: loss_analysis.py GAMES.pdn ENGINE_NAME [--salto PATH] [--movetime S] [--jobs N]
                        [--json OUT]
International draughts only (the replay that counts the pieces is for 10x10).

The judge is the winner's own score in the game's comments (Scan 2.0 is the
stronger engine and plays with 2-4 piece bitbases): the first losing move is the
loser's last move before the winner's score passed +0.8 men for good. The loser's
positions before that move and after it (after the winner's reply) are searched
again with `salto hub` at --movetime seconds, far more than the game's ~0.2 s,
and the move is classified:

  time       the loser's clock before the move was under 1 s;
  endgame    at most 10 pieces on the board, or a king on it;
  tactic     the deeper search scores the position after the move at -0.8 or
             below and at least 0.5 lower than the game search scored the
             move: a shot beyond the game search's horizon, found with more depth;
  strategic  the rest: the deeper search does not see the loss either, so the
             evaluation misjudged the position (or the loss is deeper still).
"""
import argparse, concurrent.futures as cf, json, re, statistics, subprocess, sys, threading

def parse_pdn(text):
    games = []
    for chunk in text.split('[Event ')[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = chunk.split('\n\n', 1)[1] if '\n\n' in chunk else ''
        moves, comments = [], []
        for tok in re.finditer(r'\{([^}]*)\}|(\d+\.)|([0-9]+(?:[-x][0-9]+)+)', body):
            if tok.group(3):
                moves.append(tok.group(3)); comments.append(None)
            elif tok.group(1) is not None and moves and comments[-1] is None:
                # The engine's comment; a second one is the runner's reason
                # for the end of the game, not the move's.
                comments[-1] = tok.group(1)
        while moves and moves[-1] in ('2-0', '0-2', '1-1', '0-0', '1-0', '0-1'):
            moves.pop(); comments.pop()
        games.append((tags, moves, comments))
    return games

COMMENT = re.compile(r'^\s*([+-]?\d+\.\d+)/(\d+) (\d+\.\d+)s')
TIME = re.compile(r'(\d+\.\d+)s')

def score_of(c):
    """The game search's score of a move, None for a forced move or a book move (depth 0)."""
    m = COMMENT.match(c or '')
    return float(m.group(1)) if m and int(m.group(2)) > 0 else None

def used_of(c):
    m = TIME.search(c or '')
    return float(m.group(1)) if m else 0.0

_local = threading.local()

def _engine(salto):
    """One Hub session per worker thread (a new process per position would fault in
    its hash table every time)."""
    e = getattr(_local, 'engine', None)
    if e is None:
        e = subprocess.Popen([salto, 'hub'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)
        for cmd in ('hub', 'init'):
            e.stdin.write(cmd + '\n')
            e.stdin.flush()
            want = 'wait' if cmd == 'hub' else 'ready'
            while e.stdout.readline().split()[:1] != [want]:
                pass
        _local.engine = e
        analyse(salto, [], 0.5)  # fault the hash table in before the first real search
    return e

def analyse(salto, moves, movetime):
    """Deep score (side to move's view, men), depth and move of the position after MOVES."""
    e = _engine(salto)
    e.stdin.write('new-game\n')
    e.stdin.write('pos start moves="%s"\n' % ' '.join(moves))
    e.stdin.write('level move-time=%s\n' % movetime)
    e.stdin.write('go think\n')
    e.stdin.flush()
    score = depth = None
    while True:
        line = e.stdout.readline()
        if not line:
            raise RuntimeError('engine ended')
        t = line.split()
        if not t:
            continue
        if t[0] == 'info':
            kv = dict(x.split('=', 1) for x in t[1:] if '=' in x)
            if 'score' in kv:
                score = float(kv['score'])
                depth = int(kv.get('depth', 0))
        elif t[0] == 'done':
            kv = dict(x.split('=', 1) for x in t[1:] if '=' in x)
            return score if score is not None else 0.0, depth, kv.get('move')
        elif t[0] == 'error':
            raise RuntimeError('%s after %s' % (line.strip(), ' '.join(moves)))

def _rc(sq):
    r = (sq - 1) // 5
    return r, 2 * ((sq - 1) % 5) + (1 if r % 2 == 0 else 0)

def _sq(r, c):
    if 0 <= r < 10 and 0 <= c < 10 and (r + c) % 2 == 1:
        return r * 5 + c // 2 + 1
    return None

def _jumps(board, sq, king, me, taken, start):
    """Every capture path from sq: lists of (landing, captured)."""
    out = []
    r0, c0 = _rc(sq)
    for dr, dc in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        r, c = r0 + dr, c0 + dc
        if king:
            while _sq(r, c) is not None and (board.get(_sq(r, c)) is None or _sq(r, c) == start):
                r, c = r + dr, c + dc
        v = _sq(r, c)
        if v is None or v in taken or board.get(v) is None or board[v].lower() == me:
            continue
        r2, c2 = r + dr, c + dc
        while True:
            land = _sq(r2, c2)
            if land is None or (board.get(land) is not None and land != start):
                break
            rest = _jumps(board, land, king, me, taken | {v}, start)
            out += [[(land, v)] + p for p in rest] or [[(land, v)]]
            if not king:
                break
            r2, c2 = r2 + dr, c2 + dc
    return out

def pieces_and_kings(moves):
    """Pieces on the board and whether a king is among them after MOVES (international
    rules; a capture given by its ends takes the longest path between them)."""
    board = {s: 'b' for s in range(1, 21)}
    board.update({s: 'w' for s in range(31, 51)})
    for i, mv in enumerate(moves):
        me = 'w' if i % 2 == 0 else 'b'
        sqs = [int(x) for x in re.split('[-x]', mv)]
        a, b = sqs[0], sqs[-1]
        piece = board.pop(a)
        if 'x' in mv:
            paths = [p for p in _jumps(board, a, piece.isupper(), me, frozenset(), a)
                     if p[-1][0] == b and all(x in [l for l, _ in p] for x in sqs[1:-1])]
            if paths:
                best = max(paths, key=len)
                for _, v in best:
                    board.pop(v, None)
        if piece == 'w' and b <= 5:
            piece = 'W'
        if piece == 'b' and b >= 46:
            piece = 'B'
        board[b] = piece
    return len(board), any(p.isupper() for p in board.values())

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('pdn'); ap.add_argument('engine')
    ap.add_argument('--salto', default='target/release/salto')
    ap.add_argument('--movetime', type=float, default=2.0)
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--window', type=int, default=24)
    ap.add_argument('--tc', default='10+0.1')
    ap.add_argument('--json')
    a = ap.parse_args()
    base, inc = (float(x) for x in a.tc.split('+'))
    games = parse_pdn(open(a.pdn).read())
    jobs = []  # (game index, ply) of loser-to-move positions to search
    lost = []
    for gi, (tags, moves, comments) in enumerate(games):
        me_white = tags.get('White') == a.engine
        if tags.get('White') != a.engine and tags.get('Black') != a.engine:
            continue
        res = tags.get('Result', '')
        lost_game = (res == '0-2' and me_white) or (res == '2-0' and not me_white)
        if not lost_game or tags.get('Termination') == 'time-forfeit':
            continue
        mine = 0 if me_white else 1  # ply index p (0-based) is mine when p % 2 == mine
        # the winner's score passes +0.8 for good at ply index k
        k = None
        for p in range(len(moves) - 1, -1, -1):
            if p % 2 != mine:
                s = score_of(comments[p])
                if s is None:
                    continue
                if s < 0.8:
                    break
                k = p
        if k is None:
            continue
        p = k - 1  # the loser's move just before
        while p >= 0 and p % 2 != mine:
            p -= 1
        if p < int(tags.get('OpeningPlies', '0')):
            continue
        after = p + 2 if p + 2 < len(moves) else None
        lost.append((gi, k, p, after))
        jobs.append((gi, p))
        if after is not None:
            jobs.append((gi, after))
    print(f'{len(lost)} lost games (time forfeits left out), {len(jobs)} positions at {a.movetime}s',
          file=sys.stderr)
    deep = {}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        futs = {ex.submit(analyse, a.salto, games[gi][1][:q], a.movetime): (gi, q) for gi, q in jobs}
        for i, f in enumerate(cf.as_completed(futs)):
            deep[futs[f]] = f.result()
            if i % 20 == 0:
                print(f'{i}/{len(jobs)}', file=sys.stderr)
    rows = []
    for gi, k, p, after in lost:
        tags, moves, comments = games[gi]
        me_white = tags.get('White') == a.engine
        mine = 0 if me_white else 1
        before = deep[(gi, p)][0]
        deep_after = deep[(gi, after)][0] if after is not None else before
        game_score = score_of(comments[p])
        my_plies = [q for q in range(0, p) if q % 2 == mine]
        clock = base + inc * len(my_plies) - sum(used_of(comments[q]) for q in my_plies)
        pieces, kings = pieces_and_kings(moves[:p])
        if clock < 1.0:
            cls = 'time'
        elif pieces <= 10 or kings:
            cls = 'endgame'
        elif deep_after <= -0.8 and (game_score is None or game_score - deep_after >= 0.5):
            cls = 'tactic'
        else:
            cls = 'strategic'
        rows.append(dict(round=tags.get('Round'), colour='white' if me_white else 'black',
                         ply=p + 1, move=moves[p], game_score=game_score, deep_before=before,
                         deep_after=deep_after, deep_best=deep[(gi, p)][2],
                         deep_depth=deep[(gi, p)][1], clock=round(clock, 2), pieces=pieces,
                         kings=kings, cls=cls))
    for r in rows:
        print(json.dumps(r))
    counts = {}
    for r in rows:
        counts[r['cls']] = counts.get(r['cls'], 0) + 1
    print('classes:', counts, file=sys.stderr)
    if rows:
        print('median ply of the first losing move:', statistics.median(r['ply'] for r in rows),
              file=sys.stderr)
    if a.json:
        json.dump(rows, open(a.json, 'w'), indent=1)

if __name__ == '__main__':
    main()
