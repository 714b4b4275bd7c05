"""Formatted references (APA, Chicago author-date, ACL) and RIS, made in the browser by
``static/js/cite.js`` (run here under Node): the same text and HTML as citeproc-js gives
with the styles' CSL files, for edge cases and for every paper of the bundled catalog
(``citation_styles_reference.json``, written by ``citation_styles_reference.py``); the RIS
record that ``citations.ris_record`` specifies; the names as the page's JSON-LD gives them
(``citations.meta``), read back into their parts as ``citations.citation_name`` reads them.
What the page shows is checked in Chromium (tests/browser/test_cite_styles.py)."""

from __future__ import annotations

import html
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from markupsafe import escape

from generator.outputs import citations as C
from generator.outputs.citations.links import best_link
from generator.outputs.citations.names import Name, citation_name

from ..conftest import REPO, ContentDir
from ..markers import needs
from .test_citations import site_for

pytestmark = pytest.mark.node  # all but the first test run the formatter under Node.js

REFERENCE = json.loads((Path(__file__).parent / "citation_styles_reference.json").read_text(encoding="utf-8"))
STYLES = ("apa", "chicago", "acl")
RUNNER = REPO / "tests" / "js" / "cite_runner.js"

# Where we knowingly differ from citeproc-js, and why.
KNOWN_DIFFERENCES = {
    # citeproc-js leaves the word after an opening single quote in lower case when the
    # title also holds double quotes ("‘single’"); a headline capitalizes it: "‘Single’".
    ("chicago", "title-0"),
}


def node_or_skip() -> str:
    node = shutil.which("node")
    if node:
        return node
    if __import__("os").environ.get("CI"):
        pytest.fail("node is needed (make setup)")
    pytest.skip("node missing")


def run_node(request: dict) -> dict:
    done = subprocess.run([node_or_skip(), str(RUNNER)], input=json.dumps(request), capture_output=True, text=True,
                          encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def ref(title="A title", authors=(), container="ICML 2024", url=None, place=None, **more) -> dict:
    """A reference as cite.js takes it (``fromDocument`` reads one from the page)."""
    return {"title": title, "authors": [n._asdict() for n in authors], "container": container, "year": "2024",
            "url": url, "place": place, **more}


def formatted(*refs: dict) -> list[dict[str, dict]]:
    """Each reference in each style: {style id: {"text", "html", "name", "hint"}}."""
    return [{s["id"]: s for s in styles} for styles in run_node({"refs": list(refs)})["formatted"]]


def without_period_after_ellipsis(text: str) -> str:
    """citeproc-js closes a field that ends with an ellipsis with a period ("science…. (2024)");
    we leave it out, as after "?" (a provisional paper's title ends with "…")."""
    return text.replace("\u2026.", "\u2026")


def reference_of(item: dict) -> dict:
    """A CSL-JSON item of the reference file as cite.js takes it."""
    authors = [Name(a["family"], a.get("given", ""), a.get("non-dropping-particle", ""), a.get("suffix", ""))
               for a in item["author"]]
    editors = [Name(a["family"], a.get("given", ""), a.get("non-dropping-particle", ""), a.get("suffix", ""))
               for a in item.get("editor", [])]
    return {"title": item["title"], "authors": [a._asdict() for a in authors], "container": item["container-title"],
            "year": str(item["issued"]["date-parts"][0][0]), "url": item.get("URL"), "place": item.get("event-place"),
            "pages": item.get("page"), "doi": item.get("DOI"), "publisher": item.get("publisher"),
            "editors": [a._asdict() for a in editors]}


def citeproc_html(entry: str) -> str:
    """citeproc-js's HTML without its ``<div class="csl-entry">`` and entities."""
    return html.unescape(re.sub(r'^<div class="csl-entry">|</div>$', "", entry).strip())


@pytest.fixture(scope="module")
@needs("node")
def reference_results() -> list[dict[str, dict]]:
    return formatted(*(reference_of(item) for item in REFERENCE["items"]))


def test_the_reference_file_covers_the_edge_cases_and_the_bundled_catalog():
    ids = [item["id"] for item in REFERENCE["items"]]
    assert len(ids) == len(set(ids)) == 151
    assert sum(i.startswith("paper-") for i in ids) == len(list((REPO / "content" / "papers").glob("*.md")))
    assert {"count-0", "count-20", "count-21", "no-authors", "names-0", "names-2"} <= set(ids)
    assert set(REFERENCE["expected"]) == set(STYLES)


@pytest.mark.parametrize("style", STYLES)
def test_every_reference_is_formatted_as_citeproc_js_formats_it(style, reference_results):
    differing = []
    for item, got in zip(REFERENCE["items"], reference_results):
        expected = {k: without_period_after_ellipsis(v) for k, v in REFERENCE["expected"][style][item["id"]].items()}
        mine = got[style]
        if (mine["text"], html.unescape(mine["html"])) != (expected["text"], citeproc_html(expected["html"])):
            differing.append((style, item["id"]))
            if (style, item["id"]) not in KNOWN_DIFFERENCES:
                assert mine["text"] == expected["text"], item["id"]
                assert html.unescape(mine["html"]) == citeproc_html(expected["html"]), item["id"]
    assert set(differing) == {d for d in KNOWN_DIFFERENCES if d[0] == style}


ADA, CHARLES = Name("Lovelace", "Ada"), Name("Babbage", "Charles")


def test_et_al_rules_of_each_style():
    cases = [
        (2, "Lovelace, A., & Babbage, C.", "Lovelace, Ada, and Charles Babbage.", "Ada Lovelace and Charles Babbage."),
        (6, "& F5, G.", "and G5 F5.", "and G5 F5."),
        (7, "& F6, G.", "G2 F2, et al.", "and G6 F6."),
        (20, "& F19, G.", "G2 F2, et al.", "G18 F18, et al."),
        (21, "F18, G., … F20, G.", "G2 F2, et al.", "G18 F18, et al."),
    ]
    refs = [ref(authors=[ADA, CHARLES] if count == 2 else [Name(f"F{i}", f"G{i}") for i in range(count)])
            for count, *_ in cases]
    for (count, apa_tail, chicago_tail, acl_tail), got in zip(cases, formatted(*refs)):
        apa, chicago, acl = (got[s]["text"] for s in STYLES)
        assert apa.split(" (2024)")[0].endswith(apa_tail)
        assert chicago.split(" 2024.")[0].endswith(chicago_tail)
        assert acl.split(" 2024.")[0].endswith(acl_tail)
        if count >= 21:
            assert apa.count("G.") == 20  # 19 names, then "… last"
        if count >= 7:
            assert chicago.count("G") == 3


def test_names_with_particles_suffixes_and_one_part():
    authors = [citation_name("Ludwig van Beethoven"), citation_name("Martin Luther King Jr."), citation_name("Plato"),
               citation_name("Jean-Paul Sartre")]
    assert authors[0] == Name("Beethoven", "Ludwig", "van")
    assert authors[1] == Name("King", "Martin Luther", suffix="Jr.")
    assert authors[2] == Name("Plato")
    got, king = formatted(ref(authors=authors), ref(authors=[citation_name("Martin Luther King Jr.")]))
    assert got["apa"]["text"].startswith("van Beethoven, L., King, M. L., Jr., Plato, & Sartre, J.-P. (2024).")
    assert got["chicago"]["text"].startswith(
        "Beethoven, Ludwig van, Martin Luther King Jr., Plato, and Jean-Paul Sartre. 2024.")
    assert got["acl"]["text"].startswith("Ludwig van Beethoven, Martin Luther King Jr., Plato, and Jean-Paul Sartre. 2024.")
    assert king["chicago"]["text"].startswith("King, Martin Luther, Jr. 2024.")


def test_without_authors_the_title_or_the_year_comes_first():
    got, = formatted(ref(title="Untitled work", url="https://x.org/a"))
    assert got["apa"]["text"] == "Untitled work. (2024). ICML 2024. https://x.org/a"
    assert got["chicago"]["text"] == "“Untitled Work.” 2024. ICML 2024. https://x.org/a."
    assert got["acl"]["text"] == "2024. Untitled work. In ICML 2024."


def test_closing_periods_are_not_doubled():
    asked, provisional = formatted(ref(title="Is attention all you need?", authors=[ADA], container="Proc. of the Conf."),
                                   ref(title="Structure learning is a crucial task…"))
    assert asked["apa"]["text"] == "Lovelace, A. (2024). Is attention all you need? Proc. of the Conf."
    assert asked["chicago"]["text"] == "Lovelace, Ada. 2024. “Is Attention All You Need?” Proc. of the Conf."
    assert asked["acl"]["text"] == "Ada Lovelace. 2024. Is attention all you need? In Proc. of the Conf."
    # A provisional paper's title is its first words and an ellipsis: no period after it.
    assert provisional["apa"]["text"] == "Structure learning is a crucial task… (2024). ICML 2024."
    assert provisional["chicago"]["text"] == "“Structure Learning Is a Crucial Task…” 2024. ICML 2024."


def test_html_is_the_text_with_the_container_in_italics_and_escaped():
    got, = formatted(ref(title="<b>Bold</b> & co", authors=[Name("O'Neil", "Cathy")], container="A & B <i>",
                         place="Paris"))
    for style in STYLES:
        c = got[style]
        assert "<b>" not in c["html"] and "&lt;b&gt;Bold" in c["html"]  # text, not markup
        assert "<i>A &amp; B &lt;i&gt;</i>" in c["html"]
        assert html.unescape(re.sub(r"</?i>", "", c["html"])) == c["text"]
        assert "O’Neil" in c["text"] and "<b>Bold</" in c["text"]
    assert got["acl"]["text"].endswith("In A & B <i>, Paris.")


PIECES = list("aZé '\"-:.?!…,;()[]/&<>") + ["van", "the", "of", " x-", "α", "𝒪"]


def random_text(rng: random.Random, non_empty: bool = False) -> str:
    while True:
        text = " ".join("".join(rng.choice(PIECES) for _ in range(rng.randint(0, 20))).split())  # one line
        if text.strip() or not non_empty:
            return text


def test_any_reference_gives_one_line_whose_html_is_the_text():
    rng = random.Random(25)
    refs = []
    for _ in range(300):
        authors = [Name(random_text(rng, True), random_text(rng), rng.choice(["", "van", "de la"]), rng.choice(["", "Jr."]))
                   for _ in range(rng.randint(0, 25))]
        refs.append(ref(random_text(rng, True), authors, random_text(rng, True), rng.choice([None, "https://x.org/a?b=1&c=2"]),
                        rng.choice([None, random_text(rng, True)])))
    for r, got in zip(refs, formatted(*refs)):
        for style in STYLES:
            c = got[style]
            assert "\n" not in c["text"] and c["text"] == c["text"].strip()
            assert html.unescape(re.sub(r"</?i>", "", c["html"])) == c["text"]
            assert c["html"].count("<i>") == 1 and f"<i>{escape(r['container'])}</i>" in c["html"]


def test_text_rules():
    got = run_node({"titleCase": ["state-of-the-art methods: a survey of x-rays", "GPT-4 and the iPhone",
                                  "what to look for", "𝒪 bounds for α", "π₀: a flow model", "émile and ω-limits"],
                    "smartQuotes": ["Don't \"quote\" 'me'"],
                    "initials": ["Martin Luther", "Jean-Paul", "J.K.", "𝒪tto"]})
    assert got["titleCase"] == ["State-of-the-Art Methods: A Survey of x-Rays", "GPT-4 and the iPhone",
                                "What to Look For", "𝒪 Bounds for α", "π₀: A Flow Model", "Émile and ω-Limits"]
    assert got["smartQuotes"] == ["Don’t “quote” ‘me’"]
    assert got["initials"] == ["M. L.", "J.-P.", "J. K.", "𝒪."]


# --------------------------------------------------------------------------- from a paper


def expected_reference(view, citation, location) -> dict:
    """The reference cite.js must read from the paper's page (its ``fromDocument``)."""
    return {"title": C.text_as_shown(view.paper.title), "authors": [citation_name(a)._asdict() for a in view.paper.authors],
            "container": C.one_line(view.venue.full_name), "year": str(view.venue.year), "url": best_link(view),
            "place": C.one_line(view.paper.address or location) if view.paper.address or location else None,
            "page": citation.url if citation.url == citation.page_url else None,
            "pdf": view.pdf_url, "key": citation.key,
            "month": f"{view.paper.month:02d}" if view.paper.month else None, "pages": view.paper.pages,
            "doi": next((u.url.split("doi.org/", 1)[1] for u in view.links if u.kind == "doi"), None),
            "publisher": view.paper.publisher, "editors": [citation_name(a)._asdict() for a in view.paper.editors]}


NAMES = ("Ludwig van Beethoven", "Martin Luther King Jr.", "Plato", "Jean-Paul Sartre", "Charles de la Vallée Poussin",
         "danah boyd", "张伟", "Zhuang, Yubo", "J.K. Rowling", "Ada B. Lovelace")


def test_the_json_ld_names_read_back_into_their_parts(content: ContentDir):
    """Each author of the page's JSON-LD, read by cite.js ``nameOf``, is the name in the
    parts the BibTeX export reads (``citation_name``); only names that "given names, then
    the family name" would read wrong carry their parts."""
    content.add_paper("names", title="Names", authors=NAMES)
    site = site_for(content)
    view = next(v for v in site.papers if v.slug == "names")
    people = json.loads(str(C.CitationIndex(site).for_paper(view).json_ld))["author"]
    got = run_node({"names": people})["names"]
    assert [Name(**g) for g in got] == [citation_name(n) for n in NAMES]
    with_parts = {p["name"] for p in people if "familyName" in p}
    # ("danah boyd": two words are given name and family name to BibTeX too)
    assert with_parts == {"Ludwig van Beethoven", "Martin Luther King Jr.", "Charles de la Vallée Poussin", "Zhuang, Yubo"}


def test_every_bundled_name_reads_back(bundled_views):
    site = bundled_views()
    index = C.CitationIndex(site)
    people = [p for v in site.papers for p in json.loads(str(index.for_paper(v).json_ld)).get("author", [])]
    names = [a for v in site.papers for a in v.paper.authors]
    assert len(people) == len(names) > 200
    got = run_node({"names": people})["names"]
    assert [Name(**g) for g in got] == [citation_name(n) for n in names]


def test_the_ris_record_is_ris_record_s(content: ContentDir, bundled_views):
    """What the page's script makes of the page's reference is ``citations.ris_record``."""
    content.add_paper("ris", title="Graph & Things", authors=("Ludwig van Beethoven", "Martin Luther King Jr."),
                      extra="links:\n  pdf: https://x.org/p.pdf\n  openreview: https://openreview.net/forum?id=x")
    content.add_paper("ris-full", title="Complete", authors=("Jane Lee",),  # issue 36: every citation field
                      extra="links:\n  doi: https://doi.org/10.18653/v1/2022.acl-long.75\npages: 75--85\n"
                            "editors: [Smaranda Muresan, Preslav Nakov]\npublisher: ACL\nmonth: may\n"
                            "address: Dublin, Ireland")
    cases = []
    for site in (site_for(content), site_for(content, base_url="/shelf/"), bundled_views()):
        index = C.CitationIndex(site)
        for view in site.papers:
            citation = index.for_paper(view)
            cases.append((expected_reference(view, citation, index.locations.get(view.venue.id)), citation.ris))
    got = run_node({"refs": [r for r, _ in cases]})["ris"]
    assert got == [ris for _, ris in cases]
