"""Tracks and complete citations (issue 36), end to end: records shaped as the ACL Anthology's
(BibTeX and CSL-JSON exports: long, short, Findings, demo, student research workshop, industry),
PMLR's, CVF's, OpenReview's and arXiv's, imported with the command line into a catalog from
``papershelf new`` and built. Each paper is filed under its track of the conference; its badge,
BibTeX, RIS, Highwire tags and JSON-LD name the track's proceedings exactly, with pages, DOI,
editors, publisher and month; a venue page reads as a table of contents."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import main

pytestmark = pytest.mark.slow  # imports and builds a catalog (~5 CPU seconds, once for the module)

DATA = Path(__file__).parent / "data"
TRACKS = DATA / "tracks"
FINDINGS_ACL = "Findings of the Association for Computational Linguistics: ACL 2022"
ACL_LONG = ("Proceedings of the 60th Annual Meeting of the Association for Computational Linguistics "
            "(Volume 1: Long Papers)")
NAACL_INDUSTRY = ("Proceedings of the 2022 Conference of the North American Chapter of the Association for "
                  "Computational Linguistics: Human Language Technologies: Industry Track")


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def shelf(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    """(content, site, the import commands' output by format) of a catalog from ``new``."""
    root = tmp_path_factory.mktemp("tracks") / "cat"
    cli("new", str(root))
    content = root / "content"
    outputs = {
        "bibtex": cli("import", "bibtex", str(TRACKS / "anthology.bib"), str(TRACKS / "pmlr.bib"),
                      str(TRACKS / "cvf.bib"), "--content", str(content)),
        "csl": cli("import", "csl", str(TRACKS / "anthology-csl.json"), "--content", str(content)),
        "openreview": cli("import", "openreview", str(DATA / "openreview" / "iclr2024-submissions.json"),
                          str(TRACKS / "openreview-neurips.json"), "--content", str(content)),
        "arxiv": cli("import", "arxiv", str(DATA / "arxiv" / "feed.xml"), str(TRACKS / "arxiv-findings.xml"),
                     "--content", str(content)),
    }
    site = root / "site"
    outputs["build"] = cli("build", "--content", str(content), "--output", str(site), "--base-url",
                           "https://example.org/shelf/")
    return content, site, outputs


def front(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---\n", 2)[1])


def paper_file(content: Path, title_start: str) -> tuple[str, dict]:
    for path in sorted((content / "papers").glob("*.md")):
        data = front(path)
        if data["title"].startswith(title_start):
            return path.stem, data
    raise AssertionError(f"no paper {title_start!r}")


def page(site: Path, content: Path, title_start: str) -> str:
    slug, data = paper_file(content, title_start)
    return (site / "papers" / data["venue"] / slug / "index.html").read_text(encoding="utf-8")


def metas(text: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, value in re.findall(r'<meta name="(citation_[a-z_]+)" content="([^"]*)">', text):
        found.setdefault(name, []).append(html.unescape(value))
    return found


def json_ld(text: str) -> dict:
    raw = re.search(r'<script type="application/ld\+json">(.*?)</script>', text, re.S).group(1)
    return json.loads(raw)


def bibtex_of(text: str) -> str:
    return html.unescape(re.search(r'<pre class="cite-text" id="cite-bibtex"[^>]*><code>(.*?)</code>', text,
                                   re.S).group(1))


def test_each_paper_is_filed_under_its_track_of_the_conference(shelf):
    content, _, outputs = shelf
    venues = {p.stem for p in (content / "venues").glob("*.md")}
    assert {"acl-2022", "naacl-2022", "icml-2023", "cvpr-2023"} <= venues
    assert not any(v.startswith("findings-") for v in venues)  # Findings: a track, not a venue named "findings-…"
    tracks = {front(p)["title"]: (front(p)["venue"], front(p).get("track")) for p in (content / "papers").glob("*.md")}
    assert tracks["Does BERT Know ThingTalk? Probing a Few-Shot Semantic Parser for Wizard-of-Oz Dialogues"] == \
        ("acl-2022", "findings")
    assert tracks["Zebra Parsing of Long Sentences"] == ("acl-2022", "long")
    assert tracks["A Short Note on Tokens"] == ("acl-2022", "short")
    assert tracks["ToolKit: A Demonstration"] == ("acl-2022", "demo")
    assert tracks["Student Work on Morphology"] == ("acl-2022", "srw")
    assert tracks["Serving Language Models in Production"] == ("naacl-2022", "industry")
    assert tracks["Findings Paper Filed by Its Id"] == ("naacl-2022", "findings")
    assert tracks["Second in the Volume"] == ("icml-2023", None)  # PMLR, CVF: the main conference
    assert tracks["A Benchmark of Benchmarks"] == ("neurips-2023", "datasets")  # OpenReview's track
    assert tracks["A Main Track Paper"] == ("neurips-2023", None)
    assert tracks["Zero-Shot Segmentation with CLIP"] == ("cvpr-2023", None)
    # The venue file names each track's proceedings as the records do.
    acl = {t["id"]: t for t in front(content / "venues" / "acl-2022.md")["tracks"]}
    assert list(acl) == ["long", "short", "findings", "demo", "srw"]
    assert acl["findings"]["proceedings"] == FINDINGS_ACL and acl["long"]["proceedings"] == ACL_LONG
    naacl = {t["id"]: t for t in front(content / "venues" / "naacl-2022.md")["tracks"]}
    assert naacl["industry"]["proceedings"] == NAACL_INDUSTRY
    # An unreadable page range is left out with a warning naming the record and the field.
    assert "(bad-pages): pages 'see the PDF' is not a readable page range; left out" in outputs["csl"]
    assert "pages" not in paper_file(content, "A Record with Unreadable Pages")[1]


def test_citation_fields_are_imported_where_the_records_have_them(shelf):
    content, _, _ = shelf
    _, findings = paper_file(content, "Does BERT Know")
    assert findings["pages"] == "1149–1162" and findings["month"] == 5
    assert findings["editors"] == ["Smaranda Muresan", "Preslav Nakov", "Aline Villavicencio"]
    assert findings["publisher"] == "Association for Computational Linguistics"
    assert findings["links"]["doi"] == "https://doi.org/10.18653/v1/2022.findings-acl.91"
    _, pmlr = paper_file(content, "Second in the Volume")
    assert (pmlr["pages"], pmlr["month"], pmlr["publisher"]) == ("31000–31015", 7, "PMLR")
    assert pmlr["editors"] == ["Andreas Krause", "Emma Brunskill", "Kyunghyun Cho"]
    _, arxiv = paper_file(content, "Findings from arXiv")  # its journal_ref names Findings and pages
    assert (arxiv["venue"], arxiv["track"], arxiv["pages"]) == ("acl-2022", "findings", "600–610")
    assert arxiv["links"]["doi"] == "https://doi.org/10.18653/v1/2022.findings-acl.50"
    _, industry = paper_file(content, "Serving Language Models")
    assert (industry["pages"], industry["month"]) == ("27–35", 7)


def test_a_findings_paper_is_never_badged_or_cited_as_the_main_conference(shelf):
    content, site, _ = shelf
    text = page(site, content, "Does BERT Know")
    assert re.search(r'class="badge badge-venue" href="/shelf/venues/acl-2022/">ACL 2022 Findings</a>', text)
    tags = metas(text)
    assert tags["citation_conference_title"] == [FINDINGS_ACL]
    assert tags["citation_doi"] == ["10.18653/v1/2022.findings-acl.91"]
    assert (tags["citation_firstpage"], tags["citation_lastpage"]) == (["1149"], ["1162"])
    assert tags["citation_publisher"] == ["Association for Computational Linguistics"]
    assert tags["citation_editor"] == ["Smaranda Muresan", "Preslav Nakov", "Aline Villavicencio"]
    assert tags["citation_publication_date"] == ["2022/05"]
    data = json_ld(text)
    assert data["publication"]["name"] == FINDINGS_ACL and data["pagination"] == "1149–1162"
    assert data["publisher"]["name"] == "Association for Computational Linguistics"
    bib = bibtex_of(text)
    assert f"booktitle = {{{FINDINGS_ACL}}}" in bib
    assert "Proceedings of the 60th" not in bib
    for line in ("pages = {1149--1162}", "doi = {10.18653/v1/2022.findings-acl.91}", "month = {May}",
                 "editor = {Smaranda Muresan and Preslav Nakov and Aline Villavicencio}",
                 "publisher = {Association for Computational Linguistics}", "address = {Dublin, Ireland}"):
        assert line in bib, line
    # Only the capitals that must stay are protected (as the Anthology does), not whole phrases.
    assert "title = {Does {BERT} Know {T}hing{T}alk? Probing a Few-Shot Semantic Parser" in bib
    # Each track's own proceedings, everywhere.
    for title, badge, proceedings in (("Zebra Parsing", "ACL 2022", ACL_LONG),
                                      ("A Short Note", "ACL 2022 Short", ACL_LONG.replace("1: Long", "2: Short")),
                                      ("ToolKit", "ACL 2022 Demo", ACL_LONG.split(" (")[0] + ": System Demonstrations"),
                                      ("Serving Language", "NAACL 2022 Industry", NAACL_INDUSTRY)):
        text = page(site, content, title)
        assert f'">{badge}</a>' in text, title
        assert metas(text)["citation_conference_title"] == [proceedings], title
        assert f"booktitle = {{{proceedings}}}" in bibtex_of(text), title
        assert json_ld(text)["publication"]["name"] == proceedings


def test_an_openreview_track_is_badged_and_cited_as_the_track(shelf):
    content, site, _ = shelf
    text = page(site, content, "A Benchmark of Benchmarks")
    assert '">NeurIPS 2023 Datasets &amp; Benchmarks</a>' in text
    proceedings = "Advances in Neural Information Processing Systems 36 Datasets and Benchmarks Track"
    assert metas(text)["citation_conference_title"] == [proceedings]
    assert f"booktitle = {{{proceedings}}}" in bibtex_of(text)
    venue = (site / "venues" / "neurips-2023" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<h2 class="group-heading" id="[^"]+">([^<]+) <span', venue) == \
        ["Main Conference", "Datasets and Benchmarks Track"]


def test_the_venue_bibtex_and_the_yearly_export_cite_each_track(shelf):
    _, site, _ = shelf
    bib = (site / "venues" / "acl-2022" / "acl-2022.bib").read_text(encoding="utf-8")
    assert bib.count(f"booktitle = {{{FINDINGS_ACL}}}") == 3
    assert bib.count(f"booktitle = {{{ACL_LONG}}}") == 2


def test_a_venue_page_is_a_table_of_contents(shelf):
    _, site, _ = shelf
    text = (site / "venues" / "acl-2022" / "index.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h2 class="group-heading" id="[^"]+">([^<]+) <span', text)
    assert headings == ["Long Papers", "Short Papers", "Findings", "System Demonstrations",
                        "Student Research Workshop"]
    titles = [html.unescape(t) for t in re.findall(r"<h3><a [^>]*>(.*?)</a></h3>", text)]
    # In the proceedings' order (Anthology number: acl-long.3 before acl-long.75; findings-acl.12 before .91).
    assert titles == ["Alpha Parsing", "Zebra Parsing of Long Sentences", "A Short Note on Tokens",
                      "Early Findings on Retrieval", "Findings from arXiv",
                      "Does BERT Know ThingTalk? Probing a Few-Shot Semantic Parser for Wizard-of-Oz Dialogues",
                      "ToolKit: A Demonstration", "Student Work on Morphology"]
    assert "by track, in the proceedings&#39; order" in text or "by track, in the proceedings' order" in text
    assert f"<cite>{FINDINGS_ACL}</cite>" in text  # the header names each track's proceedings
    # PMLR and CVF: by first page.
    icml = (site / "venues" / "icml-2023" / "index.html").read_text(encoding="utf-8")
    assert [html.unescape(t) for t in re.findall(r"<h3><a [^>]*>(.*?)</a></h3>", icml)] == \
        ["“Attention” Comes Later Here", "Second in the Volume"]
    cvpr = (site / "venues" / "cvpr-2023" / "index.html").read_text(encoding="utf-8")
    assert [html.unescape(t) for t in re.findall(r"<h3><a [^>]*>(.*?)</a></h3>", cvpr)] == \
        ["Zero-Shot Segmentation with CLIP", "Affine Everything"]


def test_venues_without_tracks_or_pages_list_by_title_as_before(shelf):
    _, site, _ = shelf
    text = (site / "venues" / "iclr-2024" / "index.html").read_text(encoding="utf-8")
    assert 'class="group-heading"' not in text and 'class="venue-tracks"' not in text


def test_importing_again_changes_nothing(shelf, tmp_path):
    content, _, _ = shelf
    copy = tmp_path / "content"
    shutil.copytree(content, copy)
    out = cli("import", "bibtex", str(TRACKS / "anthology.bib"), str(TRACKS / "pmlr.bib"), str(TRACKS / "cvf.bib"),
              "--content", str(copy))
    assert "11 papers from 3 BibTeX files: 0 created, 0 updated, 11 unchanged" in out
