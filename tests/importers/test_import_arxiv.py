"""``import_arxiv``: arXiv API feeds (Atom) to paper files, read safely."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from generator.content.loader import load_catalog
from generator.errors import ContentError, Problems
from generator.importers.arxiv import (ARXIV_NS, ATOM_NS, XmlRefused, comment_venue, import_arxiv, journal_venue,
                                       parse_xml, records_from_atom)
from generator.importers.common import CREATED, KEPT_EDITED, UNCHANGED

from .conftest import read, tree

DATA = Path(__file__).parent / "data" / "arxiv"
FEED = DATA / "feed.xml"





def feed(*entries: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
            'xmlns:arxiv="http://arxiv.org/schemas/atom">\n' + "\n".join(entries) + "\n</feed>\n")


def entry(arxiv_id: str = "2401.00001v1", title: str = "A Paper", published: str = "2024-01-02T00:00:00Z",
          extra: str = "") -> str:
    return (f"  <entry>\n    <id>http://arxiv.org/abs/{arxiv_id}</id>\n    <published>{published}</published>\n"
            f"    <title>{title}</title>\n    <summary>About it.</summary>\n"
            f"    <author><name>Ada Lovelace</name></author>\n{extra}  </entry>")


def records(text: str | bytes, file: str = "q.xml"):
    problems, warnings = Problems(), []
    found = records_from_atom(text, file, problems, warnings)
    return found, [str(p) for p in problems.items], warnings


# --------------------------------------------------------------------------- mapping


def test_feed_becomes_papers_with_links_venues_and_paragraphs(empty):
    report = import_arxiv([FEED], empty.root)
    assert report.statuses == {
        "graph-neural-networks-meet-l-1-sparsity-provable-support-recovery": CREATED,
        "gradient-descent-in-the-string-landscape": CREATED,
        "a-tale-of-two-optimizers-adam-vs-sgd": CREATED,
        "scaling-laws-for-graph-transformers": CREATED,
    }
    assert sorted(report.venues_created) == ["arxiv-2024", "icml-2024", "neurips-2023", "phys-rev-d-2006"]
    assert "Imported 4 papers from 1 arXiv file" in report.summary()
    catalog = load_catalog(empty.root)  # what was written builds
    papers = {p.slug: p for p in catalog.papers}

    gnn = papers["graph-neural-networks-meet-l-1-sparsity-provable-support-recovery"]
    assert gnn.title == "Graph Neural Networks Meet $\\ell_1$ Sparsity: Provable Support Recovery"  # lines joined
    assert gnn.authors == ("Ada Lovelace", "Kurt Gödel", "José García")
    assert gnn.abstract.split("\n\n") == [  # an indented line starts a paragraph; wrapped lines are joined
        "We study graph neural networks under an $\\ell_1$ penalty and show that sparse message passing recovers "
        "the support with $O(\\log n)$ samples, a {\\em sharp} rate \u2013 up to constants.",
        "A second paragraph: 95% of the edges can be dropped; code is at https://github.com/example/l1-gnn.",
    ]
    assert gnn.venue == "neurips-2023" and gnn.presentation == "spotlight"  # "Accepted at NeurIPS 2023 (spotlight)"
    assert [(link.kind, link.url) for link in gnn.links] == [("pdf", "https://arxiv.org/pdf/2305.18436"),
                                                              ("arxiv", "https://arxiv.org/abs/2305.18436")]
    assert gnn.tags == ("graph-learning",)  # cs.LG names no tag: suggested from the text

    string = papers["gradient-descent-in-the-string-landscape"]  # an old-style id, a journal_ref and a DOI
    assert string.venue == "phys-rev-d-2006"
    assert [(link.kind, link.url) for link in string.links] == [
        ("pdf", "https://arxiv.org/pdf/hep-th/0601001"), ("arxiv", "https://arxiv.org/abs/hep-th/0601001"),
        ("doi", "https://doi.org/10.1103/PhysRevD.73.046001")]
    assert (catalog.venues["phys-rev-d-2006"].name, catalog.venues["phys-rev-d-2006"].year) == ("Phys. Rev. D 2006",
                                                                                              2006)

    preprint = papers["a-tale-of-two-optimizers-adam-vs-sgd"]  # "Submitted to ICML 2024": still a preprint
    assert preprint.title == "A Tale of Two Optimizers \u2013 Adam vs. SGD"
    assert preprint.venue == "arxiv-2024" and preprint.presentation is None
    assert catalog.venues["arxiv-2024"].name == "arXiv 2024"

    icml = papers["scaling-laws-for-graph-transformers"]  # journal_ref of PMLR, the presentation from the comment
    assert (icml.venue, icml.presentation) == ("icml-2024", "oral")


def test_categories_are_keywords_that_can_name_tags(empty):
    found, problems, _ = records(FEED.read_bytes())
    assert not problems
    assert [r.keywords for r in found] == ["cs.LG, stat.ML", "hep-th, gr-qc", "cs.LG, math.OC", "cs.LG"]  # no I.2.6
    empty.write("tags.toml", '[hep-th]\nname = "High-energy theory"\ndescription = "Strings."\nphrases = []\n\n'
                             '[other]\nname = "Other"\ndescription = "The rest."\nphrases = []\nfallback = true\n')
    import_arxiv([FEED], empty.root)
    fm, _ = read(empty.root / "papers" / "gradient-descent-in-the-string-landscape.md")
    assert fm["tags"] == ["hep-th"]


def test_the_published_year_dates_a_preprint_and_venue_option_overrides(empty):
    found, _, _ = records(feed(entry(published="2019-12-31T23:59:59Z")))
    assert (found[0].container, found[0].year) == ("arXiv", 2019)
    empty.write("venues/test-2024.md", "---\nname: TEST 2024\nfull_name: Test 2024\nyear: 2024\n---\n")
    report = import_arxiv([FEED], empty.root, venue="test-2024")
    assert report.venues_created == [] and report.venues_existing == ["test-2024"]
    assert {read(empty.root / "papers" / f"{slug}.md")[0]["venue"] for slug in report.statuses} == {"test-2024"}


@pytest.mark.parametrize("journal_ref, expected", [
    ("ICLR 2024", ("ICLR", 2024)),
    ("Proceedings of ICML 2024", ("Proceedings of ICML", 2024)),
    ("Phys. Rev. D 99, 123456 (2019)", ("Phys. Rev. D", 2019)),
    ("Nature 521, 436-444 (2015)", ("Nature", 2015)),
    ("J. Mach. Learn. Res. 24 (2023) 1-45", ("J. Mach. Learn. Res.", 2023)),
    ("Published in Transactions on Machine Learning Research (08/2023)",
     ("Transactions on Machine Learning Research", 2023)),
    ("NeurIPS 2023 (Oral)", ("NeurIPS", 2023)),
    ("NeurIPS'23", ("NeurIPS", 2023)),
    ("IEEE TPAMI, vol. 45, no. 3, pp. 2010-2020, 2023", ("IEEE TPAMI", 2023)),  # pages are not years
    ("Nature Physics 5, 123", ("Nature Physics", None)),
    ("2019", (None, 2019)),
    # shapes of real journal_refs: the proceedings' name with year and pages, "In: …"
    ("Proceedings of the 42nd International Conference on Machine Learning, 2025, pp. 1201-1212",
     ("Proceedings of the 42nd International Conference on Machine Learning", 2025)),
    ("In: CVPR 2019", ("CVPR", 2019)),
    ("Findings of EMNLP 2024", ("Findings of EMNLP", 2024)),
])
def test_journal_ref_names_a_venue_and_year(journal_ref, expected):
    assert journal_venue(journal_ref) == expected


@pytest.mark.parametrize("comment, expected", [
    ("Accepted at NeurIPS 2023 (oral). 9 pages", ("NeurIPS 2023", 2023, "oral")),
    ("ICLR'24 spotlight; code: https://github.com/x/y", ("ICLR 2024", 2024, "spotlight")),
    ("To appear in CVPR 2024. Project page: https://x.org", ("CVPR 2024", 2024, None)),
    ("camera-ready for nips 2017", ("NeurIPS 2017", 2017, None)),
    ("Submitted to NeurIPS 2023", (None, None, None)),
    ("Under review at ICLR 2024 (poster)", (None, None, None)),
    ("Accepted at the ICML 2023 Workshop on Graphs", (None, None, None)),  # not the main conference
    ("Accepted by IEEE Transactions on Foo", (None, None, None)),  # unknown venues are not trusted in free text
    ("12 pages, 5 figures", (None, None, None)),
    # a clause that starts with a known conference and its year names the venue
    ("AAAI 2015. Code: https://github.com/x/y", ("AAAI 2015", 2015, None)),
    ("ECCV 2020 (oral)", ("ECCV 2020", 2020, "oral")),
    ("Findings of ACL 2025. Code: https://github.com/x/y", ("Findings of ACL 2025", 2025, None)),
    ("Accepted at Findings of EMNLP 2024", ("Findings of EMNLP 2024", 2024, None)),
    ("Published as a conference paper at ICLR 2024", ("ICLR 2024", 2024, None)),
    ("CVPR 2024 Workshop on Foo", (None, None, None)),
    ("NeurIPS 2023 submission", (None, None, None)),
    ("Extends our NeurIPS 2022 paper", (None, None, None)),  # not said to be this paper's venue
])
def test_comment_names_a_venue_only_when_it_says_accepted(comment, expected):
    assert comment_venue(comment) == expected


def test_a_journal_ref_without_year_takes_the_published_year_with_a_warning():
    extra = "    <arxiv:journal_ref>Nature Physics 5, 123</arxiv:journal_ref>\n"
    found, problems, warnings = records(feed(entry(published="2021-03-04T00:00:00Z", extra=extra)))
    assert not problems and (found[0].container, found[0].year) == ("Nature Physics", 2021)
    assert warnings == ["q.xml:3 (2401.00001): arxiv:journal_ref 'Nature Physics 5, 123' names no year; the year "
                        "of the first arXiv version (2021) is used"]


def test_doi_and_non_arxiv_categories():
    extra = ('    <arxiv:doi>10.1000/a.b 10.1000/c</arxiv:doi>\n    <category term="68T05"/>\n'
             '    <arxiv:primary_category term="math.GT"/>\n    <category term="math.GT"/>\n')
    found, _, _ = records(feed(entry("math.GT/0309136v2", extra=extra)))
    assert found[0].key == "math.GT/0309136" and found[0].keywords == "math.GT"
    assert found[0].links[-1] == ("doi", "https://doi.org/10.1000/a.b", "arxiv:doi")


def test_import_twice_is_unchanged_and_edits_are_kept(empty):
    first = import_arxiv([FEED], empty.root)
    before = tree(empty.root)
    second = import_arxiv([FEED], empty.root)
    assert set(second.statuses.values()) == {UNCHANGED} and tree(empty.root) == before
    assert second.venues_created == [] and len(second.venues_existing) == 4
    edited = empty.root / "papers" / f"{first.papers[0].slug}.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nMy note.\n", encoding="utf-8")
    third = import_arxiv([FEED], empty.root)
    assert third.papers[0].status == KEPT_EDITED and "My note." in edited.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- refusals


def test_the_api_error_feed_is_a_problem_and_nothing_is_written(empty):
    before = tree(empty.root)
    with pytest.raises(ContentError) as caught:
        import_arxiv([FEED, DATA / "error.xml"], empty.root)
    assert [str(p) for p in caught.value.problems] == [
        f"{DATA / 'error.xml'}:10: id: the arXiv API answered with an error: incorrect id format for 2305.1843x"]
    assert tree(empty.root) == before


def test_an_empty_feed_is_a_warning(empty):
    report = import_arxiv([DATA / "empty.xml"], empty.root)
    assert report.papers == [] and report.warnings == [f"{DATA / 'empty.xml'}: the feed holds no entries"]


@pytest.mark.parametrize("name", ["laughs.xml", "external.xml"])
def test_hostile_xml_is_refused_without_expanding_anything(empty, name):
    before = tree(empty.root)
    start = time.process_time()  # CPU, not wall time: an expanded entity bomb takes minutes
    with pytest.raises(ContentError) as caught:
        import_arxiv([DATA / name], empty.root)
    assert time.process_time() - start < 5
    assert [str(p) for p in caught.value.problems] == [
        f"{DATA / name}:2: has a DOCTYPE declaration; DTDs and entities are refused (an arXiv feed has none)"]
    assert tree(empty.root) == before


@pytest.mark.parametrize("text, message", [
    ('<feed xmlns="http://www.w3.org/2005/Atom"><title>&lol9;</title></feed>',
     "q.xml:1: is not well-formed XML: undefined entity (column 50)"),
    ('<?xml version="1.0"?>\n<feed><entry>\n</feed>', "q.xml:3: is not well-formed XML: mismatched tag (column 3)"),
    ("", "q.xml:1: is not well-formed XML: no element found (column 1)"),
    ('<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
     "q.xml:1: is not an Atom feed (its root element is <html>); expected an answer of the arXiv API"),
    ("<a>" * 40 + "</a>" * 40, "q.xml:1: nests elements more than 32 deep"),
])
def test_what_is_not_an_atom_feed_is_refused_with_its_line(text, message):
    assert records(text)[1] == [message]


def test_size_limit_and_entities_are_checked_before_parsing():
    with pytest.raises(XmlRefused, match="too large"):
        parse_xml("<feed/>" + " " * 100, limit=50)
    root = parse_xml(b'<?xml version="1.0" encoding="ISO-8859-1"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
                     b'<title>Caf\xe9 &amp; &#233;</title></feed>')
    assert root.child_text(ATOM_NS, "title") == "Café & é"  # predefined and character references are fine
    assert root.find(ARXIV_NS, "doi") is None


def test_entries_without_an_arxiv_id_or_year_are_problems(empty):
    text = feed(entry("2401.00001v1"), "  <entry>\n    <id>urn:x</id>\n    <title>T</title>\n  </entry>",
                entry("2401.00002", title="Undated", published=""))
    path = empty.write("q.xml", text)
    with pytest.raises(ContentError) as caught:
        import_arxiv([path], empty.root)
    assert [(p.line, p.field, p.message) for p in caught.value.problems] == [
        (10, "id", "entry has no arXiv id (its id is 'urn:x')"),
        (14, "year", "entry '2401.00002' has no year (nor a published date); add one or pass --venue ID"),
    ]
    assert not list((empty.root / "papers").iterdir())


def test_missing_and_unreadable_files(empty):
    with pytest.raises(ContentError) as caught:
        import_arxiv([empty.root / "nope.xml", empty.root / "papers"], empty.root)
    assert sorted(p.message for p in caught.value.problems) == ["arXiv feed file not found", "is a folder, not a file"]
    with pytest.raises(ContentError, match="no arXiv feed files given"):
        import_arxiv([], empty.root)
