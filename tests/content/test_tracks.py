"""Tracks of a venue and a paper's citation fields in the content (issue 36): how ids and
proceedings titles name a track, what a venue file may declare, what a paper file may say,
and what the build refuses (an unknown track) or only warns about (an unreadable page range
or DOI)."""

from __future__ import annotations

import pytest

from generator.content.citation_fields import month, pages
from generator.content.loader import load_catalog
from generator.content.tracks import anthology_id, main_title, track_from_title, tracks_of
from generator.derive.contents import title_order_key
from generator.derive.views import derive
from generator.errors import ContentError

from ..conftest import ContentDir


@pytest.mark.parametrize("text, venue, track, number", [
    ("https://aclanthology.org/2022.findings-acl.91", "acl", "findings", 91),
    ("https://aclanthology.org/2022.findings-acl.91/", "acl", "findings", 91),
    ("https://doi.org/10.18653/v1/2022.acl-long.75", "acl", "long", 75),
    ("https://aclanthology.org/2022.acl-short.3.pdf", "acl", "short", 3),
    ("https://aclanthology.org/2022.naacl-industry.4", "naacl", "industry", 4),
    ("https://aclanthology.org/2022.acl-demo.1", "acl", "demo", 1),
    ("https://aclanthology.org/2022.acl-srw.2", "acl", "srw", 2),
    ("https://aclanthology.org/2021.naacl-main.10", "naacl", "main", 10),
    ("https://aclanthology.org/2022.tacl-1.5", "tacl", "journal", 5),
    ("https://aclanthology.org/2022.bionlp-1.5", "bionlp", None, 5),  # a workshop's volume: no track
    ("https://aclanthology.org/P19-1001/", "P", "long", 1),
    ("https://www.aclweb.org/anthology/N19-2012", "N", "short", 12),
])
def test_anthology_ids_name_the_track_and_the_place(text, venue, track, number):
    found = anthology_id(text)
    assert (found.venue, found.track, found.number) == (venue, track, number)


@pytest.mark.parametrize("text", ["https://arxiv.org/abs/2301.01234v2", "https://proceedings.mlr.press/v202/smith23a.html",
                                  "https://example.org/2022.acl-long", "P19-1001 in a sentence"])
def test_other_links_are_no_anthology_ids(text):
    assert anthology_id(text) is None


@pytest.mark.parametrize("title, track", [
    ("Findings of the Association for Computational Linguistics: ACL 2022", "findings"),
    ("Proceedings of the 60th Annual Meeting of the ACL (Volume 1: Long Papers)", "long"),
    ("Proceedings of the 60th Annual Meeting of the ACL (Volume 2: Short Papers)", "short"),
    ("Proceedings of the 60th Annual Meeting of the ACL: System Demonstrations", "demo"),
    ("Proceedings of NAACL 2022: Human Language Technologies: Industry Track", "industry"),
    ("Proceedings of the 60th Annual Meeting of the ACL: Student Research Workshop", "srw"),
    ("Proceedings of the 40th International Conference on Machine Learning", None),
    ("Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)", None),
])
def test_proceedings_titles_name_the_track(title, track):
    assert track_from_title(title) == track


def test_the_main_title_of_a_track_volume():
    assert main_title("Proceedings of the 60th Annual Meeting of the ACL (Volume 1: Long Papers)") == \
        "Proceedings of the 60th Annual Meeting of the ACL"
    assert main_title("Proceedings of the 2022 Conference of NAACL: Human Language Technologies: Industry Track") == \
        "Proceedings of the 2022 Conference of NAACL: Human Language Technologies"


def test_page_ranges_and_months_as_records_write_them():
    assert pages("1149--1162") == pages("1149-1162") == pages("1149 – 1162") == "1149–1162"
    assert (pages("e0123"), pages(12), pages("S12--S19"), pages("7--7")) == ("e0123", "12", "S12–S19", "7")
    assert pages("see the PDF") is None and pages("") is None and pages(True) is None
    assert (month("may"), month("Sep."), month(7), month("23--29 Jul"), month("7")) == (5, 9, 7, 7, 7)
    assert month("Jul--Aug") is None and month(13) is None


def venue_with_tracks(content: ContentDir) -> None:
    content.write("venues/acl-2022.md", "---\nname: ACL 2022\nfull_name: Proceedings of the 60th Annual Meeting of "
                  "the Association for Computational Linguistics\nyear: 2022\ntracks:\n- id: findings\n"
                  "  proceedings: 'Findings of the Association for Computational Linguistics: ACL 2022'\n"
                  "- id: theme\n  name: Theme Track\n  badge: Theme\n  proceedings: Theme Papers of ACL 2022\n---\n")


def test_a_venue_file_declares_its_tracks_and_the_standard_ones_need_no_declaration(content: ContentDir):
    venue_with_tracks(content)
    content.add_paper("f", title="In Findings", venue="acl-2022", extra="track: findings")
    content.add_paper("t", title="In the Theme Track", venue="acl-2022", extra="track: theme")
    content.add_paper("s", title="A Short One", venue="acl-2022", extra="track: short")
    content.add_paper("m", title="A Main One", venue="acl-2022")
    catalog = load_catalog(content.root)
    tracks = tracks_of(catalog.venues["acl-2022"])
    assert list(tracks)[:2] == ["findings", "theme"] and tracks["theme"].name == "Theme Track"
    assert tracks["short"].proceedings == ("Proceedings of the 60th Annual Meeting of the Association for "
                                           "Computational Linguistics (Volume 2: Short Papers)")
    site = derive(catalog)
    badges = {v.title_plain: (v.venue.name, v.venue.full_name) for v in site.papers if v.venue.id == "acl-2022"}
    assert badges["In Findings"] == ("ACL 2022 Findings", "Findings of the Association for Computational Linguistics: "
                                                          "ACL 2022")
    assert badges["In the Theme Track"] == ("ACL 2022 Theme", "Theme Papers of ACL 2022")
    assert badges["A Main One"][0] == "ACL 2022"
    venue = next(v for v in site.venues if v.ref.id == "acl-2022")
    # Main volumes first, then the declared tracks in their order, then the standard ones.
    assert [c.track.id for c in venue.tracks] == ["main", "short", "findings", "theme"]


def test_an_unknown_track_is_an_error_naming_file_line_and_field(content: ContentDir):
    content.add_paper("x", title="Somewhere", extra="track: poster-session")
    with pytest.raises(ContentError) as raised:
        load_catalog(content.root)
    text = str(raised.value)
    assert "papers/x.md:6: track: unknown track 'poster-session' of venue 'test-2024'" in text
    assert "findings" in text  # the known ones are listed


def test_a_malformed_tracks_list_is_an_error(content: ContentDir):
    content.write("venues/bad-2022.md", "---\nname: BAD 2022\nfull_name: Bad\nyear: 2022\ntracks:\n- id: Not An Id\n"
                  "- name: no id\n---\n")
    with pytest.raises(ContentError) as raised:
        load_catalog(content.root)
    assert "venues/bad-2022.md:5: tracks: item 1: id: expected a track id" in str(raised.value)


def test_an_unreadable_page_range_or_doi_is_left_out_with_a_warning(content: ContentDir):
    content.add_paper("p", title="Pages", extra="pages: see the PDF\nmonth: Smarch\nlinks:\n  doi: not-a-doi")
    content.add_paper("q", title="Fine", extra="pages: 10--20\nlinks:\n  doi: 10.1145/3292500.3330701")
    catalog = load_catalog(content.root)  # never blocks the build
    papers = {p.slug: p for p in catalog.papers}
    assert papers["p"].pages is None and papers["p"].month is None and not papers["p"].links
    assert papers["q"].pages == "10–20" and papers["q"].links[0].url == "https://doi.org/10.1145/3292500.3330701"
    assert "papers/p.md: pages: 'see the PDF' is not a readable page range; left out" in catalog.warnings
    assert "papers/p.md: month: 'Smarch' is not a readable month; left out" in catalog.warnings
    assert "papers/p.md: links.doi: 'not-a-doi' is not a readable DOI; left out" in catalog.warnings


def test_titles_sort_by_their_words_not_their_leading_quotes(content: ContentDir):
    for slug, title in (("a", "Zeta Models"), ("b", '"Quoted" Words'), ("c", "(Parenthesised) Aside"),
                        ("d", "‘Single’ Quotes"), ("e", "“Curly” Alpha"), ("f", "Alpha Models")):
        content.add_paper(slug, title=title)
    site = derive(load_catalog(content.root))
    assert [v.title_plain for v in site.papers if v.slug in "abcdef"] == [
        "Alpha Models", "“Curly” Alpha", "(Parenthesised) Aside", '"Quoted" Words', "‘Single’ Quotes", "Zeta Models"]
    assert title_order_key("...") == "..."


def test_a_catalog_without_tracks_or_pages_has_no_table_of_contents(bundled_views):
    site = bundled_views()
    assert all(v.tracks == () for v in site.venues)
    assert all(p.venue.track is None for p in site.papers)
