"""The record core every non-seed importer shares (``generator.importers.records``): what it
decides for a format's records, whatever the format."""

from __future__ import annotations

import re

import pytest

from generator.errors import ContentError
from generator.importers.common import CREATED, UNCHANGED
from generator.importers.records import Format, Record, import_records
from generator.content.loader import MAX_FILE_BYTES
from generator.errors import Problems

from ..conftest import ContentDir

NOTES = Format("Notes", noun="note", container="venue", container_field="venue")


@pytest.fixture
def content(tmp_path) -> ContentDir:
    content = ContentDir(tmp_path / "content")
    content.write("site.toml", 'title = "Imported"\nbase_url = "https://example.org/shelf/"\n')
    return content


def run(records, content, **kwargs):
    return import_records(records, content.root, NOTES.new_report(1), Problems(), NOTES, **kwargs)


def record(**fields) -> Record:
    base = dict(file="in.json", line=3, key="n1", title="A Paper on Graphs", authors=["Ada Lovelace"],
                abstract="We study graph neural networks.", container="TEST 2024", year=2024)
    base.update(fields)
    return Record(**base)


def test_links_are_checked_sorted_and_never_point_into_the_own_site(content):
    report = run([record(links=[
        ("venue_page", "https://example.org/shelf/papers/x/", "url"),  # this catalog's own page
        ("pdf", "ftp://example.com/x.pdf", "pdf"),
        ("arxiv", "https://arxiv.org/abs/2305.18436", "eprint"),
        ("arxiv", "https://arxiv.org/abs/9999.99999", "url"),
        ("pdf", "https://arxiv.org/pdf/2305.18436", "pdf"),
    ])], content)
    text = (content.root / "papers" / f"{report.papers[0].slug}.md").read_text(encoding="utf-8")
    assert "example.org/shelf" not in text
    assert text.index("pdf: https://arxiv.org/pdf/2305.18436") < text.index("arxiv: https://arxiv.org/abs/2305.18436")
    assert any("ftp://example.com/x.pdf" in w and "not an http(s) URL" in w for w in report.warnings)
    assert any("9999.99999" in w and "already has a arxiv link" in w for w in report.warnings)


def test_the_venue_comes_from_the_container_and_missing_ones_are_named_in_the_formats_terms(content):
    report = run([record()], content)
    assert report.papers[0].status == CREATED and report.venues_existing == ["test-2024"]
    assert run([record()], content).papers[0].status == UNCHANGED
    with pytest.raises(ContentError) as failure:
        run([record(key="a", container=None), record(key="b", container="Somewhere", year=None, hint=" (x)")], content)
    messages = [(p.file, p.line, p.field, p.message) for p in failure.value.problems]
    assert ("in.json", 3, "venue", "note 'a' has no venue to take the venue from; pass --venue ID") in messages
    assert ("in.json", 3, "year", "note 'b' has no year (x); add one or pass --venue ID") in messages


def test_a_record_too_large_for_the_build_is_refused_and_nothing_is_written(content):
    before = sorted(p.name for p in (content.root / "papers").iterdir())
    with pytest.raises(ContentError) as failure:
        run([record(key="ok", title="Fine"), record(key="big", abstract="word " * (MAX_FILE_BYTES // 5))], content)
    assert any("the build reads at most" in p.message for p in failure.value.problems)
    assert sorted(p.name for p in (content.root / "papers").iterdir()) == before


def test_skipped_records_are_counted_in_the_formats_words():
    report = NOTES.new_report(1)
    report.skipped += ["#1 a: withdrawn", "#2 b: rejected"]
    assert "Skipped 2 notes that are not papers:" in report.summary()
    report.skipped = report.skipped[:1]
    assert "Skipped 1 note that is not a paper:" in report.summary()
    assert report.summary().startswith("Imported 0 papers from 1 Notes file:")


@pytest.mark.parametrize("container, venue", [
    ("ICML 2024", "icml-2024"),
    ("Proceedings of the 41st International Conference on Machine Learning", "icml-2024"),
    ("ICML 2024 Workshop on Structured Probabilistic Inference", "icml-2024-workshop-on-structured-probabilistic-inference"),
    ("Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR) Workshops",
     "cvpr-2024-workshops"),
    ("2024 IEEE International Conference on Machine Learning and Applications (ICMLA)",
     "2024-ieee-international-conference-on-machine-learning-and-applications-icmla"),
])
def test_a_workshop_or_findings_volume_is_not_the_main_conference(content, container, venue):
    report = run([record(container=container)], content)
    assert (report.venues_created + report.venues_existing) == [venue]


@pytest.mark.parametrize("container, venue", [
    ("Findings of the Association for Computational Linguistics: ACL 2024", "acl-2024"),
    ("Findings of EMNLP 2020", "emnlp-2024"),  # the record's year decides
])
def test_a_findings_volume_is_the_findings_track_of_the_conference(content, container, venue):
    """Issue 36: a paper of Findings is filed under the conference's Findings track, and the
    venue file names the track's proceedings as the record does."""
    report = run([record(container=container)], content)
    assert (report.venues_created + report.venues_existing) == [venue]
    paper = (content.root / "papers" / f"{report.papers[0].slug}.md").read_text(encoding="utf-8")
    assert "\ntrack: findings\n" in paper
    venue_file = (content.root / "venues" / f"{venue}.md").read_text(encoding="utf-8")
    assert "- id: findings" in venue_file
    # A proceedings' title in full is noted as the track's; a mention ("Findings of EMNLP 2020") is not.
    assert (container in " ".join(venue_file.split())) == container.startswith("Findings of the Association")


def test_a_preprint_server_venue_says_preprints(content):
    report = run([record(container="arXiv", year=2023)], content)
    assert report.venues_created == ["arxiv-2023"]
    text = (content.root / "venues" / "arxiv-2023.md").read_text(encoding="utf-8")
    assert "Preprints posted on arXiv in 2023." in text and "presented at" not in text


def test_each_year_of_a_long_named_venue_is_a_venue_of_its_own(content):
    """A name too long for an id is cut before its year, never the year off the id: two years
    of a workshop are two venues (they were one, the second year's papers in the first's)."""
    long = ("Proceedings of the Workshop on Something Very Long About Machine Learning Applications in the Real "
            "World and Beyond")
    report = run([record(key="a", title="First", container=long, year=2023),
                  record(key="b", title="Second", container=long, year=2024),
                  record(key="c", title="Third", container=f"{long} 2024", year=2024)], content)
    ids = report.venues_created
    assert len(ids) == 2 and ids[0].endswith("-2023") and ids[1].endswith("-2024")
    assert all(len(vid) <= 80 for vid in ids)
    venues = [re.search(r"^venue: (.*)$", (content.root / "papers" / f"{r.slug}.md").read_text(encoding="utf-8"),
                        re.M).group(1) for r in report.papers]
    assert venues == [ids[0], ids[1], ids[1]]


@pytest.mark.parametrize("fields, venue, track", [
    # A CSL item whose event names the conference and whose container-title names the track.
    ({"container": "60th Annual Meeting of the Association for Computational Linguistics",
      "track_hints": ("Findings of the Association for Computational Linguistics: ACL 2022",)}, "acl-2022", "findings"),
    # The Anthology id decides, whatever the container says.
    ({"container": "ACL 2022", "links": [("venue_page", "https://aclanthology.org/2022.findings-acl.91", "URL")]},
     "acl-2022", "findings"),
    ({"container": "Some Workshop on Things", "links": [("doi", "https://doi.org/10.18653/v1/2022.acl-short.3",
                                                          "DOI")]}, "acl-2022", "short"),
    # A main volume of the conference: no track.
    ({"container": "Proceedings of the 2022 Conference of the North American Chapter of the Association for "
                   "Computational Linguistics: Human Language Technologies",
      "links": [("venue_page", "https://aclanthology.org/2022.naacl-main.10", "URL")]}, "naacl-2022", None),
    ({"container": "Proceedings of the 40th International Conference on Machine Learning"}, "icml-2023", None),
])
def test_the_track_comes_from_the_anthology_id_else_the_titles(content, fields, venue, track):
    report = run([record(year=2022 if "2023" not in venue else 2023, **fields)], content)
    assert (report.venues_created + report.venues_existing) == [venue]
    text = (content.root / "papers" / f"{report.papers[0].slug}.md").read_text(encoding="utf-8")
    assert (f"\ntrack: {track}\n" in text) if track else "\ntrack:" not in text


def test_a_catalog_with_a_findings_venue_keeps_filing_papers_there(content):
    content.write("venues/findings-acl-2022.md", "---\nname: Findings of ACL 2022\nfull_name: 'Findings of the "
                  "Association for Computational Linguistics: ACL 2022'\nyear: 2022\n---\n")
    report = run([record(container="Findings of the Association for Computational Linguistics: ACL 2022", year=2022,
                         links=[("venue_page", "https://aclanthology.org/2022.findings-acl.91", "URL")])], content)
    assert report.venues_existing == ["findings-acl-2022"] and not report.venues_created
    text = (content.root / "papers" / f"{report.papers[0].slug}.md").read_text(encoding="utf-8")
    assert "venue: findings-acl-2022\n" in text and "track:" not in text
