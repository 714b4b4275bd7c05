"""The derived site with an edited paper in place (``derive.edits``), as the preview shows it
until the rebuild: the paper's own view is the one ``derive`` makes of the edited catalog,
and its citation key the one the whole catalog's index gives it."""

from __future__ import annotations

import dataclasses

from generator.content.loader import load_catalog
from generator.derive.edits import paper_view, with_papers
from generator.derive.views import derive
from generator.outputs.citations import CitationIndex
from generator.outputs.pages import paper_pages, plan_pages

from ..conftest import paper_md


def test_the_edited_view_is_the_one_derive_makes_of_the_edited_catalog(content):
    content.add_paper("p-older", paper_md("Convergent Graphs, Again", authors=("Ada Lovelace", "Grace Hopper")))
    site = derive(load_catalog(content.root))
    content.add_paper("a-paper-on-graphs", paper_md("Convergent *Graphs* $x^2$", authors=("Ada Lovelace", "Edsger Dijkstra"),
                                                    tags=("optimization",)))
    rebuilt = derive(load_catalog(content.root))
    edited = next(p for p in rebuilt.catalog.papers if p.slug == "a-paper-on-graphs")
    view = paper_view(site, edited)
    expected = next(v for v in rebuilt.papers if v.slug == "a-paper-on-graphs")
    before = next(v for v in site.papers if v.slug == "a-paper-on-graphs")
    # all but the ranks, which are the site's until the rebuild
    assert dataclasses.replace(view, title_rank=expected.title_rank, venue_rank=expected.venue_rank) == expected
    assert (view.title_rank, view.venue_rank) == (before.title_rank, before.venue_rank)
    assert [a.slug for a in view.authors] == ["ada-lovelace", "edsger-dijkstra"]
    assert view.authors[0] is site.author_refs["ada-lovelace"]  # a known author: the site's ref

    updated = with_papers(site, [view])
    assert [v.slug for v in updated.papers] == [v.slug for v in site.papers]
    assert [v for v in updated.papers if v.slug == "a-paper-on-graphs"] == [view]
    assert edited in updated.catalog.papers and len(updated.catalog.papers) == len(site.catalog.papers)
    for slug, related in updated.related.items():  # the related lists name the new view
        assert all(r is view for r in related if r.slug == view.slug)
        assert [r.slug for r in related] == [r.slug for r in site.related[slug]]
    assert site.papers != updated.papers  # the site itself is unchanged

    # The paper's pages: those the build plans for it.
    planned = [(p.url, p.template, p.title) for p in plan_pages(updated) if p.context.get("paper") is view]
    assert planned == [(p.url, p.template, p.title) for p in paper_pages(updated, view)]

    # Its citation key: the whole index's, computed again only for the edited paper.
    index = CitationIndex(site).with_papers(updated, [view])
    assert index.keys == CitationIndex(updated).keys
    assert index(view).key == CitationIndex(rebuilt).keys["a-paper-on-graphs"] == "lovelace2024convergent"
    assert index.keys["p-older"] == "lovelace2024convergentb" != CitationIndex(site).keys["p-older"]  # a clash now


def _acl_2022(content) -> None:
    content.write("venues/acl-2022.md", "---\nname: ACL 2022\nfull_name: Proceedings of the 60th Annual Meeting of "
                  "the Association for Computational Linguistics\nyear: 2022\n---\n")


def test_an_edited_paper_keeps_its_track_known_or_new_to_the_site(content):
    _acl_2022(content)
    content.add_paper("in-findings", paper_md("Probing Findings", venue="acl-2022", extra="track: findings"))
    content.add_paper("in-main", paper_md("A Main One", venue="acl-2022"))
    site = derive(load_catalog(content.root))
    # A track the site knows: the edited paper is still in it, with the site's very ref.
    content.add_paper("in-findings", paper_md("Probing Findings, Revised", venue="acl-2022", extra="track: findings"))
    edited = next(p for p in load_catalog(content.root).papers if p.slug == "in-findings")
    view = paper_view(site, edited)
    before = next(v for v in site.papers if v.slug == "in-findings")
    assert (view.venue.name, view.venue.track) == ("ACL 2022 Findings", "findings")
    assert view.venue.full_name == "Findings of the Association for Computational Linguistics: ACL 2022"
    assert view.venue is before.venue
    # A track no paper named before: made as derive makes it.
    content.add_paper("in-main", paper_md("A Main One", venue="acl-2022", extra="track: short"))
    rebuilt = derive(load_catalog(content.root))
    edited = next(p for p in rebuilt.catalog.papers if p.slug == "in-main")
    expected = next(v for v in rebuilt.papers if v.slug == "in-main")
    assert paper_view(site, edited).venue == expected.venue
    assert expected.venue.track == "short" and expected.venue.base.name == "ACL 2022"
