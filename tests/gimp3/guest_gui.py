# SPDX-License-Identifier: GPL-3.0-or-later
"""GIMP 3's GUI with the operation as a guest (run by
run-guest-gui-test.sh inside Xvfb and a D-Bus session).

    python3 guest_gui.py redraw PHOTO OUTDIR
        The filter tool on PHOTO; the standard deviation raised by a click
        on "+" at fit zoom and at 100 %.  Writes OUTDIR/redraws.txt: for
        each, the monotonic times of the click and of the canvas's last
        change, and the visible part of the image; the process() log
        (CUDABLUR_OP_LOG) says what the operation computed meanwhile.
    python3 guest_gui.py failure PHOTO OUTDIR
        The filter tool on PHOTO with a blur that cannot be done
        (GB_HOST_FAULT=alloc in the environment): waits for GIMP's
        message window and writes OUTDIR/message.txt with its title.
Screenshots go to OUTDIR (guest-*.png).
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_gui as b  # noqa: E402

TITLE = "CUDA Gaussian Blur"


def quit(gimp, img):
    """Quits GIMP as a user does: Ctrl+Q, and where GIMP asks about the
    image's unsaved changes (3.2 does after a filter tool), Ctrl+D to
    discard them, as its dialog says."""
    b.xdo("windowfocus", img)
    b.xdo("key", "--clearmodifiers", "ctrl+q")
    ask = b.window("Quit GIMP", 5)
    if ask:
        b.xdo("windowfocus", ask)
        b.xdo("key", "--clearmodifiers", "ctrl+d")
    try:
        gimp.wait(60)
    except subprocess.TimeoutExpired:
        gimp.terminate()


def start(photo, out):
    program = os.environ.get("GIMP_PROGRAM", "gimp-3.0")
    gimp = subprocess.Popen([program, "-n", "--no-splash", photo],
                            stdout=open(os.path.join(out, "gimp.log"), "w"),
                            stderr=subprocess.STDOUT)
    stem = os.path.splitext(os.path.basename(photo))[0]
    img = b.window(r"\[%s\]" % stem, 240)
    if not img:
        print("FAIL: GIMP 3 showed no window for %s" % stem)
        gimp.terminate()
        sys.exit(1)
    time.sleep(5)
    b.xdo("windowmove", "--sync", img, 0, 0)
    b.xdo("windowsize", "--sync", img, 1600, 1000)
    time.sleep(3)
    return gimp, img


def visible_windows():
    """The names of the visible windows, for a failure's message."""
    ids = b.xdo("search", "--onlyvisible", "--name", ".").split()
    return ", ".join("%s %r" % (w, b.xdo("getwindowname", w)) for w in ids)


def dialog_geometry(title, out):
    """The dialog and its geometry, found again where the window found
    first is gone (GIMP 3.2 may map the filter's dialog anew)."""
    for _ in range(3):
        dlg = b.window(title, 20)
        if dlg:
            try:
                return dlg, b.geometry(dlg)
            except RuntimeError:
                time.sleep(1)
    b.shot(os.path.join(out, "guest-no-geometry.png"))
    raise RuntimeError("no geometry for the window %s; visible: %s"
                       % (title, visible_windows()))


def find_dialog(img):
    """The filter's dialog, opened by the menus' mnemonics (Filters > Blur
    > CUDA Gaussian Blur in English), else by the action search."""
    dlg = b.open_by_menu(img, ["r", "b", "d"], TITLE)
    if not dlg:
        b.xdo("key", "--clearmodifiers", "Escape", "Escape", "Escape")
        dlg = b.open_filter(img, "CUDA Gaussian", TITLE)
    return dlg


def open_dialog(img, out):
    """The filter's dialog moved beside the canvas, and its geometry;
    opened again where the dialog goes away at once (seen on GIMP 3.2 on
    two busy cores)."""
    for attempt in range(3):
        dlg = find_dialog(img)
        if not dlg:
            continue
        b.xdo("windowmove", "--sync", dlg, 1610, 0)
        time.sleep(1)
        try:
            return dialog_geometry(TITLE, out)
        except RuntimeError as e:
            print("open_dialog: try %d: %s" % (attempt + 1, e), flush=True)
            b.xdo("key", "Escape")
            time.sleep(2)
    return None, None


def redraw(photo, out):
    log = os.environ.get("CUDABLUR_OP_LOG", "")
    gimp, img = start(photo, out)
    x, y, w, h = b.geometry(img)
    canvas = b.Canvas(x + 30, y + 60, w - 60, h - 120)
    dlg, geometry = open_dialog(img, out)
    if not dlg:
        b.shot(os.path.join(out, "guest-no-dialog.png"))
        print("FAIL: the filter tool did not open")
        gimp.terminate()
        return 1
    dx, dy, dw, dh = geometry
    lines = []
    for zoom in ("fit", "100"):
        b.xdo("windowfocus", img)
        b.xdo("mousemove", 800, 500)
        b.xdo("key", "--clearmodifiers",
              "shift+ctrl+j" if zoom == "fit" else "1")
        time.sleep(2)
        b.xdo("mousemove", 1610 + dw // 2, 900)
        canvas.settle(time.monotonic(), log, must_change=False)
        b.xdo("mousemove", dx + dw - 42, dy + 115)
        t0 = time.monotonic()
        b.xdo("click", 1)
        b.xdo("mousemove", 1610 + dw // 2, 900)
        t1 = canvas.settle(t0, log)
        b.shot(os.path.join(out, "guest-redraw-%s.png" % zoom))
        # GIMP renders the parts out of view after those in view.
        lines.append("%s %.4f %.4f" % (zoom, t0, max(t1, b.last_call_end(log))))
    with open(os.path.join(out, "redraws.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    b.xdo("mousemove", dx + dw - 140, dy + dh - 20)
    b.xdo("click", 1)
    time.sleep(2)
    quit(gimp, img)
    return 0


def failure(photo, out):
    gimp, img = start(photo, out)
    b.shot(os.path.join(out, "guest-failure-before.png"))
    dlg = find_dialog(img)
    if not dlg:
        b.shot(os.path.join(out, "guest-no-dialog.png"))
        print("FAIL: the filter tool did not open")
        gimp.terminate()
        return 1
    b.xdo("windowmove", "--sync", dlg, 1610, 0)
    message = b.window("GIMP Message", 60)
    time.sleep(2)
    b.shot(os.path.join(out, "guest-failure-message.png"))
    with open(os.path.join(out, "message.txt"), "w") as f:
        f.write((b.xdo("getwindowname", message) if message else "") + "\n")
    if message:
        b.xdo("windowfocus", message)
        b.xdo("key", "Return")
    dlg, (dx, dy, dw, dh) = dialog_geometry(TITLE, out)
    b.xdo("mousemove", dx + dw - 140, dy + dh - 20)
    b.xdo("click", 1)
    time.sleep(2)
    quit(gimp, img)
    return 0


if __name__ == "__main__":
    what, photo, out = sys.argv[1:4]
    sys.exit(redraw(photo, out) if what == "redraw" else failure(photo, out))
