"""``import_csl``: CSL-JSON (Zotero's export, doi.org's Crossref objects) to paper files, and
``markup``: the rich text of bibliographic metadata to content text that shows as typed."""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.build import BuildOptions, build
from generator.content.loader import load_catalog
from generator.errors import ContentError, Problems
from generator.importers.common import CREATED, KEPT_EDITED, UNCHANGED, UPDATED
from generator.importers.csl import CSL, MAX_ABSTRACT, MAX_TEXT, import_csl, parse_csl_json, records_from_csl
from generator.importers.markup import plain_to_content, rich_text_to_content
from generator.text import plain_text, render_abstract, render_title

from .conftest import read, tree

DATA = Path(__file__).parent / "data" / "csl"
ZOTERO = DATA / "zotero.json"
CROSSREF = DATA / "crossref.json"
ZOTERO_ITEM = "http://zotero.org/users/local/kR2xQp7v/items/{}"




def write_json(tmp_path: Path, items: list, name: str = "items.json") -> Path:
    """``items`` as a JSON list, one a line: item ``i`` is on line ``i + 2``."""
    path = tmp_path / name
    path.write_text("[\n" + ",\n".join(json.dumps(i, ensure_ascii=False) for i in items) + "\n]\n", encoding="utf-8")
    return path


def item(**fields) -> dict:
    """A paper-conference item with what it needs to be imported, and ``fields``."""
    base = {"id": "k", "type": "paper-conference", "title": "A Title", "container-title": "Some Venue",
            "issued": {"date-parts": [[2024]]}}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}



def refused(files: list[Path], root: Path, **options) -> list[str]:
    """The problems of an import that must be refused, as printed; nothing may be written."""
    before = tree(root)
    with pytest.raises(ContentError) as caught:
        import_csl(files, root, **options)
    assert tree(root) == before
    return [str(p) for p in caught.value.problems]


# --------------------------------------------------------------------------- mapping


def test_a_zotero_export_maps_every_field(empty):
    report = import_csl([ZOTERO], empty.root)
    assert report.format == CSL.name == "CSL-JSON"
    assert [p.status for p in report.papers] == [CREATED] * 4
    assert report.venues_created == ["icml-2024", "journal-of-made-up-results-2024", "arxiv-2024",
                                     "workshop-on-tiny-models-2023"]
    assert report.skipped == [
        f"{ZOTERO}:112 ({ZOTERO_ITEM.format('5V7YB2PD')}): book is a volume, not a paper",
        f"{ZOTERO}:151 ({ZOTERO_ITEM.format('3FJ9WQ2E')}): webpage is not a paper"]
    assert report.warnings == []
    catalog = load_catalog(empty.root)  # what was written loads
    papers = {p.slug: p for p in catalog.papers}

    graphs = papers["graph-neural-networks-for-bert-style-pre-training-a-godel-story"]
    assert graphs.title == "Graph Neural Networks for BERT-style Pre-training: a \\emph{Gödel} Story"
    assert graphs.authors == ("Kurt Gödel", "Ludwig van der Berg", "Google DeepMind")
    assert graphs.venue == "icml-2024"  # event-title, a known conference, and the year as a string
    assert [(link.kind, link.url) for link in graphs.links] == [
        ("venue_page", "https://proceedings.mlr.press/v235/godel24a.html")]
    assert graphs.tags == ("graph-learning",)  # from "keyword" by the tag's name
    assert graphs.abstract.split("\n\n") == [
        "We study graph neural networks with 95% accuracy & more. The rate is $O(n \\log n)$ for graphs with "
        "$|E| = m$ edges.",  # a line broken mid-sentence is one paragraph; math as typed
        "A second paragraph with \\*stars\\*, snake\\_case names, \\textbf{bold} words and x < y."]
    assert catalog.venues["icml-2024"].location == "Vienna, Austria"

    journal = papers["fast-convergence-of-l-2-regularized-gradient-descent-in-h2o-and-x2"]
    assert journal.title == ("Fast Convergence of $\\ell_2$-Regularized Gradient Descent in H\\textsubscript{2}O "
                             "and x\\textsuperscript{2}")
    assert journal.authors == ("José García", "Hans Müller Jr.")
    assert journal.venue == "journal-of-made-up-results-2024"
    # The publisher's page and the DOI: both kept (the page names its host and may give the PDF).
    assert [(link.kind, link.url) for link in journal.links] == [
        ("venue_page", "https://journals.example.org/jmr/article/view/17"),
        ("doi", "https://doi.org/10.5555/jmr.2024.017")]
    assert journal.tags == ("optimization",)  # suggested from the abstract

    preprint = papers["diffusion-models-in-uber-space"]
    assert preprint.venue == "arxiv-2024"  # no container: an arXiv preprint
    assert [(link.kind, link.url) for link in preprint.links] == [("arxiv", "https://arxiv.org/abs/2401.01234")]

    poster = papers["small-is-beautiful"]
    assert (poster.venue, poster.presentation, poster.abstract, poster.links) == (
        "workshop-on-tiny-models-2023", "poster", "", ())
    venue = catalog.venues["workshop-on-tiny-models-2023"]
    assert (venue.name, venue.year, venue.location) == ("Workshop on Tiny Models 2023", 2023, "Lisbon, Portugal")


def test_a_crossref_object_with_a_jats_abstract(empty):
    report = import_csl([CROSSREF], empty.root)
    assert [(p.slug, p.status, p.key) for p in report.papers] == [
        ("tinygraph-scaling-graph-learning-down", CREATED, "10.1145/3580305.3599999")]
    paper = load_catalog(empty.root).papers[0]
    assert paper.title == "\\emph{TinyGraph}: Scaling Graph Learning Down"
    assert paper.authors == ("Grace Hopper", "Alan Turing")  # Crossref's extra keys are ignored
    assert paper.venue == "kdd-2023"  # Crossref's "event" object names the conference
    assert paper.abstract.split("\n\n") == [  # "Abstract" heading dropped; tex-math preferred to MathML
        "We present \\emph{TinyGraph}, a model with $O(\\sqrt{n})$ parameters & 10\\textsuperscript{3} times "
        "fewer FLOPs.",
        "Code: https://github.com/example/tinygraph."]
    # The dx.doi.org URL is the DOI: one link.
    assert [(link.kind, link.url) for link in paper.links] == [("doi", "https://doi.org/10.1145/3580305.3599999")]
    assert read(empty.root / "venues" / "kdd-2023.md")[0]["location"] == "Long Beach CA USA"


@pytest.mark.parametrize("fields, expected", [
    ({"author": [{"given": "Ludwig", "dropping-particle": "de", "non-dropping-particle": "van der", "family": "Berg",
                  "suffix": "III"}]}, ["Ludwig de van der Berg III"]),
    ({"author": [{"family": "Plato"}, {"given": "Madonna"}, {"literal": "The &amp; Team"}]},
     ["Plato", "Madonna", "The & Team"]),
    ({"author": ..., "editor": [{"family": "Editor", "given": "Ed"}]}, ["Ed Editor"]),
])
def test_names(empty, tmp_path, fields, expected):
    report = import_csl([write_json(tmp_path, [item(**fields)])], empty.root)
    assert read(empty.root / "papers" / "a-title.md")[0]["authors"] == expected
    assert any("the editors are listed as its authors" in w for w in report.warnings) == ("editor" in fields)


@pytest.mark.parametrize("fields, venue", [
    ({"issued": {"raw": "2023-05-01"}}, "some-venue-2023"),
    ({"issued": {"literal": "Spring 2022"}}, "some-venue-2022"),
    ({"issued": "2021-04"}, "some-venue-2021"),  # an EDTF string
    ({"issued": {"date-parts": [[2020.0, 1]]}}, "some-venue-2020"),
    ({"issued": ..., "event-date": {"date-parts": [[2019, 6]]}}, "some-venue-2019"),
    ({"container-title": ["Listed Venue", "Other"]}, "listed-venue-2024"),  # Crossref's lists
    ({"type": "article-journal", "event-title": "An Event"}, "some-venue-2024"),  # a journal: its container
    ({"event-title": "An Event"}, "an-event-2024"),  # a conference paper: the event
    ({"container-title": ..., "event": "Old Event Field"}, "old-event-field-2024"),
    ({"type": ..., "container-title": ..., "publisher": "bioRxiv", "number": "2401.01234"}, None),
    ({"type": "article", "container-title": ..., "publisher": "bioRxiv"}, "biorxiv-2024"),
])
def test_venue_and_year(empty, tmp_path, fields, venue):
    path = write_json(tmp_path, [item(**fields)])
    if venue is None:  # no container, not said to be on arXiv: pass --venue
        assert refused([path], empty.root) == [
            f"{path}:2: container-title: item 'k' has no container-title or event-title to take the venue from; "
            "pass --venue ID"]
        return
    import_csl([path], empty.root)
    assert read(empty.root / "papers" / "a-title.md")[0]["venue"] == venue


@pytest.mark.parametrize("fields, links, warning", [
    ({"archive_location": "arXiv:2305.18436v2", "URL": "https://arxiv.org/abs/2305.18436"},
     {"arxiv": "https://arxiv.org/abs/2305.18436v2"}, None),
    ({"number": "2305.18436", "archive": "arXiv"}, {"arxiv": "https://arxiv.org/abs/2305.18436"}, None),
    ({"number": "2305.18436"}, None, None),  # a report number, not said to be arXiv's
    ({"number": "arXiv:nonsense"}, None, "number 'arXiv:nonsense' is not an arXiv identifier; ignored"),
    ({"DOI": "https://doi.org/10.1000/xyz", "URL": "https://ex.org/paper.pdf"},
     {"pdf": "https://ex.org/paper.pdf", "doi": "https://doi.org/10.1000/xyz"}, None),
    ({"DOI": "10.1109/ICRA.2019.8793485", "URL": "https://ieeexplore.ieee.org/document/8793485"},
     {"venue_page": "https://ieeexplore.ieee.org/document/8793485", "doi": "https://doi.org/10.1109/ICRA.2019.8793485"},
     None),  # a landing page and a DOI: both kept
    ({"DOI": "not a doi"}, None, "DOI 'not a doi' is not a DOI (10.…/…); ignored"),
    ({"URL": "https://openreview.net/forum?id=abc"}, {"openreview": "https://openreview.net/forum?id=abc"}, None),
    ({"URL": "https://github.com/a/b"}, {"code": "https://github.com/a/b"}, None),
    ({"URL": "javascript:alert(1)"}, None, "URL 'javascript:alert(1)' is not an http(s) URL; ignored"),
    ({"URL": "https://example.org/shelf/papers/x/"}, None, None),  # this catalog's own site
])
def test_links(empty, tmp_path, fields, links, warning):
    report = import_csl([write_json(tmp_path, [item(**fields)])], empty.root)
    assert read(empty.root / "papers" / "a-title.md")[0].get("links") == links
    assert [w.split(": ", 1)[1] for w in report.warnings] == ([warning] if warning else [])


def test_keywords_and_presentation(empty, tmp_path):
    path = write_json(tmp_path, [item(keyword=["optimization", "x"], genre="Spotlight"),
                                 item(id="b", title="Other", keyword="Graph learning; y", genre="keynote")])
    import_csl([path], empty.root)
    fm, _ = read(empty.root / "papers" / "a-title.md")
    assert (fm["tags"], fm["presentation"]) == (["optimization"], "spotlight")
    fm, _ = read(empty.root / "papers" / "other.md")
    assert fm["tags"] == ["graph-learning"] and "presentation" not in fm


def test_the_same_paper_twice_is_imported_once(empty, tmp_path):
    path = write_json(tmp_path, [item(), item(id="again", title="a  TITLE")])
    report = import_csl([path], empty.root)
    assert len(report.papers) == 1
    assert report.warnings == []
    assert report.repairs.skipped == [f"{path}:3 (again): the same paper (same title, venue and authors) is already "
                                      f"in {path}:2 (k); skipped"]


# --------------------------------------------------------------------------- idempotence


def test_importing_twice_changes_nothing_and_edits_are_kept_unless_forced(empty):
    files = [ZOTERO, CROSSREF]
    import_csl(files, empty.root)
    before = tree(empty.root)
    again = import_csl(files, empty.root)
    assert {p.status for p in again.papers} == {UNCHANGED} and tree(empty.root) == before
    assert again.venues_created == [] and len(again.venues_existing) == 5
    edited = empty.root / "papers" / "small-is-beautiful.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nA note added by hand.\n", encoding="utf-8")
    kept = import_csl(files, empty.root)
    assert kept.statuses["small-is-beautiful"] == KEPT_EDITED
    assert "A note added by hand." in edited.read_text(encoding="utf-8")
    assert any("papers/small-is-beautiful.md: differs from the import" in w for w in kept.warnings)
    forced = import_csl(files, empty.root, force=True)
    assert forced.statuses["small-is-beautiful"] == UPDATED
    assert tree(empty.root) == before


# --------------------------------------------------------------------------- refused input


@pytest.mark.parametrize("text, problem", [
    ('[\n  {"id": "a", "title": "x"}\n  {"id": "b"}\n]', ":3: invalid JSON: Expecting ',' delimiter (column 3)"),
    ('[{"id": "a", "title": "x",}]', ":1: invalid JSON: Expecting property name enclosed in double quotes (column 27)"),
    ('{"id": "a"} {"id": "b"}', ":1: invalid JSON: Extra data (column 13)"),
    ("[1,\n]", ":2: invalid JSON: Expecting value (column 1)"),
    ("   \n", ": the file is empty; expected CSL-JSON: a list of items or one item object"),
    ('"a title"', ":1: expected CSL-JSON: a list of items or one item object, found text"),
    ("[]", ": no CSL-JSON items (the list is empty)"),
    ('[\n  {"id": "a", "title": "T", "event": "E", "issued": "2024"},\n  42\n]', ":3: item [1] is a number, not an object"),
    ('{"status": "ok", "message-type": "work", "message": {"DOI": "10.1/x"}}',
     ":1: this is a Crossref REST API response, not CSL-JSON; ask doi.org for CSL-JSON "
     "(Accept: application/vnd.citationstyles.csl+json)"),
    ('[{"key": "X", "itemType": "journalArticle", "title": "T"}]',
     ":1: itemType: item '[0]': this is Zotero's own JSON, not CSL-JSON; export with the format 'CSL JSON'"),
    ('[{"id": "a", "type": "paper-conference", "title": "T", "title": "U"}]',
     ":1: title: item 'a': this field is given twice in the item"),
    ("[" * 100_000 + "]" * 100_000, ":1: invalid JSON: nested too deeply"),
    ('[{"id": "a", "issued": {"date-parts": [[' + "9" * 5000 + "]]}}]",
     ":1: invalid JSON: Exceeds the limit (4300 digits) for integer string conversion"),
])
def test_bad_files_are_refused_with_file_and_line(empty, tmp_path, text, problem):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    assert refused([path], empty.root) == [f"{path}{problem}"]


@pytest.mark.parametrize("fields, problem", [
    ({"title": 1984}, "title: item 'k': expected text, found a number"),
    ({"title": {"text": "T"}}, "title: item 'k': expected text, found an object"),
    ({"title": ["T", 2]}, "title: item 'k': expected text, found a list"),
    ({"title": "x" * (MAX_TEXT + 1)}, f"title: item 'k': is too long ({MAX_TEXT + 1:,} characters; at most 2,000)"),
    ({"abstract": "x" * (MAX_ABSTRACT + 1)},
     f"abstract: item 'k': is too long ({MAX_ABSTRACT + 1:,} characters; at most 100,000)"),
    ({"type": 5}, "type: item 'k': expected text, found a number"),
    ({"author": "Ada Lovelace"}, "author: item 'k': expected a list of names, found text"),
    ({"author": [{"family": "A"}, "B. Smith"]},
     "author[1]: item 'k': expected a name object (family, given …), found text"),
    ({"author": [{"family": ["A"], "given": True}]}, "author[0].given: item 'k': expected text, found true/false"),
    ({"issued": 2024}, "issued: item 'k': expected a date object (date-parts, raw or literal), found a number"),
    ({"issued": {"date-parts": [2024]}},
     "issued: item 'k': date-parts: expected a list of [year, month, day] lists, found a list"),
    ({"issued": {"date-parts": [["spring"]]}}, "issued: item 'k': date-parts: expected a year, found text"),
    ({"issued": {"date-parts": [[24]]}}, "issued: item 'k': date-parts: expected a four-digit year, found 24"),
    ({"issued": {"raw": 2024}}, "issued.raw: item 'k': expected text, found a number"),
    ({"event": {"name": 7}}, "event.name: item 'k': expected text, found a number"),
    ({"URL": ["https://a.org", None]}, "URL: item 'k': expected text, found a list"),
    ({"title": "<i></i>"}, "title: item 'k' has no title"),
    ({"title": ...}, "title: item 'k' has no title"),
    ({"issued": ...}, "year: item 'k' has no year; add one or pass --venue ID"),
])
def test_wrong_fields_are_refused_naming_the_field(empty, tmp_path, fields, problem):
    path = write_json(tmp_path, [item(**fields)])
    assert refused([path], empty.root) == [f"{path}:2: {problem}"]


def test_every_problem_of_every_file_in_one_run(empty, tmp_path):
    items = write_json(tmp_path, [item(), item(id="b", title=5), 3, item(id="d", author=[{"family": 1}])])
    broken = tmp_path / "broken.json"
    broken.write_text("[\n{", encoding="utf-8")
    assert refused([items, broken, tmp_path / "missing.json"], empty.root) == [
        f"{broken}:2: invalid JSON: Expecting property name enclosed in double quotes (column 2)",
        f"{items}:3: title: item 'b': expected text, found a number",
        f"{items}:4: item [2] is a number, not an object",
        f"{items}:5: author[0].family: item 'd': expected text, found a number",
        f"{tmp_path / 'missing.json'}: CSL-JSON file not found",
    ]


def test_refused_files(empty, tmp_path):
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('[\n{"title": "Caf\u00e9"}]'.encode("latin-1"))
    assert refused([latin1], empty.root) == [f"{latin1}:2: not UTF-8 text (byte 0xe9); save the file as UTF-8"]
    assert refused([tmp_path], empty.root) == [f"{tmp_path}: is a folder, not a file"]
    assert refused([], empty.root) == ["csl: no CSL-JSON files given"]
    assert any("unknown venue 'nowhere'" in p for p in refused([ZOTERO], empty.root, venue="nowhere"))


def test_venue_option_puts_every_item_there(content, tmp_path):
    path = write_json(tmp_path, [item(**{"container-title": ..., "issued": ...})])
    report = import_csl([path], content.root, venue="test-2024")
    assert read(content.root / "papers" / "a-title.md")[0]["venue"] == "test-2024"
    assert report.venues_created == [] and report.venues_existing == ["test-2024"]


def test_records_without_lines_name_the_index_and_id(tmp_path):
    problems, warnings = Problems(), []
    records = records_from_csl([item(id=7), item(id="x", type="dataset"), item(id="y", title=3)], "in.json",
                               problems, warnings)
    assert [(r.key, r.line, r.where) for r in records] == [("[0] 7", None, "in.json ([0] 7)")]
    assert warnings == ["in.json ([1] x): dataset is not a paper"]
    assert [str(p) for p in problems.items] == ["in.json: title: item '[2] y': expected text, found a number"]
    data, lines = parse_csl_json('\n\n  [ {"id": 1},\n{"id": 2}, {"id": 3}\n]', "f", Problems())
    assert lines == [3, 4, 4] and [i["id"] for i in data] == [1, 2, 3]


# --------------------------------------------------------------------------- hostile input


def test_html_in_titles_is_text_on_the_built_site(empty, tmp_path):
    title = 'A <script>alert("x")</script> <img src=x onerror=alert(1)> <a href="javascript:x">Title</a>'
    path = write_json(tmp_path, [item(title=title, abstract="<script>alert(2)</script>[click](javascript:x)")])
    report = import_csl([path], empty.root)
    slug = report.papers[0].slug
    paper = load_catalog(empty.root).papers[0]
    assert plain_text(paper.title) == title  # no tag CSL knows: text
    assert plain_text(paper.abstract) == "<script>alert(2)</script>[click](javascript:x)"
    build(BuildOptions(content=empty.root, output=tmp_path / "site"))
    page = (tmp_path / "site" / "papers" / paper.venue / slug / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page or "&lt;script&gt;alert(&quot;x&quot;)" in page
    assert "<script>alert" not in page and "<img src=x" not in page and 'href="javascript' not in page


def test_deeply_nested_tags_and_long_text_are_quick(empty, tmp_path):
    # Guards against a quadratic reader (20,000 levels would take minutes), not a benchmark:
    # CPU time with a wide margin, so a loaded machine does not fail it.
    start = time.process_time()
    deep = "<i><b>" * 20_000 + "deep" + "</b></i>" * 20_000
    assert rich_text_to_content(deep, title=True) == "\\emph{\\textbf{deep}}"
    hostile = ("<" * 30_000 + "&" * 30_000 + "$" * 30_000 + "http://x.org/" * 3000)[:MAX_ABSTRACT]
    assert rich_text_to_content(hostile, title=False).startswith("\\textless{}" * 3)
    assert time.process_time() - start < 5
    path = write_json(tmp_path, [item(title="<i>" * 600 + "Deep", abstract=hostile[::10])])
    import_csl([path], empty.root)
    assert read(empty.root / "papers" / "deep.md")[0]["title"] == "\\emph{Deep}"


# --------------------------------------------------------------------------- the built site


def test_the_built_site_shows_the_imported_papers(empty, tmp_path):
    report = import_csl([ZOTERO, CROSSREF], empty.root)
    build(BuildOptions(content=empty.root, output=tmp_path / "site"))
    venue_of = {p.slug: p.venue for p in load_catalog(empty.root).papers}
    for paper in report.papers:
        page = (tmp_path / "site" / "papers" / venue_of[paper.slug] / paper.slug / "index.html").read_text(
            encoding="utf-8")
        assert render_title(paper.title) in page
    page = (tmp_path / "site" / "papers" / venue_of["tinygraph-scaling-graph-learning-down"]
            / "tinygraph-scaling-graph-learning-down" / "index.html").read_text(
        encoding="utf-8")
    assert "<em>TinyGraph</em>" in page and "<math" in page and "<sup>3</sup>" in page
    assert '<a href="https://github.com/example/tinygraph"' in page
    venue_page = (tmp_path / "site" / "venues" / "icml-2024" / "index.html").read_text(encoding="utf-8")
    assert "graph-neural-networks-for-bert-style-pre-training-a-godel-story" in venue_page


# --------------------------------------------------------------------------- markup


@pytest.mark.parametrize("source, expected", [
    ('A <span class="nocase">BERT</span> and <span style="font-variant:small-caps;">Caps</span>', "A BERT and Caps"),
    ("<i>x</i><b>y</b> H<sub>2</sub>O e<sup>x</sup>", "\\emph{x}\\textbf{y} H\\textsubscript{2}O e\\textsuperscript{x}"),
    ("<i> spaced </i>end", " \\emph{spaced} end".strip()),
    ("<i>nested <i>again</i></i> <b><i>both</i></b>", "\\emph{nested again} \\textbf{\\emph{both}}"),
    ("stray </i> and <b>unclosed", "stray and \\textbf{unclosed}"),
    ("Q&amp;A &lt;i&gt;not a tag&lt;/i&gt; &#233;&eacute; AT&T &copy", "Q&A \\textless{}i>not a tag\\textless{}/i> éé AT&T &copy"),
    ("<script>x</script> <p>para</p> <unknown>", "\\textless{}script>x\\textless{}/script> \\textless{}p>para\\textless{}/p> \\textless{}unknown>"),
    ("$K$-means in $O(n^2)$ for $5 or $ 6 $", "$K$-means in $O(n^2)$ for \\$5 or \\$ 6 \\$"),
    ("$$\\sum_i x_i$$ and 2$x$", "$$\\sum_i x_i$$ and 2\\$x\\$"),
    ("a_b *c* `d` ~e {f} \\1 ] h [i] it''s 100% #1 x^2", "a\\_b \\*c\\* \\`\\@d\\`\\@ \\textasciitilde{}e \\{f\\} "
     "\\textbackslash{}1 \\] h [i\\] it'\\@'s 100% #1 x^2"),  # no LaTeX in it: all shown as typed
    ("# not a heading", "\\# not a heading"),
    ("- not a list", "\\- not a list"),
    ("1. Introduction", "1\\. Introduction"),
    ("> no quote", "\\textgreater{} no quote"),
    ("see https://x.org/a_b.", "see https://x.org/a_b."),
    ("<https://x.org/a_b>", "\\textless{}https:/\\/x.org/a\\_b>"),
    ("x <mml:math><mml:mfrac><mml:mi>a</mml:mi><mml:mn>2</mml:mn></mml:mfrac></mml:math>", "x $\\frac{a}{2}$"),
    ('<mml:math alttext="\\alpha"><mml:mi>α</mml:mi></mml:math>2', "\\(\\alpha\\)2"),
    ("<jats:inline-formula><jats:tex-math>\\(a_1\\)</jats:tex-math></jats:inline-formula>", "$a_1$"),
    ("tabs\tand\nnew\u2028lines\x00\x07 \ud800", "tabs and new lines \ufffd"),
])
def test_rich_titles(source, expected):
    assert rich_text_to_content(source, title=True) == expected


def test_jats_abstracts_keep_paragraphs_sections_and_formulas():
    source = """<jats:sec><jats:title>Background</jats:title><jats:p>First
       paragraph.</jats:p></jats:sec><jats:sec><jats:title>Results</jats:title>
       <jats:list><jats:list-item><jats:p>- one</jats:p></jats:list-item></jats:list>
       <jats:disp-formula><jats:tex-math>E = mc^2</jats:tex-math></jats:disp-formula>
       <jats:p>With <mml:math><mml:semantics><mml:mi>x</mml:mi><mml:annotation encoding="application/x-tex">x^{2}
       </mml:annotation></mml:semantics></mml:math> and <jats:sc>Caps</jats:sc>.<jats:break/>Next</jats:p></jats:sec>"""
    assert rich_text_to_content(source, title=False).split("\n\n") == [
        "\\textbf{Background}", "First paragraph.", "\\textbf{Results}", "\\- one", "$$E = mc^2$$",
        "With $x^{2}$ and Caps.", "Next"]
    assert rich_text_to_content("<jats:p>One</jats:p><jats:p>Two</jats:p>", title=True) == "One Two"
    assert rich_text_to_content("<p>One</p>", title=True) == "\\textless{}p>One\\textless{}/p>"  # CSL: text


def test_plain_abstracts_split_at_sentence_ends():
    assert plain_to_content("A wrapped\nline. Then\n\nanother: \nlast\n", title=False).split("\n\n") == [
        "A wrapped line. Then", "another:", "last"]
    assert plain_to_content("We get $O(n\n\\log n)$ time.\nNext $5.", title=False).split("\n\n") == [
        "We get $O(n \\log n)$ time.", "Next \\$5."]  # a formula broken over lines is one formula
    assert plain_to_content("<i>not a tag</i> &amp;", title=True) == "\\textless{}i>not a tag\\textless{}/i> \\&amp;"


def _texts(pieces: list[str], size: int):
    return st.lists(st.sampled_from(pieces), max_size=size).map("".join)


_TYPED = _texts(list("ab1 \\{}*_`~[]<>&#%^'\"!|+=.():/@;,?é\n-") + ["''", "&amp;", "1. ", "{{", "{%"],
                24).filter(lambda s: "--" not in s)


@settings(max_examples=300, deadline=None)
@given(_TYPED)
def test_plain_text_shows_as_typed(text):
    """Anything typed (but ``--``, which prints as a dash, and ``$``) renders as those characters."""
    expected = " ".join(text.split())
    title = plain_to_content(text, title=True)
    assert html.unescape(render_title(title)) == expected
    assert " ".join(plain_text(title).split()) == expected or "\\" in text  # (plain text drops "\" before a word)
    body = render_abstract(plain_to_content(text.replace("\n", " "), title=False))
    assert html.unescape(re.sub(r"</?p>", "", body)).strip() == expected


@settings(max_examples=200, deadline=None)
@given(_texts(list("ab $\\{}^_<>&i/*\n") + ["<i>", "</i>", "<sup>", "</sup>", "$x$", "https://x.org/", "<p>"], 30))
def test_rich_text_always_renders_and_loads(text):
    """Whatever the input, the content text renders with no tag but those of its formatting and math."""
    for title in (True, False):
        content = rich_text_to_content(text, title=title)
        rendered = render_title(content) if title else render_abstract(content)
        tags = set(re.findall(r"</?([a-z]+)", re.sub(r"<math.*?</math>", "", rendered, flags=re.S)))
        assert tags <= {"em", "strong", "sup", "sub", "p", "a", "code", "div"}


def test_many_files_are_read_on_every_core_and_reported_in_file_order(empty, tmp_path, monkeypatch):
    from generator import parallel
    from generator.importers import records

    monkeypatch.setattr(parallel, "default_jobs", lambda units, minimum_units=2000: 2)  # as on a 2-core machine
    files = []
    for n in range(records.READ_IN_PARALLEL + 4):
        folder = tmp_path / f"f{n:02d}"
        folder.mkdir()
        files.append(write_json(folder, [item(id=f"k{n}", title=f"Paper {n}", type="book" if n % 7 == 0 else
                                              "paper-conference", DOI=f"not a doi {n}")]))
    report = import_csl(files, empty.root)
    assert [p.key for p in report.papers] == [f"k{n}" for n in range(len(files)) if n % 7]
    assert report.warnings == [f"{files[n]}:2 (k{n}): DOI 'not a doi {n}' is not a DOI (10.…/…); ignored"
                               for n in range(len(files)) if n % 7]
    assert report.skipped == [f"{files[n]}:2 (k{n}): book is a volume, not a paper" for n in range(0, len(files), 7)]
