#!/usr/bin/env python3
"""Sums up tests/reliability/selfplay.sh runs for docs/reliability.md.

    python3 tests/reliability/summarize.py OUTDIR [OUTDIR ...]

Per configuration: games, how they ended, failures by kind (time loss,
illegal move, crash, hang, engine error, start failure), moves timed, the
largest `used - left` (seconds over the clock; negative: never over) and the
largest share of the clock one move used.
"""
import collections
import glob
import json
import os
import sys

ORDER = ["international", "brazilian", "english", "spanish", "turkish", "hex",
         "chinese2", "chinese3", "chinese4", "chinese6"]
rows = collections.OrderedDict((k, {"games": 0, "endings": collections.Counter(),
                                    "failures": collections.Counter(), "moves": 0,
                                    "over": None, "share": 0.0, "used": 0.0})
                               for k in ORDER)
for d in sys.argv[1:]:
    for path in glob.glob(os.path.join(d, "*.json")):
        name = os.path.basename(path)[:-5]
        try:
            j = json.load(open(path))
        except (ValueError, OSError):
            continue  # a match still running or cut short
        r = rows.setdefault(name, {"games": 0, "endings": collections.Counter(),
                                   "failures": collections.Counter(), "moves": 0,
                                   "over": None, "share": 0.0, "used": 0.0})
        r["games"] += j["games"]
        r["endings"].update(j.get("endings", {}))
        for e in j["engines"]:
            r["failures"].update(e.get("failures", {}))
        times = path[:-5] + ".times"
        if os.path.exists(times):
            for line in open(times):
                try:
                    used, left = map(float, line.split())
                except ValueError:
                    continue
                if left <= 0:
                    continue
                r["moves"] += 1
                r["used"] = max(r["used"], used)
                over = used - left
                r["over"] = over if r["over"] is None else max(r["over"], over)
                r["share"] = max(r["share"], used / left)

print("| config | games | endings | failures | moves timed | longest move (s) | largest used - left (s) | largest share of the clock |")
print("|---|---|---|---|---|---|---|---|")
tot = {"games": 0, "failures": collections.Counter(), "moves": 0, "over": None}
for name, r in rows.items():
    if r["games"] == 0:
        continue
    tot["games"] += r["games"]
    tot["failures"].update(r["failures"])
    tot["moves"] += r["moves"]
    if r["over"] is not None:
        tot["over"] = r["over"] if tot["over"] is None else max(tot["over"], r["over"])
    endings = ", ".join(f"{k} {v}" for k, v in sorted(r["endings"].items()))
    failures = ", ".join(f"{k} {v}" for k, v in sorted(r["failures"].items())) or "none"
    over = "-" if r["over"] is None else f"{r['over']:+.3f}"
    print(f"| {name} | {r['games']} | {endings} | {failures} | {r['moves']} | {r['used']:.3f} | {over} | {r['share']:.2f} |")
fails = ", ".join(f"{k} {v}" for k, v in sorted(tot["failures"].items())) or "none"
over = "-" if tot["over"] is None else f"{tot['over']:+.3f}"
print(f"| **all** | {tot['games']} | | {fails} | {tot['moves']} | | {over} | |")
