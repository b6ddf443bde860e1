#!/usr/bin/env python3
"""A transparent Hub proxy that records how long the engine thinks.

Usage (as the engine command of `salto match`):
    python3 hub_timing_proxy.py LOGFILE ENGINE [ARGS...]

Every line is passed through unchanged. For each `go think` it remembers the
last `level time=T` and the time the line was forwarded; when the engine's
`done` arrives it appends `used left` (seconds, the engine's own thinking as
seen by the proxy, without the runner's pipe latency) to LOGFILE. The
largest `used - left` over a match is the worst overshoot of the clock.
"""
import subprocess
import sys
import threading
import time


def main():
    log_path, cmd = sys.argv[1], sys.argv[2:]
    # Buffered pipes: readline returns as soon as a whole line is there.
    eng = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    state = {"left": None, "t0": None}
    lock = threading.Lock()
    log = open(log_path, "a", buffering=1)

    def pump_out():
        for raw in eng.stdout:
            now = time.monotonic()
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
            if raw.startswith(b"done"):
                with lock:
                    t0, left = state["t0"], state["left"]
                    state["t0"] = None
                if t0 is not None:
                    log.write(f"{now - t0:.4f} {left if left is not None else -1}\n")
        sys.stdout.close()

    t = threading.Thread(target=pump_out, daemon=True)
    t.start()
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", "replace").strip()
        if line.startswith("level"):
            for tok in line.split():
                if tok.startswith("time="):
                    with lock:
                        state["left"] = float(tok[5:])
        if line.startswith("go") and "ponder" not in line:
            with lock:
                state["t0"] = time.monotonic()
        try:
            eng.stdin.write(raw)
            eng.stdin.flush()
        except BrokenPipeError:
            break
    try:
        eng.stdin.close()
    except BrokenPipeError:
        pass
    eng.wait()
    t.join(timeout=5)


if __name__ == "__main__":
    main()
