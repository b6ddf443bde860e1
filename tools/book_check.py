#!/usr/bin/env python3
"""Check a shipped book's first moves against a deep search (issue 34's bar).

Usage: book_check.py VARIANT... [--salto PATH] [--books DIR] [--depth D] [--margin M] [--json OUT]

For each variant: the book moves of the start position (`salto book show`),
the ones the engine may play (scored no more than M men below the best book
move, the Hub's `book-margin`, default 0.04), then every root move searched to
depth D (default 20) with `salto analyse --multipv N`. A variant passes when
every move the book may play is also within M of the best move of the search.
"""
import argparse, json, subprocess, sys

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('variants', nargs='+')
    ap.add_argument('--salto', default='target/release/salto')
    ap.add_argument('--books', help='check DIR/VARIANT.bin instead of the shipped books')
    ap.add_argument('--depth', type=int, default=20)
    ap.add_argument('--margin', type=float, default=0.04)
    ap.add_argument('--json')
    a = ap.parse_args()
    out, failed = {}, False
    for v in a.variants:
        book_arg = ['--book', f'{a.books}/{v}.bin'] if a.books else []
        show = subprocess.run([a.salto, 'book', 'show', '--variant', v] + book_arg,
                              capture_output=True, text=True, check=True).stdout.splitlines()
        # "position FEN", "move score depth count", then one line per move.
        rows = [l.split() for l in show[2:] if l.strip()]
        book = {r[0]: float(r[1]) for r in rows}
        if not book:
            print(f'{v}: no book moves at the start', file=sys.stderr)
            failed = True
            continue
        best = max(book.values())
        played = sorted(m for m, s in book.items() if s >= best - a.margin - 1e-9)
        p = subprocess.run([a.salto, 'analyse', '--variant', v, '--depth', str(a.depth),
                            '--multipv', str(len(book)), '--json'],
                           capture_output=True, text=True, check=True)
        infos = [json.loads(l) for l in p.stdout.splitlines() if l.startswith('{')]
        infos = [i for i in infos if i.get('type') == 'info']
        depth = max(i['depth'] for i in infos)
        scores = {i['pv'].split()[0]: i['score'] for i in infos if i['depth'] == depth}
        top = max(scores.values())
        within = sorted(m for m, s in scores.items() if s >= top - a.margin - 1e-9)
        outside = [m for m in played if m not in within]
        ok = not outside
        failed |= not ok
        out[v] = {'depth': depth, 'book': book, 'book_played': played, 'search': scores,
                  'search_within_margin': within, 'outside': outside, 'ok': ok}
        print(f'{v}: depth {depth}, book plays {" ".join(played)}; the search rates '
              f'{" ".join(within)} within {a.margin:.2f} of its best {top:+.2f}: '
              + ('ok' if ok else 'outside: ' + ', '.join(f'{m} {scores.get(m, float("nan")):+.2f}' for m in outside)),
              flush=True)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(out, f, indent=1)
    sys.exit(1 if failed else 0)

if __name__ == '__main__':
    main()
