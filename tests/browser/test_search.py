"""Search in a real browser (headless Chromium): typing, prefixes, typos, filters, deep links,
history, keyboard, assistive-technology hooks, hostile text, no JavaScript, no workers."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, parse_qsl, urlsplit

import pytest

from ..conftest import REPO, ContentDir, paper_md
from .conftest import AUTHOR_NAMES, StaticServer, build_site, complete_result

pytestmark = pytest.mark.browser

WATERMARK = "an-unforgeable-publicly-verifiable-watermark-for-large-language-models"
KMEANS = "statistically-optimal-k-means-clustering-via-nonnegative-low-rank-semidefinite"
CONDENSATION = "navigating-complexity-toward-lossless-graph-condensation-via-expanding-window"
METAGENOMIC = "encoding-unitig-level-assembly-graphs-with-heterophilous-constraints-for"
TACTILE = "difftactile-a-physics-based-differentiable-tactile-simulator-for-contact-rich"
# each bundled paper's venue: its page is papers/<venue>/<slug>/
VENUE = {p.stem: re.search(r"^venue: *(\S+)", p.read_text(encoding="utf-8"), re.M).group(1)
         for p in (REPO / "content" / "papers").glob("*.md")}


def page_of(slug: str) -> str:
    return f"papers/{VENUE[slug]}/{slug}/"


def wait_ready(page) -> None:
    page.wait_for_selector("#search-results[data-state=ready]", state="attached", timeout=20000)


def results_for(page, text: str) -> list[str]:
    """Wait until the results shown are those for ``text`` and the filters in the URL; their
    slugs, in order."""
    page.wait_for_function(
        "(q) => { const r = document.getElementById('search-results');"
        " const p = new URL(location.href).searchParams;"
        " const want = ['venue', 'tag', 'year'].filter(f => p.get(f)).map(f => f + '=' + p.get(f)).join('&');"
        " return r.getAttribute('data-query') === q && r.getAttribute('data-state') === 'ready'"
        " && (r.getAttribute('data-filters') || '') === want; }",
        arg=text, timeout=20000)
    return page.eval_on_selector_all("#search-results > li", "els => els.map(e => e.dataset.slug)")


def search(page, text: str) -> list[str]:
    page.fill("#search-input", text)
    return results_for(page, text)


def open_search(page, server, query: str = "") -> None:
    page.goto(server.url("/search/" + (f"?{query}" if query else "")))
    wait_ready(page)


def url_params(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


# ---------------------------------------------------------------------------------------
# Finding papers
# ---------------------------------------------------------------------------------------


def test_results_follow_typing_without_pressing_enter(page, server):
    open_search(page, server)
    page.locator("#search-input").press_sequentially("tactile sim", delay=30)
    slugs = results_for(page, "tactile sim")
    assert slugs[0] == TACTILE
    assert "tactile+sim" in page.url or "tactile%20sim" in page.url  # the URL follows the box


@pytest.mark.parametrize("prefix, slug, word", [
    ("metagen", METAGENOMIC, "metagenomic"),
    ("condens", CONDENSATION, "condensation"),
    ("experim", None, "experiment"),
])
def test_half_typed_last_word_matches_as_a_prefix(page, server, prefix, slug, word):
    open_search(page, server)
    page.locator("#search-input").press_sequentially(prefix, delay=20)
    slugs = results_for(page, prefix)
    assert slugs, f"nothing found for {prefix!r}"
    if slug:
        assert slugs[0] == slug
    if slug:  # the completion is marked in the title
        page.wait_for_function(
            "(w) => Array.from(document.querySelectorAll('#search-results mark'))"
            ".some(m => m.textContent.toLowerCase().startsWith(w))", arg=word, timeout=15000)


def test_one_typo_still_finds_the_paper(page, server):
    open_search(page, server)
    assert search(page, "watermrk")[0] == WATERMARK
    assert search(page, "reinforcment learning")  # long word with a missing letter


def test_math_is_searchable_as_text(page, server):
    open_search(page, server)
    assert search(page, "k-means")[0] == KMEANS
    assert search(page, "kmeans")[0] == KMEANS
    title = page.locator(f"#search-results li[data-slug='{KMEANS}'] h3").inner_text()
    assert "$" not in title and "K-means" in title


def test_author_names_match_with_and_without_accents(page, server):
    open_search(page, server)
    for query in ("Rätsch", "ratsch", "hernandez-lobato", "José Miguel"):
        slugs = search(page, query)
        assert slugs, query
        authors = complete_result(page, slugs[0]).locator(".paper-item-authors")
        assert authors.locator("mark").count() >= 1, query


def test_result_links_lead_to_the_papers_and_authors_pages(page, server, site_dir):
    """Records leave out the slugs the page derives from titles and names (accented ones
    included): every title and author link of the results is a page of the site."""
    open_search(page, server)
    checked = set()
    for query in ("Rätsch", "lähdesmäki", "José Miguel", "learning", "graph", "diffusion"):
        for slug in search(page, query):
            complete_result(page, slug)
        hrefs = page.eval_on_selector_all(
            "#search-results > li h3 a, #search-results > li .paper-item-authors a",
            "els => els.map(e => e.getAttribute('href'))")
        assert any(h.startswith("/papers/") for h in hrefs)
        checked.update(hrefs)
    # authors link their pages where they have one (two papers or more): 12 people here
    assert len(checked) > 30 and sum(h.startswith("/authors/") for h in checked) >= 5
    missing = [h for h in sorted(checked) if not (site_dir / h.lstrip("/") / "index.html").is_file()]
    assert not missing


def test_a_result_is_whole_from_the_first_response_without_fetching_paper_pages(page, server, bundled_views):
    """Issue 32: title, authors (linked to their pages), venue, tags, badges and PDF come
    with the answer, from the index's records; no paper page is fetched."""
    fetched = []
    page.on("request", lambda r: fetched.append(urlsplit(r.url).path))
    open_search(page, server, "q=UnitigBin")
    slugs = results_for(page, "UnitigBin")
    assert slugs == [METAGENOMIC]
    item = page.locator("#search-results > li").first
    assert "Metagenomic" in item.locator("h3 a").inner_text()
    assert item.locator("h3 a").get_attribute("href") == f"/{page_of(METAGENOMIC)}"
    view = next(v for v in bundled_views().papers if v.slug == METAGENOMIC)
    names = item.locator(".paper-item-authors").locator(AUTHOR_NAMES).evaluate_all("es => es.map(e => e.textContent)")
    assert names == [a.name for a in view.authors]
    hrefs = item.locator(".paper-item-authors a").evaluate_all("es => es.map(e => e.getAttribute('href'))")
    assert hrefs == [a.url and "/" + a.url for a in view.authors if a.url]
    assert item.locator(".badge-venue").inner_text() == view.venue.name
    assert item.locator(".chip").count() == len(view.tags)
    if view.pdf_url:
        assert item.locator(f"a[href='{view.pdf_url}']").count() == 1
    assert item.locator("[data-loading], [data-pending]").count() == 0
    save = item.locator("button.save-button")
    assert save.get_attribute("data-slug") == METAGENOMIC
    assert save.get_attribute("aria-pressed") == "false"
    assert save.get_attribute("data-title").startswith("Encoding Unitig-level Assembly Graphs")
    assert re.search(r"\b1 paper matches\b", page.locator("#search-status").inner_text())
    page.wait_for_timeout(400)
    assert not [p for p in fetched if p.startswith("/papers/")], fetched


def test_results_carry_coins_matching_the_list_pages(page, server, bundled_views):
    """Zotero saves a result list at once from its COinS spans: each result has one once its
    authors are known (from its paper's page, fetched when it comes into sight), saying
    what the paper's citation says (generator/outputs/citations; authors all as rft.au here).
    (List pages carry no COinS since issue 13: their bulk BibTeX is the list's export.)"""
    open_search(page, server, "q=graph")
    slugs = results_for(page, "graph")
    assert len(slugs) >= 3
    for slug in slugs:
        complete_result(page, slug)
    spans = page.eval_on_selector_all(
        "#search-results > li", "els => els.map(e => [e.dataset.slug, e.querySelector('span.Z3988').title])")
    assert [slug for slug, _ in spans] == slugs
    for slug, title in spans:
        pairs = parse_qsl(title, keep_blank_values=True, strict_parsing=True)
        got = dict(pairs)
        assert got["rft_id"] == server.url(f"/{page_of(slug)}")
        item = page.locator(f"#search-results > li[data-slug='{slug}']")
        authors = item.locator(".paper-item-authors").locator(AUTHOR_NAMES).evaluate_all("es => es.map(e => e.textContent)")
        assert [v for k, v in pairs if k == "rft.au"] == authors
        page_pairs = paper_coins(bundled_views(), slug)
        want = dict(page_pairs)
        for key in ("ctx_ver", "rft_val_fmt", "rft.genre", "rft.atitle", "rft.btitle", "rft.date"):
            assert got[key] == want[key], (slug, key)
        page_authors = ([f"{want['rft.aufirst']} {want['rft.aulast']}"] if "rft.aulast" in want else []) + \
            [v for k, v in page_pairs if k == "rft.au"]
        assert page_authors == authors, slug


def paper_coins(views, slug: str) -> list[tuple[str, str]]:
    """The COinS pairs of ``slug``'s citation, as a list page's item carried them."""
    from generator.outputs.citations import CitationIndex

    view = next(v for v in views.papers if v.slug == slug)
    return parse_qsl(CitationIndex(views).for_paper(view).coins, keep_blank_values=True, strict_parsing=True)


def test_words_missing_from_every_paper_give_partial_results_with_a_note(page, server):
    open_search(page, server)
    slugs = search(page, "watermark zebrafish")
    assert slugs[0] == WATERMARK
    assert "No paper matches every word" in page.locator("#search-status").inner_text()


def test_no_match_shows_the_empty_state_with_tags_and_venues(page, server):
    open_search(page, server)
    assert search(page, "qqqqxyzzy") == []
    empty = page.locator("#search-empty")
    assert empty.is_visible()
    hrefs = empty.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    assert any(h.startswith("/tags/") and h != "/tags/" for h in hrefs)
    assert any(h.startswith("/venues/") and h != "/venues/" for h in hrefs)
    page.wait_for_function("() => document.getElementById('search-live').textContent.includes('No papers match')")


def test_the_count_is_announced_to_assistive_technology(page, server):
    open_search(page, server)
    live = page.locator("#search-live")
    assert live.get_attribute("role") == "status"
    assert live.get_attribute("aria-live") == "polite"
    assert page.locator("label[for=search-input]").inner_text().strip()
    search(page, "diffusion")
    page.wait_for_function("() => /\\d+ papers? match/.test(document.getElementById('search-live').textContent)")


def test_show_more_adds_results(page, server):
    open_search(page, server)
    slugs = search(page, "learning")
    total = int(page.locator("#search-results").get_attribute("data-total"))
    assert total > 10 and len(slugs) == 10  # a screen of results: their records and snippets only are fetched
    page.click("#search-more")
    page.wait_for_function("() => document.querySelectorAll('#search-results > li').length > 10")
    more = page.eval_on_selector_all("#search-results > li", "els => els.map(e => e.dataset.slug)")
    assert more[:10] == slugs and len(set(more)) == len(more) == min(20, total)
    page.wait_for_function("() => !document.querySelector('#search-results [data-pending]')")


# ---------------------------------------------------------------------------------------
# Filters, URL and history
# ---------------------------------------------------------------------------------------


def test_filters_combine_and_live_in_the_url(page, server):
    open_search(page, server, "q=learning")
    results_for(page, "learning")
    total = lambda: int(page.locator("#search-results").get_attribute("data-total"))  # noqa: E731
    counts = [total()]
    page.select_option("#search-filter-venue", "icml-2024")
    page.wait_for_function("() => new URL(location.href).searchParams.get('venue') === 'icml-2024'")
    results_for(page, "learning")
    counts.append(total())
    badges = page.eval_on_selector_all("#search-results .badge-venue", "els => els.map(e => e.textContent)")
    assert badges and set(badges) == {"ICML 2024"}
    option = page.locator("#search-filter-tag option").nth(1)
    tag = option.get_attribute("value")
    page.select_option("#search-filter-tag", tag)
    page.wait_for_function("(t) => new URL(location.href).searchParams.get('tag') === t", arg=tag)
    both = results_for(page, "learning")
    counts.append(total())
    tag_name = option.get_attribute("data-name")
    for item in page.locator("#search-results > li").all():
        assert item.locator(".badge-venue").inner_text() == "ICML 2024"
        assert tag_name in item.locator(".chip").all_inner_texts()
    assert counts[0] > counts[1] > counts[2] > 0
    assert url_params(page) == {"q": ["learning"], "venue": ["icml-2024"], "tag": [tag]}
    # the same URL opened afresh shows the same state
    page.goto(page.url)
    wait_ready(page)
    assert results_for(page, "learning") == both
    assert page.input_value("#search-filter-venue") == "icml-2024"
    assert page.input_value("#search-filter-tag") == tag


@pytest.mark.parametrize("value", ["constructor", "__proto__", "toString"])
def test_a_filter_value_named_like_a_builtin_is_just_an_unknown_value(page, server, value):
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_search(page, server, f"q=graph&venue={value}")
    assert results_for(page, "graph") == []
    status = page.locator("#search-status").inner_text()
    assert f"in {value}" in status and "function" not in status and "object" not in status
    options = page.eval_on_selector_all("#search-filter-venue option", "els => els.map(e => e.textContent)")
    assert not any("function" in o or "[object" in o for o in options), options
    assert errors == []


@pytest.mark.parametrize("query, venue", [("diffusion policy", "icml-2024"), ("graph transformer", "icml-2024"),
                                          ("federated reinforcement", "iclr-2024")])
def test_filters_narrow_the_catalog_before_words_are_required(page, server, site_dir, query, venue):
    """Papers with every word exist only outside the filter: the page shows the papers
    within it that have some of the words, as the Python engine does, not '0 papers'."""
    from ..outputs.search_engine import SearchEngine, site_search_files

    files = site_search_files(site_dir)
    want = SearchEngine(files).search(query, venue=venue)
    assert want.slugs and want.partial  # the case in question
    open_search(page, server, f"q={query.replace(' ', '+')}&venue={venue}")
    assert results_for(page, query) == want.slugs[:10]


def test_year_filter_and_filters_without_words(page, server):
    open_search(page, server, "year=2024&venue=iclr-2024")
    page.wait_for_function("() => document.querySelectorAll('#search-results > li').length > 0")
    badges = page.eval_on_selector_all("#search-results .badge-venue", "els => els.map(e => e.textContent)")
    assert set(badges) == {"ICLR 2024"}
    page.select_option("#search-filter-year", "")
    page.wait_for_function("() => !new URL(location.href).searchParams.has('year')")


def test_deep_link_back_and_forward(page, server):
    open_search(page, server, "q=diffusion")
    first = results_for(page, "diffusion")
    assert first
    page.fill("#search-input", "watermark")
    page.press("#search-input", "Enter")
    assert results_for(page, "watermark")[0] == WATERMARK
    assert url_params(page)["q"] == ["watermark"]
    page.go_back()
    assert results_for(page, "diffusion") == first
    assert page.input_value("#search-input") == "diffusion"
    page.go_forward()
    assert results_for(page, "watermark")[0] == WATERMARK
    assert page.input_value("#search-input") == "watermark"


def focused_box(page) -> list:
    """The focused element's id, its caret and the length of its value."""
    return page.evaluate("() => { const e = document.activeElement;"
                         " return [e.id, e.selectionStart, e.value === undefined ? null : e.value.length]; }")


def test_the_header_box_on_any_page_leads_to_search(page, server):
    page.goto(server.url("/papers/"))
    page.fill("#header-q", "tactile")
    page.press("#header-q", "Enter")
    page.wait_for_url("**/search/?q=tactile")
    assert results_for(page, "tactile")[0] == TACTILE
    assert page.input_value("#search-input") == "tactile"
    # The focus came along: it is in the search page's box, after the words.
    assert focused_box(page) == ["search-input", 7, 7]
    # The search page has one search box: its own, not the header's as well.
    assert page.locator("#header-q").count() == 0
    assert page.locator("form[role=search]").count() == 1


def test_a_link_to_a_search_leaves_the_focus_alone(page, server):
    page.goto(server.url("/papers/"))
    page.fill("#header-q", "tactile")  # typed, not submitted
    open_search(page, server, "q=watermark")
    results_for(page, "watermark")
    assert page.evaluate("document.activeElement === document.body")


def test_submitting_keeps_the_focus_in_the_box(page, server):
    open_search(page, server)
    page.fill("#search-input", "watermark")
    page.click("#search-form button[type=submit]")
    assert results_for(page, "watermark")[0] == WATERMARK
    assert focused_box(page) == ["search-input", 9, 9]
    page.keyboard.type(" language")
    assert results_for(page, "watermark language")[0] == WATERMARK
    page.keyboard.press("Enter")
    assert focused_box(page)[0] == "search-input"


# ---------------------------------------------------------------------------------------
# Keyboard
# ---------------------------------------------------------------------------------------


def test_keyboard_slash_arrows_and_enter(page, server):
    open_search(page, server)
    page.locator("h1").click()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "search-input"
    page.keyboard.type("graph")
    slugs = results_for(page, "graph")
    assert len(slugs) >= 3
    focused = "() => document.activeElement.closest('li') && document.activeElement.closest('li').dataset.slug"
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == slugs[0]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == slugs[2]
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == slugs[1]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.id") == "search-input"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/{page_of(slugs[1])}")


@pytest.mark.parametrize("path, box", [("/", "home-q"), ("/404.html", "notfound-q"), ("/papers/", "header-q")])
def test_slash_focuses_the_pages_own_search_box(page, server, path, box):
    """The home page's (and the 404 page's) own box, not the header's; elsewhere the header's."""
    page.goto(server.url(path))
    page.locator("h1").first.click()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == box
    page.keyboard.type("tactile")
    assert page.evaluate("document.activeElement.value") == "tactile"  # the "/" itself was not typed
    page.keyboard.press("Enter")
    page.wait_for_url("**/search/?q=tactile")
    assert results_for(page, "tactile")[0] == TACTILE
    assert focused_box(page) == ["search-input", 7, 7]


def test_clicking_a_result_opens_the_paper(page, server):
    open_search(page, server, "q=watermark")
    results_for(page, "watermark")
    page.locator("#search-results > li h3 a").first.click()
    page.wait_for_url(f"**/{page_of(WATERMARK)}")


# ---------------------------------------------------------------------------------------
# Other sites, hostile text, degraded browsers
# ---------------------------------------------------------------------------------------


def test_search_works_under_a_subpath(page, subpath_server):
    page.goto(subpath_server.url("/catalog/search/?q=tactile"))
    slugs = results_for(page, "tactile")
    assert slugs[0] == TACTILE
    href = page.locator("#search-results li h3 a").first.get_attribute("href")
    assert href == f"/catalog/{page_of(TACTILE)}"
    assert page.locator("#search-results .badge-venue").first.get_attribute("href").startswith("/catalog/venues/")


@pytest.fixture(scope="module")
def odd_site(tmp_path_factory):
    """A catalog with hostile titles, close spellings and accents."""
    root = tmp_path_factory.mktemp("odd-search")
    content = ContentDir(root / "content")
    content.add_paper("hostile", paper_md(
        title='<img src=x onerror="window.pwned=1"> & <b>bold</b> sensor',
        authors=("Eve <img src=x onerror=window.pwned=3>", "Mallory <b>Bold</b>"),
        body='An abstract with <script>window.pwned=2</script> and "quotes" and the sensor.'))
    content.add_paper("exact", paper_md(title="Sensor Networks", body="Networks of sensors."))
    content.add_paper("typo", paper_md(title="Censor Networks", body="Networks that censor."))
    content.add_paper("accents", paper_md(title="Learning with Łukasz", authors=("Łukasz Kaiser", "Zoë Müller"),
                                          body="Nothing else."))
    srv = StaticServer(build_site(root / "site", "/", content.root))
    yield srv
    srv.close()


def test_hostile_text_is_shown_as_text(page, odd_site):
    open_search(page, odd_site, "q=sensor")
    slugs = results_for(page, "sensor")
    assert "hostile" in slugs
    item = page.locator("#search-results li[data-slug=hostile]")
    title = item.locator("h3 a").inner_text()
    assert "sensor" in title and "bold" in title  # whatever of the markup the text keeps is text
    item = complete_result(page, "hostile")
    assert "Eve <img src=x onerror=window.pwned=3>" in item.locator(".paper-item-authors").inner_text()
    assert item.locator("img, b, script").count() == 0
    page.wait_for_timeout(300)
    assert page.evaluate("window.pwned === undefined")


def test_a_typo_match_ranks_below_the_exact_match(page, odd_site):
    """A rare word ("censor": one paper's title and abstract) also matches its typo
    neighbours, below its own papers; a word the index holds more often ("sensor", in two
    papers) matches exactly (index.TYPO_UNDER)."""
    open_search(page, odd_site)
    slugs = search(page, "censor networks")
    assert slugs.index("typo") < slugs.index("exact")
    slugs = search(page, "sensor networks")
    assert "exact" in slugs and "typo" not in slugs


def test_names_without_their_diacritics(page, odd_site):
    open_search(page, odd_site)
    assert search(page, "lukasz") == ["accents"]
    assert search(page, "zoe mueller") == ["accents"]
    assert search(page, "Zoë Müller") == ["accents"]


@pytest.mark.parametrize("width", [320, 1280])
def test_without_javascript_the_page_says_so_and_links_to_indexes(browser, server, width):
    context = browser.new_context(java_script_enabled=False, viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        # The home page's box still submits to the search page, the words in its URL...
        page.goto(server.url("/"))
        page.fill("#home-q", "watermark")
        page.press("#home-q", "Enter")
        page.wait_for_url("**/search/?q=watermark")
        # ... where the page says that no search was run, and why, first thing under the box
        notice = page.locator(".search-noscript")
        assert notice.is_visible()
        text = " ".join(notice.inner_text().split())
        assert "Search needs JavaScript" in text and "no search was run" in text
        box = page.locator("#search-input").bounding_box()
        assert box["y"] < notice.bounding_box()["y"] < box["y"] + box["height"] + 80
        # ... and offers the indexes, the list of all papers first
        links = notice.locator("a").evaluate_all("els => els.map(a => [a.getAttribute('href'), a.textContent])")
        assert [href for href, _ in links] == ["/papers/", "/tags/", "/venues/", "/authors/"]
        assert re.fullmatch(r"All \d+ papers", links[0][1])
        # Nothing pretends to search: the box and its button are disabled, the help (results
        # as you type) and the filters are not shown, the header has no second box.
        assert page.locator("#search-input").is_disabled()
        assert page.locator("#search-form button[type=submit]").is_disabled()
        assert not page.locator("#search-help").is_visible()
        assert not page.locator("#search-filters-box").is_visible()
        assert page.locator("#header-q").count() == 0
        assert page.locator("#search-results > li").count() == 0
        # The indexes are there to use.
        notice.get_by_role("link", name="Tags").click()
        page.wait_for_url("**/tags/")
        assert page.locator("main a[href^='/tags/']").count() > 3
    finally:
        context.close()


def test_with_javascript_the_box_works_and_the_notice_is_not_shown(page, server):
    open_search(page, server)
    assert page.locator(".search-noscript").count() == 0  # <noscript> holds text, no elements
    assert page.locator("#search-input").is_enabled()
    assert page.locator("#search-form button[type=submit]").is_enabled()
    help_ = page.locator("#search-help")
    assert help_.is_visible() and "as you type" in help_.inner_text()
    assert page.get_attribute("#search-input", "aria-describedby") == "search-help"


def test_a_file_that_fails_to_load_gives_one_clear_error_state(page, server):
    """No results mixed with an error: a postings file that does not load empties the list
    and says so; the next query whose files load answers again."""
    page.route("**/search/terms/**", lambda route: route.fulfill(status=500, body="no"))
    open_search(page, server)
    page.fill("#search-input", "watermark")
    page.wait_for_selector("#search-results[data-state=error]", state="attached", timeout=20000)
    assert page.locator("#search-results > li").count() == 0
    assert "could not be loaded" in page.locator("#search-status").inner_text()
    page.unroute("**/search/terms/**")
    assert search(page, "tactile")[0] == TACTILE


def test_a_records_file_that_fails_to_load_is_an_error(page, server):
    page.route("**/search/docs/**", lambda route: route.fulfill(status=500, body="no"))
    page.goto(server.url("/search/?q=tactile"))
    page.wait_for_selector("#search-results[data-state=error]", state="attached", timeout=20000)
    assert page.locator("#search-results > li").count() == 0


def test_search_still_works_without_web_workers(page, server):
    page.add_init_script("delete window.Worker;")
    open_search(page, server, "q=watermark")
    assert results_for(page, "watermark")[0] == WATERMARK
