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
