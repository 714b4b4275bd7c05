"""The reader's features in a real browser: theme toggle, reading list (save, list, export,
import), list sorting and filtering (also across the pages of a long list), related papers,
folded author lists, and the site without JavaScript."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import bibtexparser
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from generator.outputs.pages import PAGE_SIZE

from ..conftest import ContentDir, paper_md
from .conftest import StaticServer, assert_author_list_folds, build_site

pytestmark = pytest.mark.browser

KEY = "papershelf-reading-list:/"


@pytest.fixture(scope="module")
def views(bundled_views):
    """The committed catalog as the pages show it (shared: read-only)."""
    return bundled_views()


def saved(page) -> list[dict]:
    return json.loads(page.evaluate(f"localStorage.getItem({KEY!r}) || '[]'"))


# ----------------------------------------------------------------------------- theme


def background(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_theme_follows_the_system_then_remembers_the_readers_choice(browser, server):
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(server.url("/"))
        toggle = page.locator("#theme-toggle")
        assert toggle.is_visible()
        dark_bg = background(page)
        assert toggle.get_attribute("aria-pressed") == "true"  # dark, from prefers-color-scheme
        assert page.evaluate("document.documentElement.getAttribute('data-theme')") is None

        toggle.click()
        assert toggle.get_attribute("aria-pressed") == "false"
        assert page.evaluate("document.documentElement.getAttribute('data-theme')") == "light"
        light_bg = background(page)
        assert light_bg != dark_bg
        assert page.evaluate("localStorage.getItem('papershelf-theme')") == "light"

        page.goto(server.url("/tags/"))  # another page: the choice holds, before any click
        assert page.evaluate("document.documentElement.getAttribute('data-theme')") == "light"
        assert background(page) == light_bg
        assert page.locator("#theme-toggle").get_attribute("aria-pressed") == "false"
        page.locator("#theme-toggle").click()
        assert background(page) == dark_bg
        assert page.evaluate("localStorage.getItem('papershelf-theme')") == "dark"
    finally:
        context.close()


def test_light_system_theme_is_light(page, server):
    page.emulate_media(color_scheme="light")
    page.goto(server.url("/"))
    assert page.locator("#theme-toggle").get_attribute("aria-pressed") == "false"
    assert background(page) == "rgb(255, 255, 255)"


# ---------------------------------------------------------------------- reading list


def test_save_on_a_paper_page_then_list_export_and_remove(page, server, views):
    paper = next(p for p in views.papers if not p.provisional and p.authors)
    page.goto(server.url("/" + paper.url))
    button = page.locator(".paper-actions .save-button")
    assert button.is_visible()
    assert button.get_attribute("aria-pressed") == "false"
    assert button.inner_text().strip() == "Save"
    assert not page.locator("[data-reading-list-count]").is_visible()

    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert button.inner_text().strip() == "Saved"
    assert page.locator("[data-reading-list-count]").inner_text() == "1"
    assert saved(page) == [{"s": paper.slug, "t": paper.title_plain}]

    page.reload()  # kept across page loads
    assert page.locator(".paper-actions .save-button").get_attribute("aria-pressed") == "true"

    page.goto(server.url("/reading-list/"))
    item = page.locator("#rl-items li")
    item.first.wait_for()
    assert item.count() == 1
    assert item.locator("h3 a").inner_text() == paper.title_plain
    assert item.locator("h3 a").get_attribute("href") == "/" + paper.url
    assert paper.authors[0].name in item.inner_text()
    assert paper.venue.name in item.inner_text()

    with page.expect_download() as info:
        page.locator("#rl-export").click()
    download = info.value
    assert download.suggested_filename == "reading-list.bib"
    text = Path(download.path()).read_text(encoding="utf-8")
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    assert len(library.entries) == 1
    entry = library.entries[0]
    assert re.sub(r"[{}\\]", "", entry.fields_dict["title"].value) .strip() == paper.title_plain.strip() \
        or paper.title_plain.split()[0] in entry.fields_dict["title"].value
    assert paper.authors[0].name.split()[-1] in entry.fields_dict["author"].value

    item.locator(".remove-button").click()
    page.locator("#rl-empty").wait_for()
    assert page.locator("#rl-items li").count() == 0
    assert saved(page) == []
    page.locator("#rl-status .undo-button").click()  # undo brings it back
    page.locator("#rl-items li").first.wait_for()
    assert [e["s"] for e in saved(page)] == [paper.slug]


def test_save_from_search_results(page, server):
    page.goto(server.url("/search/?q=watermark"))
    result = page.locator("#search-results li").first
    result.wait_for()
    button = result.locator(".save-button")
    slug = button.get_attribute("data-slug")
    venue = result.get_attribute("data-venue")  # (the result knows it from the index; the saved entry holds the slug)
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert button.inner_text().strip() == "Saved"
    assert [e["s"] for e in saved(page)] == [slug]
    button.click()  # and back
    assert button.get_attribute("aria-pressed") == "false"
    assert saved(page) == []
    button.click()
    page.goto(server.url("/reading-list/"))
    page.locator("#rl-items li").first.wait_for()
    assert page.locator("#rl-items li h3 a").first.get_attribute("href") == f"/papers/{venue}/{slug}/"


def test_buttons_for_saved_papers_show_saved_on_list_pages(page, server, views):
    tag = views.tags_by_count[0]
    page.goto(server.url("/"))
    page.evaluate(f"s => localStorage.setItem({KEY!r}, JSON.stringify([{{s: s, t: ''}}]))", tag.papers[1].slug)
    page.goto(server.url("/" + tag.ref.url))
    pressed = page.locator(".paper-item .save-button[aria-pressed='true']")
    assert pressed.count() == 1
    assert pressed.get_attribute("data-slug") == tag.papers[1].slug


def test_share_link_and_import_with_confirmation(page, server, views):
    chosen = [p.slug for p in views.papers[:3]]
    page.goto(server.url("/"))
    page.evaluate(f"s => localStorage.setItem({KEY!r}, JSON.stringify([{{s: s, t: ''}}]))", chosen[0])

    # Someone follows a shared link: two new papers, one already saved, one unknown, one malformed.
    # The shared papers are shown (tests/browser/test_reading_list_share.py has the details).
    page.goto(server.url(f"/reading-list/?papers={chosen[1]},{chosen[0]},no-such-paper,{chosen[2]},../etc"))
    panel = page.locator("#rl-import")
    panel.wait_for()
    page.locator("#rl-items > li").nth(2).wait_for()
    assert page.locator("#rl-items > li").count() == 3
    assert "not in this catalog" in panel.inner_text()
    assert saved(page) == [{"s": chosen[0], "t": ""}]  # nothing changes before the reader confirms
    page.locator("#rl-import-add").click()
    panel.wait_for(state="hidden")
    assert [e["s"] for e in saved(page)] == chosen[:1] + [chosen[1], chosen[2]]
    assert "papers=" not in page.url
    page.locator("#rl-items li").nth(2).wait_for()

    page.locator("#rl-share").click()
    share = page.locator("#rl-share-url").input_value()
    assert urlsplit(share).path == "/reading-list/"
    assert share.endswith("?papers=" + ",".join([chosen[0], chosen[1], chosen[2]]))

    # Back to my list changes nothing; Replace swaps the list once confirmed.
    page.goto(server.url(f"/reading-list/?papers={chosen[2]}"))
    page.locator("#rl-import").wait_for()
    page.locator("#rl-import-back").click()
    page.wait_for_url(server.url("/reading-list/"))
    assert len(saved(page)) == 3
    page.goto(server.url(f"/reading-list/?papers={chosen[2]}"))
    page.locator("#rl-import").wait_for()
    page.locator("#rl-import-replace").click()
    assert len(saved(page)) == 3
    page.locator("#rl-replace-yes").click()
    panel.wait_for(state="hidden")
    assert [e["s"] for e in saved(page)] == [chosen[2]]


def test_reading_list_under_a_subpath(page, subpath_server, views):
    paper = views.papers[0]
    page.goto(subpath_server.url("/catalog/" + paper.url))
    page.locator(".paper-actions .save-button").click()
    page.goto(subpath_server.url("/catalog/reading-list/"))
    link = page.locator("#rl-items li h3 a").first
    link.wait_for()
    assert link.get_attribute("href") == "/catalog/" + paper.url
    assert link.inner_text() == paper.title_plain


# ------------------------------------------------------------------ sort and filter


def item_slugs(page) -> list[str]:
    return page.eval_on_selector_all("#paper-list > li h3 a", "as => as.map(a => a.getAttribute('href'))")


def shown_slugs(page, want: list[str]) -> list[str]:
    """The items' links once the list shows ``want`` (list.js loads a sort or filter's data
    and rows before it shows the items), or after a while what it shows instead."""
    try:
        page.wait_for_function("""want => JSON.stringify(Array.from(document.querySelectorAll('#paper-list > li h3 a'),
                                                                    a => a.getAttribute('href'))) === JSON.stringify(want)""",
                               arg=want, timeout=10_000)
    except PlaywrightTimeout:
        pass
    return item_slugs(page)


def test_sort_by_venue_and_filter_by_tag_on_all_papers(page, server, views):
    page.goto(server.url("/papers/"))
    assert item_slugs(page) == ["/" + p.url for p in views.papers]
    page.select_option("#list-sort", "venue")
    venue_order = {v.ref.id: i for i, v in enumerate(views.venues)}
    expected = sorted(views.papers, key=lambda p: (venue_order[p.venue.id], p.title_rank))
    assert shown_slugs(page, ["/" + p.url for p in expected]) == ["/" + p.url for p in expected]
    assert "sort=venue" in page.url

    tag = views.tags_by_count[1]
    page.select_option("#list-tag", tag.ref.id)
    expected_tagged = ["/" + p.url for p in expected if tag.ref.id in p.tag_ids.split()]
    assert shown_slugs(page, expected_tagged) == expected_tagged
    assert str(len(expected_tagged)) in page.locator("#list-status").inner_text()

    page.reload()  # the state is in the URL
    assert page.locator("#list-sort").input_value() == "venue"
    assert page.locator("#list-tag").input_value() == tag.ref.id
    assert shown_slugs(page, expected_tagged) == expected_tagged

    page.select_option("#list-sort", "title")
    page.select_option("#list-tag", "")
    assert item_slugs(page) == ["/" + p.url for p in views.papers]
    assert "sort=" not in page.url and "tag=" not in page.url


def test_tag_page_filter_offers_the_other_tags(page, server, views):
    tag = views.tags_by_count[0]
    page.goto(server.url("/" + tag.ref.url))
    options = page.eval_on_selector_all("#list-tag option", "os => os.map(o => o.value)")
    assert tag.ref.id not in options
    assert options[0] == ""
    other = options[1]
    page.select_option("#list-tag", other)
    both = ["/" + p.url for p in views.papers if {tag.ref.id, other} <= set(p.tag_ids.split())]  # by title
    assert both and shown_slugs(page, both) == both


@pytest.fixture(scope="module")
def long_list_server(tmp_path_factory):
    """A catalog whose lists run over several pages: 2.5 pages of papers in two venues."""
    root = tmp_path_factory.mktemp("long-list")
    content = ContentDir(root / "content")
    content.write("venues/other-2023.md", '---\nname: "OTHER 2023"\nfull_name: "Other Conference 2023"\n'
                                          'year: 2023\n---\n')
    count = PAGE_SIZE * 2 + PAGE_SIZE // 2
    for i in range(count):
        tags = ("graph-learning",) if i % 3 == 0 else ("optimization",)
        venue = "other-2023" if i % 2 else "test-2024"
        content.add_paper(f"paper-{i:04d}", paper_md(title=f"Paper {i:04d} on topic {i % 7}", authors=(f"Author {i % 11}",),
                                                     venue=venue, tags=tags, body=f"Words {i} about topic {i % 7}."))
    site = build_site(root / "site", content=content.root)
    server = StaticServer(site)
    yield server, count
    server.close()


def test_long_lists_are_paginated_and_work_without_javascript(browser, long_list_server):
    server, count = long_list_server
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(server.url("/papers/"))
        assert page.locator("#paper-list > li").count() == PAGE_SIZE
        assert page.locator(".list-controls").is_hidden()
        assert page.locator(".save-button").first.is_hidden()
        page.locator(".pagination a[rel=next]").click()
        page.wait_for_url("**/papers/page/2/")
        assert page.locator(".pagination a[aria-current=page]").inner_text().strip().endswith("2")
        page.goto(server.url("/papers/page/3/"))
        titles = page.eval_on_selector_all("#paper-list > li h3 a", "as => as.map(a => a.textContent)")
        assert len(titles) == count - 2 * PAGE_SIZE
        assert titles[-1] == f"Paper {count - 1:04d} on topic {(count - 1) % 7}"
        assert page.locator(".pagination a[rel=next]").count() == 0
    finally:
        context.close()


def test_filter_and_sort_cover_every_page_of_a_long_list(page, long_list_server):
    server, count = long_list_server
    page.goto(server.url("/papers/page/2/"))
    page.select_option("#list-tag", "graph-learning")
    page.wait_for_function("document.querySelector('#list-status').textContent.startsWith('Showing')")
    expected = [f"Paper {i:04d}" for i in range(count) if i % 3 == 0]
    shown = page.eval_on_selector_all("#paper-list > li h3 a", "as => as.map(a => a.textContent.slice(0, 10))")
    assert shown == expected[:PAGE_SIZE]
    assert page.locator(".pagination").is_hidden()
    assert page.locator(".list-more").is_visible() == (len(expected) > PAGE_SIZE)
    while page.locator(".list-more").is_visible():
        page.locator("#list-more").click()
    shown = page.eval_on_selector_all("#paper-list > li h3 a", "as => as.map(a => a.textContent.slice(0, 10))")
    assert shown == expected

    page.select_option("#list-tag", "")
    page.select_option("#list-sort", "venue")  # TEST 2024 (newer) first, then OTHER 2023
    first = page.eval_on_selector_all("#paper-list > li .badge-venue", "bs => bs.map(b => b.textContent)")
    assert first == ["TEST 2024"] * PAGE_SIZE
    while page.locator(".list-more").is_visible():
        page.locator("#list-more").click()
    venues = page.eval_on_selector_all("#paper-list > li .badge-venue", "bs => bs.map(b => b.textContent)")
    assert len(venues) == count
    assert venues == sorted(venues, key=lambda v: v != "TEST 2024")

    page.select_option("#list-sort", "title")  # back to the server's page 2
    shown = page.eval_on_selector_all("#paper-list > li h3 a", "as => as.map(a => a.textContent.slice(0, 10))")
    assert shown == [f"Paper {i:04d}" for i in range(PAGE_SIZE, 2 * PAGE_SIZE)]
    assert page.locator(".pagination").is_visible()


# --------------------------------------------------------------- paper page parts


def test_related_papers_on_a_paper_page(page, server, views):
    from generator.outputs.pages import RELATED_SHOWN

    paper = next(p for p in views.papers if len(views.related[p.slug]) == 5)
    page.goto(server.url("/" + paper.url))
    links = page.locator(".related-list > li > a")
    assert links.count() == RELATED_SHOWN == 3  # the most similar (a shorter page: issue 25)
    hrefs = [links.nth(i).get_attribute("href") for i in range(3)]
    assert hrefs == ["/" + r.url for r in views.related[paper.slug][:3]]
    assert "/" + paper.url not in hrefs
    links.first.click()
    page.wait_for_url("**" + hrefs[0])
    assert page.locator("h1").inner_text().strip()


def test_long_author_lists_fold_without_losing_links(page, server, views):
    paper = max(views.papers, key=lambda p: len(p.authors))
    assert paper.authors_tail, "the committed catalog has a paper with a long author list"
    page.goto(server.url("/" + paper.url))
    assert_author_list_folds(page.locator(".paper-authors"), paper)


def test_reading_list_finds_papers_in_every_data_file(page, long_list_server):
    """The page computes which reading-list/data/<n>.json holds a paper as pages.shard_of does."""
    from generator.outputs.pages import READING_LIST_SHARD, shard_of

    server, count = long_list_server
    shards = -(-count // READING_LIST_SHARD)
    assert shards > 1
    slugs = [f"paper-{i:04d}" for i in range(0, count, 7)]
    assert len({shard_of(s, shards) for s in slugs}) == shards
    page.goto(server.url("/"))
    page.evaluate(f"s => localStorage.setItem({KEY!r}, JSON.stringify(s.map(x => ({{s: x, t: ''}}))))", slugs)
    page.goto(server.url("/reading-list/"))
    page.locator("#rl-items li").nth(len(slugs) - 1).wait_for()
    texts = page.eval_on_selector_all("#rl-items li", "ls => ls.map(l => l.textContent)")
    for slug, text in zip(slugs, texts):
        i = int(slug.rsplit("-", 1)[1])
        assert f"Paper {i:04d}" in text and f"Author {i % 11}" in text, text
