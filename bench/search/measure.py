"""Search at scale, measured in Chromium: bytes and time to a first result, keystroke latency.

Usage (from the repository root)::

    .venv/bin/python -m bench.search.measure                 # 10,000 papers, seed 0
    .venv/bin/python -m bench.search.measure --papers 2000 --runs 3 --json out.json

Steps: a synthetic catalog from ``bench/synth/`` (``generate(n, out, seed)``), a real
``papershelf build`` of it, a local HTTP server on 127.0.0.1 that gzips text responses (as
any static host does) and logs when each response was sent and how many bytes went on
the wire, and Debian's Chromium driven by Playwright (cold cache: a new browser context
for every run). Nothing leaves the machine.

Reported, for cold loads of ``/search/?q=...`` (a title word, an author's name, a word
found only in abstracts):

* **bytes before first result**: gzip bytes (bodies and headers) of every response the
  server finished sending before the first result appeared on the page;
* **load to first result**: from navigation start to the first result in the DOM;
* **load to full index**: until every index part is loaded (the page says so);
* **longest main-thread task** while loading (PerformanceObserver "longtask"; Chromium
  reports tasks of 50 ms or more, so 0 means none that long).

Then, on the loaded page, **keystroke-to-results latency**: queries typed one key at a
time (a key every 120 ms, and a fast burst of a key every 25 ms); for each key, the time
from its ``input`` event to the first results rendered for that text or a later one, and
to the next animation frame after them (when the browser can paint).
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import mimetypes
import os
import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

from generator.build import BuildOptions, build

CHROMIUM = os.environ.get("PAPERSHELF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
GZIP_TYPES = ("text/", "application/json", "application/javascript", "image/svg+xml")

# A first-result query of each kind, on the synthetic catalog (its words come from the seed
# abstracts and titles; author names are from bench/synth/'s pool).
LOAD_QUERIES = {
    "title word": "watermark",
    "author name": "yamamoto",
    "abstract-only word": "unitigbin",
}
TYPED_QUERIES = ["graph neural network", "diffusion models for protein design", "reinforcment learning",
                 "experim", "yamamoto kenji"]

INIT_SCRIPT = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const m = window.__bench = { first: null, firstRel: null, ready: null, readyRel: null, longtasks: [],
                               inputs: [], renders: [], workerMs: [] };
  // The time the worker spent on each answer (search-engine.js reports it in "ms").
  const NativeWorker = window.Worker;
  if (NativeWorker) {
    window.Worker = function (url, options) {
      const w = new NativeWorker(url, options);
      w.addEventListener("message", (e) => { if (e.data && e.data.type === "results") m.workerMs.push(e.data.ms); });
      return w;
    };
    window.Worker.prototype = NativeWorker.prototype;
  }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) m.longtasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) {}
  document.addEventListener("input", (ev) => {
    if (ev.target && ev.target.id === "search-input") m.inputs.push([ev.target.value, performance.now()]);
  }, true);
  const watch = () => {
    const list = document.getElementById("search-results");
    if (!list) return setTimeout(watch, 5);
    new MutationObserver(() => {
      const t = performance.now();
      if (list.querySelector("li") && m.first === null) { m.first = t; m.firstAbs = now(); console.log("bench:first"); }
      if (list.getAttribute("data-state") === "ready" && m.ready === null) { m.ready = t; console.log("bench:ready"); }
      if (m.target !== undefined && list.getAttribute("data-query") === m.target) { console.log("bench:typed"); m.target = undefined; }
      const entry = [list.getAttribute("data-query") || "", t, null];
      m.renders.push(entry);
      requestAnimationFrame(() => { entry[2] = performance.now(); });
    }).observe(list, { childList: true, attributes: true, attributeFilter: ["data-state", "data-query"] });
  };
  watch();
})();
"""


class LoggingGzipHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, gzipped when the browser accepts it; logs (end time, path, bytes)."""

    log: list[tuple[float, str, int]] = []
    cache: dict[tuple[str, float], bytes] = {}
    lock = threading.Lock()

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):  # noqa: N802
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path):
            self.send_error(404)
            return
        ctype = mimetypes.guess_type(path)[0] or "application/octet-stream"
        with open(path, "rb") as fh:
            body = fh.read()
        headers = [("Content-Type", ctype), ("Cache-Control", "no-cache")]
        if "gzip" in self.headers.get("Accept-Encoding", "") and ctype.startswith(GZIP_TYPES):
            key = (path, os.path.getmtime(path))
            with self.lock:
                packed = self.cache.get(key)
            if packed is None:
                packed = gzip.compress(body, 6)
                with self.lock:
                    self.cache[key] = packed
            body = packed
            headers.append(("Content-Encoding", "gzip"))
        self.send_response(200)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        header_bytes = sum(len(b) for b in self._headers_buffer) + 2
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        with self.lock:
            self.log.append((time.time() * 1000, self.path, len(body) + header_bytes))


class Server:
    def __init__(self, root: Path):
        handler = lambda *a, **k: LoggingGzipHandler(*a, directory=str(root), **k)  # noqa: E731
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def make_site(papers: int, seed: int, work: Path, reuse: bool) -> Path:
    content, site = work / f"content-{papers}-{seed}", work / f"site-{papers}-{seed}"
    if not (reuse and (content / "papers").is_dir()):
        from bench.synth import generate
        t = time.perf_counter()
        generate(papers, content, seed=seed)
        print(f"catalog: {papers} papers in {time.perf_counter() - t:.0f}s", file=sys.stderr)
    if not (reuse and (site / "search" / "meta.json").is_file()):
        t = time.perf_counter()
        report = build(BuildOptions(content=content, output=site))
        print(f"build: {report.summary()} (wall {time.perf_counter() - t:.0f}s)", file=sys.stderr)
    else:  # the page's scripts do not depend on the catalog: take the current ones
        for script in (REPO / "static" / "js").glob("*.js"):
            shutil.copy2(script, site / "static" / "js" / script.name)
    return site


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def cold_load(browser, server: Server, query: str, timeout: float = 120.0) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(INIT_SCRIPT)
    LoggingGzipHandler.log.clear()
    # Waiting on console messages keeps the harness from running scripts in the page while
    # it loads (Playwright's polling would show up as main-thread work).
    with page.expect_console_message(lambda msg: msg.text == "bench:ready", timeout=timeout * 1000):
        page.goto(server.base + "/search/?q=" + query, wait_until="commit")
    time.sleep(0.5)
    m = page.evaluate("window.__bench")
    first_abs = m["firstAbs"]
    log = list(LoggingGzipHandler.log)
    before = [(p, n) for t, p, n in log if t <= first_abs]
    total = sum(n for _, _, n in log)
    long_load = [d for s, d in m["longtasks"] if s <= m["ready"]]
    context.close()
    if errors:
        raise SystemExit(f"JavaScript errors: {errors}")
    return {
        "query": query,
        "bytes_before_first_result": sum(n for _, n in before),
        "files_before_first_result": sorted({p.split("?")[0] for p, _ in before}),
        "ms_to_first_result": m["first"],
        "ms_to_full_index": m["ready"],
        "bytes_total": total,
        "longest_task_ms_while_loading": max(long_load, default=0.0),
    }


def typing(browser, server: Server, queries: list[str], delay_ms: int, timeout: float = 180.0) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.add_init_script(INIT_SCRIPT)
    with page.expect_console_message(lambda msg: msg.text == "bench:ready", timeout=timeout * 1000):
        page.goto(server.base + "/search/", wait_until="commit")
    latencies, frames, worker = [], [], []
    long_tasks = []
    page.focus("#search-input")
    for q in queries:
        page.fill("#search-input", "")
        time.sleep(0.5)
        page.evaluate("(q) => { const m = window.__bench; m.inputs = []; m.renders = []; m.longtasks = [];"
                      " m.workerMs = []; m.target = q; }", q)
        with page.expect_console_message(lambda msg: msg.text == "bench:typed", timeout=30000):
            page.keyboard.type(q, delay=delay_ms)  # CDP key events only: no script runs in the page
        time.sleep(0.3)
        m = page.evaluate("window.__bench")
        # Only tasks from the first keystroke on (the harness's own evaluate() just before
        # typing is reported late and does not count).
        typing_from = m["inputs"][0][1] if m["inputs"] else 0.0
        long_tasks += [d for start, d in m["longtasks"] if start + d >= typing_from]
        worker += m["workerMs"]
        renders = m["renders"]
        for value, t_input in m["inputs"]:
            # first render at or after the keystroke showing this text or a longer one
            done = next((r for r in renders if r[1] >= t_input and r[0].startswith(value)), None)
            if done is None:
                continue
            latencies.append(done[1] - t_input)
            if done[2] is not None:
                frames.append(done[2] - t_input)
    context.close()
    return {
        "delay_ms": delay_ms,
        "keystrokes": len(latencies),
        "median_ms": statistics.median(latencies) if latencies else None,
        "p95_ms": percentile(latencies, 0.95),
        "max_ms": max(latencies, default=None),
        "to_frame_median_ms": statistics.median(frames) if frames else None,
        "to_frame_p95_ms": percentile(frames, 0.95),
        "longest_task_ms": max(long_tasks, default=0.0),
        "worker_median_ms": statistics.median(worker) if worker else None,
        "worker_p95_ms": percentile(worker, 0.95),
    }


def part_sizes(site: Path) -> dict[str, dict[str, int]]:
    sizes = {}
    for path in sorted((site / "search").glob("*.json")):
        raw = path.read_bytes()
        sizes[path.name] = {"bytes": len(raw), "gzip": len(gzip.compress(raw, 6))}
    shards = sorted((site / "search" / "text").glob("*.json"))
    if shards:
        raw = [p.read_bytes() for p in shards]
        sizes["text/*.json"] = {"files": len(raw), "bytes": sum(map(len, raw)),
                                "gzip_each_median": int(statistics.median(len(gzip.compress(r, 6)) for r in raw))}
    return sizes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--papers", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runs", type=int, default=3, help="cold loads per query (median reported)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/papershelf-search-bench"))
    ap.add_argument("--reuse", action="store_true",
                    help="reuse the catalog and site of a previous run (static/js is copied afresh)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    ap.add_argument("--typing-only", action="store_true", help="skip the cold loads")
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    site = make_site(args.papers, args.seed, args.work, args.reuse)

    from playwright.sync_api import sync_playwright

    server = Server(site)
    out: dict = {"papers": args.papers, "seed": args.seed, "sizes": part_sizes(site), "loads": {}, "typing": [],
                 "cpus": os.cpu_count(), "load_average_before": os.getloadavg()}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            out["chromium"] = browser.version
            for kind, query in ({} if args.typing_only else LOAD_QUERIES).items():
                runs = [cold_load(browser, server, query) for _ in range(args.runs)]
                summary = {key: statistics.median(r[key] for r in runs)
                           for key in ("bytes_before_first_result", "ms_to_first_result", "ms_to_full_index",
                                       "bytes_total", "longest_task_ms_while_loading")}
                summary["query"] = query
                summary["files_before_first_result"] = runs[0]["files_before_first_result"]
                summary["runs"] = runs
                out["loads"][kind] = summary
                print(f"{kind:20} {query!r:16} first result {summary['ms_to_first_result']:7.0f} ms, "
                      f"{summary['bytes_before_first_result'] / 1e6:5.2f} MB before it; full index "
                      f"{summary['ms_to_full_index']:7.0f} ms, {summary['bytes_total'] / 1e6:5.2f} MB; "
                      f"longest task {summary['longest_task_ms_while_loading']:.0f} ms", file=sys.stderr)
            for delay in (120, 25):
                result = typing(browser, server, TYPED_QUERIES, delay)
                out["typing"].append(result)
                print(f"typing, a key every {delay} ms: {result['keystrokes']} keys, latency median "
                      f"{result['median_ms']:.1f} ms, p95 {result['p95_ms']:.1f}, max {result['max_ms']:.1f}; "
                      f"to next frame median {result['to_frame_median_ms']:.1f}, p95 {result['to_frame_p95_ms']:.1f}; "
                      f"longest task {result['longest_task_ms']:.0f} ms; worker time per answer median "
                      f"{result['worker_median_ms']:.1f}, p95 {result['worker_p95_ms']:.1f}", file=sys.stderr)
            browser.close()
    finally:
        server.close()
    out["load_average_after"] = os.getloadavg()
    print(f"machine: {os.cpu_count()} CPUs, load average {out['load_average_before'][0]:.1f} before, "
          f"{out['load_average_after'][0]:.1f} after", file=sys.stderr)
    text = json.dumps(out, indent=2)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
