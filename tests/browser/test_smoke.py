"""The site works in a real browser: pages load without script errors."""

from __future__ import annotations


def test_home_page_loads_without_errors(page, server):
    page.goto(server.url("/"))
    assert page.locator("h1").first.inner_text().startswith("Papershelf")
    assert page.locator("#header-q").is_visible()


# Search behaviour (deep links, click-through, sub-paths, ...) is tested in test_search.py.
