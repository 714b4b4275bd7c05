"""Sorting and filtering a paper list at scale: the bytes the server sends (issue 32, item 6).

Usage (from the repository root)::

    .venv/bin/python -m bench.synth 10000 /tmp/cat10k        # a synthetic catalog (seed 0)
    .venv/bin/python -m bench.list_bytes /tmp/cat10k [--json out.json] [--no-browser]

What it does: loads and derives the catalog (no whole build: at 100,000 papers that is half
an hour), writes the files a list's sort and filter read (``outputs.list_data``: every
list's data file and the row files), renders the first page of the two worst lists (all
papers; the biggest tag) and copies ``static/``; serves that folder on 127.0.0.1 with a
server that gzips text responses (HTML, JS, CSS, as static hosts do; the ``.gz`` files go as
they are) and counts every byte it sends (headers and bodies); and opens each list in
Debian's Chromium (Playwright, a cold cache: a new context each time) with a sort or filter
in its URL (``?sort=venue``...), waits for the list's status to say what it shows, and reads
the server's count. Nothing leaves the machine.

Reported per list and change: **page** (the list's first page with its scripts and
stylesheet: what a reader has before choosing), **sort/filter** (what the change costs:
data files and the rows of the first ``PAGE_SIZE`` papers shown), the files fetched, and
what the same change cost before: **all pages** (the list's other pages, which list.js
fetched; their size estimated as the first page's times their number).
``--no-browser`` does what list.js does in Python instead (same files, from the same server).
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import json
import mimetypes
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

from generator.content.loader import load_catalog
from generator.derive.urls import LIST_VENUES, PAPERS, list_data, list_rows, tag_page
from generator.derive.views import derive
from generator.outputs.list_data import ROW_SHARD, build_list_data, read_list_data
from generator.outputs.pages import PAGE_SIZE, plan_pages
from generator.outputs.render import make_environment, render_page, site_globals

GZIP_TYPES = ("text/", "application/javascript", "image/svg+xml")


class CountingHandler(http.server.SimpleHTTPRequestHandler):
    """Static files (text gzip when the browser accepts it); adds each response's bytes,
    headers and body, to ``sent`` by path."""

    sent: dict[str, int] = {}
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
        kind, encoding = mimetypes.guess_type(path)
        kind = "application/gzip" if encoding == "gzip" else kind or "application/octet-stream"
        body = Path(path).read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", kind)
        if kind.startswith(GZIP_TYPES) and "gzip" in self.headers.get("Accept-Encoding", ""):
            body = gzip.compress(body, 6, mtime=0)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        head = sum(len(b) for b in self._headers_buffer) + 2
        self.end_headers()
        self.wfile.write(body)
        with self.lock:
            key = self.path.split("?")[0]
            self.sent[key] = self.sent.get(key, 0) + head + len(body)


class Server:
    def __init__(self, root: Path):
        handler = lambda *a, **k: CountingHandler(*a, directory=str(root), **k)  # noqa: E731
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def take(self) -> dict[str, int]:
        with CountingHandler.lock:
            sent = dict(CountingHandler.sent)
            CountingHandler.sent.clear()
        return sent

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def prepare(content: Path, out: Path) -> tuple[dict, list[dict]]:
    """The list files, the first pages of the worst lists and static/ in ``out``; the
    catalog's figures and the changes to measure."""
    site = derive(load_catalog(content))
    files = 0
    data_bytes = rows_bytes = 0
    for path, data in build_list_data(site):
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        files += 1
        if path.startswith("lists/") and path != LIST_VENUES:
            rows_bytes += len(data)
        else:
            data_bytes += len(data)
    biggest = max(site.tags, key=lambda t: (len(t.papers), t.ref.id))
    other = max((t for t in site.tags if t is not biggest), key=lambda t: (len(t.papers), t.ref.id))
    urls = {PAPERS, tag_page(biggest.ref.id)}
    env = make_environment(REPO / "templates")
    globals_ = site_globals(site)
    lists = {}
    for page in plan_pages(site):
        if page.url in urls:
            target = out / page.output_path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(render_page(env, page, globals_), encoding="utf-8")
            lists[page.url] = page.context["pagination"].count if page.context["pagination"] else 1
    shutil.copytree(REPO / "static", out / "static", dirs_exist_ok=True)
    catalog = {"papers": len(site.papers), "venues": len(site.venues), "tags": len(site.tags),
               "list files": files, "list data bytes": data_bytes, "row bytes": rows_bytes,
               "biggest tag": [biggest.ref.id, len(biggest.papers)]}
    changes = []
    for url in sorted(lists):
        tag = other.ref.id if url == PAPERS else max(
            (t for t in site.tags if t is not biggest), key=lambda t: (sum(1 for p in biggest.papers if t.ref in p.tags),
                                                                       t.ref.id)).ref.id
        for query in ("sort=venue", "sort=year", "sort=presentation", f"tag={tag}", f"tag={tag}&sort=venue",
                      "presentation=oral&sort=year"):
            changes.append({"list": url, "query": query, "pages": lists[url]})
    return catalog, changes


def measure_browser(server: Server, changes: list[dict]) -> None:
    """Each change as a cold load of the list's first page with the change in its URL
    (list.js applies it on load): its bytes less those of the same page loaded alone."""
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("PAPERSHELF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    alone: dict[str, tuple[int, dict[str, list[str]]]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-quic"])

        def load(url: str, settle: bool):
            context = browser.new_context()
            page = context.new_page()
            server.take()
            page.goto(server.base + "/" + url)
            if settle:
                page.wait_for_function("/^(Showing|No papers)/.test(document.querySelector('#list-status').textContent)",
                                       timeout=180_000)
            page.wait_for_load_state("networkidle")
            return context, page, server.take()

        for change in changes:
            if change["list"] not in alone:
                context, page, sent = load(change["list"], False)
                offered = page.eval_on_selector_all(".list-controls select", """ss => Object.fromEntries(ss.map(s =>
                    [s.name, Array.from(s.options).map(o => o.value)]))""")
                alone[change["list"]] = (sum(sent.values()), offered)
                context.close()
            change["page"], offered = alone[change["list"]]
            wanted = dict(part.split("=") for part in change["query"].split("&"))
            missing = [f"{k}={v}" for k, v in wanted.items() if v not in offered.get(k, ())]
            if missing:
                change["skipped"] = f"the list offers no {', '.join(missing)}"
                continue
            context, page, sent = load(change["list"] + "?" + change["query"], True)
            change["change"] = sum(sent.values()) - change["page"]
            change["files"] = sum(1 for path in sent if path.endswith(".json.gz"))
            change["other pages"] = sum(1 for path in sent if "/page/" in path)
            change["status"] = page.locator("#list-status").inner_text()
            context.close()
        browser.close()


def measure_python(server: Server, changes: list[dict], out: Path) -> None:
    """What list.js fetches for each change, fetched from the server (no browser)."""
    import urllib.request

    def get(path: str) -> bytes:
        with urllib.request.urlopen(server.base + "/" + path) as response:
            return response.read()

    def data_of(path: str) -> dict:
        return read_list_data(get(path), get(LIST_VENUES))

    for change in changes:
        server.take()
        get(change["list"])
        change["page"] = sum(server.take().values())  # the HTML alone, not gzip: no browser
        wanted = dict(part.split("=") for part in change["query"].split("&"))
        data = data_of(list_data(change["list"]))
        keep = list(range(data["n"]))
        if "tag" in wanted:
            tagged = set(data_of(list_data(tag_page(wanted["tag"])))["ordinals"])
            keep = [i for i in keep if data["ordinals"][i] in tagged]
        if "presentation" in wanted:
            if "p" not in data:
                change["skipped"] = "the list offers no presentation"
                continue
            digit = str(data["P"].index(wanted["presentation"]))
            keep = [i for i in keep if data["p"][i] == digit]
        sort = wanted.get("sort", "title")
        group = {"venue": lambda i: data["v"][i], "year": lambda i: -data["V"][data["v"][i]][2],
                 "presentation": lambda i: int(data["p"][i])}.get(sort)
        if sort != "title" and (group is None or ("v" not in data and sort in ("venue", "year"))):
            change["skipped"] = f"the list offers no sort by {sort}"
            continue
        if group:
            keep.sort(key=lambda i: (group(i), i))
        for n in sorted({data["ordinals"][i] // ROW_SHARD for i in keep[:PAGE_SIZE]}):
            get(list_rows(n))
        sent = server.take()
        change["change"] = sum(sent.values())
        change["files"] = len(sent)
        change["other pages"] = 0
        change["status"] = f"{len(keep)} papers"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("content", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="list-bytes-") as tmp:
        out = Path(tmp)
        catalog, changes = prepare(args.content, out)
        server = Server(out)
        try:
            if args.no_browser:
                measure_python(server, changes, out)
            else:
                measure_browser(server, changes)
        finally:
            server.close()
    print(f"{catalog['papers']:,} papers, {catalog['venues']:,} venues, {catalog['tags']} tags; "
          f"list data files {catalog['list data bytes'] / 1000:,.1f} kB, row files {catalog['row bytes'] / 1000:,.1f} kB "
          f"({catalog['list files']:,} files); biggest tag {catalog['biggest tag'][0]} ({catalog['biggest tag'][1]:,} papers)")
    print()
    print("| list | change | page | sort/filter | files | other pages fetched | before: all pages (est.) | status |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for c in changes:
        if "skipped" in c:
            print(f"| /{c['list']} | ?{c['query']} | | | | | | {c['skipped']} |")
            continue
        before = c["page"] * (c["pages"] - 1)
        print(f"| /{c['list']} | ?{c['query']} | {c['page'] / 1000:,.1f} kB | {c['change'] / 1000:,.1f} kB | {c['files']} "
              f"| {c['other pages']} | {before / 1e6:,.2f} MB ({c['pages'] - 1:,} pages) | {c['status'][:60]} |")
    if args.json:
        args.json.write_text(json.dumps({"catalog": catalog, "changes": changes}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
