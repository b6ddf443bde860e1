#!/usr/bin/env python3
"""How an engine spent its clock in the games of a `salto match --pdn` file.

Usage: clock_use.py GAMES.pdn ENGINE_NAME [--base S] [--inc S]

Reads each move's time from the move comments (`{+0.05/16 0.30s}`, and
`{0.00s}` for a forced move) and follows the engine's clock from --base
seconds (default 10) with --inc seconds a move (default 0.1), as `salto match
--tc 10+0.1` plays. Prints, by tens of the engine's own moves, the number of
moves, the mean time a move and the median clock before the move; then the
clock left at the end of the games (median and deciles), in the games the
engine lost, and the share of its moves answered at once (0.00 s).
"""
import argparse, collections, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loss_analysis import TIME, parse_pdn  # the PDN reading of the loss analysis


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('pdn')
    ap.add_argument('engine')
    ap.add_argument('--base', type=float, default=10.0)
    ap.add_argument('--inc', type=float, default=0.1)
    a = ap.parse_args()
    times = collections.defaultdict(list)
    clocks = collections.defaultdict(list)
    left, lost_left, instant, total = [], [], 0, 0
    for tags, moves, comments in parse_pdn(open(a.pdn).read()):
        white, black = tags.get('White'), tags.get('Black')
        if a.engine not in (white, black):
            continue
        clock, mine = a.base, 0
        for i, comment in enumerate(comments):
            m = TIME.search(comment) if comment and (white, black)[i % 2] == a.engine else None
            if not m:
                continue
            t = float(m.group(1))
            bucket = min(mine // 10, 12)
            times[bucket].append(t)
            clocks[bucket].append(clock)
            clock += a.inc - t
            mine += 1
            total += 1
            instant += t < 0.005
        left.append(clock)
        res = tags.get('Result')
        winner = white if res == '2-0' else black if res == '0-2' else None
        if winner is not None and winner != a.engine:
            lost_left.append(clock)
    if not left:
        raise SystemExit(f'no game of {a.engine} in {a.pdn}')
    print(f'{a.engine}: {len(left)} games, {total} moves')
    for b in sorted(times):
        label = f'{10 * b}-{10 * b + 9}' if b < 12 else '120-'
        print(f'  moves {label:>7}: {len(times[b]):6d} moves, mean {statistics.mean(times[b]):.3f} s,'
              f' clock before {statistics.median(clocks[b]):.2f} s')
    dec = [round(x, 2) for x in statistics.quantiles(left, n=10)] if len(left) > 1 else left
    print(f'  clock left at the end: median {statistics.median(left):.2f} s, deciles {dec}')
    if lost_left:
        print(f'  in the {len(lost_left)} games lost: median {statistics.median(lost_left):.2f} s')
    print(f'  moves answered at once (0.00 s): {100 * instant / max(total, 1):.0f}%')


if __name__ == '__main__':
    main()
