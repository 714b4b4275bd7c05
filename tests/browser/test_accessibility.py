"""axe-core on every page type, in both themes, at desktop width and on a 320 px phone:
0 violations.

axe runs with all its rules (WCAG 2.0/2.1 A and AA plus best practices). The pages are
the committed catalog's, chosen from the catalog itself so other catalogs work too.
"""

from __future__ import annotations

import json
import time

import pytest

from generator.derive.browse import author_letters, letter_nav
from generator.derive.urls import YEARS, year_page

from ..conftest import REPO

pytestmark = pytest.mark.browser

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"

# Page types; the pages themselves are chosen from the catalog (``page_urls``).
NAMES = ["404", "author", "authors", "home", "paper", "paper-long-authors", "paper-provisional", "papers",
         "reading-list", "search", "tag", "tags", "topic", "topics", "trends", "venue", "venues"]

NAMES += ["authors-letter", "years", "year"]  # the browsing pages of issue 28
NAMES += ["sessions", "session"]  # the reading group's sessions (issue 34)


def page_urls(site) -> dict[str, str]:
    regular = [p for p in site.papers if not p.provisional]
    provisional = [p for p in site.papers if p.provisional]
    long_authors = max(site.papers, key=lambda p: (len(p.authors), p.slug))
    urls = {
        "home": "/",
        "paper": "/" + regular[0].url,
        "paper-long-authors": "/" + long_authors.url,
        "venues": "/venues/",
        "venue": "/" + site.venues[0].ref.url,
        "tags": "/tags/",
        "tag": "/" + site.tags_by_count[0].ref.url,
        "authors": "/authors/",
        "author": "/" + site.authors[0].ref.url,
        "papers": "/papers/",
        "search": "/search/?q=learning",
        "reading-list": "/reading-list/",
        "404": "/404.html",
    }
    if site.topics is not None:
        urls["topics"] = "/topics/"
        urls["topic"] = "/" + site.topics.topics[0].ref.url
        urls["trends"] = "/trends/"
    if provisional:
        urls["paper-provisional"] = "/" + provisional[0].url
    urls["authors-letter"] = "/" + next(link.url for link in letter_nav(author_letters(site.authors)) if link.url)
    urls["years"] = "/" + YEARS
    urls["year"] = "/" + year_page(site.venues[0].ref.year)
    if site.sessions is not None:
        urls["sessions"] = "/sessions/"
        urls["session"] = "/" + max(site.sessions.sessions, key=lambda s: (len(s.notes_plain), s.id)).url
    return urls


@pytest.fixture(scope="module")
def urls(bundled_views) -> dict[str, str]:
    return page_urls(bundled_views())


def test_every_page_type_is_checked(urls, bundled_views):
    """Every template the site renders pages with is under axe through one page of it, and
    this catalog has every page type NAMES lists (none of them is skipped)."""
    from generator.outputs.pages import plan_pages

    planned = {page.url: page.template for page in plan_pages(bundled_views())}
    assert set(urls) == set(NAMES), f"no page for {sorted(set(NAMES) - set(urls))} in the bundled catalog"
    checked = {}
    for name, url in urls.items():
        path = url.split("?")[0].lstrip("/")
        assert path in planned, f"{name}: {url} is not a page of the site"
        checked[planned[path]] = name
    pages = {template for template in planned.values() if template.endswith(".html")}
    assert pages <= set(checked), f"pages of {sorted(pages - set(checked))} are not checked: add them to NAMES and page_urls"


def goto_and_settle(page, url: str, timeout: float = 30.0) -> None:
    """Open ``url`` and wait until the page has no request in flight: what the "networkidle"
    load state waits for, without its fixed 500 ms of quiet at the end of every page."""
    in_flight: set = set()
    page.on("request", lambda request: in_flight.add(request))
    page.on("requestfinished", lambda request: in_flight.discard(request))
    page.on("requestfailed", lambda request: in_flight.discard(request))
    page.goto(url)
    deadline = time.monotonic() + timeout
    while True:
        page.evaluate("0")  # a round trip: request events sent before it have arrived
        if not in_flight:
            return
        assert time.monotonic() < deadline, f"requests still in flight: {[r.url for r in in_flight]}"
        page.wait_for_timeout(20)


def run_axe(page) -> list[dict]:
    if not AXE.is_file():
        pytest.fail(f"{AXE} missing: run 'npm ci'")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: " + n.failureSummary)}));
    }""")
    return result


THEMES = ("light", "dark")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 320, "height": 640}


def page_background(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def check_both_themes(page, check) -> None:
    """``check(theme)`` on the open page in the light theme, then in the dark one. Without a
    saved choice the page follows prefers-color-scheme as it changes (site.css, site.js), so
    the theme is switched by emulating the system's, with no reload: one page load and one
    axe injection serve both themes. The page must look different in each."""
    backgrounds = []
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (theme == "dark")
        backgrounds.append(page_background(page))
        check(theme)
    assert backgrounds[0] != backgrounds[1], f"the dark theme did not apply: {backgrounds}"


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_no_axe_violations(browser, server, site_dir, urls, name):
    """Each page type, in both themes (``check_both_themes``), at desktop width and on a phone."""
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        if name not in urls:
            pytest.skip(f"the catalog has no {name} page")
        url = urls[name]
        if name == "reading-list":
            slugs = sorted(json.loads((site_dir / "reading-list" / "data" / "0.json").read_text(encoding="utf-8")))[:3]
            page.goto(server.url("/"))
            page.evaluate("s => localStorage.setItem('papershelf-reading-list:/', JSON.stringify(s.map(x => ({s: x, t: x}))))",
                          slugs[:2])
            url = f"/reading-list/?papers={','.join(slugs)}"
        goto_and_settle(page, server.url(url))
        if name == "search":
            page.locator("#search-results li").first.wait_for()
        if name == "reading-list":
            page.locator("#rl-items li").first.wait_for()
            page.locator("#rl-import:not([hidden])").wait_for()
        if name == "paper-long-authors":
            for details in page.locator("details.more-authors").all():
                details.evaluate("d => d.open = true")

        def check(theme: str) -> None:
            page.set_viewport_size(DESKTOP)
            violations = run_axe(page)
            assert violations == [], f"{theme}: " + json.dumps(violations, indent=1)
            # The same page on a phone (elements shown only there have colours of their own too).
            page.set_viewport_size(PHONE)
            violations = run_axe(page)
            assert violations == [], f"{theme}, phone width: " + json.dumps(violations, indent=1)
            # Responsive: nothing wider than a 320 px phone (no sideways scrolling).
            assert page.evaluate("document.documentElement.scrollWidth") <= 320

        check_both_themes(page, check)
    finally:
        context.close()
    assert not errors, errors
