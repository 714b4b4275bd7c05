"""Bytes on the wire per query: Papershelf's search against Pagefind, same site, one run.

Usage (from the repository root; ``npm install`` in bench/search first, for Pagefind)::

    .venv/bin/python -m bench.search.transfer --papers 10000            # catalog, build, Pagefind, measure
    .venv/bin/python -m bench.search.transfer --papers 10000 --reuse    # the same site again
    .venv/bin/python -m bench.search.transfer --papers 100000 --stats-only   # file counts and sizes only

Steps: a synthetic catalog (``bench/synth/``), ``papershelf build`` of it, Pagefind
(``bench/search/node_modules``, pinned in ``bench/search/package.json``) indexing the
paper pages' ``<article>``, then a local server on 127.0.0.1 that gzips text responses and
logs every response's bytes on the wire (headers and body; fetches of Web Workers
included, which a browser's own accounting misses), and Debian's Chromium through
Playwright. Every query is a cold load in a fresh browser context (empty cache):

* ours: ``/search/?q=...`` until the 10 results show and every result in sight is complete
  (the complete answer: page, scripts, index files, the results' titles, the papers' pages
  their authors, PDF links and snippets come from);
* Pagefind: ``/pagefind-bench/?q=...``, a page that imports ``pagefind.js``, searches, and
  loads the data (title, excerpt) of the first 10 results, as many as our first screen.

Reported per query: bytes, requests, and time from navigation to the complete answer.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

from bench.search.measure import CHROMIUM, CHROMIUM_ARGS, LoggingGzipHandler, Server

QUERIES = {
    "title word": "watermark",
    "title word 2": "tactile",
    "author": "yamamoto",
    "author 2": "hernandez",
    "abstract-only word": "unitigbin",
    "common word": "learning",
    "common word 2": "model",
    "three words": "diffusion models protein",
    "three words 2": "graph neural network",
    "prefix": "watermar",
    "prefix 2": "reinforc",
    "two letters": "co",
    "long query": "a survey of deep reinforcement learning methods for robotic manipulation",
    "typo": "reinforcment",
    "typo 2": "watremark",
    "no match": "zzqxj",
    "five words": "graph neural networks for node classification",
    "full name": "dmitri flores",
    "typo and prefix": "difusion mod",
    "six words": "large language models reasoning benchmark evaluation",
    "four words": "contrastive self-supervised representation learning",
}

# Typed letter by letter in one page (issue 32: <= 700 kB to the last answer at 100,000 papers).
TYPED = "diffusion models"


def catalog_queries(content: Path) -> dict[str, str]:
    """A person and an identifier of this catalog (issue 32): the first author of the first
    paper (by file name) and the id of its first link that has one."""
    from generator.outputs.search.ids import link_keys

    found: dict[str, str] = {}
    for path in sorted((content / "papers").glob("*.md"))[:200]:
        text = path.read_text(encoding="utf-8")
        if "person" not in found and (m := re.search(r"^authors:\n- (.+)$", text, re.M)):
            found["person"] = m.group(1).strip().strip("'\"")
        for url in re.findall(r"^  \w+: (https?://\S+)$", text, re.M):
            if "identifier" not in found and link_keys(url):
                found["identifier"] = link_keys(url)[0]
        if len(found) == 2:
            break
    return found


PAGEFIND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pagefind bench</title></head>
<body><ol id="out"></ol>
<script type="module">
const q = new URL(location.href).searchParams.get("q") || "";
const pagefind = await import("/pagefind/pagefind.js");
await pagefind.init();
const search = await pagefind.search(q);
const data = await Promise.all(search.results.slice(0, 10).map((r) => r.data()));
const out = document.getElementById("out");
for (const d of data) { const li = document.createElement("li"); li.textContent = d.meta.title + " " + d.excerpt; out.appendChild(li); }
document.body.setAttribute("data-done", String(search.results.length));
</script></body></html>
"""


def make_site(papers: int, seed: int, work: Path, reuse: bool) -> tuple[Path, dict]:
    content, site = work / f"content-{papers}-{seed}", work / f"site-{papers}-{seed}"
    costs: dict = {}
    if not (reuse and (content / "papers").is_dir()):
        from bench.synth import generate

        generate(papers, content, seed=seed)
    if not (reuse and (site / "search" / "meta.json").is_file()):
        started = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S", str(REPO / ".venv" / "bin" / "papershelf"),
                               "build", "--quiet", "--content", str(content), "--output", str(site)],
                              capture_output=True, text=True, check=True)
        wall, rss, user, system = done.stderr.strip().splitlines()[-1].split()
        costs["papershelf build"] = {"wall s": float(wall), "cpu s": float(user) + float(system),
                                     "peak MB": int(rss) / 1024}
        print(f"build: {time.perf_counter() - started:.0f}s", file=sys.stderr)
    else:  # the theme's scripts and stylesheet as a build serves them (minified)
        from generator.outputs.assets import served

        for source in [*(REPO / "static" / "js").glob("*.js"), REPO / "static" / "css" / "site.css"]:
            rel = source.relative_to(REPO).as_posix()
            (site / rel).write_bytes(served(rel, source.read_bytes()))
    return site, costs


def pagefind(site: Path, reuse: bool) -> dict:
    binary = HERE / "node_modules" / ".bin" / "pagefind"
    if not binary.exists():
        raise SystemExit("Pagefind is missing: run `npm install` in bench/search")
    (site / "pagefind-bench").mkdir(exist_ok=True)
    (site / "pagefind-bench" / "index.html").write_text(PAGEFIND_PAGE, encoding="utf-8")
    if reuse and (site / "pagefind" / "pagefind.js").is_file():
        return {}
    done = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S", str(binary), "--site", str(site.resolve()),
                           "--glob", "papers/*/*/index.html", "--root-selector", "article", "--quiet"],
                          capture_output=True, text=True, check=True)
    wall, rss, user, system = done.stderr.strip().splitlines()[-1].split()
    return {"pagefind": {"wall s": float(wall), "cpu s": float(user) + float(system), "peak MB": int(rss) / 1024}}


def tree_stats(root: Path) -> dict:
    files = [p for p in root.rglob("*") if p.is_file()]
    raw = sum(p.stat().st_size for p in files)
    packed = sum(len(gzip.compress(p.read_bytes(), 6)) for p in files)
    return {"files": len(files), "raw MB": raw / 1e6, "gzip MB": packed / 1e6}


def load(browser, server: Server, url: str, done_js: str, timeout: float = 120.0) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    LoggingGzipHandler.log.clear()
    started = time.time() * 1000
    page.goto(server.base + url)
    page.wait_for_function(done_js, timeout=timeout * 1000, polling=50)
    finished = time.time() * 1000
    page.wait_for_timeout(300)  # anything fetched after the answer would show here
    log = list(LoggingGzipHandler.log)
    context.close()
    before = [entry for entry in log if entry[0] <= finished + 5]
    return {"bytes": sum(b for _, _, b in log), "requests": len(log), "ms": finished - started,
            "late": len(log) - len(before), "errors": errors,
            "paths": sorted({p.split("?")[0] for _, p, _ in log})}


OURS_DONE = ("() => { const r = document.getElementById('search-results');"
             " return r && r.getAttribute('data-state') === 'ready' && r.hasAttribute('data-total')"
             " && !r.querySelector('[data-pending]') && (r.children.length > 0 || r.getAttribute('data-total') === '0'); }")
PAGEFIND_DONE = "() => document.body.hasAttribute('data-done')"


def typing(browser, server: Server, text: str) -> dict:
    """Bytes of a page that types ``text`` letter by letter (120 ms apart) until the last answer."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    LoggingGzipHandler.log.clear()
    page.goto(server.base + "/search/")
    page.wait_for_function("() => { const r = document.getElementById('search-results');"
                           " return !!r && r.getAttribute('data-state') === 'ready'; }", timeout=120000)
    page.locator("#search-input").press_sequentially(text, delay=120)
    page.wait_for_function("(q) => { const r = document.getElementById('search-results');"
                           " return r.getAttribute('data-query') === q && r.hasAttribute('data-total'); }",
                           arg=text, timeout=120000)
    page.wait_for_timeout(300)
    log = list(LoggingGzipHandler.log)
    context.close()
    return {"bytes": sum(b for _, _, b in log), "requests": len(log)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--papers", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", type=Path, default=Path("/tmp/papershelf-search-bench"))
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--stats-only", action="store_true", help="build and count files, no browser")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    site, costs = make_site(args.papers, args.seed, args.work, args.reuse)
    report: dict = {"papers": args.papers, "build": costs}
    if not args.stats_only:
        report["build"].update(pagefind(site, args.reuse))
    report["ours files"] = tree_stats(site / "search")
    if (site / "pagefind").is_dir():
        report["pagefind files"] = tree_stats(site / "pagefind")
    print(json.dumps(report, indent=1))
    if args.stats_only:
        return
    from playwright.sync_api import sync_playwright

    rows = []
    server = Server(site)
    queries = {**QUERIES, **catalog_queries(args.work / f"content-{args.papers}-{args.seed}")}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            # Fixed cost: the search page opened without words, until its index is ready.
            fixed = load(browser, server, "/search/", "() => { const r = document.getElementById('search-results');"
                         " return !!r && r.getAttribute('data-state') === 'ready'; }")
            report["fixed"] = {"bytes": fixed["bytes"], "requests": fixed["requests"], "paths": fixed["paths"]}
            print(f"fixed cost before a query: {fixed['bytes'] / 1000:.1f} kB, {fixed['requests']} requests", flush=True)
            typed = typing(browser, server, TYPED)
            report["typed"] = typed
            print(f"typed letter by letter {TYPED!r}: {typed['bytes'] / 1000:.1f} kB, {typed['requests']} requests",
                  flush=True)
            for kind, q in queries.items():
                ours = load(browser, server, f"/search/?q={q}", OURS_DONE)
                theirs = load(browser, server, f"/pagefind-bench/?q={q}", PAGEFIND_DONE)
                rows.append({"kind": kind, "q": q, "ours": ours, "pagefind": theirs})
                print(f"{kind:20} {q:28} ours {ours['bytes'] / 1000:6.1f} kB {ours['requests']:3} req "
                      f"{ours['ms']:6.0f} ms | pagefind {theirs['bytes'] / 1000:6.1f} kB {theirs['requests']:3} req "
                      f"{theirs['ms']:6.0f} ms", flush=True)
            browser.close()
    finally:
        server.close()
    for side in ("ours", "pagefind"):
        values = [r[side]["bytes"] / 1000 for r in rows]
        report[side] = {"median kB": statistics.median(values), "max kB": max(values), "min kB": min(values),
                        "median requests": statistics.median(r[side]["requests"] for r in rows)}
        print(f"{side}: median {report[side]['median kB']:.1f} kB, max {report[side]['max kB']:.1f} kB", flush=True)
    report["queries"] = rows
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
