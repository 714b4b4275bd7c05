"""axe-core on every page type, in both themes, at desktop and phone widths: 0 violations.

axe runs with all its rules (WCAG 2.0/2.1 A and AA plus best practices). The pages are
the committed catalog's, chosen from the catalog itself so other catalogs work too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.derive.views import derive
from generator.content.loader import load_catalog

from ..conftest import REPO

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"


def page_urls() -> dict[str, str]:
    site = derive(load_catalog(REPO / "content"))
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
    if provisional:
        urls["paper-provisional"] = "/" + provisional[0].url
    return urls


URLS = page_urls()


def run_axe(page) -> list[dict]:
    if not AXE.is_file():
        pytest.fail(f"{AXE} missing: run 'npm ci'")
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + " :: " + n.failureSummary)}));
    }""")
    return result


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("name", sorted(URLS))
def test_no_axe_violations(browser, server, site_dir, name, theme):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=theme)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        url = URLS[name]
        if name == "reading-list":
            slugs = sorted(json.loads((site_dir / "reading-list" / "data" / "0.json").read_text(encoding="utf-8")))[:3]
            page.goto(server.url("/"))
            page.evaluate("s => localStorage.setItem('papershelf-reading-list:/', JSON.stringify(s.map(x => ({s: x, t: x}))))",
                          slugs[:2])
            url = f"/reading-list/?papers={','.join(slugs)}"
        page.goto(server.url(url))
        page.wait_for_load_state("networkidle")
        if name == "search":
            page.locator("#search-results li").first.wait_for()
        if name == "reading-list":
            page.locator("#rl-items li").first.wait_for()
            page.locator("#rl-import:not([hidden])").wait_for()
        if name == "paper-long-authors":
            for details in page.locator("details.more-authors").all():
                details.evaluate("d => d.open = true")
        violations = run_axe(page)
        assert violations == [], json.dumps(violations, indent=1)
        # The same page on a phone.
        page.set_viewport_size({"width": 360, "height": 740})
        violations = run_axe(page)
        assert violations == [], "phone width: " + json.dumps(violations, indent=1)
        # Responsive: nothing wider than a 360 px phone (no sideways scrolling).
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
    assert not errors, errors
