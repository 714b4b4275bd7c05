"""List pages (all papers, venue, tag, author) in a real browser: sorting by title, year,
venue, presentation and date added, filtering by tag and presentation, across every page of
a long list, with the state in the URL; only the controls that would change the list; and
the keyboard: one Tab stop per paper, arrow keys or j/k between papers, the arrow keys
through a paper's links, a skip link past the filters, at desktop and phone widths, axe 0.
"""

from __future__ import annotations

import datetime
import json

import pytest

from generator.content.loader import load_catalog
from generator.derive.views import derive, paper_list
from generator.outputs.pages import PAGE_SIZE, list_controls, sort_ranks

from ..conftest import ContentDir, paper_md
from .conftest import StaticServer, assert_author_list_folds, build_site
from .test_accessibility import check_both_themes, goto_and_settle, run_axe

pytestmark = pytest.mark.browser

# The long catalog: papers cycle through three venues (two of them in 2024), four
# presentations (the fourth: none) and dates added (every fifth paper has none).
VENUES = {"test-2024": ("TEST 2024", 2024), "work-2024": ("WORK 2024", 2024), "other-2023": ("OTHER 2023", 2023)}
VENUE_ORDER = ["test-2024", "work-2024", "other-2023"]  # newest first, then by name
KINDS = ("oral", "spotlight", "poster", None)
COUNT = PAGE_SIZE + PAGE_SIZE // 2 + 3  # two pages


def venue_of(i: int) -> str:
    return VENUE_ORDER[i % 3]


def kind_of(i: int) -> str | None:
    return KINDS[i % 4]


def added_of(i: int) -> datetime.date | None:
    return None if i % 5 == 0 else datetime.date(2024, 1, 1) + datetime.timedelta(days=(i * 7) % 60)


def tags_of(i: int) -> tuple[str, ...]:
    return ("graph-learning",) if i % 2 else ("optimization",)


def title_of(i: int) -> str:
    return f"Paper {i:04d}"


@pytest.fixture(scope="module")
def shelf(tmp_path_factory):
    """The long catalog built and served, and its content folder. Besides the COUNT papers,
    eight on "machine-learning" (one venue, no presentation, no date) make a list that can
    only be filtered by tag."""
    root = tmp_path_factory.mktemp("lists")
    content = ContentDir(root / "content")
    for vid, (name, year) in VENUES.items():
        if vid != "test-2024":
            content.write(f"venues/{vid}.md", f'---\nname: "{name}"\nfull_name: "{name} Conference"\nyear: {year}\n---\n')
    for i in range(COUNT):
        extra = []
        if kind_of(i):
            extra.append(f"presentation: {kind_of(i)}")
        if added_of(i):
            extra.append(f"added: {added_of(i).isoformat()}")
        content.add_paper(f"paper-{i:04d}", paper_md(title=title_of(i), authors=(f"Author {i % 11}", f"Coauthor {i % 13}"),
                                                     venue=venue_of(i), tags=tags_of(i), body=f"Words {i}.",
                                                     extra="\n".join(extra)))
    for j in range(8):
        tags = ("machine-learning", "graph-learning") if j % 2 else ("machine-learning",)
        content.add_paper(f"zeta-{j}", paper_md(title=f"Zeta {j}", authors=(f"Zeta Author {j}",), venue="other-2023",
                                                tags=tags, body="Zeta."))
    site = build_site(root / "site", content=content.root)
    server = StaticServer(site)
    yield server, content.root
    server.close()


def titles(page) -> list[str]:
    return page.eval_on_selector_all("#paper-list > li h3 a", "as => as.map(a => a.textContent)")


def show_everything(page) -> None:
    while page.locator(".list-more").is_visible():
        before = page.locator("#paper-list > li").count()
        page.locator("#list-more").click()
        page.wait_for_function(f"document.querySelectorAll('#paper-list > li').length > {before}")


def wait_for_status(page) -> None:
    page.wait_for_function("document.querySelector('#list-status').textContent.startsWith('Showing')")


def options(page, select: str) -> list[str]:
    return page.eval_on_selector_all(f"{select} option", "os => os.map(o => o.value)")


# ------------------------------------------------------------------------------ data


def test_controls_offer_only_what_would_change_the_list(shelf):
    site = derive(load_catalog(shelf[1]))
    everything = list_controls(paper_list(site.papers))
    assert [s.value for s in everything.sorts] == ["title", "year", "venue", "presentation", "added"]
    assert [(c.value, c.count) for c in everything.presentations] == [
        (k, sum(1 for i in range(COUNT) if kind_of(i) == k)) for k in KINDS if k]
    one_year_each = [p for p in site.papers if p.venue.id != "work-2024"]  # year order = venue order
    assert [s.value for s in list_controls(paper_list(one_year_each)).sorts] == ["title", "venue", "presentation", "added"]
    undated_talks = [p for p in site.papers if p.venue.id == "test-2024" and p.paper.added is None and p.presentation]
    assert len(undated_talks) >= 6
    controls = list_controls(paper_list(undated_talks))
    assert [s.value for s in controls.sorts] == ["title", "presentation"]
    only_orals = [p for p in site.papers if p.presentation == "oral"]
    controls = list_controls(paper_list(only_orals))
    assert controls.presentations == () and "presentation" not in [s.value for s in controls.sorts]
    assert [c.value for c in controls.presentation_counts] == ["oral"]
    short = list_controls(paper_list(site.papers[:5]))
    assert not short.shown and not short.sortable


def test_sort_ranks_order_the_catalog_as_the_sorts_say(shelf):
    site = derive(load_catalog(shelf[1]))
    ranks = sort_ranks(site.papers)
    assert sorted(ranks[p.slug].year for p in site.papers) == list(range(len(site.papers)))

    def order(field):
        return [p.title_plain for p in sorted(site.papers, key=lambda p: getattr(ranks[p.slug], field))]

    numbered = [p for p in order("year") if p.startswith("Paper")]
    assert numbered == [title_of(i) for i in sorted(range(COUNT), key=lambda i: (-VENUES[venue_of(i)][1], i))]
    numbered = [p for p in order("presentation") if p.startswith("Paper")]
    assert numbered == [title_of(i) for i in sorted(range(COUNT), key=lambda i: (KINDS.index(kind_of(i)), i))]
    added = order("added")
    assert added[-8:] == [f"Zeta {j}" for j in range(8)]  # undated, by title, after the dated...
    numbered = [p for p in added if p.startswith("Paper")]
    assert numbered == [title_of(i) for i in sorted(range(COUNT), key=lambda i: (
        added_of(i) is None, -(added_of(i) or datetime.date.min).toordinal(), i))]


# -------------------------------------------------------------------- sort and filter


def expected(order, *, kind=None, tag=None) -> list[str]:
    keys = {
        "title": lambda i: i,
        "year": lambda i: (-VENUES[venue_of(i)][1], i),
        "venue": lambda i: (VENUE_ORDER.index(venue_of(i)), i),
        "presentation": lambda i: (KINDS.index(kind_of(i)), i),
        "added": lambda i: (added_of(i) is None, -(added_of(i) or datetime.date.min).toordinal(), i),
    }
    chosen = [i for i in range(COUNT) if (kind is None or kind_of(i) == kind) and (tag is None or tag in tags_of(i))]
    return [title_of(i) for i in sorted(chosen, key=keys[order])]


@pytest.mark.parametrize("order", ["year", "venue", "presentation", "added"])
def test_every_sort_covers_every_page_of_a_long_list(page, shelf, order):
    server, _ = shelf
    page.goto(server.url("/papers/page/2/"))
    page.select_option("#list-sort", order)
    wait_for_status(page)
    assert page.locator(".pagination").is_hidden()
    assert len(titles(page)) == PAGE_SIZE
    show_everything(page)
    shown = [t for t in titles(page) if t.startswith("Paper")]
    assert shown == expected(order)
    assert f"sort={order}" in page.url


def test_presentation_filter_with_a_tag_and_a_sort_lives_in_the_url(page, shelf):
    server, _ = shelf
    page.goto(server.url("/papers/"))
    assert options(page, "#list-presentation") == ["", "oral", "spotlight", "poster"]
    page.select_option("#list-presentation", "spotlight")
    wait_for_status(page)
    show_everything(page)
    assert titles(page) == expected("title", kind="spotlight")
    assert set(page.eval_on_selector_all("#paper-list > li", "ls => ls.map(l => l.querySelector('.badge-venue + .badge').textContent)")) == {"Spotlight"}

    page.select_option("#list-tag", "graph-learning")
    page.select_option("#list-sort", "added")
    wait_for_status(page)
    want = expected("added", kind="spotlight", tag="graph-learning")
    assert titles(page) == want
    status = page.locator("#list-status").inner_text()
    assert status.startswith(f"Showing {len(want)} papers tagged Graph learning and presented as spotlight, by date added")
    assert page.locator(".list-range").inner_text().startswith(f"{len(want)} papers tagged")

    page.reload()  # the state is in the URL
    assert page.locator("#list-sort").input_value() == "added"
    assert page.locator("#list-tag").input_value() == "graph-learning"
    assert page.locator("#list-presentation").input_value() == "spotlight"
    wait_for_status(page)
    assert titles(page) == want

    page.goto(server.url("/papers/?presentation=nonsense&sort=nonsense"))  # unknown values: the server's list
    assert page.locator("#list-presentation").input_value() == ""
    assert page.locator("#list-sort").input_value() == "title"
    assert titles(page) == [title_of(i) for i in range(PAGE_SIZE)]

    page.goto(server.url("/papers/?presentation=spotlight"))
    wait_for_status(page)
    page.select_option("#list-presentation", "")  # back to the server's page, nothing in the URL
    assert titles(page) == [title_of(i) for i in range(PAGE_SIZE)]
    assert "?" not in page.url and page.locator(".pagination").is_visible()


def requests_of(page) -> list[str]:
    """The paths the page asks for from now on (a list the page appends to), but the favicon."""
    asked: list[str] = []
    page.on("request", lambda request: "favicon" in request.url
            or asked.append(request.url.split("//", 1)[1].split("/", 1)[1]))
    return asked


def test_sorting_and_filtering_fetch_no_other_page_of_the_list(page, shelf):
    """Issue 32: the list's data file, a tag's file for the tag filter, and the row files of
    the papers shown: never the list's other pages."""
    server, _ = shelf
    page.goto(server.url("/papers/"))
    asked = requests_of(page)
    page.select_option("#list-sort", "venue")
    wait_for_status(page)
    assert titles(page) == expected("venue")[:PAGE_SIZE]
    first = list(asked)
    assert "papers/list.json.gz" in first and all(path.endswith(".json.gz") for path in first), first
    rows = [path for path in first if path.startswith("lists/")]
    assert 0 < len(rows) <= PAGE_SIZE and len(set(rows)) == len(rows)  # each row file once
    show_everything(page)
    assert [t for t in titles(page) if t.startswith("Paper")] == expected("venue")
    page.select_option("#list-tag", "graph-learning")
    page.select_option("#list-presentation", "spotlight")
    page.select_option("#list-sort", "year")
    wait_for_status(page)
    assert titles(page) == expected("year", kind="spotlight", tag="graph-learning")
    assert "tags/graph-learning/list.json.gz" in asked
    assert asked.count("papers/list.json.gz") == 1
    assert not [path for path in asked if "page/" in path or path.endswith((".html", "/"))], asked
    rows = [path for path in asked if path.startswith("lists/")]
    assert len(set(rows)) == len(rows)  # each row file once, however often the list changed


def served_and_made(page, url: str) -> tuple[list[str], list[str]]:
    """The items of the list at ``url`` as the server rendered them, and as list.js made them
    from the rows once sorted by venue: outerHTML, without what the page's scripts add (Save
    buttons)."""
    page.goto(url)
    clean = """ls => ls.map(l => { const c = l.cloneNode(true); c.querySelectorAll('.save-button').forEach(b => b.remove());
                                  c.removeAttribute('data-slug'); return c.outerHTML; })"""
    page.wait_for_function("document.querySelector('#paper-list .save-button')")
    served = page.eval_on_selector_all("#paper-list > li", clean)
    page.select_option("#list-sort", "venue")
    wait_for_status(page)
    page.wait_for_function("document.querySelectorAll('#paper-list .save-button').length === document.querySelectorAll('#paper-list > li').length")
    return served, page.eval_on_selector_all("#paper-list > li", clean)


def test_items_made_from_rows_are_the_servers_items(page, server, bundled_views):
    """Every paper of the bundled catalog, sorted by venue: each item made in the browser from
    its row is, node for node, the item the server rendered (math titles, badges, PDF or
    title search, folded bylines)."""
    served, made = served_and_made(page, server.url("/papers/"))
    assert len(served) == len(bundled_views().papers)
    assert any("<math" in html for html in served) and any("find-link" in html for html in served)
    assert any("more-authors" in html for html in served)
    assert made != served and sorted(made) == sorted(served)


PEOPLE = """\
["Ada Homepage"]
homepage = "https://example.org/~ada/?a=1&b=2"

["Bo Homepage"]
orcid = "0000-0002-1825-0097"
"""


def test_bylines_made_from_rows_link_every_name_as_the_server_does(page, tmp_path):
    """A catalog where people need two papers for a page (as past 20,000 papers): names with a
    page (ASCII, non-ASCII), a homepage or ORCID record instead, a search for the name (an apostrophe, accents),
    and a byline of fourteen folded after ten: made in the browser, node for node the server's
    (six papers: a list with controls)."""
    content = ContentDir(tmp_path / "content")
    content.write("site.toml", 'title = "Test shelf"\nauthor_page_min_papers = 2\n')
    content.write("authors.toml", PEOPLE)
    content.write("venues/work-2024.md", '---\nname: "WORK 2024"\nfull_name: "Work Conference"\nyear: 2024\n---\n')
    many = tuple(f"Many O'Author {k}" for k in range(10))
    bylines = [("Ada Homepage", "Seán Ó Briain", "Alan Twice"), ("Seán Ó Briain", "Alan Twice", "Once (Only) D'Arcy"),
               ("Zoë Müller", "Alan Twice", *many, "Bo Homepage", "Seán Ó Briain"), (), ("Alan Twice",), ("Alan Twice", "Seán Ó Briain")]
    for i, authors in enumerate(bylines):
        content.add_paper(f"paper-{i}", paper_md(title=f"Paper {i}", authors=authors, venue=("test-2024", "work-2024")[i % 2]))
    server = StaticServer(build_site(tmp_path / "site", content=content.root))
    try:
        served, made = served_and_made(page, server.url("/papers/"))
        html = "".join(served)
        for part in ('href="/authors/al/alan-twice/"', 'href="/authors/se/sean-o-briain/"', 'href="https://example.org/~ada/?a=1&amp;b=2"',
                     'href="/search/?q=Once%20%28Only%29%20D%27Arcy"', 'href="/search/?q=Zo%C3%AB%20M%C3%BCller"',
                     'href="https://orcid.org/0000-0002-1825-0097"', '<span class="more-closed">and 4 more</span>', 'class="unknown"'):
            assert part in html, part
        assert made != served and sorted(made) == sorted(served)
    finally:
        server.close()


def test_a_list_whose_data_cannot_be_loaded_says_so(page, shelf):
    server, _ = shelf
    page.route("**/list.json.gz", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(server.url("/papers/page/2/?sort=venue"))
    page.wait_for_function("document.querySelector('#list-status').textContent.includes('could not be loaded')")
    assert titles(page) == [title_of(i) for i in range(PAGE_SIZE, COUNT)] + [f"Zeta {j}" for j in range(8)]  # the page's own
    assert page.locator(".pagination").is_visible()


def test_find_in_these_papers_is_the_search_held_to_the_list(page, shelf):
    """The text filter of a list: the search page with the list's venue or tag (a GET form,
    no script needed), whose cost is the search's, not the list's."""
    server, _ = shelf
    page.route("**/search/**", lambda route: route.fulfill(status=200, content_type="text/html", body="<p>search</p>"))
    for url, held in (("/tags/machine-learning/", "&tag=machine-learning"), ("/venues/work-2024/", "&venue=work-2024"),
                      ("/papers/page/2/", "")):
        page.goto(server.url(url))
        page.fill("#list-find", "zeta graphs")
        page.press("#list-find", "Enter")
        page.wait_for_url("**/search/**")
        assert page.url == server.url("/search/?q=zeta+graphs" + held)


def test_controls_that_would_do_nothing_are_not_there(page, shelf, server):
    shelf_server, _ = shelf
    page.goto(shelf_server.url("/venues/test-2024/"))  # one venue, one year
    assert options(page, "#list-sort") == ["title", "presentation", "added"]
    page.goto(shelf_server.url("/tags/machine-learning/"))  # one venue, no presentations, no dates
    assert page.locator("#list-sort").count() == 0 and page.locator("#list-presentation").count() == 0
    assert options(page, "#list-tag") == ["", "graph-learning"]
    page.goto(shelf_server.url("/authors/zeta-author-1/"))  # one paper: no controls, no keyboard hint
    assert page.locator(".list-controls").count() == 0 and page.locator("#list-keys").is_hidden()

    page.goto(server.url("/papers/"))  # the bundled catalog: one year and no dates added
    values = options(page, "#list-sort")
    assert "added" not in values and "year" not in values and {"title", "venue", "presentation"} <= set(values)


def test_venue_page_counts_presentations_in_their_order(page, server):
    page.goto(server.url("/papers/"))
    venue_url = page.locator("#paper-list > li:has(.badge-oral) .badge-venue").first.get_attribute("href")
    page.goto(server.url(venue_url))
    stats = page.locator(".page-header .stats .badge").all_inner_texts()
    kinds = [s.split()[1] for s in stats]
    assert kinds == sorted(kinds, key=["oral", "spotlight", "poster"].index) and len(kinds) >= 2


# ----------------------------------------------------------------------------- keyboard


def focused(page) -> str:
    """What has the focus: "title <href>", "<tag> <href or text>" or "body"."""
    return page.evaluate("""() => {
        const e = document.activeElement;
        if (!e || e === document.body) return "body";
        if (e.closest('.paper-item > h3')) return "title " + e.getAttribute('href');
        return e.tagName.toLowerCase() + " " + (e.getAttribute('href') || e.textContent.trim());
    }""")


def tab_through(page, limit: int = 2000) -> list[str]:
    """Every Tab stop of the page, from the top, once round."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.evaluate("window.scrollTo(0, 0)")
    stops: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = focused(page)
        if now == "body" or (stops and now == stops[0]):
            return stops
        stops.append(now)
    raise AssertionError("Tab never came round")


def item_titles(page) -> list[str]:
    return ["title " + h for h in page.eval_on_selector_all("#paper-list > li h3 a", "as => as.map(a => a.getAttribute('href'))")]


def test_each_paper_is_one_tab_stop(page, server):
    """Before: 754 Tab stops on /papers/ (10 per paper); now one per paper."""
    page.goto(server.url("/papers/"))
    stops = tab_through(page)
    in_list = [s for s in stops if s.startswith("title ")]
    assert in_list == item_titles(page)
    assert len(stops) - len(in_list) < 25, stops  # the header, the skip links, the controls
    assert stops[stops.index(in_list[0]) - 1].startswith("select")  # the list follows its controls


def test_arrows_and_j_k_move_between_papers_and_through_a_paper(page, server, bundled_views):
    views = bundled_views()
    page.goto(server.url("/papers/"))
    index, paper = next((i, p) for i, p in enumerate(views.papers) if len(p.authors) > 1 and p.pdf_url)
    item = page.locator("#paper-list > li").nth(index)
    # Right: each of the paper's links and buttons in turn: its authors (each linked, issue 36),
    # its venue, its PDF, Save.
    parts = ["title " + item.locator("h3 a").get_attribute("href")] + item.evaluate("""li => Array.from(
        li.querySelectorAll('a[href], button, summary')).filter(e => e.getClientRects().length && !e.closest('h3'))
        .map(e => e.tagName.toLowerCase() + ' ' + (e.getAttribute('href') || e.textContent.trim()))""")
    authors = [f"a /{a.url}" for a in paper.authors_head or paper.authors]
    assert parts[1:] == authors + (["summary"] if paper.authors_tail else []) + [
        f"a /{paper.venue.url}", f"a {paper.pdf_url}", "button Save"]
    item.locator("h3 a").focus()
    reached = [focused(page)]
    for _ in range(len(parts)):  # one more than needed: Right on the last part stays there
        page.keyboard.press("ArrowRight")
        reached.append(focused(page))
    assert reached == parts + [parts[-1]]
    page.keyboard.press("ArrowLeft")
    assert focused(page) == parts[-2]
    page.keyboard.press("Escape")
    assert focused(page) == parts[0]

    page.locator("#paper-list > li h3 a").first.focus()
    titles_ = item_titles(page)
    for key, want in [("j", 1), ("j", 2), ("ArrowDown", 3), ("k", 2), ("ArrowUp", 1), ("End", -1), ("Home", 0)]:
        page.keyboard.press(key)
        assert focused(page) == titles_[want], key
    page.keyboard.press("ArrowUp")  # the first paper stays
    assert focused(page) == titles_[0]


def test_the_part_reached_holds_the_papers_tab_stop_until_the_focus_leaves(page, server):
    page.goto(server.url("/papers/"))
    titles_ = item_titles(page)
    page.locator("#paper-list > li h3 a").nth(1).focus()
    page.keyboard.press("ArrowRight")
    author = focused(page)
    assert author.startswith("a /authors/")  # the first author
    assert page.locator("#paper-list > li").nth(1).locator("[tabindex='0']").count() == 1
    page.keyboard.press("Tab")  # on to the next paper, not to the rest of this one
    assert focused(page) == titles_[2]
    page.keyboard.press("Shift+Tab")  # back: the paper left gives its stop back to its title
    assert focused(page) == titles_[1]
    page.keyboard.press("Shift+Tab")
    assert focused(page) == titles_[0]


def test_items_fold_long_author_lists_and_the_paper_page_names_them_all(page, server, bundled_views):
    views = bundled_views()
    page.goto(server.url("/papers/"))
    items = page.locator("#paper-list > li")
    long_list = max(views.papers, key=lambda p: len(p.authors))
    short = next(p for p in views.papers if 1 < len(p.authors) <= 4)
    byline = items.nth(views.papers.index(long_list)).locator(":scope > h3 + div")
    # every author, linked; past ten folded into "and N more"
    shown = [a.name for a in long_list.authors_head or long_list.authors]
    assert byline.locator(":scope > a").all_inner_texts() == shown
    assert byline.locator(":scope > a").evaluate_all("as => as.map(a => a.getAttribute('href'))") == \
        ["/" + a.url for a in long_list.authors_head or long_list.authors]
    assert byline.locator("details > a").all_text_contents() == [a.name for a in long_list.authors_tail]
    assert items.nth(views.papers.index(short)).locator(":scope > h3 + div").inner_text() == \
        ", ".join(a.name for a in short.authors)
    # The paper's page names every author (linking those with a page); a long list folds there,
    # its other names reached once opened.
    folded = next(p for p in views.papers if p.authors_tail)
    page.goto(server.url("/" + folded.url))
    assert_author_list_folds(page.locator(".paper-authors"), folded)


def test_single_letter_keys_act_only_in_the_list(page, server):
    page.goto(server.url("/papers/"))
    page.keyboard.press("j")
    assert focused(page) == "body"
    page.locator("#header-q").focus()
    page.keyboard.type("jk")
    assert page.locator("#header-q").input_value() == "jk"
    assert focused(page).startswith("input")


def test_skip_link_goes_past_the_filters_to_the_first_paper(page, server):
    page.goto(server.url("/papers/"))
    stops = tab_through(page)
    skip = stops.index("a #paper-list")
    assert stops.index(item_titles(page)[0]) > skip + 1  # there is something to skip
    page.evaluate("window.scrollTo(0, 0)")
    page.evaluate("document.activeElement.blur()")
    for _ in range(skip + 1):
        page.keyboard.press("Tab")
    assert page.locator(".list-skip").is_visible()
    assert page.locator(".list-skip").inner_text() == "Skip to the list of papers"
    page.keyboard.press("Enter")
    assert focused(page) == item_titles(page)[0]
    page.keyboard.press("j")
    assert focused(page) == item_titles(page)[1]


def test_without_javascript_every_link_is_reachable_and_the_skip_link_lands_on_the_list(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(server.url("/papers/"))
        assert page.locator("#list-keys").is_hidden()
        page.locator(".list-skip").focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        assert focused(page) == item_titles(page)[0]
        page.keyboard.press("Tab")  # no JavaScript: the paper's other links are Tab stops (its authors first)
        assert focused(page).startswith("a /authors/")
    finally:
        context.close()


def test_items_fetched_from_other_pages_are_one_tab_stop_too(page, shelf):
    server, _ = shelf
    page.goto(server.url("/papers/?sort=added"))
    wait_for_status(page)
    page.locator("#paper-list > li h3 a").last.focus()
    page.keyboard.press("j")  # the last shown paper: on to "Show more"
    assert focused(page).startswith("button Show")
    extra = page.eval_on_selector_all("#paper-list > li", """ls => ls.map(l =>
        Array.from(l.querySelectorAll('a[href], button, summary')).filter(e => e.tabIndex >= 0).length)""")
    assert extra == [1] * len(extra)
    assert page.locator("#list-keys").is_visible()


# ---------------------------------------------------------------- layout and axe


@pytest.mark.parametrize("width", [320, 1280])
def test_lists_with_every_control_pass_axe_and_fit_a_phone(browser, shelf, width):
    """In both themes (``check_both_themes``: one page load serves both)."""
    server, _ = shelf
    context = browser.new_context(viewport={"width": width, "height": 800}, color_scheme="light")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        goto_and_settle(page, server.url("/papers/?sort=presentation&presentation=oral&tag=optimization"))
        wait_for_status(page)
        assert page.locator(".list-controls select").count() == 3

        def check(theme: str) -> None:
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.locator("#paper-list > li h3 a").nth(1).focus()
            page.keyboard.press("ArrowRight")  # a paper with the focus on one of its parts
            violations = run_axe(page)
            assert violations == [], f"{theme}: " + json.dumps(violations, indent=1)
            page.evaluate("window.scrollTo(0, 0)")
            page.locator(".list-skip").focus()
            assert page.locator(".list-skip").is_visible()
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert run_axe(page) == [], theme

        check_both_themes(page, check)
    finally:
        context.close()
    assert not errors, errors
