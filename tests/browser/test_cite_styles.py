"""The Cite section in Chromium: the references formatted in the page (APA, Chicago, ACL) and its
RIS, made by static/js/cite.js from the page's Highwire tags and JSON-LD, are the formatter's
(checked against citeproc-js under Node: tests/outputs/test_citation_styles.py) for what the
catalog says of the paper; they are copied by their buttons as plain text and as HTML
(italics kept for word processors), at desktop width and on a 320 px phone without sideways
scrolling. Without JavaScript the page shows the BibTeX and says the rest needs it."""

from __future__ import annotations

import pytest

from generator.outputs.citations import CitationIndex

from ..outputs.test_citation_styles import expected_reference, run_node

pytestmark = [pytest.mark.browser, pytest.mark.node]  # the references are checked against citeproc-js under Node

CLIPBOARD = """async () => {
    const out = {};
    for (const item of await navigator.clipboard.read())
        for (const type of item.types) out[type] = await (await item.getType(type)).text();
    return out;
}"""


def expected(site, views) -> list[tuple[dict, list[dict], str]]:
    """(reference, formatted styles, RIS) of each view, as the page must make them."""
    index = CitationIndex(site)
    refs = [expected_reference(v, index.for_paper(v), index.locations.get(v.venue.id)) for v in views]
    answer = run_node({"refs": refs})
    return list(zip(refs, answer["formatted"], answer["ris"]))


def longest_url_paper(site):
    """A paper with authors whose reference is the longest (its URL the hardest to fit)."""
    index = CitationIndex(site)
    return max((v for v in site.papers if v.paper.authors),
               key=lambda v: (len(index.for_paper(v).url or "") + sum(map(len, v.paper.authors)), v.slug))


@pytest.fixture
def clipboard_page(browser, server):
    def make(width: int):
        context = browser.new_context(viewport={"width": width, "height": 900})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        pages.append((context, errors))
        return page

    pages: list = []
    yield make
    for context, errors in pages:
        context.close()
        assert not errors, errors


@pytest.mark.parametrize("width", [1280, 320])
def test_each_style_is_copied_as_text_and_as_html(clipboard_page, server, bundled_views, width):
    site = bundled_views()
    view = longest_url_paper(site)
    ((_, styles, ris),) = expected(site, [view])
    page = clipboard_page(width)
    page.goto(server.url("/" + view.url))
    assert [h.inner_text() for h in page.locator(".cite h3").all()] == [
        "APA (7th edition)", "Chicago (author-date)", "ACL (ACL Anthology)", "BibTeX", "RIS (EndNote, Zotero, Mendeley)"]
    assert page.locator("#cite-ris").inner_text() == ris == CitationIndex(site).for_paper(view).ris
    for style in styles:
        shown = page.locator(f"#cite-{style['id']}")
        assert shown.inner_text() == style["text"]
        assert shown.locator("i").inner_text() == view.venue.full_name
        button = page.get_by_role("button", name=f"Copy {style['name']}", exact=True)
        assert button.is_visible()
        page.evaluate("navigator.clipboard.writeText('')")
        button.click()
        status = button.locator("xpath=following-sibling::span[@role='status']")
        status.filter(has_text="Copied.").wait_for(timeout=10_000)
        copied = page.evaluate(CLIPBOARD)
        assert copied["text/plain"] == style["text"]
        assert f"<i>{view.venue.full_name}</i>" in copied["text/html"]
        box = shown.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
    # The BibTeX button still copies BibTeX as plain text.
    page.get_by_role("button", name="Copy BibTeX", exact=True).click()
    page.locator(".cite .copy-status").filter(has_text="Copied.").nth(3).wait_for(timeout=10_000)
    assert page.evaluate("navigator.clipboard.readText()").startswith("@inproceedings{")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not page.locator(".cite-note").is_visible()  # the <noscript> note


def test_every_paper_s_page_makes_its_references_from_its_metadata(browser, server, bundled_views):
    """What cite.js reads from each bundled paper's page (fromDocument) is what the catalog
    says of the paper, and what it shows is the formatter's text for it."""
    site = bundled_views()
    context = browser.new_context()
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        for view, (ref, styles, ris) in zip(site.papers, expected(site, site.papers)):
            page.goto(server.url("/" + view.url))
            assert page.evaluate("PapershelfCite.fromDocument(document)") == ref, view.slug
            shown = page.evaluate("""() => ['apa', 'chicago', 'acl', 'ris'].map(
                id => document.getElementById('cite-' + id).textContent)""")
            assert shown == [s["text"] for s in styles] + [ris], view.slug
    finally:
        context.close()
    assert not errors, errors


def test_without_javascript_the_bibtex_is_there_and_the_rest_is_said_to_need_it(browser, server, bundled_views):
    site = bundled_views()
    view = longest_url_paper(site)
    provisional = next(v for v in site.papers if v.provisional)
    index = CitationIndex(site)
    context = browser.new_context(viewport={"width": 320, "height": 800}, java_script_enabled=False)
    try:
        page = context.new_page()
        for paper in (view, provisional):
            page.goto(server.url("/" + paper.url))
            assert page.locator("#cite-bibtex").inner_text() == index.for_paper(paper).bibtex
            note = page.locator(".cite-note")
            assert note.is_visible() and "need JavaScript" in note.inner_text()
            assert page.locator("#cite-apa, #cite-chicago, #cite-acl, #cite-ris").count() == 0
            assert not page.get_by_role("button", name="Copy BibTeX").is_visible()
            assert page.locator(".cite-provisional").is_visible() == paper.provisional
            assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        context.close()
