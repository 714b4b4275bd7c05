"""What Chromium costs the browser tests: CPU seconds of Chromium (and Playwright's driver)
for a loop of what a test does (a new context, a page, a few pages loaded, axe run once),
under each set of launch options given, so that options can be compared on a shared machine.

    .venv/bin/python -m bench.browser_cpu SITE_FOLDER [N]

SITE_FOLDER is a built site (papershelf build --output SITE_FOLDER). Prints, per option set,
the CPU seconds of Chromium and its driver per round and the wall time per round.
"""

from __future__ import annotations

import functools
import http.server
import os
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from bench.cpu_durations import _descendants_cpu
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"

VARIANTS = {
    "current": [],
    "no-site-isolation": ["--disable-site-isolation-trials", "--disable-features=IsolateOrigins,site-per-process"],
    "lean": ["--disable-site-isolation-trials", "--disable-features=IsolateOrigins,site-per-process,Translate,"
             "OptimizationHints,MediaRouter,PaintHolding", "--disable-extensions", "--mute-audio",
             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
             "--disable-backgrounding-occluded-windows", "--disable-ipc-flooding-protection"],
    "swiftshader-off": ["--disable-software-rasterizer"],
    "single-renderer": ["--renderer-process-limit=1", "--disable-site-isolation-trials"],
}


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main() -> None:
    site = Path(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    only = sys.argv[3].split(",") if len(sys.argv) > 3 else list(VARIANTS)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    from playwright.sync_api import sync_playwright

    for name in only:
        with sync_playwright() as p:
            start_cpu = _descendants_cpu()
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS + VARIANTS[name])
            launched = _descendants_cpu()
            w = time.time()
            for i in range(rounds):
                context = b.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                for path in ("/", "/papers/", "/tags/"):
                    page.goto(base + path)
                page.add_script_tag(path=str(AXE))
                page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations.length")
                context.close()
            wall = time.time() - w
            used = _descendants_cpu()
            idle_from = time.time()
            time.sleep(2)
            idle = _descendants_cpu() - used
            b.close()
        print(f"{name:18s} launch {launched - start_cpu:5.2f} s  per round {(used - launched) / rounds:5.2f} CPU s"
              f" {wall / rounds:5.2f} wall s;  idle {idle / 2:4.2f} CPU s/s", flush=True)
    httpd.shutdown()


if __name__ == "__main__":
    main()
