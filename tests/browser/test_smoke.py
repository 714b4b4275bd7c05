"""The site works in a real browser: pages load without script errors."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_home_page_loads_without_errors(page, server):
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(server.url("/"))
    assert page.locator("h1").first.inner_text().startswith("Papershelf")
    assert page.locator("#header-q").is_visible()
    page.wait_for_load_state("networkidle")
    # nothing fails to load, the favicon included (browsers ask for /favicon.ico without one)
    assert failed == [] and errors == []


# Search behaviour (deep links, click-through, sub-paths, ...) is tested in test_search.py.
