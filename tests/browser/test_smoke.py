"""The site works in a real browser: pages load without script errors, search answers."""

from __future__ import annotations


def test_home_page_loads_without_errors(page, server):
    page.goto(server.url("/"))
    assert page.locator("h1").first.inner_text().startswith("Papershelf")
    assert page.locator("#header-q").is_visible()


def test_search_page_finds_a_paper_from_the_url(page, server):
    page.goto(server.url("/search/?q=watermark"))
    first = page.locator("#search-results li a").first
    first.wait_for()
    assert "Watermark" in first.inner_text()
    first.click()
    page.wait_for_url("**/papers/an-unforgeable-publicly-verifiable-watermark-for-large-language-models/")


def test_search_works_under_a_subpath(page, subpath_server):
    page.goto(subpath_server.url("/catalog/search/?q=tactile"))
    first = page.locator("#search-results li a").first
    first.wait_for()
    assert first.get_attribute("href").startswith("/catalog/papers/difftactile")
