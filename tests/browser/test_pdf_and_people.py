"""In Chromium: a paper's PDF is its first, most visible action (paper pages, list items,
the items static/js/paper-item.js makes for search results and the reading list), a paper
without one offers a title search instead, and authors.toml's people show on their author
pages. Desktop and 320 px, light and dark, axe at 0 violations, no request to another host.

The bundled catalog has no authors.toml (no facts about real people are made up); a small
catalog of made-up people and papers is built here for the author pages.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest

from generator.build import BuildOptions, build
from generator.derive import urls

from ..conftest import ContentDir, page_pdf_url, paper_md
from .conftest import AUTHOR_NAMES, StaticServer, complete_result
from .test_accessibility import DESKTOP, check_both_themes, goto_and_settle, run_axe

pytestmark = pytest.mark.browser

WIDTHS = {"desktop": 1280, "phone": 320}
ACTIONS = ".paper-actions a, .paper-actions button:not([hidden])"

PEOPLE = """\
["Ada Example"]
orcid = "0000-0002-1825-0097"
homepage = "https://example.org/people/ada-example/a-rather-long-path/to-her-homepage/"
affiliation = "Department of Examples, University of Illustrative Studies"
aliases = ["A. Example"]

["Bo Testperson"]
affiliation = "Example Labs"

["Di Solo"]
homepage = "https://example.org/di/"
"""


@pytest.fixture(scope="module")
def people_server(tmp_path_factory):
    """A made-up catalog: papers with a pdf link, an arXiv link, and none; authors.toml."""
    root = tmp_path_factory.mktemp("people")
    content = ContentDir(root / "content")
    content.write("authors.toml", PEOPLE)
    # as a catalog of over 20,000 papers does by default: a page for people with two papers
    content.write("site.toml", 'title = "Test shelf"\nauthor_page_min_papers = 2\n')
    content.add_paper("explicit-pdf", paper_md(
        title="Explicit PDF Links for Examples", authors=("Ada Example", "Bo Testperson"), body="About links.",
        extra='links:\n  pdf: "https://example.org/explicit.pdf"\n  arxiv: "https://arxiv.org/abs/2401.00001"'))
    content.add_paper("from-arxiv", paper_md(
        title="A PDF Derived from arXiv", authors=("A. Example",), tags=("optimization",), body="About arXiv.",
        extra='links:\n  arxiv: "https://arxiv.org/abs/2401.00002v2"\n  code: "https://example.org/code"'))
    content.add_paper("no-links", paper_md(
        title="A Paper (Without Any Links) & More", authors=("Bo Testperson", "Cy Unlisted", "Di Solo"), body="Nothing."))
    build(BuildOptions(content=content.root, output=root / "site"))
    srv = StaticServer(root / "site")
    yield srv
    srv.close()


@pytest.fixture(scope="module")
def views(bundled_views):
    return bundled_views()


def with_pdf(views):
    """A paper whose PDF is derived (from its arXiv or OpenReview link) and that has other links."""
    return next(p for p in views.papers if p.pdf_url and p.more_links and "pdf" not in {k.kind for k in p.links})


def without_pdf(views):
    return next(p for p in views.papers if not p.links and p.find_url and not p.provisional)


def external_requests(page) -> list[str]:
    """Requests the page makes to any host but the test server (filled as it loads)."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if urlsplit(r.url).hostname != "127.0.0.1" else None)
    return seen


def box(locator) -> dict:
    return locator.evaluate("e => { const r = e.getBoundingClientRect(); "
                            "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }")


# ----------------------------------------------------------------------- paper pages


@pytest.mark.parametrize("width", WIDTHS.values())
def test_the_pdf_is_the_first_and_most_visible_action_of_a_paper_page(browser, server, views, width):
    paper = with_pdf(views)
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    elsewhere = external_requests(page)
    page.goto(server.url("/" + paper.url))
    actions = page.locator(ACTIONS)
    first = actions.first
    assert first.inner_text() == "PDF" and first.get_attribute("href") == paper.pdf_url
    assert paper.pdf_url.startswith(("https://arxiv.org/pdf/", "https://openreview.net/pdf?id="))
    # First in reading order and on screen: nothing of the actions above it or before it on its row.
    first_box = box(first)
    for i in range(1, actions.count()):
        other = box(actions.nth(i))
        assert other["top"] > first_box["top"] - 1 and (other["top"] >= first_box["bottom"] - 1
                                                         or other["left"] >= first_box["right"])
    # The one action in the accent colour; the links after it are the paper's others.
    colours = actions.evaluate_all("as => as.map(a => getComputedStyle(a).backgroundColor)")
    assert colours[0] != colours[1] and colours.count(colours[0]) == 1
    labels = actions.evaluate_all("as => as.filter(a => a.tagName === 'A').map(a => a.textContent.trim())")
    assert labels == ["PDF"] + [link.label for link in paper.more_links]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert elsewhere == []  # the page links the PDF; it never fetches it
    context.close()


def test_a_paper_without_a_pdf_offers_a_title_search(page, server, views):
    paper = without_pdf(views)
    elsewhere = external_requests(page)
    page.goto(server.url("/" + paper.url))
    first = page.locator(ACTIONS).first
    assert first.inner_text() == "Find PDF on Google Scholar"
    assert first.get_attribute("href") == urls.scholar_search(paper.title_plain)
    assert urlsplit(first.get_attribute("href")).query == "q=" + re.sub(
        r"[^A-Za-z0-9!'()*._~-]", lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), paper.title_plain)
    assert page.locator("meta[name=citation_pdf_url]").count() == 0
    assert elsewhere == []


def test_the_pdf_link_takes_the_keyboard_focus_after_the_authors(page, server, views):
    paper = next(p for p in views.papers if p.pdf_url and p.more_links and "pdf" not in {k.kind for k in p.links}
                 and p.authors and p.authors[-1].url)  # (the last author has a page: a link to tab from)
    page.goto(server.url("/" + paper.url))
    page.locator(".paper-authors a").last.focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("[document.activeElement.textContent, document.activeElement.matches(':focus-visible'),"
                            " getComputedStyle(document.activeElement).outlineStyle]")
    assert focused == ["PDF", True, "solid"]
    assert page.locator("meta[name=citation_pdf_url]").get_attribute("content") == paper.pdf_url


# ----------------------------------------------------------------------- list items


def pdf_action(paper) -> dict:
    return {"cls": "pdf-link", "href": paper.pdf_url, "text": "PDF", "name": f"PDF: {paper.title_plain}"}


def find_action(paper) -> dict:
    return {"cls": "find-link", "href": paper.find_url, "text": "Find PDF",
            "name": f"Find PDF on Google Scholar: {paper.title_plain}"}


def item_actions(item) -> list[dict]:
    return item.locator(":scope > .pdf-link, :scope > .find-link").evaluate_all(
        "as => as.map(a => ({cls: a.className, href: a.getAttribute('href'), text: a.textContent, "
        "name: a.getAttribute('aria-label')}))")


@pytest.mark.parametrize("width", WIDTHS.values())
def test_every_list_item_leads_with_its_pdf_or_a_title_search(browser, server, views, width):
    by_slug = {p.slug: p for p in views.papers}
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(server.url("/papers/"))
    items = page.locator("#paper-list > li")
    items.first.locator(".save-button:not([hidden])").wait_for()
    assert items.count() > 0
    kinds = set()
    for i in range(items.count()):
        item = items.nth(i)
        slug = item.locator("h3 a").get_attribute("href").split("/")[-2]
        paper = by_slug[slug]
        (action,) = item_actions(item)
        if paper.pdf_url:
            assert action == pdf_action(paper)
        else:
            assert action == find_action(paper)
        kinds.add(action["cls"])
    assert kinds == {"pdf-link", "find-link"}
    # Where the eye goes: the first action above Save (desktop: the right-hand column), or
    # before it on the row under the item (phone); inside the item, no sideways scrolling.
    for i in (0, items.count() - 1):
        item = items.nth(i)
        first, save = box(item.locator(".pdf-link, .find-link")), box(item.locator(".save-button"))
        whole = box(item)
        assert whole["top"] <= first["top"] and first["bottom"] <= whole["bottom"]
        if width > 640:
            assert first["bottom"] <= save["top"] and abs(first["right"] - save["right"]) < 1
            assert box(item.locator("h3"))["right"] <= first["left"]  # beside the title, not over it
        else:
            assert abs(first["top"] - save["top"]) < 2 and first["right"] <= save["left"]
    name = page.get_by_role("link", name=f"PDF: {with_pdf(views).title_plain}", exact=True)
    assert name.count() >= 1  # each PDF link names its paper for screen readers
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


def test_list_items_have_their_pdf_without_javascript(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server.url("/papers/"))
    items = page.locator("#paper-list > li")
    firsts = page.locator("#paper-list > li > :is(.pdf-link, .find-link)")
    assert items.count() > 0 and firsts.count() == items.count()
    assert all(firsts.nth(i).is_visible() for i in (0, items.count() - 1))
    assert page.locator(".save-button").first.is_hidden()  # the reading list needs script; the PDF does not
    context.close()


# ------------------------------------------- items made in the page (search, reading list)

MAKE = """([paper, pdf]) => {
  const item = window.PapershelfItem.make({slug: paper.slug, title: paper.title, authors: paper.authors,
    venue: paper.venue, presentation: null, provisional: false, tags: [], pdf: pdf});
  return Array.from(item.querySelectorAll(':scope > .pdf-link, :scope > .find-link')).map(a =>
    ({cls: a.className, href: a.getAttribute('href'), text: a.textContent, name: a.getAttribute('aria-label')}));
}"""


@pytest.mark.parametrize("where", ["/search/", "/reading-list/"])
def test_paper_item_js_gives_the_items_it_makes_the_same_first_action(page, server, site_dir, views, where):
    """The <template> of the search and reading-list pages, filled by paper-item.js, leads
    with the PDF it is given (a search record's "f", on the paper's page), else a title search, exactly as the
    list pages' items do; an item known only by its slug has neither."""
    page.goto(server.url(where))
    page.wait_for_function("() => window.PapershelfItem")
    for paper in (with_pdf(views), without_pdf(views)):
        data = {"slug": paper.slug, "title": paper.title_plain, "authors": [],
                "venue": {"id": paper.venue.id, "name": paper.venue.name, "full": paper.venue.full_name,
                          "year": paper.venue.year}}
        made = page.evaluate(MAKE, [data, page_pdf_url(site_dir, paper.url)])
        if paper.pdf_url:
            assert made == [pdf_action(paper)]
        else:
            assert made == [find_action(paper)]
    unknown = page.evaluate("""() => window.PapershelfItem.make({slug: 'gone', title: 'gone', authors: [],
        venue: null, tags: [], unknown: 'Details unavailable.'}).querySelectorAll('.pdf-link, .find-link').length""")
    assert unknown == 0
    # A caller that does not say whether there is a PDF (no `pdf` at all) gets neither: no
    # "Find PDF" for a paper whose PDF the caller did not pass on.
    untold = page.evaluate("""([paper]) => window.PapershelfItem.make({slug: paper.slug, title: paper.title,
        authors: [], venue: paper.venue, tags: []}).querySelectorAll('.pdf-link, .find-link').length""", [data])
    assert untold == 0
    # What the page must never make: a link that runs script.
    hostile = page.evaluate(MAKE, [{"slug": "x", "title": "x", "authors": [],
                                    "venue": {"id": "v", "name": "V", "full": "V", "year": 2024}}, "javascript:alert(1)"])
    assert hostile[0]["cls"] == "find-link"


def test_a_search_result_leads_with_the_papers_pdf(page, server, views):
    paper = with_pdf(views)
    page.goto(server.url("/search/?q=" + re.sub(r"\W+", "+", paper.title_plain)))
    assert item_actions(complete_result(page, paper.slug)) == [pdf_action(paper)]


def test_a_saved_paper_leads_with_its_pdf(page, server, views):
    paper = with_pdf(views)
    page.goto(server.url("/"))
    page.evaluate("s => localStorage.setItem('papershelf-reading-list:/', JSON.stringify([{s: s, t: ''}]))", paper.slug)
    page.goto(server.url("/reading-list/"))
    item = page.locator(f"#rl-items > li[data-slug='{paper.slug}']")
    item.wait_for()
    assert item_actions(item) == [pdf_action(paper)]


# ----------------------------------------------------------------------- author pages


@pytest.mark.parametrize("width", WIDTHS.values())
def test_an_author_page_shows_what_authors_toml_says(browser, people_server, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    elsewhere = external_requests(page)
    page.goto(people_server.url("/authors/ad/ada-example/"))
    assert page.locator("h1").inner_text() == "Ada Example"
    profile = page.locator("dl.author-profile")
    terms = profile.locator("dt").all_inner_texts()
    assert terms == ["Affiliation", "ORCID iD", "Homepage", "Also written"]
    values = profile.locator("dd").all_inner_texts()
    assert values == ["Department of Examples, University of Illustrative Studies",
                      "https://orcid.org/0000-0002-1825-0097",
                      "example.org/people/ada-example/a-rather-long-path/to-her-homepage", "A. Example"]
    assert profile.get_by_role("link", name="https://orcid.org/0000-0002-1825-0097").get_attribute("href") == \
        "https://orcid.org/0000-0002-1825-0097"
    assert profile.locator("dd a").nth(1).get_attribute("href") == \
        "https://example.org/people/ada-example/a-rather-long-path/to-her-homepage/"
    # Both spellings' papers are on this one page.
    titles = page.locator("#paper-list h3").all_inner_texts()
    assert sorted(titles) == ["A PDF Derived from arXiv", "Explicit PDF Links for Examples"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for dd in profile.locator("dd").all():  # long values wrap inside the page
        assert box(dd)["right"] <= width
    assert elsewhere == []
    context.close()


def test_every_spelling_links_to_the_one_author_page(page, people_server):
    assert page.goto(people_server.url("/authors/ae/a-example/")).status == 404
    page.goto(people_server.url("/papers/test-2024/from-arxiv/"))
    link = page.locator(".paper-authors a")
    assert link.all_inner_texts() == ["Ada Example"] and link.get_attribute("href") == "/authors/ad/ada-example/"
    orcid = page.locator("meta[name=citation_author_orcid]")
    assert orcid.get_attribute("content") == "https://orcid.org/0000-0002-1825-0097"
    assert page.locator("meta[name=citation_author]").get_attribute("content") == "A. Example"
    people = json.loads(page.locator("script[type='application/ld+json']").inner_text())["author"]
    assert people[0]["sameAs"] == ["https://orcid.org/0000-0002-1825-0097",
                                   "https://example.org/people/ada-example/a-rather-long-path/to-her-homepage/"]
    # An author without an entry: a page as before (two papers), no profile.
    page.goto(people_server.url("/authors/bo/bo-testperson/"))
    assert page.locator("dl.author-profile dt").all_inner_texts() == ["Affiliation"]
    # With one paper, no page (author_page_min_papers = 2): the name links to the person's own
    # page when authors.toml gives one, else to a search of the site for the name.
    assert page.goto(people_server.url("/authors/cy/cy-unlisted/")).status == 404
    page.goto(people_server.url("/papers/test-2024/no-links/"))
    names = page.locator(".paper-authors").locator(AUTHOR_NAMES).evaluate_all(
        "es => es.map(e => [e.tagName, e.textContent, e.getAttribute('href')])")
    assert names == [["A", "Bo Testperson", "/authors/bo/bo-testperson/"], ["A", "Cy Unlisted", "/search/?q=Cy%20Unlisted"],
                     ["A", "Di Solo", "https://example.org/di/"]]
    # co-authors on an author page: linked only where they have a page here
    page.goto(people_server.url("/authors/bo/bo-testperson/"))
    coauthors = page.locator(".coauthor-list")
    assert coauthors.locator("a").evaluate_all("as => as.map(a => a.getAttribute('href'))") == [
        "/authors/ad/ada-example/"]
    assert "Cy Unlisted" in coauthors.inner_text() and "Di Solo" in coauthors.inner_text()


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/authors/ad/ada-example/", "/authors/bo/bo-testperson/", "/papers/test-2024/no-links/",
                                  "/papers/test-2024/from-arxiv/", "/papers/"])
def test_no_axe_violations_on_the_new_parts(browser, people_server, path):
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    goto_and_settle(page, people_server.url(path))

    def check(theme: str) -> None:
        page.set_viewport_size(DESKTOP)
        assert run_axe(page) == [], theme
        page.set_viewport_size({"width": 320, "height": 740})
        assert run_axe(page) == [], theme
        assert page.evaluate("document.documentElement.scrollWidth") <= 320

    check_both_themes(page, check)
    context.close()
