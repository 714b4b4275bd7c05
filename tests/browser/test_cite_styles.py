"""The Cite section's formatted references (APA, Chicago, ACL) in Chromium: shown without
JavaScript, copied by their buttons as plain text and as HTML (italics kept for word
processors), at desktop width and on a 320 px phone without sideways scrolling."""

from __future__ import annotations

import pytest

from generator.outputs.citations import CitationIndex

pytestmark = pytest.mark.browser

CLIPBOARD = """async () => {
    const out = {};
    for (const item of await navigator.clipboard.read())
        for (const type of item.types) out[type] = await (await item.getType(type)).text();
    return out;
}"""


def longest_url_paper(site):
    """A paper with authors whose reference is the longest (its URL the hardest to fit)."""
    index = CitationIndex(site)
    return max((v for v in site.papers if v.paper.authors),
               key=lambda v: (len(index.for_paper(v).styles[0].text), v.slug))


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
    styles = CitationIndex(site).for_paper(view).styles
    page = clipboard_page(width)
    page.goto(server.url("/" + view.url))
    assert [h.inner_text() for h in page.locator(".cite h3").all()][:3] == [
        "APA (7th edition)", "Chicago (author-date)", "ACL (ACL Anthology)"]
    for style in styles:
        shown = page.locator(f"#cite-{style.id}")
        assert shown.inner_text() == style.text
        assert shown.locator("i").inner_text() == view.venue.full_name
        button = page.get_by_role("button", name=f"Copy {style.name}", exact=True)
        assert button.is_visible()
        page.evaluate("navigator.clipboard.writeText('')")
        button.click()
        status = button.locator("xpath=following-sibling::span[@role='status']")
        status.filter(has_text="Copied.").wait_for(timeout=10_000)
        copied = page.evaluate(CLIPBOARD)
        assert copied["text/plain"] == style.text
        assert f"<i>{view.venue.full_name}</i>" in copied["text/html"]
        box = shown.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
    # The BibTeX button still copies BibTeX as plain text.
    page.get_by_role("button", name="Copy BibTeX", exact=True).click()
    page.locator(".cite .copy-status").filter(has_text="Copied.").nth(3).wait_for(timeout=10_000)
    assert page.evaluate("navigator.clipboard.readText()").startswith("@inproceedings{")
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_references_are_there_without_javascript(browser, server, bundled_views):
    site = bundled_views()
    view = longest_url_paper(site)
    provisional = next(v for v in site.papers if v.provisional)
    index = CitationIndex(site)
    context = browser.new_context(viewport={"width": 320, "height": 800}, java_script_enabled=False)
    try:
        page = context.new_page()
        for paper in (view, provisional):
            page.goto(server.url("/" + paper.url))
            for style in index.for_paper(paper).styles:
                assert page.locator(f"#cite-{style.id}").inner_text() == style.text
                assert not page.get_by_role("button", name=f"Copy {style.name}").is_visible()
            note = page.locator(".cite-provisional")
            assert note.is_visible() == paper.provisional
            assert page.evaluate("document.documentElement.scrollWidth") <= 320
        # A paper without authors starts with its title (APA, Chicago) or its year (ACL).
        assert page.locator("#cite-apa").inner_text().startswith(provisional.title_plain[:20])
        assert page.locator("#cite-acl").inner_text().startswith(f"{provisional.venue.year}. ")
    finally:
        context.close()
