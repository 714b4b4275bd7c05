"""Browser fixtures: the committed catalog (the session's shared builds) served on loopback,
driven by Chromium.

Playwright's Python API drives Debian's Chromium (``/usr/bin/chromium``); no browser is
downloaded. Set PAPERSHELF_CHROMIUM to use another binary. Without a Chromium the
browser tests fail under CI (CI must install it) and are skipped elsewhere.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from pathlib import Path
from typing import Iterator

import pytest

from generator.build import BuildOptions, build

from ..conftest import REPO
from ..markers import needs

CHROMIUM = os.environ.get("PAPERSHELF_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--disable-sync", "--disable-quic",
]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass


class StaticServer:
    """Serves ``root`` on 127.0.0.1; ``url(path)`` gives the absolute URL of a path."""

    def __init__(self, root: Path):
        handler = functools.partial(QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/") -> str:
        return self.base + path

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def complete_result(page, slug: str):
    """The search result of ``slug`` once its paper's page has filled it in (authors, PDF,
    snippet: static/js/search.js fetches the page when the result comes into sight, so it
    is scrolled into sight first)."""
    page.wait_for_function(
        """(slug) => {
          const li = Array.from(document.querySelectorAll('#search-results > li')).find(e => e.dataset.slug === slug);
          if (!li) return false;
          if (!li.querySelector('[data-loading], [data-pending], [data-later]')) return true;
          li.scrollIntoView({block: 'nearest'});  // (the item is replaced once filled in)
          return false;
        }""", arg=slug, timeout=20000)
    return page.locator(f"#search-results > li[data-slug='{slug}']")


def build_site(out: Path, base_url: str = "/", content: Path = REPO / "content") -> Path:
    build(BuildOptions(content=content, output=out, base_url=base_url))
    return out


@pytest.fixture(scope="session")
def site_dir(bundled_site) -> Path:
    """The committed catalog built for "/" (shared by the whole session: read-only)."""
    return bundled_site


@pytest.fixture(scope="session")
def server(site_dir) -> Iterator[StaticServer]:
    srv = StaticServer(site_dir)
    yield srv
    srv.close()


@pytest.fixture(scope="session")
def subpath_server(bundled_build) -> Iterator[StaticServer]:
    """The same catalog built for, and served under, /catalog/."""
    srv = StaticServer(bundled_build("/catalog/").root)
    yield srv
    srv.close()


@pytest.fixture(scope="session")
@needs("browser")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM}; .ci/run must install it")
        pytest.skip("Chromium not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
@needs("browser")
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


# An author list's names (partials/authors.html): each an element, a link where the author
# has a page (here or their own), else a <span>; folded ones in the <details>.
AUTHOR_NAMES = ":scope > a, :scope > span:not(.visually-hidden), :scope > details > a, :scope > details > span"


def author_names(authors) -> list[tuple[str, str | None]]:
    """(name, href or None) of each author of the list ``authors`` (a locator), in order."""
    return [tuple(pair) for pair in authors.locator(AUTHOR_NAMES).evaluate_all(
        "es => es.map(e => [e.textContent, e.getAttribute('href')])")]


def assert_author_list_folds(authors, paper, base: str = "/") -> None:
    """``authors`` (a locator of a folded author list) shows the first names, "and N more",
    and the rest once opened; every author is there, a link to their page (else their own,
    else a search for the name)."""
    assert author_names(authors) == [(a.name, base + a.url if a.url else a.elsewhere or base + a.search_url)
                                     for a in paper.authors]
    summary = authors.locator("summary")
    assert summary.inner_text().strip() == f"and {len(paper.authors_tail)} more"
    hidden = authors.locator(":scope > details > *:not(summary)").first
    assert hidden.text_content() == paper.authors_tail[0].name
    assert not hidden.is_visible()
    summary.click()
    assert hidden.is_visible()
    assert summary.inner_text().strip() == "show fewer"
