"""Browsing a large catalog (issue 28 items 3-5): authors A–Z on one-letter pages, an author's
papers by year with their name marked in every byline, venues as series by year, a page per
year, a home page that does not grow with the catalog, and no folder wider than 10,000."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.content.loader import load_catalog
from generator.derive import urls as U
from generator.derive.browse import (author_letters, family_key, grouped_pages, letter_of, letter_nav,
                                     venue_table)
from generator.derive.views import derive
from generator.outputs.pages import AUTHORS_PAGE_SIZE, PAGE_SIZE, plan_pages
from generator.outputs.render import byline

from ..conftest import ContentDir

VENUES = {  # id: (name, full name, year)
    "neurips-2019": ("NeurIPS 2019", "Advances in Neural Information Processing Systems 32", 2019),
    "neurips-2020": ("NeurIPS 2020", "Advances in Neural Information Processing Systems 33", 2020),
    "findings-acl-2022": ("Findings of ACL 2022", "Findings of the Association for Computational Linguistics: ACL 2022", 2022),
    "cvpr-2023-workshops": ("CVPR 2023 Workshops", "Proceedings of the CVPR Workshops 2023", 2023),
    "foo-2019": ("FOO 2019", "Workshop on Foo 2019", 2019),
    "foo-2020": ("FOO 2020", "Workshop on Foo 2020", 2020),
    "misc": ("Miscellany", "Miscellaneous papers", 2020),
}
ME = "Zoë Middleton"


def _venue_md(name: str, full: str, year: int) -> str:
    return f'---\nname: "{name}"\nfull_name: "{full}"\nyear: {year}\n---\n'


@pytest.fixture
def catalog(tmp_path: Path) -> ContentDir:
    """Papers at seven venues of four rows; ``ME`` the 12th of 15 authors of one paper and
    on papers of 2019, 2020 and 2022; people whose family names start with a letter, an
    accent, a digit and another script."""
    c = ContentDir(tmp_path / "content")
    for vid, (name, full, year) in VENUES.items():
        c.write(f"venues/{vid}.md", _venue_md(name, full, year))
    many = [f"Person{n} Long" for n in range(11)] + [ME, "Ann Other", "Bo Åberg", "Cy Last"]
    c.add_paper("many-authors", title="Many Authors", authors=many, venue="neurips-2019")
    c.add_paper("second", title="Second Paper", authors=(ME, "Bo Åberg"), venue="neurips-2020")
    c.add_paper("third", title="Third Paper", authors=("Ann Other", ME), venue="findings-acl-2022")
    c.add_paper("fourth", title="Fourth Paper", authors=("7 Of Nine", "张伟", "Cy Last"), venue="foo-2019")
    c.add_paper("fifth", title="Fifth Paper", authors=("7 Of Nine", "张伟"), venue="foo-2020")
    c.add_paper("sixth", title="Sixth Paper", authors=("Martin Luther King Jr.",), venue="misc")
    c.add_paper("seventh", title="Seventh Paper", authors=("Martin Luther King Jr.",), venue="cvpr-2023-workshops")
    c.add_paper("eighth", title="Eighth Paper", authors=("Ola Olsen",), venue="test-2024")
    c.add_paper("ninth", title="Ninth Paper", authors=("Ola Olsen",), venue="test-2024")
    return c


@pytest.fixture
def site(catalog):
    return derive(load_catalog(catalog.root))


def test_venues_are_rows_of_series_by_year(site):
    table = venue_table(site.venues)
    rows = {r.key: r for r in table.rows}
    assert set(rows) == {"neurips", "findings-acl", "cvpr-workshops", "foo", "misc", "test"}
    assert [r.name for r in table.rows] == sorted((r.name for r in table.rows), key=str.casefold)  # A–Z
    assert [c.year for c in rows["neurips"].cells] == [2020, 2019]  # newest first
    assert (rows["neurips"].name, rows["findings-acl"].name, rows["cvpr-workshops"].name) == \
        ("NeurIPS", "Findings of ACL", "CVPR Workshops")
    # a venue of no known series: one row with the venues whose ids differ only in the year
    assert (rows["foo"].name, rows["foo"].full_name, [c.venue.id for c in rows["foo"].cells]) == \
        ("FOO", "Workshop on Foo", ["foo-2020", "foo-2019"])
    assert rows["misc"].name == "Miscellany" and len(rows["misc"].cells) == 1
    assert rows["neurips"].url == "venues/#series-neurips" and rows["neurips"].anchor == "series-neurips"
    assert table.row_of["neurips-2019"] is rows["neurips"]
    assert rows["neurips"].count == 2
    assert [(y.year, y.papers, y.venues) for y in table.years] == [(2024, 2, 1), (2023, 1, 1), (2022, 1, 1),
                                                                    (2020, 3, 3), (2019, 2, 2)]
    assert table.largest[0] in (rows["neurips"], rows["foo"])


def test_grouped_pages_cut_groups_and_say_what_goes_on():
    groups = [("a", None, list(range(150))), ("b", "x/", list(range(30))), ("c", None, list(range(20)))]
    pages = grouped_pages(groups, 100)
    assert [[(g.heading, len(g.papers), g.continued, g.total) for g in page] for page in pages] == [
        [("a", 100, False, 150)], [("a", 50, True, 150), ("b", 30, False, 30), ("c", 20, False, 20)]]
    assert grouped_pages([], 100) == [()]  # one (empty) page
    assert len(grouped_pages([("a", None, list(range(200)))], 100)) == 2  # no empty page after a full one


def test_family_names_and_letters():
    assert family_key("Martin Luther King Jr.")[0] == "king"
    assert family_key("José García")[0] == "garcia" and letter_of("José García") == "g"
    assert letter_of("Bo Åberg") == "a"
    assert letter_of("7 Of Nine") == "n" and letter_of("Nine 7") == U.OTHER_LETTER
    assert letter_of("张伟") == U.OTHER_LETTER and letter_of("") == U.OTHER_LETTER


def test_authors_index_by_letter(site):
    letters = author_letters(site.authors)
    assert list(letters) == sorted(letters, key=lambda l: (l == U.OTHER_LETTER, l))
    people = {a.ref.name: letter for letter, found in letters.items() for a in found}
    assert people[ME] == "m" and people["Martin Luther King Jr."] == "k" and people["张伟"] == U.OTHER_LETTER
    nav = letter_nav(letters)
    assert [link.letter for link in nav] == list(U.LETTERS + U.OTHER_LETTER)
    assert all((link.url is None) == (link.count == 0) for link in nav)
    assert sum(link.count for link in nav) == len(site.authors)


def test_the_plan_has_letter_year_and_grouped_author_pages(site):
    pages = {p.url: p for p in plan_pages(site)}
    assert pages["authors/"].template == "authors.html" and pages["authors/m/"].context["letter"].label == "M"
    assert "authors/0/" in pages and "authors/page/2/" not in pages
    assert {u for u in pages if u.startswith("years/")} == {"years/", "years/2019/", "years/2020/", "years/2022/",
                                                             "years/2023/", "years/2024/"}
    me = next(a for a in site.authors if a.ref.name == ME)
    page = pages[me.ref.url]
    assert [g.heading for g in page.context["groups"]] == ["2022", "2020", "2019"]  # newest first
    assert page.context["own"] == me.ref.slug
    assert [s.name for s in page.context["series"]] == ["NeurIPS", "Findings of ACL"]  # most papers first
    assert [s.count for s in page.context["series"]] == [2, 1]
    venue = pages["venues/neurips-2019/"]
    assert [c.year for c in venue.context["series"].cells] == [2020, 2019] and venue.context["year_url"] == "years/2019/"
    year = pages["years/2020/"]
    assert [g.heading for g in year.context["groups"]] == ["FOO 2020", "Miscellany", "NeurIPS 2020"]


def test_an_author_s_name_is_in_every_byline_however_long(site):
    me = next(a for a in site.authors if a.ref.name == ME)
    many = next(p for p in me.papers if len(p.authors) == 15)
    at = [a.name for a in many.authors].index(ME)
    assert at >= 10 and [a.name for a in byline(many).tail].count(ME) == 1  # elsewhere folded after ten...
    mine = byline(many, me.ref.slug)  # ...but not on the person's own page
    assert mine.head == many.authors[:at + 1] and mine.tail == many.authors[at + 1:] and mine.own == me.ref.slug
    short = next(p for p in me.papers if len(p.authors) == 2 and p.authors[1].name == ME)
    assert byline(short, me.ref.slug).head == short.authors and not byline(short).tail
    refs = many.authors  # a name already shown: the fold as elsewhere
    assert byline(many, refs[2].slug).head == byline(many).head == refs[:10]


def test_built_pages(catalog, tmp_path):
    out = tmp_path / "site"
    build(BuildOptions(content=catalog.root, output=out))
    me = (out / "authors/zo/zoe-middleton/index.html").read_text(encoding="utf-8")
    assert me.count('<strong class="own-name">Zoë Middleton</strong>') == 3
    assert re.findall(r'<h2 class="group-heading"[^>]*><a href="/years/(\d+)/">', me) == ["2022", "2020", "2019"]
    assert 'href="/venues/#series-neurips">NeurIPS</a>' in me and 'href="/authors/' in me
    index = (out / "authors/index.html").read_text(encoding="utf-8")
    assert 'href="/authors/m/"' in index and 'href="/authors/0/"' in index
    assert 'href="/authors/b/"' not in index  # nobody under B: the letter is shown without a link
    venues = (out / "venues/index.html").read_text(encoding="utf-8")
    assert 'id="series-neurips"' in venues and 'href="/venues/neurips-2019/"' in venues
    assert 'href="/years/2019/"' in venues
    venue = (out / "venues/neurips-2019/index.html").read_text(encoding="utf-8")
    assert 'href="/venues/neurips-2020/"' in venue and 'aria-current="page">2019<' in venue
    year = (out / "years/2019/index.html").read_text(encoding="utf-8")
    assert 'href="/years/2020/" rel="next"' in year and "Many Authors" in year and "Fourth Paper" in year
    home = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="/venues/"' in home and 'href="/years/2023/"' in home


def test_no_folder_of_the_plan_passes_10000_entries_at_100000_papers():
    """The widest folders the plan makes, at an archive's scale: a letter of the authors'
    index (the most common family names' letter, ~10% of ~56,000 people with a page at
    100,000 papers) pages on in its own folder; ``authors/`` holds the buckets and letters,
    ``years/`` a folder a year; the rest is tested on a built site (test_output_budget)."""
    people = 56_000
    widest_letter = people // 10
    letter_pages = -(-widest_letter // AUTHORS_PAGE_SIZE)
    assert letter_pages - 1 <= 10_000  # authors/<l>/page/<n>/
    authors_folder = (len(U.LETTERS) + 1) + 37 * 37 + 1  # letters, buckets, index.html
    assert authors_folder <= 10_000
    assert len({U.author_bucket(f"{a}{b}x") for a in "abcdefghijklmnopqrstuvwxyz0123456789"
                for b in "abcdefghijklmnopqrstuvwxyz0123456789"}) <= 37 * 37
    years = 2100 - 1900 + 1
    assert years + 1 <= 10_000  # years/<yyyy>/, index.html
    # a year's list pages: a year of 30,000 papers
    assert -(-30_000 // PAGE_SIZE) <= 10_000
    assert all(len(U.author_letter_page(letter).strip("/").split("/")[-1]) == 1 for letter in U.LETTERS)


def test_long_grouped_lists_and_letters_page_on(site, monkeypatch):
    from generator.derive.browse import by_year
    from generator.outputs import pages as P

    me = next(a for a in site.authors if a.ref.name == ME)
    found = list(P.grouped_list_pages(me.ref.url, "author.html", ME, by_year(me.papers), {"own": me.ref.slug}, size=2))
    assert [p.url for p in found] == [me.ref.url, me.ref.url + "page/2/"]
    assert [[(g.heading, g.continued) for g in p.context["groups"]] for p in found] == [
        [("2022", False), ("2020", False)], [("2019", False)]]
    assert found[1].title == f"{ME} (page 2 of 2)" and found[1].context["pagination"].prev_url == me.ref.url
    monkeypatch.setattr(P, "AUTHORS_PAGE_SIZE", 1)
    monkeypatch.setattr(P, "AUTHORS_TOP", 2)
    urls = [p.url for p in P.author_index_pages(site)]
    letters = author_letters(site.authors)
    assert urls[0] == U.AUTHORS and len(urls) == 1 + sum(len(people) for people in letters.values())
    many = next(letter for letter, people in letters.items() if len(people) > 1)
    assert U.author_letter_page(many) + "page/2/" in urls
