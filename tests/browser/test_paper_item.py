"""One markup for a paper in a list, in a real browser: a search result and a reading-list
item are one item (templates/partials/paper_item.html's shell, filled in the page by
static/js/paper-item.js from the <template> the server renders), and a list page's item is
its compact form, rendered by the server from the same partial.

For the same paper, the search result and the reading-list item have the same elements,
classes, ARIA and links, the same text and the same folding of long author lists, and their
COinS say what the paper's citation says; the list page's item leads to the same page, venue
and PDF with the same names, its authors folded as text, and gets the same Save button. The
reading list's BibTeX is the entries the paper pages show, with an error naming those it
cannot fetch.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from .conftest import assert_author_list_folds, author_names, complete_result

pytestmark = pytest.mark.browser

KEY = "papershelf-reading-list:/"
# Classes a page adds to the item for its own scripts and styles; the rest is the item's.
CONTEXT_CLASSES = {"search-result", "search-result-link", "reading-list-item"}
CASES = ("folded-authors", "presentation-and-tags", "no-presentation", "provisional-without-authors")


@pytest.fixture(scope="module")
def views(bundled_views):
    """The committed catalog as the pages show it (shared: read-only)."""
    return bundled_views()


def pick(views, case: str):
    """A paper of the catalog that shows ``case`` (titles without MathML: the page's title is text)."""
    plain = [p for p in views.papers if "<" not in str(p.title_html)]
    rules = {
        "folded-authors": lambda p: bool(p.authors_tail),
        "presentation-and-tags": lambda p: bool(p.presentation) and len(p.tags) > 1 and not p.authors_tail,
        "no-presentation": lambda p: not p.presentation and not p.provisional,
        "provisional-without-authors": lambda p: p.provisional and not p.authors,
    }
    found = next((p for p in plain if rules[case](p)), None)
    if found is None:
        pytest.skip(f"the catalog has no paper for {case}")
    return found


# The item as a tree of what matters to a reader and to assistive technology: element,
# classes (without the page's own), ARIA, role, href, hidden, and the text of each node.
# Highlights (<mark>) are unwrapped: they are the search's, around the same text.
SHAPE = """(item, context) => {
  const skip = new Set(context);
  function shape(node) {
    const out = {tag: node.tagName.toLowerCase(),
                 cls: Array.from(node.classList).filter(c => !skip.has(c)).sort().join(" "),
                 attrs: {}, children: []};
    for (const a of node.attributes) {
      if (a.name.startsWith("aria-") || a.name === "role" || a.name === "href" || a.name === "hidden"
          || a.name === "type") out.attrs[a.name] = a.value;
    }
    let text = "";
    const flush = () => { if (text.trim()) out.children.push(text.replace(/\\s+/g, " ").trim()); text = ""; };
    const walk = (parent) => {
      for (const child of parent.childNodes) {
        if (child.nodeType === 3) text += child.textContent;
        else if (child.nodeType === 1 && child.tagName === "MARK") walk(child);
        else if (child.nodeType === 1) { flush(); out.children.push(shape(child)); }
      }
    };
    walk(node);
    flush();
    return out;
  }
  return shape(item);
}"""


def item_shape(locator) -> dict:
    return locator.evaluate(SHAPE, sorted(CONTEXT_CLASSES))


def without(shape: dict, cls: str) -> dict:
    """The shape without its children of class ``cls`` (a part only one page has)."""
    return {**shape, "children": [c for c in shape["children"] if not (isinstance(c, dict) and c["cls"] == cls)]}


def coins_pairs(locator) -> list[tuple[str, str]]:
    return parse_qsl(locator.locator("span.Z3988").get_attribute("title"), keep_blank_values=True,
                     strict_parsing=True)


def child(shape: dict, cls: str) -> dict:
    return next(c for c in shape["children"] if isinstance(c, dict) and c["cls"] == cls)


def list_page_item(page, server, paper):
    """The paper's item on its venue's list (following the pages of a long list)."""
    page.goto(server.url("/" + paper.venue.url))
    while True:
        item = page.locator(f"#paper-list > li:has(> h3 > a[href='/{paper.url}'])")
        if item.count():
            item.locator(".save-button:not([hidden])").wait_for()  # reading-list.js has run
            return item
        page.locator(".pagination a[rel=next]").click()
        page.wait_for_load_state()


def search_result(page, server, paper):
    slug = paper.slug
    page.goto(server.url("/search/?venue=" + paper.venue.id + "&q=" + re.sub(r"\W+", "+", paper.title_plain)))
    item = page.locator(f"#search-results > li[data-slug='{slug}']")
    item.wait_for()
    return item


def reading_list_item(page, server, slug: str):
    page.goto(server.url("/"))
    page.evaluate(f"s => localStorage.setItem({KEY!r}, JSON.stringify([{{s: s, t: ''}}]))", slug)
    page.goto(server.url("/reading-list/"))
    item = page.locator(f"#rl-items > li[data-slug='{slug}']")
    item.wait_for()
    return item


@pytest.mark.parametrize("case", CASES)
def test_search_result_reading_list_item_and_list_item_are_one_markup(page, server, views, case):
    paper = pick(views, case)
    slug = paper.slug
    listed = item_shape(list_page_item(page, server, paper))
    found = search_result(page, server, paper)
    searched = item_shape(found)
    search_coins = coins_pairs(found)
    saved_item = reading_list_item(page, server, slug)
    saved = item_shape(saved_item)
    saved_coins = coins_pairs(saved_item)

    # A search result is whole from the index, without a snippet (issue 32: no paper page is
    # fetched); the reading list's button removes the paper and its note comes last; the rest is one item.
    assert [c["cls"] for c in searched["children"] if isinstance(c, dict)].count("paper-item-snippet") == 0
    save = child(searched, "save-button")
    remove = child(saved, "button-secondary remove-button")
    assert save["attrs"]["aria-pressed"] == "false" and remove["attrs"]["aria-label"].startswith("Remove: ")
    assert [c["cls"] for c in saved["children"] if isinstance(c, dict)][-1] == "rl-note"
    assert without(without(saved, "button-secondary remove-button"), "rl-note") == \
        without(without(searched, "paper-item-snippet"), "save-button")

    # The list page's item is the compact form: the same title link, venue, presentation and
    # PDF (named alike), the authors (each linked), the same Save button; no tags, no COinS,
    # and no classes but the item's and its badges' and links' (its <h3>, byline <div>, venue <p>).
    title, by, meta = [c for c in listed["children"] if isinstance(c, dict)][:3]
    searched_title = child(searched, "paper-item-title")
    assert title["cls"] == "" and {**title, "cls": searched_title["cls"]} == searched_title
    searched_meta = child(searched, "paper-item-meta")
    assert (meta["tag"], meta["cls"]) == ("p", "")
    assert meta["children"] == [c for c in searched_meta["children"] if c["cls"] != "chip"]
    if paper.authors:  # every author linked, as in the search's item (folded alike), in a <div>
        assert (by["tag"], by["cls"]) == ("div", "")
        assert by["children"] == [c for c in child(searched, "author-list paper-item-authors")["children"]
                                  if not (isinstance(c, dict) and c["cls"] == "visually-hidden")]
    else:
        assert (by["tag"], by["cls"]) == ("p", "unknown")
        assert by["children"] == child(searched, "paper-item-authors unknown")["children"]
    first = "pdf-link" if paper.pdf_url else "find-link"
    assert child(listed, first)["attrs"]["href"] == child(searched, first)["attrs"]["href"]
    name = list_page_item(page, server, paper).locator("." + first)
    assert name.evaluate("a => a.getAttribute('aria-labelledby') || a.getAttribute('aria-label')")
    assert child(listed, "save-button") == save
    assert [c["tag"] + "." + c["cls"] for c in listed["children"] if isinstance(c, dict)] == \
        ["h3.", ("div." if paper.authors else "p.") + by["cls"], "p.", "a." + first, "button.save-button"]
    assert name.evaluate("a => a.closest('li').querySelector('span.Z3988')") is None

    # The COinS of the search result and the reading-list item say what the paper's citation says.
    assert search_coins == saved_coins
    want, got = dict(parse_qsl(paper_coins(views, paper))), dict(search_coins)
    for key in ("ctx_ver", "rft_val_fmt", "rfr_id", "rft.genre", "rft.atitle", "rft.btitle", "rft.date"):
        assert got[key] == want[key], key
    first_author = [f"{want['rft.aufirst']} {want['rft.aulast']}"] if "rft.aulast" in want else []
    assert [v for k, v in search_coins if k == "rft.au"] == \
        first_author + [v for k, v in parse_qsl(paper_coins(views, paper)) if k == "rft.au"]
    assert got["rft_id"] == server.url(f"/{paper.url}")


def paper_coins(views, paper) -> str:
    from generator.outputs.citations import CitationIndex

    return CitationIndex(views).for_paper(paper).coins


def test_a_folded_author_list_opens_in_search_results_as_on_list_pages(page, server, views):
    paper = pick(views, "folded-authors")
    item = search_result(page, server, paper)
    authors = item.locator(".paper-item-authors")
    # each name as on the paper's page: a link to the author's page where there is one
    assert author_names(authors) == [(a.name, "/" + a.url if a.url else None) for a in paper.authors]
    assert_author_list_folds(authors, paper)


def test_the_template_is_the_partials_shell_with_the_sites_url_patterns(site_dir):
    """The pages that make items in the browser carry the shell; list pages do not."""
    for page_path, button in (("search/index.html", "save-button"), ("reading-list/index.html", "remove-button")):
        html = (site_dir / page_path).read_text(encoding="utf-8")
        template = re.search(r'<template id="paper-item-template"([^>]*)>(.*?)</template>', html, re.S)
        assert template, page_path
        attrs = dict(re.findall(r'(data-[\w-]+)="([^"]*)"', template.group(1)))
        assert attrs["data-url-paper"] == "/papers/{venue}/{slug}/"
        assert attrs["data-url-author"] == "/authors/{path}/"  # path: "<bucket>/<slug>", from the data
        assert attrs["data-url-venue"] == "/venues/{id}/"
        assert attrs["data-url-tag"] == "/tags/{id}/"
        assert "data-url-bib" not in attrs  # the BibTeX is read from the paper's page
        assert "href=" not in template.group(2)  # links get theirs from the patterns
        assert button in template.group(2)
    assert "paper-item-template" not in (site_dir / "papers" / "index.html").read_text(encoding="utf-8")
    reading_list = (site_dir / "reading-list" / "index.html").read_text(encoding="utf-8")
    assert 'data-url-data="/reading-list/data/{n}.json"' in reading_list


def test_search_results_link_authors_under_a_subpath(page, subpath_server, views):
    paper = next(p for p in views.papers if "<" not in str(p.title_html) and any(a.url for a in p.authors))
    page.goto(subpath_server.url("/catalog/search/?q=" + re.sub(r"\W+", "+", paper.title_plain)))
    item = complete_result(page, paper.slug)
    names = author_names(item.locator(".paper-item-authors"))
    assert names == [(a.name, "/catalog/" + a.url if a.url else None) for a in paper.authors]
    assert any(href for _, href in names)  # (some have a page)
    assert item.locator(".chip").first.get_attribute("href").startswith("/catalog/tags/")


# ---------------------------------------------------------------------- BibTeX


def page_entry(site_dir: Path, paper) -> str:
    """The BibTeX entry a paper's page shows (its Cite section), as the reading list reads it."""
    text = (site_dir / paper.url / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<pre [^>]*id="cite-bibtex"[^>]*><code>(.*?)</code></pre>', text, re.S)
    assert found, paper.slug
    return html.unescape(found.group(1)).strip() + "\n"


def test_every_paper_page_has_its_bibtex_entry(site_dir, views):
    """The reading list exports these entries: every paper's page shows one."""
    for paper in views.papers:
        assert page_entry(site_dir, paper).startswith("@inproceedings{"), paper.slug


def saved_list(page, server, slugs: list[str]) -> None:
    page.goto(server.url("/"))
    page.evaluate(f"s => localStorage.setItem({KEY!r}, JSON.stringify(s.map(x => ({{s: x, t: ''}}))))", slugs)
    page.goto(server.url("/reading-list/"))
    page.locator("#rl-items > li").nth(len(slugs) - 1).wait_for()


def test_the_reading_lists_bibtex_is_the_paper_pages_entries(page, server, site_dir, views):
    chosen = views.papers[:3]
    saved_list(page, server, [p.slug for p in chosen])
    with page.expect_download() as info:
        page.locator("#rl-export").click()
    text = Path(info.value.path()).read_text(encoding="utf-8")
    assert text == "\n".join(page_entry(site_dir, p) for p in chosen)
    assert "Error" not in page.locator("#rl-status").inner_text()


def test_bibtex_that_cannot_be_fetched_is_named_in_an_error(page, server, site_dir, views):
    chosen = views.papers[:3]
    missing = chosen[1]
    page.route(re.compile(r".*/" + re.escape(missing.url) + r"$"), lambda route: route.fulfill(status=404, body="not here"))
    saved_list(page, server, [p.slug for p in chosen])
    page.locator("#rl-bibtex-box summary").click()
    status = page.locator("#rl-status")
    page.wait_for_function("document.getElementById('rl-status').textContent.includes('could not be fetched')")
    assert missing.title_plain in status.inner_text() and "Error" in status.inner_text()
    # the others are there, and nothing is made up for the missing one
    others = [page_entry(site_dir, p) for p in chosen if p is not missing]
    assert page.locator("#rl-bibtex").input_value() == "\n".join(others)

    # Nothing at all to export: no file, only the error.
    page.unroute(re.compile(r".*/" + re.escape(missing.url) + r"$"))
    page.route(re.compile(r".*/papers/[a-z0-9-]+/[a-z0-9-]+/$"), lambda route: route.fulfill(status=404, body="not here"))
    downloads: list = []
    page.on("download", lambda d: downloads.append(d))
    page.locator("#rl-export").click()
    page.wait_for_function("document.getElementById('rl-status').textContent.includes('3 papers could not be fetched')")
    page.wait_for_timeout(300)
    assert downloads == []


def test_reading_list_data_of_an_older_build_shows_titles_not_an_error(page, server, views):
    """A data file cached from an older build (another record shape) must not blank the list."""
    old_shape = {p.slug: {"t": p.title_plain, "a": [a.name for a in p.authors], "v": p.venue.id,
                          "f": p.venue.full_name, "y": p.venue.year, "l": []} for p in views.papers}
    page.route(re.compile(r".*/reading-list/data/\d+\.json$"),
               lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(old_shape)))
    errors: list = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    chosen = views.papers[:2]
    saved_list(page, server, [p.slug for p in chosen])
    assert page.locator("#rl-items > li").count() == 2
    page.wait_for_function("document.getElementById('rl-status').textContent.includes('could not be loaded')")
    assert errors == []
    page.unroute(re.compile(r".*/reading-list/data/\d+\.json$"))


def test_reading_list_data_names_what_the_items_link_to(site_dir, views):
    """The reading list's records carry where each author links (their page below authors/,
    "" without one), the venue's id (the paper's page is papers/<venue>/<slug>/) and the
    tags' ids, whose names the page holds once; no links for a BibTeX made up in the page."""
    records = {}
    for path in (site_dir / "reading-list" / "data").glob("*.json"):
        records.update(json.loads(path.read_text(encoding="utf-8")))
    by_slug = {p.slug: p for p in views.papers}
    assert set(records) == set(by_slug)
    for slug, record in records.items():
        paper = by_slug[slug]
        assert record["u"] == [a.path or "" for a in paper.authors]
        assert ["authors/" + u + "/" for u in record["u"] if u] == [a.url for a in paper.authors if a.url]
        assert record["v"] == paper.venue.id and record["g"] == [t.id for t in paper.tags]
        assert "l" not in record
    text = (site_dir / "reading-list" / "index.html").read_text(encoding="utf-8")
    names = json.loads(re.search(r'<script type="application/json" id="rl-names">(.*?)</script>', text).group(1))
    assert names["v"] == {v.ref.id: [v.ref.name, v.ref.full_name, v.ref.year] for v in views.venues}
    assert names["g"] == {t.ref.id: t.ref.name for t in views.tags}
