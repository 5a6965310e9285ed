# SPDX-License-Identifier: GPL-3.0-or-later
"""How GIMP 3 answers while a filter redraws the canvas (run by
tools/bench-gimp3-gui.sh inside Xvfb and a D-Bus session).

GIMP opens the photograph in a 1920x1080 window; for each zoom (fit and
100 %) and each filter (every algorithm of cudablur:gaussian-blur and
GIMP's own Gaussian Blur, in GIMP's filter tool), the standard deviation
is raised by one step with a click on the dialog's "+" (xdotool): ours
from 5 to 6, GIMP's (which starts at 1.5) from 5.5 to 6.5; then:
  - the canvas is watched (screenshots of the window, every 50 ms) until
    it has not changed for SETTLE seconds: "view shown" is from the click
    to its last change; GIMP 3.0 renders the rest of the image at full
    resolution after the view, "image done" is when GIMP is idle again;
  - a probe asks GIMP's main loop over D-Bus every 20 ms (GIMP's
    org.gimp.GIMP.UI object manager, answered from the main loop) and
    times each answer: the longest is how long GIMP stopped answering.
Prints a Markdown table, and the process() calls of ours from
CUDABLUR_OP_LOG (their count and the longest).

    python3 bench_gui.py PHOTO OUTDIR [FILTER...]
"""
import os
import re
import subprocess
import sys
import threading
import time

import gi
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, Gio, GLib  # noqa: E402

SETTLE = float(os.environ.get("BENCH_SETTLE", "3.0"))
ZOOMS = os.environ.get("BENCH_ZOOMS", "fit 100").split()
LIMIT = float(os.environ.get("BENCH_LIMIT", "240"))
ALGORITHMS = ["auto", "fir", "yvrg", "yvrg-two-way", "deriche", "edge-aware",
              "edge-aware-partitioned"]


def xdo(*args):
    return subprocess.run(["xdotool"] + [str(a) for a in args],
                          capture_output=True, text=True).stdout.strip()


def window(name, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        w = xdo("search", "--onlyvisible", "--name", name).split("\n")[0]
        if w:
            return w
        time.sleep(0.5)
    return None


def geometry(win):
    for _ in range(20):
        out = xdo("getwindowgeometry", "--shell", win)
        g = dict(line.split("=") for line in out.split("\n") if "=" in line)
        if "X" in g:
            return int(g["X"]), int(g["Y"]), int(g["WIDTH"]), int(g["HEIGHT"])
        time.sleep(0.5)
    raise RuntimeError("no geometry for window %s" % win)


def shot(path):
    subprocess.run(["import", "-window", "root", path], capture_output=True)


class Probe(threading.Thread):
    """Asks GIMP's main loop over D-Bus, again and again."""

    def __init__(self):
        super().__init__(daemon=True)
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        self.samples = []   # (sent, seconds to the answer)
        self.lock = threading.Lock()

    def run(self):
        while True:
            t = time.monotonic()
            try:
                self.bus.call_sync("org.gimp.GIMP.UI", "/org/gimp/GIMP",
                                   "org.freedesktop.DBus.ObjectManager",
                                   "GetManagedObjects", None, None,
                                   Gio.DBusCallFlags.NONE, 600000, None)
            except GLib.Error:
                pass
            with self.lock:
                self.samples.append((t, time.monotonic() - t))
            time.sleep(0.02)

    def longest(self, start, end):
        """The longest wait for an answer that overlapped [start, end]."""
        with self.lock:
            return max([d for t, d in self.samples
                        if t <= end and t + d >= start] + [0.0])

    def idle(self, seconds=1.0, limit=None):
        """Waits until GIMP has answered within 0.1 s for `seconds`;
        returns when that began (GIMP's last busy moment)."""
        end = time.monotonic() + (limit or LIMIT)
        while time.monotonic() < end:
            now = time.monotonic()
            with self.lock:
                recent = [d for t, d in self.samples if t >= now - seconds]
            if len(recent) >= seconds / 0.05 and max(recent) < 0.1:
                return now - seconds
            time.sleep(0.1)
        return time.monotonic()


class Canvas:
    """Screenshots of the image window's canvas."""

    def __init__(self, x, y, w, h):
        self.root = Gdk.get_default_root_window()
        self.rect = (x, y, w, h)

    def grab(self):
        pb = Gdk.pixbuf_get_from_window(self.root, *self.rect)
        return pb.get_pixels() if pb else b""

    def settle(self, t0, log=None, must_change=True):
        """The time of the last change after t0: once the canvas changed
        (unless not must_change), nothing changed and no process() call
        of ours ran for SETTLE seconds (or LIMIT passed)."""
        last = self.grab()
        changed = None
        while True:
            time.sleep(0.05)
            now = time.monotonic()
            cur = self.grab()
            if cur != last:
                changed = now
                last = cur
            if now - t0 > LIMIT:
                return changed or now
            if changed is None and must_change:
                continue
            quiet = max(changed or t0, last_call_end (log))
            if now - quiet > SETTLE:
                return changed or t0


def last_call_end(log):
    """When the last process() call of ours logged ended (0: none)."""
    if not log:
        return 0.0
    end = 0.0
    try:
        with open(log) as f:
            for line in f:
                m = re.match(r"process t=([0-9.]+) dt=([0-9.]+)", line)
                if m:
                    end = max(end, float(m.group(1)) + float(m.group(2)))
    except OSError:
        pass
    return end


def op_calls(log, start, end):
    """Our process() calls between start and end: count and longest."""
    n, longest = 0, 0.0
    try:
        with open(log) as f:
            for line in f:
                m = re.match(r"process t=([0-9.]+) dt=([0-9.]+)", line)
                if m and start <= float(m.group(1)) <= end:
                    n += 1
                    longest = max(longest, float(m.group(2)))
    except OSError:
        pass
    return n, longest


def new_window(shown, seconds):
    """A visible window that is not among `shown`, within `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        new = (set(xdo("search", "--onlyvisible", "--class", ".").split())
               - shown)
        if new:
            return sorted(new)[-1]
        time.sleep(0.5)
    return None


def open_filter(img, query, title):
    """The filter's dialog, found as a user finds it: GIMP's action search
    ("/"), the query, Return; three tries.  The query is typed only once
    the search's window is there: keys typed into the image window are
    tool shortcuts (a busy GIMP may take seconds to show it)."""
    for attempt in range(3):
        dlg = window(title, 1)
        if dlg:
            return dlg
        shown = set(xdo("search", "--onlyvisible", "--class", ".").split())
        xdo("windowactivate", img)
        xdo("windowfocus", img)
        xdo("mousemove", 960, 540)
        xdo("key", "--clearmodifiers", "slash")
        popup = new_window(shown, 30)
        if not popup:
            print("open_filter: try %d: no search window" % (attempt + 1),
                  flush=True)
            continue
        xdo("windowfocus", popup)
        time.sleep(1)
        xdo("type", "--delay", "60", query)
        time.sleep(2)
        xdo("key", "Return")
        dlg = window(title, 60)
        if dlg:
            return dlg
        print("open_filter: try %d: no window %s" % (attempt + 1, title),
              flush=True)
        xdo("key", "Escape")
        time.sleep(1)
    return None


def open_by_menu(img, keys, title):
    """The filter's dialog from the menus, by their mnemonics: Alt+the
    first key, then the others (GIMP 3.0 in English: Filters > Blur >
    Gaussian Blur is r b g; the action search finds ours first)."""
    xdo("windowactivate", img)
    xdo("windowfocus", img)
    xdo("key", "--clearmodifiers", "alt+" + keys[0])
    for k in keys[1:]:
        time.sleep(1.5)
        xdo("key", k)
    return window(title, 20)


def measure(f, zoom, img, canvas, probe, log, out):
    """One filter at one zoom: its redraw after a step up of sigma."""
    ours = f != "gimp"
    dlg = (open_filter(img, "CUDA Gaussian", "CUDA Gaussian Blur")
           if ours else open_by_menu(img, "rbg", "^Gaussian Blur"))
    if not dlg:
        shot(os.path.join(out, "no-dialog-%s.png" % f))
        print("FAIL: no dialog for %s" % f)
        return None
    xdo("windowmove", "--sync", dlg, 1930, 0)
    time.sleep(1)
    dx, dy, dw, dh = geometry(dlg)
    if ours and f != "auto":
        # The algorithm: the combo's row, scrolled to the entry.
        xdo("mousemove", dx + dw - 100, dy + 87)
        for _ in range(8):
            xdo("click", 4)
        for _ in range(ALGORITHMS.index(f)):
            xdo("click", 5)
    if not ours:
        # GIMP's starts at 1.5: four steps up, to 5.5.
        xdo("mousemove", dx + dw - 42, dy + 87)
        for _ in range(4):
            xdo("click", 1)
            time.sleep(0.3)
    xdo("mousemove", 1930 + dw // 2, 1000)
    canvas.settle(time.monotonic(), log, must_change=False)
    probe.idle()
    shot(os.path.join(out, "dialog-%s-%s.png" % (f, zoom)))
    # One step up of the standard deviation: the "+" of Size X.
    plus = (dx + dw - 42, dy + (115 if ours else 87))
    xdo("mousemove", *plus)
    t0 = time.monotonic()
    xdo("click", 1)
    xdo("mousemove", 1930 + dw // 2, 1000)
    t1 = canvas.settle(t0, log if ours else None)
    shot(os.path.join(out, "canvas-%s-%s.png" % (f, zoom)))
    # GIMP goes on with the parts out of view: GIMP's answers and
    # our calls until it is idle.
    t2 = max(t1, probe.idle())
    freeze = probe.longest(t0, t2)
    n, longest = op_calls(log, t0, t2) if ours else (0, 0.0)
    row = (f, zoom, t1 - t0, t2 - t0, freeze, n, longest)
    print("%-24s %-4s view %6.2f s, all %6.2f s, GIMP answered "
          "within %5.2f s, %d calls, longest %.2f s" % row, flush=True)
    # Cancel the tool: the canvas back to the photograph.
    xdo("mousemove", dx + dw - 140, dy + dh - 20)
    xdo("click", 1)
    end = time.monotonic() + LIMIT
    while xdo("getwindowname", dlg) and time.monotonic() < end:
        time.sleep(0.5)
    canvas.settle(time.monotonic(), log, must_change=False)
    return row


def main():
    photo, out = sys.argv[1], sys.argv[2]
    filters = sys.argv[3:] or ALGORITHMS + ["gimp"]
    log = os.environ.get("CUDABLUR_OP_LOG", "")
    program = os.environ.get("GIMP_PROGRAM", "gimp-3.0")
    gimp = subprocess.Popen([program, "-n", "--no-splash", photo],
                            stdout=open(os.path.join(out, "gimp.log"), "w"),
                            stderr=subprocess.STDOUT)
    stem = os.path.splitext(os.path.basename(photo))[0]
    img = window(r"\[%s\]" % stem, 240)
    if not img:
        print("FAIL: no image window")
        return 1
    time.sleep(5)
    xdo("windowmove", "--sync", img, 0, 0)
    xdo("windowsize", "--sync", img, 1920, 1080)
    time.sleep(3)
    x, y, w, h = geometry(img)
    # The canvas: the window less its menu, rulers and status bar.
    canvas = Canvas(x + 30, y + 60, w - 60, h - 120)
    probe = Probe()
    probe.start()
    rows = []
    for zoom in ZOOMS:
        xdo("windowfocus", img)
        xdo("mousemove", 960, 540)
        xdo("key", "--clearmodifiers", "shift+ctrl+j" if zoom == "fit" else "1")
        time.sleep(3)
        canvas.settle(time.monotonic(), log, must_change=False)
        for f in filters:
            probe.idle()
            try:
                row = measure(f, zoom, img, canvas, probe, log, out)
            except RuntimeError as e:
                shot(os.path.join(out, "error-%s-%s.png" % (f, zoom)))
                print("FAIL: %s at %s: %s" % (f, zoom, e), flush=True)
                continue
            if row:
                rows.append(row)
    print()
    print("| filter | zoom | view shown (s) | image done (s) | longest wait "
          "for GIMP to answer (s) | process() calls | longest call (s) |")
    print("|---|---|---|---|---|---|---|")
    for f, zoom, shown, done, freeze, n, longest in rows:
        name = "GIMP's Gaussian Blur" if f == "gimp" else f
        calls = "%d | %.2f" % (n, longest) if f != "gimp" else "- | -"
        print("| %s | %s | %.2f | %.2f | %.2f | %s |" % (name, zoom, shown,
                                                         done, freeze, calls))
    xdo("windowfocus", img)
    xdo("key", "--clearmodifiers", "ctrl+q")
    try:
        gimp.wait(60)
    except subprocess.TimeoutExpired:
        gimp.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
