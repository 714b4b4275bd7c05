"""Counts are written with thousands separators on every page ("1,002 papers"), and the main
navigation links the years (issue 32, item 7): a built catalog of 1,002 papers, read as HTML."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from generator.build import BuildOptions, build

from ..conftest import ContentDir, paper_md

PAPERS = 1001  # ...and one more with MANY authors
MANY = 1200
YEAR = "2024"  # the one year of the test venue: the only 4-digit number that is no count

_SYLLABLES = ["ba", "ko", "mi", "ra", "tu", "le", "so", "ne", "vi", "da", "pe", "lu", "ga", "hi", "zo", "fe",
              "ju", "ka", "mo", "ri", "sa", "te", "wa", "ye", "no", "ci", "du", "fo", "gi", "ha"]


def _word(i: int) -> str:
    """A word for the number ``i`` (titles and names without digits, so any number on a page is a count)."""
    out = ""
    while True:
        i, rest = divmod(i, len(_SYLLABLES))
        out += _SYLLABLES[rest]
        if not i:
            return out.capitalize()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("counts")
    content = ContentDir(root / "content")
    for i in range(PAPERS):
        content.add_paper(f"paper-{i}", title=f"Graphs of {_word(i)} and {_word(i + 7)}",
                          authors=("Grace Hopper", f"{_word(i % 40)} {_word(i % 40 + 3)}"), body="We study graphs.")
    content.add_paper("many-authors", title="A Collaboration", authors=[f"{_word(i)} Mc{_word(i).lower()}"
                                                                        for i in range(MANY)], body="Everyone.")
    build(BuildOptions(content=content.root, output=root / "site"))
    return root / "site"


def _text(path: Path) -> str:
    """A page's text as a reader sees it: no scripts, templates, tags or attributes."""
    page = path.read_text(encoding="utf-8")
    page = re.sub(r"<(script|style|template)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", page)).split())


@pytest.mark.slow
def test_every_count_of_a_thousand_or_more_has_thousands_separators(site):
    pages = sorted(site.rglob("*.html"))
    unformatted = {}
    for page in pages:
        text = _text(page)
        found = [m.group() for m in re.finditer(r"(?<![\d,.])\d{4,}(?![\d,])", text) if m.group() != YEAR]
        if found:
            unformatted[str(page.relative_to(site))] = found[:5]
    assert not unformatted, unformatted
    total = PAPERS + 1
    home = _text(site / "index.html")
    assert f"Search {total:,} papers" in home and f"{MANY + 41:,} authors" in home
    assert f"Every paper in the catalog: {total:,} from 1 venue" in _text(site / "papers" / "index.html")
    assert f"1–100 of {total:,}" in _text(site / "papers" / "index.html")
    assert f"{total:,} papers" in _text(site / "years" / YEAR / "index.html")
    assert f"{total:,} paper" in _text(site / "venues" / "test-2024" / "index.html")
    assert f"{total:,} paper" in _text(site / "tags" / "graph-learning" / "index.html")
    assert f"{total:,}" in _text(site / "tags" / "index.html")
    assert f"All {total:,} papers" in _text(site / "search" / "index.html")
    assert f"{PAPERS:,} papers in this catalog" in _text(site / "authors" / "gr" / "grace-hopper" / "index.html")
    assert re.search(r"\b1,\d{3} more", _text(site / "papers" / "test-2024" / "many-authors" / "index.html"))


@pytest.mark.slow
def test_the_main_navigation_links_the_years(site):
    for page, current in [("index.html", None), ("years/index.html", "page"), (f"years/{YEAR}/index.html", "true"),
                          ("venues/index.html", None)]:
        source = (site / page).read_text(encoding="utf-8")
        nav = re.search(r'<nav class="site-nav" aria-label="Main">(.*?)</nav>', source, re.S).group(1)
        labels = re.findall(r">([^<]+)</a>", nav)
        assert labels[:3] == ["Papers", "Venues", "Years"], labels
        years = re.search(r'<a href="/years/"([^>]*)>Years</a>', nav)
        assert years, nav
        assert (f'aria-current="{current}"' in years.group(1)) if current else "aria-current" not in years.group(1)
