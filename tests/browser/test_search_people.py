"""Search for people and papers a reader already knows (issue 32), in Chromium: the person
first, names as names, identifiers, whole rows, the typo notice, sort by year, bad input and
a damaged index."""

from __future__ import annotations

import pytest

from ..conftest import ContentDir, paper_md
from .conftest import AUTHOR_NAMES, StaticServer, build_site
from .test_search import open_search, results_for, search

pytestmark = pytest.mark.browser

ACL_VENUE = """---
name: ACL 2022
full_name: Annual Meeting of the Association for Computational Linguistics 2022
year: 2022
---
"""


def links(**kinds: str) -> str:
    return "links:\n" + "\n".join(f"  {k}: {v}" for k, v in kinds.items())


@pytest.fixture(scope="module")
def shelf(tmp_path_factory):
    root = tmp_path_factory.mktemp("people-search")
    c = ContentDir(root / "content")
    c.write("venues/acl-2022.md", ACL_VENUE)
    add = c.add_paper
    # Jie Zhou (3 papers), a namesake written family first (Zhou Jie, 2), and a paper whose
    # authors have the words apart (Jing Zhou ... Jie Tang) with "Zhou" in its title too.
    add("zhou-one", paper_md(title="Dialogue state tracking", authors=("Jie Zhou", "Wei Li"), venue="acl-2022"))
    add("zhou-two", paper_md(title="Event extraction with prompts", authors=("Jie Zhou", "Ana Ruiz")))
    add("zhou-three", paper_md(title="Relation graphs for reading", authors=("Wei Li", "Jie Zhou")))
    add("zhou-jie-one", paper_md(title="Crystal growth", authors=("Zhou Jie",)))
    add("zhou-jie-two", paper_md(title="Crystal defects", authors=("Zhou Jie", "Mary Smith")))
    add("apart", paper_md(title="The Zhou dynasty corpus and Jie particles", authors=("Jing Zhou", "Mary Smith", "Jie Tang"),
                          body="Jie and Zhou appear here, Jie Zhou too in the abstract."))
    # Levine and Levin are two names, not one stem.
    add("levine-one", paper_md(title="Offline reinforcement learning", authors=("Sergey Levine", "Chelsea Finn")))
    add("levine-two", paper_md(title="Robot learning at scale", authors=("Sergey Levine",), venue="acl-2022"))
    add("levin", paper_md(title="Universal sequential search problems", authors=("Leonid Levin",)))
    # Initials, "family, given", accents.
    add("yb-one", paper_md(title="Deep learning of representations", authors=("Yoshua Bengio",)))
    add("yb-two", paper_md(title="Curriculum learning", authors=("Yoshua Bengio", "Samy Bengio")))
    add("sb-one", paper_md(title="Scheduled sampling", authors=("Samy Bengio",)))
    add("jm-one", paper_md(title="Sparse coding", authors=("Jörg Müller",)))
    add("jm-two", paper_md(title="Sparse filtering", authors=("Jörg Müller",)))
    # Identifiers from the papers' links.
    add("acl-paper", paper_md(title="A parser for everything", venue="acl-2022", extra=links(
        doi="https://doi.org/10.18653/v1/2022.acl-long.75", venue_page="https://aclanthology.org/2022.acl-long.75/")))
    add("old-acl", paper_md(title="An older parser", extra=links(venue_page="https://aclanthology.org/P19-1001/")))
    add("or-paper", paper_md(title="Pruning filters", extra=links(openreview="https://openreview.net/forum?id=B184E5qee")))
    add("arxiv-paper", paper_md(title="Scaling laws", extra=links(arxiv="https://arxiv.org/abs/2301.01234v2")))
    add("pmlr-paper", paper_md(title="Bandits with knapsacks",
                               extra=links(venue_page="https://proceedings.mlr.press/v202/smith23a.html")))
    # A typo read as a word of the index.
    add("tf-one", paper_md(title="Transformer models of language", authors=("Ann Lee",)))
    add("tf-two", paper_md(title="Sparse transformer attention", authors=("Bo Chen",), venue="acl-2022"))
    srv = StaticServer(build_site(root / "site", "/", c.root))
    yield srv
    srv.close()


def cards(page) -> list[tuple[str, str, str]]:
    return page.eval_on_selector_all(
        "#search-people .person-card",
        "els => els.map(e => [e.querySelector('a').textContent, e.querySelector('a').getAttribute('href'),"
        " e.querySelector('.person-card-facts').textContent])")


def test_a_full_name_shows_the_person_first_and_their_papers_above_the_words(page, shelf):
    open_search(page, shelf, "q=Jie+Zhou")
    slugs = results_for(page, "Jie Zhou")
    found = cards(page)
    # two people of that name (given-family and family-given), by papers
    assert [c[0] for c in found] == ["Jie Zhou", "Zhou Jie"]
    assert found[0][1].startswith("/authors/") and "jie-zhou" in found[0][1]
    assert found[0][2].startswith("3 papers") and "2022\u20132024" in found[0][2] and "ACL" in found[0][2]
    assert set(slugs[:3]) == {"zhou-one", "zhou-two", "zhou-three"}
    assert slugs.index("apart") > max(slugs.index(s) for s in ("zhou-one", "zhou-two", "zhou-three"))
    # the person is marked in each of their rows
    item = page.locator("#search-results > li[data-slug='zhou-two']")
    assert item.locator(".paper-item-authors mark").first.inner_text() == "Jie Zhou"
    page.screenshot(path=str(shelf_shot(page, "person-card")))
    # the card links their page
    page.locator("#search-people a").first.click()
    page.wait_for_url("**/authors/**")
    assert "Jie Zhou" in page.locator("h1").inner_text()


def shelf_shot(page, name):
    from pathlib import Path
    out = Path("/tmp/search-shots")
    out.mkdir(exist_ok=True)
    return out / f"{name}.png"


@pytest.mark.parametrize("query, name", [
    ("Y. Bengio", "Yoshua Bengio"), ("Bengio, Yoshua", "Yoshua Bengio"), ("bengio yoshua", "Yoshua Bengio"),
    ("S Bengio", "Samy Bengio"), ("jorg muller", "Jörg Müller"), ("Jörg Müller", "Jörg Müller"),
])
def test_names_in_any_form_find_the_person(page, shelf, query, name):
    open_search(page, shelf)
    search(page, query)
    assert [c[0] for c in cards(page)][:1] == [name]


def test_no_card_for_words_that_are_no_name(page, shelf):
    open_search(page, shelf)
    search(page, "sparse coding")
    assert cards(page) == []
    assert page.locator("#search-people").is_hidden()


def test_names_are_not_stemmed_and_no_typo_turns_one_name_into_another(page, shelf):
    open_search(page, shelf)
    assert sorted(search(page, "Levine")) == ["levine-one", "levine-two"]
    assert search(page, "Levine ")  # the whole word typed: still only Levine
    assert "levin" not in search(page, "Sergey Levine ")
    assert search(page, "Levin ") == ["levin"]
    # a misspelt name that is no name finds the name one typo away
    assert sorted(search(page, "Levnie ")) == ["levine-one", "levine-two"]


@pytest.mark.parametrize("query, slug", [
    ("2301.01234", "arxiv-paper"), ("arXiv:2301.01234v2", "arxiv-paper"), ("2301.01234v2", "arxiv-paper"),
    ("https://arxiv.org/abs/2301.01234", "arxiv-paper"),
    ("10.18653/v1/2022.acl-long.75", "acl-paper"), ("https://doi.org/10.18653/v1/2022.acl-long.75", "acl-paper"),
    ("2022.acl-long.75", "acl-paper"), ("P19-1001", "old-acl"), ("B184E5qee", "or-paper"),
    ("v202/smith23a", "pmlr-paper"), ("smith23a", "pmlr-paper"),
])
def test_an_identifier_finds_its_paper_first(page, shelf, query, slug):
    open_search(page, shelf)
    assert search(page, query)[0] == slug


def test_a_typo_read_as_a_word_says_so_and_offers_the_words_as_typed(page, shelf):
    open_search(page, shelf, "q=transfromer")
    assert set(results_for(page, "transfromer")) == {"tf-one", "tf-two"}
    notice = page.locator("#search-notice")
    assert notice.is_visible()
    assert " ".join(notice.inner_text().split()) == "Showing results for transformer \u00b7 search instead for transfromer"
    page.screenshot(path=str(shelf_shot(page, "typo-notice")))
    notice.locator("a").click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('exact') === '1'")
    page.wait_for_function("() => document.getElementById('search-results').children.length === 0")
    assert notice.is_hidden()
    # words the index knows: no notice
    search(page, "transformer")
    assert notice.is_hidden()


def test_sort_by_relevance_or_by_year(page, shelf):
    open_search(page, shelf, "q=sparse")
    relevance = results_for(page, "sparse")
    assert relevance[0] != "tf-two"
    page.select_option("#search-sort", "year")
    page.wait_for_function("() => document.getElementById('search-results').getAttribute('data-sort') === 'year'")
    by_year = page.eval_on_selector_all("#search-results > li", "els => els.map(e => e.dataset.slug)")
    years = page.eval_on_selector_all("#search-results .badge-venue", "els => els.map(e => e.textContent)")
    assert sorted(by_year) == sorted(relevance)
    assert [y[-4:] for y in years] == sorted((y[-4:] for y in years), reverse=True)
    assert "tf-two" == by_year[-1]  # the 2022 paper last
    assert "sort=year" in page.url
    page.reload()
    page.wait_for_function("() => document.getElementById('search-results').getAttribute('data-sort') === 'year'")
    assert page.input_value("#search-sort") == "year"


BAD = ["🤖🚀🧠", "تعلم الآلة العميق", "a" * 2000, "word " * 400, "title:foo^2 ~ * + -", "(", "\\", "[a-z]+$",
       "+-~*:^", "\u200b\u200b", "null", "__proto__", "constructor", "Z͑ͫ̓ͪ̂ͫ̽͏̴̙̤̞͉͚̯̞̠͍A̴̵̜̰͔ͫ͗͢L̠ͨͧͩ͘G̴̻͈͍͔̹̑͗̎̅͛́Ǫ̵̹̻̝̳͂̌̌͘"]


def test_any_query_answers_or_says_there_is_no_match(page, shelf):
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    open_search(page, shelf)
    abstract = ("Recently, text watermarking algorithms for large language models have been proposed to mitigate the "
                "potential harms of text generated by LLMs, including fake news and copyright issues. ") * 6
    for query in BAD + [abstract]:
        page.fill("#search-input", query)
        page.wait_for_function(
            "(q) => { const r = document.getElementById('search-results');"
            " return r.getAttribute('data-query') === q && r.getAttribute('data-state') === 'ready'; }",
            arg=query, timeout=20000)
        status = page.locator("#search-status").inner_text()
        assert "match" in status, (query[:30], status)
    assert not errors


@pytest.mark.parametrize("path, body", [
    ("**/search/meta.json*", "{not json"), ("**/search/meta.json*", None),
    ("**/search/people/**", "garbage"), ("**/search/docs/**", "\x1f\x8bbroken"),
])
def test_a_missing_or_damaged_index_file_gives_a_clear_message(page, shelf, path, body):
    page.route(path, lambda route: route.fulfill(status=404 if body is None else 200, body=body or "gone"))
    page.goto(shelf.url("/search/?q=Jie+Zhou"))
    page.wait_for_selector("#search-results[data-state=error]", state="attached", timeout=20000)
    status = page.locator("#search-status").inner_text()
    assert "could not be loaded" in status and "search/" in status
    assert page.locator("#search-results > li").count() == 0
    fallback = page.locator("#search-empty")
    assert fallback.is_visible() and fallback.locator("a[href='/authors/']").count() == 1
    assert "No papers match" not in fallback.inner_text()  # not a wrong answer: the ways to browse


def gzip_bytes_of(root, paths) -> int:
    """What a server that gzips text sends for these paths (bodies; a stored .gz as it is)."""
    import gzip

    total = 0
    for path in paths:
        file = root / path.lstrip("/")
        if file.is_dir() or path.endswith("/"):
            file = file / "index.html"
        data = file.read_bytes()
        total += len(data) if path.endswith(".gz") else len(gzip.compress(data, 6))
    return total


def test_the_fixed_cost_before_a_query_is_bounded(page, server, site_dir):
    """Issue 32: the page, its scripts and meta.json, under 100 kB (gzip); the tags of every
    paper (facets.json, growing with the catalog) are not loaded before the tag filter is reached."""
    from urllib.parse import urlsplit

    fetched = []
    page.on("request", lambda r: fetched.append(urlsplit(r.url).path))
    page.goto(server.url("/search/"))
    page.wait_for_selector("#search-results[data-state=ready]", state="attached", timeout=20000)
    page.wait_for_timeout(300)
    assert "/search/meta.json" in fetched and "/search/facets.json" not in fetched
    assert gzip_bytes_of(site_dir, set(fetched)) <= 100_000
    # A query of a person: its words' files, the people files and whole rows, no facets.
    fetched.clear()
    page.fill("#search-input", "Irwin King")
    results_for(page, "Irwin King")
    assert "/search/facets.json" not in fetched and not [p for p in fetched if p.startswith("/papers/")]
    assert any(p.startswith("/search/people/") for p in fetched)
    # The tag filter reached: the tags load, and its options get their counts.
    page.locator("#search-filters-box").evaluate("d => d.open = true")
    page.locator("#search-filter-tag").focus()
    page.wait_for_function("() => Array.from(document.querySelectorAll('#search-filter-tag option'))"
                           ".some(o => /\\(\\d+\\)$/.test(o.textContent))", timeout=20000)
    assert "/search/facets.json" in fetched
