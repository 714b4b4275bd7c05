"""Formatted references (APA, Chicago author-date, ACL): the same text and HTML as citeproc-js
gives with the styles' CSL files, for edge cases and for every paper of the bundled catalog
(``citation_styles_reference.json``, written by ``citation_styles_reference.py``); how a
paper becomes a reference; what a paper page shows."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from markupsafe import escape
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.outputs import citations as C
from generator.outputs.citations.styles import Name, Reference, acl, apa, author_name, chicago
from generator.outputs.citations.style_text import initials, smart_quotes, title_case

from ..conftest import ContentDir
from .test_citations import site_for

REFERENCE = json.loads((Path(__file__).parent / "citation_styles_reference.json").read_text(encoding="utf-8"))
STYLE_FUNCTIONS = {"apa": apa, "chicago": chicago, "acl": acl}

# Where we knowingly differ from citeproc-js, and why.
KNOWN_DIFFERENCES = {
    # citeproc-js leaves the word after an opening single quote in lower case when the
    # title also holds double quotes ("‘single’"); a headline capitalizes it: "‘Single’".
    ("chicago", "title-0"),
}


def without_period_after_ellipsis(text: str) -> str:
    """citeproc-js closes a field that ends with an ellipsis with a period ("science…. (2024)");
    we leave it out, as after "?" (a provisional paper's title ends with "…")."""
    return text.replace("\u2026.", "\u2026")


def reference_of(item: dict) -> Reference:
    """A CSL-JSON item of the reference file as a ``Reference``."""
    authors = tuple(Name(a["family"], a.get("given", ""), a.get("non-dropping-particle", ""), a.get("suffix", ""))
                    for a in item["author"])
    return Reference(item["title"], authors, item["container-title"], str(item["issued"]["date-parts"][0][0]),
                     item.get("URL"), item.get("event-place"))


def citeproc_html(entry: str) -> str:
    """citeproc-js's HTML without its ``<div class="csl-entry">`` and entities."""
    return html.unescape(re.sub(r'^<div class="csl-entry">|</div>$', "", entry).strip())


def test_the_reference_file_covers_the_edge_cases_and_the_bundled_catalog():
    ids = [item["id"] for item in REFERENCE["items"]]
    assert len(ids) == len(set(ids))
    assert sum(i.startswith("paper-") for i in ids) == len(list((Path(__file__).parents[2] / "content" / "papers").glob("*.md")))
    assert {"count-0", "count-20", "count-21", "no-authors", "names-0", "names-2"} <= set(ids)
    assert set(REFERENCE["expected"]) == set(STYLE_FUNCTIONS)


@pytest.mark.parametrize("style", sorted(STYLE_FUNCTIONS))
def test_every_reference_is_formatted_as_citeproc_js_formats_it(style):
    differing = []
    for item in REFERENCE["items"]:
        got = STYLE_FUNCTIONS[style](reference_of(item))
        expected = {k: without_period_after_ellipsis(v) for k, v in REFERENCE["expected"][style][item["id"]].items()}
        if (got.text, html.unescape(str(got.html))) != (expected["text"], citeproc_html(expected["html"])):
            differing.append((style, item["id"]))
            if (style, item["id"]) not in KNOWN_DIFFERENCES:
                assert got.text == expected["text"], item["id"]
                assert html.unescape(str(got.html)) == citeproc_html(expected["html"]), item["id"]
    assert set(differing) == {d for d in KNOWN_DIFFERENCES if d[0] == style}


def ref(title="A title", authors=(), container="ICML 2024", url=None, place=None) -> Reference:
    return Reference(title, tuple(authors), container, "2024", url, place)


ADA, CHARLES = Name("Lovelace", "Ada"), Name("Babbage", "Charles")


@pytest.mark.parametrize("count, apa_tail, chicago_tail, acl_tail", [
    (2, "Lovelace, A., & Babbage, C.", "Lovelace, Ada, and Charles Babbage.", "Ada Lovelace and Charles Babbage."),
    (6, "& F5, G.", "and G5 F5.", "and G5 F5."),
    (7, "& F6, G.", "G2 F2, et al.", "and G6 F6."),
    (20, "& F19, G.", "G2 F2, et al.", "G18 F18, et al."),
    (21, "F18, G., … F20, G.", "G2 F2, et al.", "G18 F18, et al."),
])
def test_et_al_rules_of_each_style(count, apa_tail, chicago_tail, acl_tail):
    authors = [ADA, CHARLES] if count == 2 else [Name(f"F{i}", f"G{i}") for i in range(count)]
    r = ref(authors=authors)
    assert apa(r).text.split(" (2024)")[0].endswith(apa_tail)
    assert chicago(r).text.split(" 2024.")[0].endswith(chicago_tail)
    assert acl(r).text.split(" 2024.")[0].endswith(acl_tail)
    if count >= 21:
        assert apa(r).text.count("G.") == 20  # 19 names, then "… last"
    if count >= 7:
        assert chicago(r).text.count("G") == 3


def test_names_with_particles_suffixes_and_one_part():
    authors = [author_name("Ludwig van Beethoven"), author_name("Martin Luther King Jr."), author_name("Plato"),
               author_name("Jean-Paul Sartre")]
    assert authors[0] == Name("Beethoven", "Ludwig", "van")
    assert authors[1] == Name("King", "Martin Luther", suffix="Jr.")
    assert authors[2] == Name("Plato")
    r = ref(authors=authors)
    assert apa(r).text.startswith("van Beethoven, L., King, M. L., Jr., Plato, & Sartre, J.-P. (2024).")
    assert chicago(r).text.startswith(
        "Beethoven, Ludwig van, Martin Luther King Jr., Plato, and Jean-Paul Sartre. 2024.")
    assert acl(r).text.startswith("Ludwig van Beethoven, Martin Luther King Jr., Plato, and Jean-Paul Sartre. 2024.")
    assert chicago(ref(authors=[author_name("Martin Luther King Jr.")])).text.startswith("King, Martin Luther, Jr. 2024.")


def test_without_authors_the_title_or_the_year_comes_first():
    r = ref(title="Untitled work", url="https://x.org/a")
    assert apa(r).text == "Untitled work. (2024). ICML 2024. https://x.org/a"
    assert chicago(r).text == "“Untitled Work.” 2024. ICML 2024. https://x.org/a."
    assert acl(r).text == "2024. Untitled work. In ICML 2024."


def test_closing_periods_are_not_doubled():
    r = ref(title="Is attention all you need?", authors=[ADA], container="Proc. of the Conf.")
    assert apa(r).text == "Lovelace, A. (2024). Is attention all you need? Proc. of the Conf."
    assert chicago(r).text == "Lovelace, Ada. 2024. “Is Attention All You Need?” Proc. of the Conf."
    assert acl(r).text == "Ada Lovelace. 2024. Is attention all you need? In Proc. of the Conf."
    # A provisional paper's title is its first words and an ellipsis: no period after it.
    r = ref(title="Structure learning is a crucial task…")
    assert apa(r).text == "Structure learning is a crucial task… (2024). ICML 2024."
    assert chicago(r).text == "“Structure Learning Is a Crucial Task…” 2024. ICML 2024."


def test_html_is_the_text_with_the_container_in_italics_and_escaped():
    r = ref(title="<b>Bold</b> & co", authors=[Name("O'Neil", "Cathy")], container="A & B <i>", place="Paris")
    for style in (apa, chicago, acl):
        c = style(r)
        assert "<b>" not in str(c.html) and "&lt;b&gt;Bold" in str(c.html)  # text, not markup
        assert "<i>A &amp; B &lt;i&gt;</i>" in str(c.html)
        assert html.unescape(re.sub(r"</?i>", "", str(c.html))) == c.text
        assert "O’Neil" in c.text and "<b>Bold</" in c.text
    assert acl(r).text.endswith("In A & B <i>, Paris.")


TEXT = st.lists(st.sampled_from(list("aZé '\"-:.?!…,;()[]/&<>") + ["van", "the", "of", " x-", "α"]),
                max_size=20).map(lambda parts: " ".join("".join(parts).split()))  # one line, as the page has it
NAMES = st.builds(Name, TEXT.filter(str.strip), TEXT, st.sampled_from(["", "van", "de la"]), st.sampled_from(["", "Jr."]))


@settings(max_examples=200, deadline=None)
@given(TEXT.filter(str.strip), st.lists(NAMES, max_size=25), TEXT.filter(str.strip),
       st.none() | st.just("https://x.org/a?b=1&c=2"), st.none() | TEXT.filter(str.strip))
def test_any_reference_gives_one_line_whose_html_is_the_text(title, authors, container, url, place):
    for style in (apa, chicago, acl):
        c = style(Reference(title, tuple(authors), container, "2024", url, place))
        assert "\n" not in c.text and c.text == c.text.strip()
        assert html.unescape(re.sub(r"</?i>", "", str(c.html))) == c.text
        assert str(c.html).count("<i>") == 1 and f"<i>{escape(container)}</i>" in str(c.html)


def test_text_rules():
    assert title_case("state-of-the-art methods: a survey of x-rays") == "State-of-the-Art Methods: A Survey of x-Rays"
    assert title_case("GPT-4 and the iPhone") == "GPT-4 and the iPhone"
    assert title_case("what to look for") == "What to Look For"
    assert smart_quotes("Don't \"quote\" 'me'") == "Don’t “quote” ‘me’"
    assert initials("Martin Luther") == "M. L." and initials("Jean-Paul") == "J.-P." and initials("J.K.") == "J. K."


# --------------------------------------------------------------------------- from a paper


def test_a_paper_becomes_a_reference(content: ContentDir):
    content.add_paper("math", title="Optimal $K$-means via *low-rank* SDPs",
                      authors=("Ludwig van Beethoven", "Ada Lovelace"),
                      extra="links:\n  arxiv: https://arxiv.org/abs/2401.00001\n  openreview: https://openreview.net/forum?id=x")
    site = site_for(content)
    view = next(v for v in site.papers if v.slug == "math")
    citation = C.CitationIndex(site).for_paper(view)
    styles = citation.styles
    assert [s.id for s in styles] == ["apa", "chicago", "acl"]
    assert [s.name for s in styles] == ["APA", "Chicago", "ACL"]
    apa_text = styles[0].text
    # Plain text: no LaTeX, no Markdown; the paper's own link, not the catalog page.
    assert apa_text == ("van Beethoven, L., & Lovelace, A. (2024). Optimal K-means via low-rank SDPs. "
                        "Test Conference on Learning 2024. https://openreview.net/forum?id=x")
    assert styles[1].text.startswith("Beethoven, Ludwig van, and Ada Lovelace. 2024. “Optimal K-Means via Low-Rank SDPs.”")


def test_the_paper_page_shows_each_style_without_javascript(bundled_build, bundled_views):
    site = bundled_views()
    out = bundled_build("/").path
    index = C.CitationIndex(site)
    regular = next(v for v in site.papers if not v.provisional and len(v.authors) > 2)
    provisional = next(v for v in site.papers if v.provisional)
    for view in (regular, provisional):
        page = (out / view.url / "index.html").read_text(encoding="utf-8")
        for style in index.for_paper(view).styles:
            block = re.search(rf'<p class="cite-ref" id="cite-{style.id}" data-copy="{style.name}">(.*?)</p>', page)
            assert block and block.group(1) == str(style.html)  # its Copy button is made by cite.js
        assert ('class="notice notice-provisional cite-provisional"' in page) == view.provisional
    assert not provisional.paper.authors
    assert index.for_paper(provisional).styles[0].text.startswith(C.text_as_shown(provisional.paper.title))
