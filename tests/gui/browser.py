"""The real-browser test of `salto gui` (run by tests/gui_browser.rs).

Headless Chromium, driven by selenium, loads the page, plays a whole game of
english against the engine at depth 2 by clicking, one move in each other
game (chinese checkers with 6 players), takes a move back, sets a position
from a FEN, copies the game as PDN and watches it again. After every move
the pieces drawn on the page are checked against the position Salto's rules
compute from the moves played (`/api/replay`, a stateless request that
replays the move list from scratch), and the moves the page offers against
`salto perft --depth 1 --divide` run on the drawn position.

Usage: browser.py --salto PATH [--screenshots DIR]
Exit status 0 on success; 3 when selenium or Chromium is missing.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    from selenium.common.exceptions import StaleElementReferenceException
except ImportError:
    print("selenium is not installed", file=sys.stderr)
    sys.exit(3)


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


class Gui:
    def __init__(self, salto, shots):
        self.salto = salto
        self.shots = shots
        self.proc = subprocess.Popen(
            [salto, "gui", "--port", "0"], stdout=subprocess.PIPE, text=True
        )
        line = self.proc.stdout.readline()
        url = [w for w in line.split() if w.startswith("http://")]
        check(url, f"salto gui printed no URL: {line!r}")
        self.url = url[0].rstrip("/")
        opts = webdriver.ChromeOptions()
        for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                  "--disable-gpu", "--window-size=1280,1000"):
            opts.add_argument(a)
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        if binary:
            opts.binary_location = binary
        driver_path = shutil.which("chromedriver")
        service = Service(executable_path=driver_path) if driver_path else Service()
        self.d = webdriver.Chrome(options=opts, service=service)
        self.d.get(self.url + "/")
        self.wait(lambda: self.d.execute_script("return document.body.dataset.ready") == "1",
                  "the page never became ready")

    def close(self):
        try:
            self.d.quit()
        finally:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    # --- helpers ---

    def wait(self, cond, msg, timeout=30.0):
        end = time.time() + timeout
        while time.time() < end:
            try:
                if cond():
                    return
            except Exception:  # the page is redrawing
                pass
            time.sleep(0.05)
        raise Failure(msg)

    def api(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data,
                                     method="GET" if body is None else "POST")
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    def state(self):
        return self.api("/api/state")

    def drawn(self):
        """The pieces the page shows: {square: (player, king)}."""
        # One script, so that a redraw cannot come between two reads.
        rows = self.d.execute_script(
            "return Array.from(document.querySelectorAll('#board g.pc')).map((g) =>"
            " [g.dataset.piece, g.dataset.player, g.dataset.king]);")
        return {int(n): (p, k == "1") for n, p, k in rows}

    def check_board(self, game, moves, fen=None):
        """The drawn pieces against Salto's replay of `moves` (from `fen`);
        the drawn position's legal moves against `salto perft --divide`."""
        req = dict(game)
        req["moves"] = moves
        if fen:
            req["fen"] = fen
        ref = self.api("/api/replay", req)
        want = {p["n"]: ("x" if p["player"] is None else str(p["player"]), p["king"])
                for p in ref["pieces"]}
        try:
            self.wait(lambda: self.drawn() == want, "", timeout=10)
        except Failure:
            raise Failure(f"{game['variant']} after {moves}: the page shows {self.drawn()}, "
                          f"Salto says {want}")
        if ref["result"]:
            return ref
        args = [self.salto, "perft", "--variant", game["variant"], "--fen", ref["fen"],
                "--depth", "1", "--divide"]
        if "players" in game:
            args += ["--players", str(game["players"])]
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        perft = sorted(line.split()[0] for line in out.splitlines()
                       if len(line.split()) == 2 and line.split()[1] == "1")
        offered = sorted(m["text"] for m in self.state()["legal"])
        check(perft == offered, f"{game['variant']}: the page offers {offered}, "
                                f"salto perft says {perft}")
        return ref

    def set_form(self, game, seats):
        Select(self.d.find_element(By.ID, "variant")).select_by_value(game["variant"])
        if "players" in game:
            Select(self.d.find_element(By.ID, "players")).select_by_value(str(game["players"]))
        rows = self.d.find_elements(By.CSS_SELECTOR, "#seats .seat")
        check(len(rows) == len(seats), f"{len(rows)} seat rows for {len(seats)} seats")
        for row, seat in zip(rows, seats):
            Select(row.find_element(By.CSS_SELECTOR, ".seat-kind")).select_by_value(
                "engine" if seat else "human")
            depth = row.find_element(By.CSS_SELECTOR, ".seat-depth")
            depth.clear()
            time_box = row.find_element(By.CSS_SELECTOR, ".seat-time")
            time_box.clear()
            if seat:
                depth.send_keys(str(seat))

    def new_game(self, game, seats):
        self.set_form(game, seats)
        version = int(self.d.execute_script("return document.body.dataset.version"))
        self.d.find_element(By.ID, "new-game").click()
        self.wait(lambda: int(self.d.execute_script("return document.body.dataset.version"))
            > version
            and self.d.execute_script("return document.body.dataset.ply") == "0"
            and self.d.execute_script(
                "return document.getElementById('board').dataset.variant") == game["variant"]
            and self.state()["variant"] == game["variant"]
            and len(self.state()["seats"]) == len(seats),
            f"the page did not start {game['variant']}")

    def click(self, selector):
        """Clicks an element; the board is redrawn on every event, so an
        element found a moment ago may be gone: find it again."""
        for _ in range(50):
            try:
                self.d.find_element(By.CSS_SELECTOR, selector).click()
                return
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise Failure(f"cannot click {selector}")

    def text(self, selector):
        """The text of an element, found again when a redraw replaced it
        between finding and reading (the clocks are redrawn every tick)."""
        for _ in range(50):
            try:
                return self.d.find_element(By.CSS_SELECTOR, selector).text
            except StaleElementReferenceException:
                time.sleep(0.05)
        raise Failure(f"cannot read {selector}")

    def click_move(self, mv):
        """Plays `mv` (a move of /api/state's legal list) by clicking."""
        ply = self.state()["ply"]
        if mv["from"] is None:
            self.d.find_element(By.ID, "pass").click()
        else:
            self.click(f'[data-cell="{mv["from"]}"]')
            self.wait(lambda: self.d.find_elements(By.CSS_SELECTOR, "#board .selected"),
                      f"{mv['from']} was not selected")
            self.click(f'[data-cell="{mv["to"]}"]')
            same = [m for m in self.state()["legal"]
                    if m["from"] == mv["from"] and m["to"] == mv["to"]]
            if len(same) > 1:
                self.wait(lambda: self.d.find_element(
                    By.CSS_SELECTOR, f'#routes [data-route="{mv["text"]}"]').is_displayed(),
                    "no route choice shown")
                self.click(f'#routes [data-route="{mv["text"]}"]')
        self.wait(lambda: self.state()["ply"] > ply, f"the click on {mv['text']} played nothing")

    def shot(self, name):
        if not self.shots:
            return
        os.makedirs(self.shots, exist_ok=True)
        self.d.find_element(By.ID, "board").screenshot(os.path.join(self.shots, name))


def english_game(gui, rng):
    """A whole game: a person (random legal moves, clicked) against the engine
    at depth 2; english Black moves first and is the person here."""
    game = {"variant": "english"}
    gui.new_game(game, [2, None])  # White: engine depth 2; Black: human
    moves = []
    plies = 0
    while True:
        st = gui.state()
        if st["result"]:
            break
        check(plies < 400, "the english game did not end in 400 plies")
        if st["searching"] == "play" or st["seats"][st["to_move"]]["engine"]:
            gui.wait(lambda: gui.state()["ply"] > st["ply"] or gui.state()["result"],
                     "the engine did not move")
            continue
        mv = rng.choice(st["legal"])
        gui.click_move(mv)
        # Let the engine answer, then check the board.
        gui.wait(lambda: (lambda s: s["result"] or not s["seats"][s["to_move"]]["engine"])
                 (gui.state()), "the engine did not answer")
        moves = gui.state()["line"]
        gui.check_board(game, moves)
        plies = len(moves)
        if plies == 12:
            gui.shot("gui-english.png")
    st = gui.state()
    status = gui.d.find_element(By.ID, "status").text
    check("wins" in status or "Draw" in status, f"the end is not shown: {status!r}")
    print(f"english: {len(st['line'])} plies, {status}")
    return st


def one_move(gui, game, shot):
    players = game.get("players", 2)
    gui.new_game(game, [None] * players)
    st = gui.state()
    mv = st["legal"][len(st["legal"]) // 2]
    gui.click_move(mv)
    gui.check_board(game, gui.state()["line"])
    check(gui.state()["line"] == [mv["text"]], f"{game['variant']}: played {gui.state()['line']}")
    gui.shot(shot)
    print(f"{game['variant']}: played {mv['text']}")


def analyse_game(gui, game, played):
    """Analyse game on the watched game: a graph with one point per
    position (the start and after each move); a click goes there."""
    gui.d.find_element(By.ID, "tab-play").click()
    depth = gui.d.find_element(By.ID, "review-depth")
    depth.clear()
    depth.send_keys("2")
    gui.d.find_element(By.ID, "review").click()
    points = "#graph .graph-point"
    gui.wait(lambda: len(gui.d.find_elements(By.CSS_SELECTOR, points)) == len(played) + 1,
             f"no graph with {len(played) + 1} points: "
             f"{len(gui.d.find_elements(By.CSS_SELECTOR, points))}")
    check(gui.d.find_element(By.ID, "review-progress").get_attribute("hidden") is not None,
          "the progress bar stayed after the analysis")
    gui.click('#graph .graph-point[data-ply="3"]')
    gui.wait(lambda: gui.state()["ply"] == 3, "a click on the graph did not go to ply 3")
    gui.check_board(game, played[:3])
    gui.wait(lambda: gui.d.find_element(By.CSS_SELECTOR, '#graph .graph-point.current')
             .get_attribute("data-ply") == "3", "the graph does not show ply 3")
    check("score" in gui.d.find_element(By.ID, "review-note").text, "no score under the graph")
    if gui.shots:
        gui.d.find_element(By.ID, "graph").screenshot(os.path.join(gui.shots, "gui-graph.png"))
    # Cancelled while it runs: the progress bar goes.
    t = gui.d.find_element(By.ID, "review-time")
    t.send_keys("5")
    depth.clear()
    gui.d.find_element(By.ID, "review").click()
    gui.wait(lambda: gui.d.find_element(By.ID, "review-progress").is_displayed(),
             "no progress bar while analysing")
    gui.d.find_element(By.ID, "review-cancel").click()
    gui.wait(lambda: gui.state()["review"] is None, "the analysis was not cancelled")
    t.clear()
    print(f"analyse game: {len(played) + 1} points, click went to ply 3")


def several_lines(gui):
    """Lines = 3 with Analyse: three lines listed, their moves as arrows."""
    Select(gui.d.find_element(By.ID, "multipv")).select_by_value("3")
    gui.wait(lambda: gui.state()["multipv"] == 3, "multipv was not set")
    gui.d.find_element(By.ID, "analyse").click()
    gui.wait(lambda: len(gui.d.find_elements(By.CSS_SELECTOR, "#lines li")) == 3,
             "three lines are not listed")
    gui.wait(lambda: len(gui.d.find_elements(By.CSS_SELECTOR, "#board line.arrow.alt")) >= 1,
             "no arrow for the other lines")
    gui.d.find_element(By.ID, "analyse").click()
    gui.wait(lambda: not gui.state()["analysing"], "analysis did not stop")
    Select(gui.d.find_element(By.ID, "multipv")).select_by_value("1")
    print("several lines: 3 listed with arrows")


def timed_game(gui):
    """Two engines at depth 30 on a 0.5 s clock: the first runs out of time
    while it thinks, and the page shows the flag and the result."""
    box = gui.d.find_element(By.ID, "clock")
    box.clear()
    box.send_keys("0.5+0")
    game = {"variant": "international"}
    gui.new_game(game, [30, 30])
    gui.wait(lambda: gui.d.find_elements(By.CSS_SELECTOR, "#clocks .clock.running"),
             "no running clock")
    gui.wait(lambda: gui.d.find_elements(By.CSS_SELECTOR, "#clocks .clock.flagged"),
             "no flag shown", timeout=20)
    status = gui.text("#status")
    check("lost on time" in status and "wins" in status, f"the flag is not the result: {status!r}")
    flagged = gui.text("#clocks .clock.flagged")
    check("0.0" in flagged, f"the flagged clock shows {flagged!r}")
    box.clear()
    gui.set_form(game, [None, None])
    print(f"timed game: {status}")


def phone(gui):
    """A 400x800 window: the board fits the width, nothing scrolls sideways,
    and a tap plays a move."""
    gui.d.set_window_size(400, 800)
    gui.new_game({"variant": "international"}, [None, None])
    width = gui.d.execute_script("return document.documentElement.clientWidth")
    board = gui.d.execute_script(
        "const r = document.getElementById('board').getBoundingClientRect(); return [r.left, r.right];")
    scroll = gui.d.execute_script("return document.documentElement.scrollWidth")
    check(board[0] >= 0 and board[1] <= width + 1 and board[1] - board[0] > 0.8 * width,
          f"the board does not fit a {width} px window: {board}")
    check(scroll <= width + 1, f"the page scrolls sideways: {scroll} > {width}")
    mv = gui.state()["legal"][0]
    gui.click_move(mv)
    gui.check_board({"variant": "international"}, [mv["text"]])
    if gui.shots:
        gui.d.save_screenshot(os.path.join(gui.shots, "gui-phone.png"))
    gui.d.set_window_size(1280, 1000)
    print(f"phone: the board is {board[1] - board[0]:.0f} px wide in {width} px")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--salto", required=True)
    ap.add_argument("--screenshots")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    if not (shutil.which("chromium") or shutil.which("chromium-browser")) \
            or not shutil.which("chromedriver"):
        print("chromium or chromedriver is missing", file=sys.stderr)
        sys.exit(3)
    rng = random.Random(a.seed)
    gui = Gui(a.salto, a.screenshots)
    try:
        t0 = time.time()
        english_game(gui, rng)

        # Take back: the person's move and the engine's reply.
        game = {"variant": "english"}
        gui.new_game(game, [2, None])
        gui.click_move(gui.state()["legal"][0])
        gui.wait(lambda: gui.state()["ply"] == 2, "the engine did not reply")
        gui.d.find_element(By.ID, "undo").click()
        gui.wait(lambda: gui.state()["ply"] == 0, "take back did not go back to the start")
        gui.check_board(game, [])

        for game, shot in [
            ({"variant": "international"}, "gui-international.png"),
            ({"variant": "brazilian"}, "gui-brazilian.png"),
            ({"variant": "spanish"}, "gui-spanish.png"),
            ({"variant": "turkish"}, "gui-turkish.png"),
            ({"variant": "hex"}, "gui-hex.png"),
            ({"variant": "chinese", "players": 6}, "gui-chinese.png"),
        ]:
            one_move(gui, game, shot)

        # Flip: hole 1 (top) goes to the bottom, and back.
        top = ("return document.querySelector('[data-cell=\"1\"]').getBoundingClientRect().y"
               " - document.querySelector('[data-cell=\"121\"]').getBoundingClientRect().y")
        check(gui.d.execute_script(top) < 0, "hole 1 is not above hole 121")
        gui.d.find_element(By.ID, "flip").click()
        gui.wait(lambda: gui.d.execute_script(top) > 0, "Flip did not turn the board")
        gui.d.find_element(By.ID, "flip").click()

        # Analysis with PV arrows on an international position.
        game = {"variant": "international"}
        gui.new_game(game, [None, None])
        gui.d.find_element(By.ID, "analyse").click()
        gui.wait(lambda: gui.d.find_elements(By.CSS_SELECTOR, "#board line.arrow"),
                 "no PV arrows while analysing")
        info = gui.d.find_element(By.ID, "info-text").text
        check("depth" in info and "nps" in info, f"no analysis line: {info!r}")
        gui.shot("gui-analysis.png")
        gui.d.find_element(By.ID, "analyse").click()
        gui.wait(lambda: not gui.state()["analysing"], "analysis did not stop")

        # A position from a FEN, with a king; a bad FEN shows an error.
        box = gui.d.find_element(By.ID, "position")
        box.clear()
        box.send_keys("W:WK46,31:B5,19")
        gui.d.find_element(By.ID, "set-position").click()
        gui.wait(lambda: gui.drawn() == {46: ("0", True), 31: ("0", False),
                                         5: ("1", False), 19: ("1", False)},
                 f"the FEN position is not drawn: {gui.drawn()}")
        # Two captures from 49 to 4 taking different pieces: the page asks.
        fen = "W:WK49:B9,12,23,24,44"
        box.clear()
        box.send_keys(fen)
        gui.d.find_element(By.ID, "set-position").click()
        gui.wait(lambda: gui.state()["fen"] == fen, "the capture position was not set")
        gui.check_board(game, [], fen)
        gui.click('[data-cell="49"]')
        gui.click('[data-cell="4"]')
        gui.wait(lambda: len(gui.d.find_elements(By.CSS_SELECTOR, "#routes [data-route]")) == 2,
                 "no choice between the two captures")
        if gui.shots:
            gui.d.find_element(By.ID, "board-area").screenshot(
                os.path.join(gui.shots, "gui-routes.png"))
        gui.click('#routes [data-route="49x4x9x24x44"]')
        gui.wait(lambda: gui.state()["line"] == ["49x4x9x24x44"], "the chosen capture was not played")
        gui.check_board(game, ["49x4x9x24x44"], fen)
        check(gui.d.find_element(By.ID, "routes").get_attribute("hidden") is not None,
              "the route box stayed open")

        box.clear()
        box.send_keys("W:W99")
        gui.d.find_element(By.ID, "set-position").click()
        gui.wait(lambda: gui.d.find_element(By.ID, "error").is_displayed(),
                 "no error shown for a bad FEN")

        # Copy a game as PDN, then watch it.
        game = {"variant": "english"}
        gui.new_game(game, [None, None])
        played = []
        for _ in range(6):
            mv = gui.state()["legal"][0]
            gui.click_move(mv)
            played.append(mv["text"])
        gui.d.find_element(By.ID, "copy-pdn").click()
        gui.wait(lambda: "[Variant \"english\"]" in
                 gui.d.find_element(By.ID, "position").get_attribute("value"),
                 "Copy game as PDN did not fill the box")
        pdn = gui.d.find_element(By.ID, "position").get_attribute("value")
        with tempfile.NamedTemporaryFile("w", suffix=".pdn", delete=False) as f:
            f.write(pdn)
            f.write(pdn.replace("[Round \"1\"]", "[Round \"2\"]"))
        gui.d.find_element(By.ID, "tab-watch").click()
        gui.d.find_element(By.ID, "pdn-file").send_keys(f.name)
        gui.wait(lambda: gui.state()["line"] == played and gui.state()["ply"] == 0,
                 "the PDN file was not loaded")
        for k in range(1, 4):
            gui.d.find_element(By.ID, "next").click()
            gui.wait(lambda: gui.state()["ply"] == k, "Forward did not step")
            gui.check_board(game, played[:k])
        gui.d.find_element(By.ID, "last").click()
        gui.wait(lambda: gui.state()["ply"] == len(played), "End did not step")
        gui.check_board(game, played)
        os.unlink(f.name)
        if gui.shots:
            gui.d.save_screenshot(os.path.join(gui.shots, "gui-page.png"))

        analyse_game(gui, game, played)
        several_lines(gui)
        timed_game(gui)
        phone(gui)
        print(f"browser test passed in {time.time() - t0:.1f} s")
    finally:
        gui.close()


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)
