"""The derived site with edited papers in place, without deriving the whole catalog again:
what ``build --serve`` shows of a saved paper until the rebuild (``serve.fast``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Iterator, Mapping

from ..content.model import Paper
from .people import Authorship, identify, page_threshold, spellings_of
from .views import PaperView, SiteData, paper_text, refs_of_authors, venue_refs_of, view_of


def paper_view(site: SiteData, paper: Paper) -> PaperView:
    """The view of ``paper`` (a new version of a paper of ``site``) as ``derive`` makes it:
    its texts rendered; its venue (or its track's), tags and authors the site's refs (a name the site knows is
    the person the build took it for, merges included; an author new to the site gets the ref
    ``derive`` gives them in a catalog of this one paper); its sort ranks
    those of the version it replaces (``with_papers``)."""
    catalog = site.catalog
    one = identify((paper,), catalog.people)
    known = site.authorship.keys
    keys = Authorship({name: known.get(name, slug) for name, slug in one.keys.items()}, one.split, one.people)
    threshold = page_threshold(catalog.site.author_page_min_papers, len(catalog.papers))
    own = refs_of_authors(spellings_of((paper,), keys), one.people, threshold)
    authors = {key: site.author_refs.get(key, ref) for key, ref in own.items()}
    before = next(view for view in site.papers if view.slug == paper.slug)
    # The site's venue and track refs; a track no paper named before gets its ref made here.
    venues = venue_refs_of(replace(catalog, papers=(paper,)), site.venue_refs or venue_refs_of(catalog))
    return view_of(paper, paper_text(paper), venues,
                   {t.ref.id: t.ref for t in site.tags}, authors, keys, before.title_rank, before.venue_rank)


def with_papers(site: SiteData, views: Iterable[PaperView]) -> SiteData:
    """``site`` with ``views`` (``paper_view``) in place of its views of those papers: in its
    papers, its catalog and the related lists. What depends on the whole catalog (the lists
    of venues, tags, authors and topics, which papers are related, the ranks) stays the
    site's until the catalog is derived again."""
    new = {view.slug: view for view in views}
    if not new:
        return site
    catalog = replace(site.catalog, papers=tuple(new[p.slug].paper if p.slug in new else p
                                                 for p in site.catalog.papers))
    return replace(site, catalog=catalog, papers=tuple(new.get(view.slug, view) for view in site.papers),
                   related=RelatedWith(site.related, new))


class RelatedWith(Mapping[str, tuple[PaperView, ...]]):
    """Related lists naming ``views`` in place of the papers' earlier views (made when read)."""

    def __init__(self, related: Mapping[str, tuple[PaperView, ...]], views: Mapping[str, PaperView]):
        self._related, self._views = related, views

    def __getitem__(self, slug: str) -> tuple[PaperView, ...]:
        return tuple(self._views.get(view.slug, view) for view in self._related[slug])

    def __iter__(self) -> Iterator[str]:
        return iter(self._related)

    def __len__(self) -> int:
        return len(self._related)
