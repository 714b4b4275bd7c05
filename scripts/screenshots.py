"""Screenshots of every page type, phone and desktop, light and dark: ``make screenshots``.

Builds the catalog (or takes an already built site with ``--site``), serves it on
127.0.0.1, drives Debian's Chromium with Playwright and writes PNGs to ``screenshots/``
(git-ignored), named ``<page>-<width>-<theme>.png``. Look at them before calling a
design change done.

    .venv/bin/python scripts/screenshots.py                 # everything
    .venv/bin/python scripts/screenshots.py --only paper    # page names containing "paper"
    .venv/bin/python scripts/screenshots.py --full-page     # whole pages, not the first screen
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from generator.build import BuildOptions, build  # noqa: E402
from generator.derive.views import derive  # noqa: E402
from generator.content.loader import load_catalog  # noqa: E402

CHROMIUM = os.environ.get("PAPERSHELF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
WIDTHS = {"phone": (320, 640), "desktop": (1280, 900)}
THEMES = ("light", "dark")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def page_types(content: Path) -> dict[str, str]:
    """One URL per page type, chosen from the catalog itself (works for any content folder)."""
    site = derive(load_catalog(content))
    pages = {"home": "/", "papers": "/papers/", "venues": "/venues/", "tags": "/tags/",
             "authors": "/authors/", "search": "/search/?q=learning", "reading-list": "/reading-list/",
             "404": "/404.html"}
    regular = [p for p in site.papers if not p.provisional]
    if regular:
        # The paper with the most math and authors shows the most layout.
        richest = max(regular, key=lambda p: (p.abstract_html.count("<math"), len(p.authors), p.slug))
        pages["paper"] = "/" + richest.url
    provisional = [p for p in site.papers if p.provisional]
    if provisional:
        pages["paper-provisional"] = "/" + provisional[0].url
    if site.venues:
        pages["venue"] = "/" + site.venues[0].ref.url
    if site.tags_by_count:
        pages["tag"] = "/" + site.tags_by_count[0].ref.url
    if site.authors:
        pages["author"] = "/" + max(site.authors, key=lambda a: (len(a.papers), a.ref.slug)).ref.url
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", type=Path, default=REPO / "content")
    parser.add_argument("--site", type=Path, help="an already built site (default: build into a temp folder)")
    parser.add_argument("--out", type=Path, default=REPO / "screenshots")
    parser.add_argument("--only", default="", help="only page names containing this")
    parser.add_argument("--full-page", action="store_true")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site_dir = args.site
        if site_dir is None:
            site_dir = Path(tmp) / "site"
            build(BuildOptions(content=args.content, output=site_dir))
        handler = functools.partial(_Quiet, directory=str(site_dir))
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        origin = f"http://127.0.0.1:{httpd.server_address[1]}"
        args.out.mkdir(parents=True, exist_ok=True)
        written = []
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                            args=["--no-sandbox", "--disable-gpu"])
                for name, url in page_types(args.content).items():
                    if args.only not in name:
                        continue
                    for size, (width, height) in WIDTHS.items():
                        for theme in THEMES:
                            context = browser.new_context(viewport={"width": width, "height": height},
                                                          color_scheme=theme, device_scale_factor=1)
                            page = context.new_page()
                            if name == "reading-list":
                                _save_some(page, origin, site_dir)
                            page.goto(origin + url)
                            page.wait_for_load_state("networkidle")
                            target = args.out / f"{name}-{size}-{theme}.png"
                            page.screenshot(path=str(target), full_page=args.full_page)
                            written.append(target)
                            context.close()
                browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()
    for path in written:
        print(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return 0


def _save_some(page, origin: str, site_dir: Path) -> None:
    """Fill the reading list with the first few papers, and the one with the longest author
    list (folded, as on list pages), so its page has something to show."""
    import json

    chunks = sorted((site_dir / "search" / "docs").glob("*.json"), key=lambda p: int(p.stem))
    docs = {r["s"]: r for p in chunks for r in json.loads(p.read_text(encoding="utf-8"))}
    slugs = list(docs)[:4]
    longest = max(docs, key=lambda s: (len(docs[s]["a"]), s), default=None)
    if longest is not None and longest not in slugs:
        slugs.append(longest)
    page.goto(origin + "/")
    page.evaluate("""([slugs, docs]) => {
        const items = slugs.map((s) => ({s: s, t: docs[s].t}));
        localStorage.setItem("papershelf-reading-list:/", JSON.stringify(items));
    }""", [slugs, docs])


if __name__ == "__main__":
    raise SystemExit(main())
