"""The files that sort and filter a list in the browser (issue 32, item 6: outputs/list_data.py):
each list's data gives, for every sort its controls offer, the server's order (pages.sort_ranks),
and each filter the server's counts; the rows say what the list items show; byte budgets on a
synthetic catalog (sizes are deterministic: bench/list_bytes.py measures 10,000 and 100,000).
"""

from __future__ import annotations

import datetime
import gzip
import json
from urllib.parse import quote

import pytest

from bench import synth
from generator.content.loader import load_catalog
from generator.derive.urls import LIST_VENUES, PAPERS, SEARCH, author_page_at, list_data, list_rows, tag_page, venue_page
from generator.derive.views import derive, paper_list
from generator.outputs.list_data import ROW_SHARD, build_list_data, read_list_data
from generator.outputs.pages import PAGE_SIZE, list_controls, sort_ranks
from generator.outputs.render import byline
from generator.outputs.search.shards import name_path

from ..conftest import ContentDir, paper_md

VENUES = {"test-2024": 2024, "work-2024": 2024, "other-2023": 2023, "old-2019": 2019}
KINDS = ("oral", "spotlight", "poster", None)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """60 papers over four venues of three years, four presentations, dates added (every
    fifth undated), two tags; titles not in slug order, one with math, one without authors,
    one with fourteen (a folded byline), two in a venue's Findings track; a page for people with two papers, so some names
    link to a search, one to the person's homepage, and non-ASCII names' pages."""
    content = ContentDir(tmp_path_factory.mktemp("list-data") / "content")
    content.write("site.toml", 'title = "Test shelf"\nauthor_page_min_papers = 2\n')
    content.write("authors.toml", '["Solo Homepage"]\nhomepage = "https://example.org/~solo/"\n')
    for vid, year in VENUES.items():
        if vid != "test-2024":
            content.write(f"venues/{vid}.md", f'---\nname: "{vid.upper()}"\nfull_name: "{vid} Conference"\nyear: {year}\n---\n')
    for i in range(60):
        extra = []
        if KINDS[i % 4]:
            extra.append(f"presentation: {KINDS[i % 4]}")
        if i % 5:
            extra.append(f"added: {datetime.date(2024, 1, 1) + datetime.timedelta(days=(i * 11) % 40)}")
        if i % 7 == 0:
            extra.append(f'links:\n  pdf: "https://example.org/{i}.pdf"')
        if i in (10, 14):  # other-2023's Findings: badged "OTHER-2023 Findings", never as the venue
            extra.append("track: findings")
        title = f"Study {(i * 37) % 60:02d} of graphs" + (r" with $\alpha$" if i == 3 else "")
        authors = tuple(f"Author {i % 9 + k}" for k in range(i % 6 + 1))
        if i == 5:
            authors = ()
        elif i == 8:
            authors = ("Solo Homepage", "Once O'Brien", "Zoë Müller", "Zoë Müller Again") + tuple(f"Many {k}" for k in range(10))
        elif i == 9:
            authors = ("Zoë Müller", "Author 1")
        content.add_paper(f"p-{i:02d}", paper_md(title=title, authors=authors,
                                                 venue=list(VENUES)[i % 4], tags=("graph-learning",) if i % 3 else ("optimization",),
                                                 body="Words.", extra="\n".join(extra)))
    return derive(load_catalog(content.root))


def files_of(site) -> dict[str, bytes]:
    return dict(build_list_data(site))


def data_of(files, url) -> dict:
    return read_list_data(files[list_data(url)], files[LIST_VENUES])


def order(data, sort: str) -> list[int]:
    """What static/js/list.js does: a stable sort of the list (by title) by the sort's group."""
    group = {"title": lambda i: 0, "venue": lambda i: data["v"][i], "year": lambda i: -data["V"][data["v"][i]][2],
             "presentation": lambda i: int(data["p"][i]), "added": lambda i: data["a"][i]}[sort]
    return [data["ordinals"][i] for i in sorted(range(data["n"]), key=lambda i: (group(i), i))]


def lists_of(site):
    yield PAPERS, paper_list(site.papers)
    for venue in site.venues:
        if not venue.tracks:  # a table of contents, no controls
            yield venue_page(venue.ref.id), paper_list(venue.papers)
    for tag in site.tags:
        yield tag_page(tag.ref.id), paper_list(tag.papers, own_tag=tag.ref.id)


def test_every_sort_a_list_offers_gives_the_servers_order(site):
    files = files_of(site)
    ranks = sort_ranks(site.papers)
    server = {"title": lambda p: p.title_rank, "venue": lambda p: p.venue_rank, "year": lambda p: ranks[p.slug].year,
              "presentation": lambda p: ranks[p.slug].presentation, "added": lambda p: ranks[p.slug].added}
    checked = set()
    for url, listing in lists_of(site):
        if list_data(url) not in files:  # a list without controls (a tag's always has a file)
            assert not list_controls(listing).shown and not url.startswith("tags/")
            continue
        data = data_of(files, url)
        assert data["n"] == len(listing.papers)
        assert data["ordinals"] == [p.title_rank for p in listing.papers]  # the server's pages, by title
        for sort in list_controls(listing).sorts:
            want = [p.title_rank for p in sorted(listing.papers, key=server[sort.value])]
            assert order(data, sort.value) == want, (url, sort.value)
            checked.add(sort.value)
    assert checked == {"title", "venue", "year", "presentation", "added"}


def test_filters_keep_what_the_servers_counts_say(site):
    files = files_of(site)
    data = data_of(files, PAPERS)
    controls = list_controls(paper_list(site.papers))
    for option in next(f for f in controls.filters if f.name == "presentation").options:
        digit = str(data["P"].index(option.value))
        assert sum(1 for d in data["p"] if d == digit) == option.count > 0
    for option in next(f for f in controls.filters if f.name == "tag").options:
        tagged = set(data_of(files, tag_page(option.value))["ordinals"])
        assert len(tagged & set(data["ordinals"])) == option.count > 0


def test_rows_say_what_the_items_show(site):
    files = files_of(site)
    venues = data_of(files, PAPERS)["V"]
    assert len([p for p in files if p.startswith("lists/") and p != LIST_VENUES]) == -(-len(site.papers) // ROW_SHARD)
    shown = set()
    for p in site.papers:
        rows = json.loads(gzip.decompress(files[list_rows(p.title_rank // ROW_SHARD)]))
        row = rows[p.title_rank % ROW_SHARD]
        assert venues[row[0]][:2] == [p.venue.id, p.venue.name] and row[1] == p.slug and row[2] == p.title_plain
        assert authors_of(row[3]) == server_byline(p) and row[5] == int(p.provisional) and row[6] == (p.pdf_url or "")
        kind = (["oral", "spotlight", "poster"] + [None])[row[4]]
        assert kind == p.presentation
        if len(row) > 7:
            assert row[7] == str(p.title_html) and "<math" in row[7]
            shown.add("math")
        shown.update({"pdf" if row[6] else "find", "unknown" if not row[3] else "byline", "fold" if 0 in row[3] else ""})
        shown.update(kind_of(entry) for entry in row[3] if entry != 0)
        if p.venue.track:
            assert "Findings" in venues[row[0]][1]  # the track's badge, as the server's item
            shown.add("track")
    assert shown >= {"math", "pdf", "find", "unknown", "byline", "fold", "page", "path", "elsewhere", "search", "track"}


def kind_of(entry) -> str:
    return "page" if isinstance(entry, str) else {3: "elsewhere", 2: "path", 1: "search"}[len(entry)]


def authors_of(authors: list) -> tuple[list, list]:
    """What static/js/list.js makes of a row's authors: (name, link) before and after the
    fold (a 0), a link as partials/author_name.html makes it (relative to the site)."""
    parts: tuple[list, list] = ([], [])
    part = 0
    for entry in authors:
        if entry == 0:
            assert part == 0  # one fold
            part = 1
            continue
        kind = kind_of(entry)
        name = entry if kind == "page" else entry[0]
        link = {"page": lambda: author_page_at(name_path(name)), "path": lambda: author_page_at(entry[1]),
                "elsewhere": lambda: entry[2], "search": lambda: SEARCH + "?q=" + quote(name, safe="")}[kind]()
        parts[part].append((name, link))
    return parts


def server_byline(p) -> tuple[list, list]:
    """The byline the server renders (render.byline, partials/author_name.html): (name, link)."""
    shown = byline(p)
    return tuple([(a.name, a.url or a.elsewhere or a.search_url) for a in names] for names in (shown.head, shown.tail))


def test_the_files_are_the_same_bytes_each_build(site):
    assert files_of(site) == files_of(site)


# ------------------------------------------------------------------------- budgets

PAPERS_SYNTH = 300
# Measured on bench/synth/'s catalog of 300 papers (seed 0) when set, ~10% headroom (at
# 10,000 and 100,000 papers: bench/SIZE.md):
# Issue 36 linked every name of a byline: the rows name every author (the byline of text
# named at most a few), each its own string or its link (list_data.byline_record).
ROWS_PER_PAPER = 120  # bytes of row files a paper (measured 108.8; 96.2 with the byline of text)
ROW_FILE = 2_400  # the largest row file (measured 2,189; 1,665 before): a page of results fetches at most PAGE_SIZE
DATA_PER_LISTING = 4.8  # bytes of list data a paper a list it is on, the venues' file included (measured 4.29)
ALL_PAPERS_DATA = 410  # the data file of the list of all papers (measured 375)


@pytest.fixture(scope="module")
def synth_files(tmp_path_factory):
    content = synth.generate(PAPERS_SYNTH, tmp_path_factory.mktemp("list-budget") / "content", seed=0)
    site = derive(load_catalog(content))
    return site, files_of(site)


@pytest.mark.slow
def test_list_files_stay_within_their_budget(synth_files):
    site, files = synth_files
    rows = sum(len(data) for path, data in files.items() if path.startswith("lists/") and path != LIST_VENUES)
    data = {path: len(b) for path, b in files.items() if not path.startswith("lists/") or path == LIST_VENUES}
    listed = sum(len(listing.papers) for _, listing in lists_of(site)) + sum(
        len(t.papers) for t in (site.topics.topics if site.topics else ()))
    assert rows / len(site.papers) <= ROWS_PER_PAPER
    assert sum(data.values()) / listed <= DATA_PER_LISTING
    assert data[list_data(PAPERS)] <= ALL_PAPERS_DATA
    largest = sorted((len(b) for path, b in files.items() if path.startswith("lists/") and path != LIST_VENUES), reverse=True)
    assert len(largest) < PAGE_SIZE  # so the worst page of rows: every file, at 1.7 kB a file
    assert max(largest) <= ROW_FILE
