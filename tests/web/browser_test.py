#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The browser sandbox (build/web/site) driven in headless Chromium: `bash scripts/web.sh test`.

Serves the site on 127.0.0.1 (python's http.server, a free port), starts Debian's chromium with
--remote-debugging-pipe (the DevTools protocol as NUL-separated JSON on file descriptors 3 and 4, so no
WebSocket client is needed) and checks:
  1. the page loads and the sandbox runs (its status reports frames) without an error in the console;
  2. it draws large_pyramid at 900x560: Chromium's own screenshot of the page has the canvas's size,
     a share of pixels off the sandbox's background colour, and some right of the side panel, where
     the scene is;
  3. the ] key switches to another sample and [ comes back (the keys go through SDL's keyboard);
  4. every scene and lab opens: ] walks the samples browser's whole cycle, which must hold every name
     the native sandbox's --list-scenes prints;
  5. large_pyramid at 900x560, one step per frame (?headless): the median frame rate over its last 60
     frames, at least --min-fps;
  6. the state hash after N steps of several scenes (?headless&print-hash) equals the native
     benchmark's state_hash after --steps N.
Ends with the line "browser: N passed, M failed".
"""
import argparse
import base64
import functools
import http.server
import json
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

BACKGROUND = (28, 30, 36)  # the sandbox's clear colour (app.cpp kBackground)
PANEL_PIXELS = 320  # the side panel's width with its margins (panel_ui.h kPanelWidth + 2 kPanelMargin)
# (scene, steps): a stack, joints, ragdolls spawned and destroyed, continuous collision, a drum.
HASH_RUNS = [("large_pyramid", 300), ("rain", 200), ("joint_grid", 120), ("drop", 300), ("tumbler", 150),
             ("chain_slide", 300)]


class Chromium:
    """A headless Chromium spoken to over --remote-debugging-pipe, attached to one page."""

    def __init__(self, binary, width, height):
        self.profile = tempfile.mkdtemp(prefix="mk-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def child_fds():  # the protocol's fixed descriptors: 3 reads commands, 4 writes replies
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        args = [binary, "--headless=new", "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--mute-audio", f"--window-size={width},{height}",
                # No GPU here: WebGL on SwiftShader, Chromium's software renderer.
                "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, preexec_fn=child_fds, pass_fds=(3, 4))
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Runtime.enable")
        self.call("Page.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=False)

    def _read_message(self, timeout):
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_browser], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, timeout=60, **params):
        self.next_id += 1
        command = {"id": self.next_id, "method": method, "params": params}
        if self.session is not None:
            command["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(command).encode() + b"\0")
        while True:
            message = self._read_message(timeout)
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def status(self):
        return json.loads(self.evaluate("JSON.stringify(window.mkStatus ? mkStatus() : {})"))

    def wait_status(self, condition, timeout, what):
        deadline = time.monotonic() + timeout
        while True:
            status = self.status()
            if condition(status):
                return status
            if time.monotonic() > deadline:
                raise TimeoutError(f"{what}: waited {timeout} s; last status {status}")
            time.sleep(0.2)

    def errors(self):
        """Console errors and uncaught exceptions seen so far (the sandbox's stderr is console.error)."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(params["exceptionDetails"].get("text", "exception"))
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                found.append(" ".join(str(a.get("value", "")) for a in params.get("args", [])))
        return found

    def press(self, key, code, key_code):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=key_code,
                      nativeVirtualKeyCode=key_code, text=key if kind == "keyDown" else "")

    def open(self, url):
        self.events.clear()
        self.call("Page.navigate", url=url)

    def screenshot(self, save_as=None):
        data = base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])
        if save_as:
            with open(save_as, "wb") as out:
                out.write(data)
        return decode_png(data)

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:  # already gone: kill below
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def decode_png(data):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
    channels = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):  # PNG's five row filters
            left = line[x - channels] if x >= channels else 0
            up, up_left = previous[x], previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 0xFF
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def off_background(rows, x_from=0):
    """Share of pixels (at column x_from and right of it) whose colour is not the background's."""
    total = off = 0
    for row in rows:
        for pixel in row[x_from:]:
            total += 1
            off += any(abs(a - b) > 4 for a, b in zip(pixel, BACKGROUND))
    return off / max(total, 1)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def serve(site):
    handler = functools.partial(QuietHandler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def native_names(sandbox):
    """Scene and lab names from the native sandbox's --list-scenes (the independent list)."""
    text = subprocess.run([sandbox, "--list-scenes"], check=True, capture_output=True, text=True).stdout
    names, section = [], None
    for line in text.splitlines():
        if re.match(r"^\S", line):
            section = line
            continue
        match = re.match(r"^  (\w+)", line)
        if match and section is not None and (section.startswith("Scenes") or section.startswith("Labs")):
            names.append(match.group(1))
    return names


def native_hash(benchmark, scene, steps):
    out = subprocess.run([benchmark, "--scene", scene, "--runs", "1", "--steps", str(steps)], check=True,
                         capture_output=True, text=True).stdout.strip().splitlines()
    header, row = out[0].split(","), out[-1].split(",")
    return row[header.index("state_hash")]


class Report:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        print(("PASS " if ok else "FAIL ") + what, flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", required=True, help="build/web/site")
    parser.add_argument("--benchmark", required=True, help="the native benchmark program (reference hashes)")
    parser.add_argument("--sandbox", required=True, help="the native sandbox program (--list-scenes)")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--min-fps", type=float, default=float(os.environ.get("MK_WEB_MIN_FPS", "30")))
    parser.add_argument("--save", default="", help="a folder to write the screenshots to")
    parser.add_argument("--only", default="", help="comma-separated checks to run: load,switch,all,fps,hash")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    wanted = lambda name: not only or name in only
    save = lambda name: os.path.join(args.save, name) if args.save else None

    report = Report()
    server = serve(args.site)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    width, height = 900, 560
    browser = Chromium(args.chromium, width, height)
    def run(name, block):  # a check that raises (a timeout, a dead page) fails; the others still run
        try:
            block()
        except Exception as error:  # noqa: BLE001 - reported as a failure
            report.check(False, f"{name}: {type(error).__name__}: {error}")

    def check_load():
        browser.open(base + f"?scene=large_pyramid&window={width}x{height}")
        status = browser.wait_status(lambda s: s.get("frame", 0) >= 30, 120, "the page loads and runs")
        report.check(status.get("shown") == "large_pyramid" and status.get("exit") == -1,
                     f"the page loads and runs large_pyramid ({status['frame']} frames, {status.get('steps')} steps)")
        shot_w, shot_h, rows = browser.screenshot(save("large_pyramid.png"))
        whole, view = off_background(rows), off_background(rows, PANEL_PIXELS)
        report.check((shot_w, shot_h) == (width, height) and whole > 0.08 and view > 0.03,
                     f"the screenshot ({shot_w}x{shot_h}) is drawn: {100 * whole:.1f}% of its pixels off the "
                     f"background, {100 * view:.1f}% right of the panel (need 8% and 3%)")
        errors = browser.errors()
        report.check(not errors, "no console error or exception" + (f": {errors[:3]}" if errors else ""))

    def check_switch():
        before = browser.status()
        browser.press("]", "BracketRight", 221)
        after = browser.wait_status(lambda s: s.get("shown") != before["shown"], 30, "] switches scene")
        browser.wait_status(lambda s: s.get("frame", 0) > after["frame"] + 5, 30, "frames after the switch")
        _, _, rows = browser.screenshot(save("after_switch.png"))
        browser.press("[", "BracketLeft", 219)
        back = browser.wait_status(lambda s: s.get("shown") == before["shown"], 30, "[ comes back")
        report.check(after["shown"] != before["shown"] and back["shown"] == before["shown"] and
                     off_background(rows, PANEL_PIXELS) > 0.001,
                     f"] switches {before['shown']} -> {after['shown']} (drawn), [ returns to {back['shown']}")

    def check_all():
        expected = native_names(args.sandbox)
        browser.open(base + f"?scene=large_pyramid&window={width}x{height}")
        status = browser.wait_status(lambda s: s.get("frame", 0) >= 5, 120, "the page loads")
        seen, start = [status["shown"]], status["shown"]
        for _ in range(len(expected) + 5):
            frame = status["frame"]
            browser.press("]", "BracketRight", 221)
            status = browser.wait_status(lambda s: s.get("frame", 0) >= frame + 3 and s["shown"] != seen[-1],
                                         60, f"] after {seen[-1]}")
            if status["shown"] == start:
                break
            seen.append(status["shown"])
        missing = sorted(set(expected) - set(seen))
        errors = browser.errors()
        report.check(not missing and status["shown"] == start and status["exit"] == -1 and not errors,
                     f"every scene and lab opens: ] visited {len(seen)} samples of the {len(expected)} "
                     f"--list-scenes names" + (f"; missing {missing}" if missing else "") +
                     (f"; errors {errors[:3]}" if errors else ""))

    def check_fps():
        frames = 240
        browser.open(base + f"?scene=large_pyramid&window={width}x{height}&headless&frames={frames}&print-fps")
        status = browser.wait_status(lambda s: s.get("exit", -1) != -1, 240, "the fps run ends")
        fps = status.get("fps", 0.0)
        report.check(status["exit"] == 0 and fps >= args.min_fps,
                     f"large_pyramid at {width}x{height}, one step per frame: {fps:.1f} fps over the last 60 "
                     f"frames (median frame {status.get('frame_ms', 0):.1f} ms, of which "
                     f"{status.get('work_ms', 0):.1f} ms in the sandbox's step and drawing calls; "
                     f"{status.get('run_fps', 0):.1f} fps over the run); need {args.min_fps:.0f}")

    def check_hash():
        for scene, steps in HASH_RUNS:
            browser.open(base + f"?scene={scene}&window={width}x{height}&headless&frames={steps}&print-hash")
            status = browser.wait_status(lambda s: s.get("exit", -1) != -1, 240, f"{scene} runs {steps} steps")
            want = native_hash(args.benchmark, scene, steps)
            got = status.get("hash")
            report.check(status["exit"] == 0 and status.get("steps") == steps and got == want,
                         f"{scene}: state hash after {status.get('steps')} steps in the browser {got}, "
                         f"native benchmark {want}")

    try:
        if wanted("load") or wanted("switch"):
            run("load", check_load)
        if wanted("switch"):
            run("switch", check_switch)
        if wanted("all"):
            run("all", check_all)
        if wanted("fps"):
            run("fps", check_fps)
        if wanted("hash"):
            run("hash", check_hash)
    finally:
        browser.close()
        server.shutdown()
    print(f"browser: {report.passed} passed, {report.failed} failed")
    return 0 if report.failed == 0 and report.passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
