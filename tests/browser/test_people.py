"""People in Chromium (issue 36 item 4): a list item names every author; past ten the rest
fold into "and N more", a <details> that opens in place without script and whose names the
browser's find-in-page finds (Chromium opens a closed <details> to show a match, since 97);
merged spellings link to one page, numbered namesakes to their own."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from generator.build import BuildOptions, build

from ..derive.test_people_identity import PAPERS, SPLIT, make_catalog
from .conftest import StaticServer

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("PAPERSHELF_SHOTS", tempfile.gettempdir()))  # screenshots to look at
LONG = next(authors for slug, _, authors in PAPERS if slug == "2022-acl-long-400")


@pytest.fixture(scope="module")
def shelf(tmp_path_factory):
    root = tmp_path_factory.mktemp("people-browser")
    out = root / "site"
    build(BuildOptions(content=make_catalog(root, SPLIT), output=out, base_url="/"))
    server = StaticServer(out)
    yield server
    server.close()


def _long_item(page):
    return page.locator("#paper-list > li:has(a[href='/papers/acl-2022/2022-acl-long-400/'])")


def test_a_long_byline_folds_after_ten_and_opens_without_script(browser, shelf, tmp_path):
    context = browser.new_context(viewport={"width": 1000, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(shelf.url("/venues/acl-2022/"))
        item = _long_item(page)
        byline = item.locator(":scope > h3 + div")
        assert byline.locator(":scope > a").all_inner_texts() == LONG[:10]
        summary = byline.locator("details > summary")
        assert summary.inner_text().strip() == "and 4 more"
        folded = byline.locator("details > a")
        assert folded.all_text_contents() == LONG[10:] and not folded.first.is_visible()
        item.screenshot(path=str(SHOTS / "folded.png"))
        summary.click()  # no script on the page: the <details> itself opens
        assert all(folded.nth(i).is_visible() for i in range(4))
        assert summary.inner_text().strip() == "show fewer"
        assert folded.nth(3).get_attribute("href") == "/authors/al/albert-webson/"
        item.screenshot(path=str(SHOTS / "opened.png"))
    finally:
        context.close()


def test_find_in_page_finds_a_folded_name_and_opens_its_list(page, shelf):
    """Find-in-page searches a closed <details> (window.find, the page's own find, finds the
    name), and Chromium opens the <details> to show a match it was sent to: a text fragment
    (``#:~:text=``, the link form of find-in-page, on the same auto-expand path as Ctrl+F)."""
    page.goto(shelf.url("/venues/acl-2022/"))
    details = _long_item(page).locator("details")
    assert details.evaluate("d => d.open") is False
    assert page.evaluate("() => window.find('Albert Webson')") is True
    assert page.evaluate("() => window.find('Albert Webston')") is False  # (it can fail)
    page.goto(shelf.url("/papers/"))  # a new document, then back with a text fragment
    page.goto(shelf.url("/venues/acl-2022/#:~:text=Albert%20Webson"))
    details = _long_item(page).locator("details")
    details.locator("a").last.wait_for(state="visible")
    assert details.evaluate("d => d.open") is True


def test_spellings_link_to_one_page_and_namesakes_to_their_own(page, shelf):
    page.goto(shelf.url("/venues/cvpr-2023/"))
    links = page.locator("#paper-list a[href='/authors/jo/joshua-tenenbaum/']")
    assert links.count() == 2 and set(links.all_inner_texts()) == {"Joshua Tenenbaum"}
    vision = page.locator("#paper-list a", has_text="Jie Zhou")
    assert set(vision.evaluate_all("as => as.map(a => a.getAttribute('href'))")) == {"/authors/ji/jie-zhou-0001/"}
    page.goto(shelf.url("/authors/ji/jie-zhou-0002/"))
    assert page.locator("h1").inner_text() == "Jie Zhou 0002"
    assert page.locator("#paper-list li.paper-item").count() == 2
    page.goto(shelf.url("/authors/jo/joshua-tenenbaum/"))
    assert page.locator("#paper-list li.paper-item").count() == 5
    assert "J. Tenenbaum" in page.locator(".author-profile").inner_text()  # "Also written"
