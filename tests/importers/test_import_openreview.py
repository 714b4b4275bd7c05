"""``import_openreview``: the notes of an OpenReview venue (API v1 and v2 JSON) to paper files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.build import BuildOptions, build
from generator.content.loader import load_catalog
from generator.errors import ContentError, Problems
from generator.importers.common import CREATED, KEPT_EDITED, UNCHANGED, UPDATED
from generator.importers.openreview import (
    OPENREVIEW,
    import_openreview,
    not_accepted,
    presentation_of,
    records_from_notes,
)

from .conftest import read, tree

DATA = Path(__file__).parent / "data" / "openreview"
ICLR2024 = DATA / "iclr2024-submissions.json"  # API v2: ?invitation=ICLR.cc/2024/Conference/-/Submission
ICLR2023 = DATA / "iclr2023-v1.json"  # API v1
FORUM = DATA / "neurips2023-forum.json"  # API v2: ?forum=aVh9KRZdRk, a submission and its replies
TMLR = DATA / "tmlr-note.json"  # one note on its own
ALL = [ICLR2024, ICLR2023, FORUM, TMLR]




def note(id: str = "aBcDeFgHiJ", **content) -> dict:
    """An API v2 note: ``content`` values wrapped in ``{"value": …}``."""
    fields = {"title": "A Paper", "authors": ["Ada Lovelace"], "venue": "ICLR 2024 poster",
              "venueid": "ICLR.cc/2024/Conference", **content}
    return {"id": id, "forum": id, "content": {k: {"value": v} for k, v in fields.items() if v is not None}}


def write_json(folder: Path, name: str, data: object) -> Path:
    path = folder / name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path



# --------------------------------------------------------------------------- mapping


def test_api_v2_notes_map_every_field_and_only_accepted_papers_are_imported(empty):
    report = import_openreview([ICLR2024], empty.root)
    assert [p.status for p in report.papers] == [CREATED] * 3
    assert [p.key for p in report.papers] == ["#1 Xk9rT2bLqA", "#2 pQ3zW8nVcE", "#3 Lm5sY7uKdR"]
    assert report.venues_created == ["iclr-2024"]
    catalog = load_catalog(empty.root)
    papers = {p.slug: p for p in catalog.papers}
    assert sorted(papers) == ["adaptive-step-sizes-for-stochastic-gradient-descent",
                              "graph-neural-networks-meet-k-means-clustering-at-scale",
                              "learning-to-rank-with-transformers"]

    oral = papers["graph-neural-networks-meet-k-means-clustering-at-scale"]
    assert oral.title == "Graph Neural Networks Meet $k$-Means: Clustering at Scale"  # whitespace collapsed
    assert oral.authors == ("Ada Lovelace", "José García", "Grace Hopper")
    assert oral.venue == "iclr-2024" and oral.presentation == "oral"
    assert oral.tags == ("graph-learning",)  # the keyword "Graph learning" names the tag
    assert [(link.kind, link.url) for link in oral.links] == [
        ("pdf", "https://openreview.net/pdf?id=Xk9rT2bLqA"),
        ("openreview", "https://openreview.net/forum?id=Xk9rT2bLqA"),
        ("code", "https://github.com/ada/gnn-kmeans"),
    ]
    # Markdown and LaTeX kept; CRLF, trailing spaces and runs of blank lines normalised.
    assert oral.abstract == (
        "Clustering large graphs is hard.  We show that a graph neural network trained with a $k$-means objective\n"
        "reaches $\\mathcal{O}(n \\log n)$ time.\n\nOur contributions:\n\n"
        "* a **new** loss, $L = \\sum_i \\|x_i - \\mu_{c(i)}\\|^2$;\n* experiments on 12 benchmarks.")

    spotlight = papers["adaptive-step-sizes-for-stochastic-gradient-descent"]
    assert (spotlight.presentation, spotlight.tags) == ("spotlight", ("optimization",))
    poster = papers["learning-to-rank-with-transformers"]
    assert (poster.presentation, poster.authors) == ("poster", ("Hedy Lamarr",))
    venue = catalog.venues["iclr-2024"]
    assert (venue.name, venue.full_name, venue.year) == (
        "ICLR 2024", "The 12th International Conference on Learning Representations", 2024)

    assert report.skipped == [
        f"{ICLR2024}:331 (#4 Rj8eN4wHtB): rejected (venue 'Submitted to ICLR 2024', venueid "
        "'ICLR.cc/2024/Conference/Rejected_Submission'); not a paper of the venue",
        f"{ICLR2024}:418 (#5 Wd2fB6gMxZ): withdrawn (venue 'ICLR 2024 Conference Withdrawn Submission', venueid "
        "'ICLR.cc/2024/Conference/Withdrawn_Submission'); not a paper of the venue",
        f"{ICLR2024}:501 (#6 Dk7cV1pQsY): desk rejected (venue 'ICLR 2024 Conference Desk Rejected Submission', "
        "venueid 'ICLR.cc/2024/Conference/Desk_Rejected_Submission'); not a paper of the venue",
    ]
    assert report.warnings == []
    assert "Imported 3 papers from 1 OpenReview file: 3 created" in report.summary()


def test_api_v1_notes_and_iclr_2023_notable_decisions(empty):
    report = import_openreview([ICLR2023], empty.root)
    papers = {p.slug: p for p in load_catalog(empty.root).papers}
    assert {slug: p.presentation for slug, p in papers.items()} == {
        "flowing-matches-for-generative-modelling": "oral",  # notable top 5%
        "sparse-attention-in-linear-time": "spotlight",  # notable top 25%
        "gradient-descent-on-manifolds": "poster",
    }
    first = papers["flowing-matches-for-generative-modelling"]
    assert first.authors == ("Kurt Gödel", "Ludwig van der Berg") and first.venue == "iclr-2023"
    assert dict((link.kind, link.url) for link in first.links) == {
        "pdf": "https://openreview.net/pdf?id=PqvMRDCJT9t", "openreview": "https://openreview.net/forum?id=PqvMRDCJT9t"}
    assert papers["gradient-descent-on-manifolds"].tags == ("optimization",)
    assert len(report.skipped) == 1 and "(#4 B1ymVPUOL9): not accepted" in report.skipped[0]
    assert "'Submitted to ICLR 2023'" in report.skipped[0]


def test_a_forum_response_imports_the_submission_and_counts_its_replies(empty):
    report = import_openreview([FORUM], empty.root)
    assert [p.slug for p in report.papers] == ["modular-arithmetic-teaches-in-context-learning"]
    fm, body = read(empty.root / "papers" / "modular-arithmetic-teaches-in-context-learning.md")
    assert (fm["venue"], fm["presentation"]) == ("neurips-2023", "spotlight")
    assert body == "Large language models solve tasks they were not trained on. We study why."
    assert report.skipped == [
        f"{FORUM}: 4 replies in forums (Decision, Official_Comment, Official_Review ×2): not papers"]


def test_one_note_on_its_own_and_a_bare_array(empty, tmp_path):
    report = import_openreview([TMLR], empty.root)
    fm, _ = read(empty.root / "papers" / "journal-length-results-on-kernels.md")
    assert fm["venue"] == "tmlr-2024"  # "Accepted by TMLR", year from pdate (2024-03-06)
    assert "presentation" not in fm and report.venues_created == ["tmlr-2024"]
    bare = write_json(tmp_path, "bare.json", [note("k1", title="First"), note("k2", title="Second")])
    assert [p.slug for p in import_openreview([bare], empty.root).papers] == ["first", "second"]


@pytest.mark.parametrize("venue, expected", [
    ("ICLR 2024 oral", "oral"), ("ICLR 2024 spotlight", "spotlight"), ("ICLR 2025 Poster", "poster"),
    ("ICLR 2023 notable top 5%", "oral"), ("ICLR 2023 notable top 25%", "spotlight"),
    ("Accept (Oral)", "oral"), ("ICML 2025 spotlightposter", "spotlight"),
    ("NeurIPS 2022 Accept", None), ("Accepted by TMLR", None), (None, None),
])
def test_presentation_is_the_venue_strings_last_word(venue, expected):
    assert presentation_of(venue) == expected


@pytest.mark.parametrize("venue, venueid, expected", [
    ("ICLR 2024 oral", "ICLR.cc/2024/Conference", None),
    ("Accepted by TMLR", "TMLR", None),
    (None, None, None),
    ("Submitted to ICLR 2024", "ICLR.cc/2024/Conference/Rejected_Submission", "rejected"),
    ("ICLR 2022 Submitted", "ICLR.cc/2022/Conference", "not accepted (a submission: under review, or rejected)"),
    (None, "ICLR.cc/2025/Conference/Submission", "not accepted (a submission: under review, or rejected)"),
    ("ICLR 2024 Conference Withdrawn Submission", None, "withdrawn"),
    (None, "ICLR.cc/2024/Conference/Desk_Rejected_Submission", "desk rejected"),
    (None, "TMLR/Rejected", "rejected"),
])
def test_the_decision_is_read_off_venueid_and_venue(venue, venueid, expected):
    assert not_accepted(venue, venueid) == expected


@pytest.mark.parametrize("content, container, year", [
    ({"venue": "ICLR 2024 oral"}, "ICLR 2024", 2024),
    ({"venue": None}, "ICLR", 2024),  # from the venueid
    ({"venue": None, "venueid": "colmweb.org/COLM/2024/Conference"}, "COLM", 2024),
    ({"venue": "NeurIPS 2023 Datasets and Benchmarks Poster", "venueid": "NeurIPS.cc/2023/Track/Datasets_and_Benchmarks"},
     "NeurIPS 2023 Datasets and Benchmarks", 2023),
    ({"venue": "Proceedings of the 2024 Conference on Robot Learning", "venueid": None},
     "2024 Conference on Robot Learning", 2024),
    ({"venue": "Accepted by TMLR", "venueid": "TMLR"}, "TMLR", None),  # no pdate: no year
])
def test_container_and_year(content, container, year):
    problems, warnings = Problems(), []
    [record] = records_from_notes(note(**content), "x.json", problems, warnings)
    assert (record.container, record.year) == (container, year) and not problems


def test_venue_option_and_notes_without_a_venue(content, tmp_path):
    undecided = write_json(tmp_path, "undecided.json", {"notes": [note(venue=None, venueid=None)], "count": 1})
    with pytest.raises(ContentError) as caught:
        import_openreview([undecided], content.root)
    assert [str(p) for p in caught.value.problems] == [
        f"{undecided}:4: venue: note '#1 aBcDeFgHiJ' has no venue or venueid to take the venue from; pass --venue ID"]
    report = import_openreview([undecided, ICLR2024], content.root, venue="test-2024")
    assert {read(content.root / "papers" / f"{p.slug}.md")[0]["venue"] for p in report.papers} == {"test-2024"}
    assert len(report.skipped) == 3  # --venue does not make rejected submissions papers


@pytest.mark.parametrize("fields, links", [
    ({"pdf": "https://arxiv.org/abs/2401.01234"}, [("arxiv", "https://arxiv.org/abs/2401.01234")]),
    ({"pdf": "https://example.org/paper.pdf", "html": "https://doi.org/10.5555/1"},
     [("pdf", "https://example.org/paper.pdf"), ("doi", "https://doi.org/10.5555/1")]),
    ({"pdf": "/attachment/abc.pdf"}, [("pdf", "https://openreview.net/attachment/abc.pdf")]),
])
def test_pdf_values_that_are_not_openreview_pdf_paths(fields, links):
    problems, warnings = Problems(), []
    [record] = records_from_notes(note("linkNote01", **fields), "x.json", problems, warnings)
    assert [(kind, url) for kind, url, _ in record.links] == [
        ("openreview", "https://openreview.net/forum?id=linkNote01"), *links]


def test_years_deleted_notes_and_hidden_authors(empty, tmp_path):
    notes = [note("yearsDiff1", title="Years Differ", venue="ICLR 2023 poster"),
             note("hidden0001", title="Hidden Authors", authors=None),
             {**note("deleted001", title="Deleted"), "ddate": 1700000000000},
             note("noYear0001", title="No Year", venue="Accepted by TMLR", venueid="TMLR")]
    path = write_json(tmp_path, "years.json", notes)
    with pytest.raises(ContentError) as caught:
        import_openreview([path], empty.root)
    assert [p.message for p in caught.value.problems] == [
        "note '#4 noYear0001' has no year (in its venueid, venue or pdate); add one or pass --venue ID"]
    del notes[3]
    report = import_openreview([write_json(tmp_path, "years.json", notes)], empty.root)
    assert [read(empty.root / "papers" / f"{p.slug}.md")[0]["venue"] for p in report.papers] == ["iclr-2024"] * 2
    assert [w.split(": ", 1)[1] for w in report.warnings] == [
        "venue 'ICLR 2023 poster' says 2023, venueid 'ICLR.cc/2024/Conference' says 2024; the venueid's year is used",
        "has no authors (hidden?); imported without authors"]
    assert report.skipped == [f"{path}:38 (#3 deleted001): deleted (venue 'ICLR 2024 poster', venueid "
                              "'ICLR.cc/2024/Conference'); not a paper of the venue"]


# --------------------------------------------------------------------------- idempotence


def test_importing_twice_changes_nothing_and_edits_are_kept_unless_forced(empty):
    import_openreview(ALL, empty.root)
    before = tree(empty.root)
    again = import_openreview(ALL, empty.root)
    assert {p.status for p in again.papers} == {UNCHANGED} and len(again.papers) == 8
    assert tree(empty.root) == before
    assert sorted(again.venues_existing) == ["iclr-2023", "iclr-2024", "neurips-2023", "tmlr-2024"]
    edited = empty.root / "papers" / "learning-to-rank-with-transformers.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nA note added by hand.\n", encoding="utf-8")
    kept = import_openreview(ALL, empty.root)
    assert kept.statuses["learning-to-rank-with-transformers"] == KEPT_EDITED
    assert "A note added by hand." in edited.read_text(encoding="utf-8")
    forced = import_openreview(ALL, empty.root, force=True)
    assert forced.statuses["learning-to-rank-with-transformers"] == UPDATED
    assert tree(empty.root) == before


def test_the_same_paper_in_two_files_is_imported_once(empty, tmp_path):
    single = write_json(tmp_path, "one.json", {"notes": [json.loads(ICLR2024.read_text())["notes"][2]]})
    report = import_openreview([ICLR2024, single], empty.root)
    assert len(report.papers) == 3 and len(report.repairs.skipped) == 1
    assert report.repairs.skipped[0].startswith(f"{single}:")


# --------------------------------------------------------------------------- refused input


def test_wrong_types_are_problems_naming_file_note_line_and_field_and_nothing_is_written(empty, tmp_path):
    notes = [
        note("okNote0001"),
        note("badTypes01", title=["A", "list"], authors="Ada Lovelace", keywords=[1, "ok"], abstract=5),
        {"id": 42, "content": {}},
        "not a note",
        note("noTitle001", title="   "),
        {"id": "noContent1", "forum": "noContent1", "content": "oops"},
        note("bad id!"),
    ]
    path = write_json(tmp_path, "bad.json", {"notes": notes, "count": 7})
    before = tree(empty.root)
    with pytest.raises(ContentError) as caught:
        import_openreview([ICLR2024, path], empty.root)
    assert [str(p) for p in caught.value.problems] == [
        f"{path}: note '#4': expected a note (a JSON object), found text",
        f"{path}: id: note '#3': expected text, found a number",
        f"{path}: id: note '#7': 'bad id!' is not an OpenReview id (letters, digits, '-' and '_')",
        f"{path}:24: content.abstract: note '#2 badTypes01': expected text, found a number",
        f"{path}:24: content.keywords[0]: note '#2 badTypes01': expected a keyword, found a number",
        f"{path}:24: content.title: note '#2 badTypes01': expected text, found an array",
        f"{path}:59: content.title: note '#5 noTitle001': has no title",
        f"{path}:79: content: note '#6 noContent1': expected an object of fields, found text",
    ]
    assert tree(empty.root) == before


@pytest.mark.parametrize("raw, message, line", [
    (b'{"notes": [\n  {"id": "a",}\n]}', "invalid JSON: Expecting property name enclosed in double quotes "
                                       "(column 14)", 2),
    (b"", "the file is empty", None),
    (b'{"notes": [\xff]}', "not UTF-8 text (byte 0xff)", 1),
    (b"\xff\xfe{\x00}\x00", "is UTF-16 text", None),
    (b"[" * 100_000 + b"]" * 100_000, "invalid JSON: nested too deeply", None),
    (b'{"notes": [], "count": 0}', "holds no notes", None),
    (b'{"notes": {"id": "x"}}', "expected an array of notes, found an object", None),
    (b'"notes"', "expected the JSON of OpenReview notes", None),
    (b'{"name": "ForbiddenError", "message": "Forbidden", "status": 403}',
     "is an OpenReview error response ('ForbiddenError': 'Forbidden')", None),
    (b'{"nodes": []}', "found an object with keys 'nodes'", None),
    (b'{"notes": [{"id": "x", "content": {"title": 1' + b"1" * 5000 + b"}}]}", "invalid JSON: Exceeds the limit",
     None),
])
def test_unreadable_files_are_refused(empty, tmp_path, raw, message, line):
    path = tmp_path / "in.json"
    path.write_bytes(raw)
    with pytest.raises(ContentError) as caught:
        import_openreview([path], empty.root)
    [problem] = caught.value.problems
    assert problem.file == str(path) and message in problem.message and problem.line == line
    assert not list((empty.root / "papers").iterdir())


def test_missing_files_folders_and_unknown_venues(empty, tmp_path):
    for paths, message in [([tmp_path / "missing.json"], "OpenReview file not found"),
                           ([tmp_path], "is a folder"), ([], "no OpenReview files given")]:
        with pytest.raises(ContentError, match=message):
            import_openreview(paths, empty.root)
    with pytest.raises(ContentError, match="unknown venue 'nowhere'"):
        import_openreview([ICLR2024], empty.root, venue="nowhere")


def test_hostile_values_are_refused(empty, tmp_path):
    notes = [
        note("huge000001", title="T" * 1_001),
        note("huge000002", abstract="word " * 120_000),
        note("nul0000001", title="A\u0000B"),
        note("surrogate1", abstract="broken \ud83d emoji"),
        note("manyauth01", authors=["A B"] * 1_001),
        note("bigvenue01", venue="V" * 501),
    ]
    path = write_json(tmp_path, "hostile.json", notes)
    with pytest.raises(ContentError) as caught:
        import_openreview([path], empty.root)
    messages = [f"{p.field}: {p.message}" for p in caught.value.problems]
    assert messages == [
        "content.title: note '#1 huge000001': is too long (1,001 characters; at most 1,000)",
        "content.abstract: note '#2 huge000002': is too long (600,000 characters; at most 500,000)",
        "content.title: note '#3 nul0000001': contains U+0000 (a NUL character); remove it",
        "content.abstract: note '#4 surrogate1': contains U+D83D (a lone surrogate); remove it",
        "content.authors: note '#5 manyauth01': has too many items (1,001; at most 1,000)",
        "content.venue: note '#6 bigvenue01': is too long (501 characters; at most 500)",
    ]
    assert not list((empty.root / "papers").iterdir())


def test_odd_but_harmless_values_are_cleaned_or_left_out_with_warnings(empty, tmp_path):
    odd = note("oddNote001", title="Tab\tand\u2028break", authors=["Ada  Lovelace", "", "Ada Lovelace"],
               abstract="Line\r\n\x0bwith a vertical tab\u2029next", pdf="javascript:alert(1)",
               code="ftp://example.org/code", keywords="optimization; other")
    report = import_openreview([write_json(tmp_path, "odd.json", {"notes": [odd], "count": 3})], empty.root)
    fm, body = read(empty.root / "papers" / "tab-and-break.md")
    assert (fm["title"], fm["authors"], fm["tags"]) == ("Tab and break", ["Ada Lovelace"], ["optimization"])
    assert fm["links"] == {"openreview": "https://openreview.net/forum?id=oddNote001"}
    assert body == "Line\n with a vertical tab\nnext"
    assert any("holds 1 of the 3 notes" in w for w in report.warnings)
    assert any("content.pdf 'javascript:alert(1)' is not an http(s) URL; ignored" in w for w in report.warnings)
    assert any("content.code 'ftp://example.org/code' is not an http(s) URL" in w for w in report.warnings)
    assert report.repairs.names.counts == {"names listed twice": 1}


def test_an_imported_catalog_builds_and_shows_html_in_titles_as_text(empty, tmp_path):
    hostile = note("htmlTitle1", title="<script>alert(1)</script> & <b>Bold</b> Claims",
                   abstract="An <img src=x onerror=alert(1)> abstract with $x^2$.")
    path = write_json(tmp_path, "html.json", {"notes": [hostile]})
    import_openreview(ALL + [path], empty.root)
    out = tmp_path / "site"
    build(BuildOptions(content=empty.root, output=out))
    # Its own page: others may list it among their related papers.
    [page] = [p for p in (out / "papers").glob("*/*/index.html")
              if "Claims" in p.read_text(encoding="utf-8").partition("</title>")[0]]
    html = page.read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;Bold&lt;/b&gt; Claims" in html
    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert len(list((out / "papers").glob("*/*/index.html"))) == 9


def test_records_from_notes_reports_skips_as_warnings_without_a_skipped_list():
    problems, warnings = Problems(), []
    records = records_from_notes([note("a1", venue="Submitted to ICLR 2024")], "x.json", problems, warnings)
    assert records == [] and not problems
    assert warnings == ["x.json (#1 a1): not accepted (a submission: under review, or rejected) (venue "
                        "'Submitted to ICLR 2024', venueid 'ICLR.cc/2024/Conference'); not a paper of the venue"]
    assert OPENREVIEW.noun == "note" and OPENREVIEW.container_field == "venue"


def test_every_page_of_a_query_given_means_no_page_is_missing(empty, tmp_path):
    """The API's ``count`` is the query's total on every page: an import of all the pages of a
    venue says nothing is missing; one page short, it says so once, naming the pages given."""
    notes = [note(f"paper{i:05d}", title=f"Paper number {i}") for i in range(5)]
    pages = [write_json(tmp_path, f"page{k}.json", {"notes": notes[k * 2:k * 2 + 2], "count": 5}) for k in range(3)]
    report = import_openreview(pages, empty.root)
    assert len(report.papers) == 5
    assert not [w for w in report.warnings if "notes its query found" in w or "notes their query found" in w]
    other = tmp_path / "other"
    other.mkdir()
    short = [write_json(other, f"page{k}.json", {"notes": notes[k * 2:k * 2 + 2], "count": 5}) for k in range(2)]
    report = import_openreview(short, empty.root)
    assert [w for w in report.warnings if "query found" in w] == [
        f"{short[0]}, {short[1]}: hold 4 of the 5 notes their query found (count); fetch the others (offset=) "
        f"and import those files too"]


def test_an_author_list_given_as_one_long_name_is_split_not_refused(empty, tmp_path):
    """A DBLP-imported note may give a whole author list as one "name" of hundreds of characters:
    the import splits it (it used to refuse the whole import for one such note)."""
    people = [f"Author{chr(65 + i)} Family{chr(65 + i)}son" for i in range(20)]
    glued = ", ".join(people)
    assert len(glued) > 300
    path = write_json(tmp_path, "long.json", {"notes": [note("longNames1", authors=[glued])], "count": 1})
    report = import_openreview([path], empty.root)
    fm, _ = read(empty.root / "papers" / f"{report.papers[0].slug}.md")
    assert fm["authors"] == people
    assert report.repairs.names.counts["lists split"] == 1
