"""Derived data: everything the pages need that is computed from the catalog.

Rendered text (HTML, MathML, plain text), author identities, the papers of each venue,
tag and author, tag counts, co-authors. The result is a ``SiteData`` of frozen views,
the one flattening step between the model and the templates: templates only read
attributes of these views, never the model's internals.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Mapping

from markupsafe import Markup

from .model import Catalog, Link, Paper, Tag, Venue
from .slugs import slugify
from .text import excerpt, plain_text, render_abstract, render_title

RECENT_COUNT = 10


@dataclass(frozen=True)
class AuthorRef:
    name: str
    slug: str

    @property
    def url(self) -> str:
        return f"authors/{self.slug}/"


@dataclass(frozen=True)
class TagRef:
    id: str
    name: str
    description: str

    @property
    def url(self) -> str:
        return f"tags/{self.id}/"


@dataclass(frozen=True)
class VenueRef:
    id: str
    name: str
    full_name: str
    year: int

    @property
    def url(self) -> str:
        return f"venues/{self.id}/"


@dataclass(frozen=True)
class PaperView:
    slug: str
    title_html: Markup
    title_plain: str
    abstract_html: Markup
    abstract_plain: str
    description: str  # short plain-text excerpt for meta tags and lists
    authors: tuple[AuthorRef, ...]
    venue: VenueRef
    tags: tuple[TagRef, ...]
    presentation: str | None
    links: tuple[Link, ...]
    provisional: bool
    source: str
    paper: Paper

    @property
    def url(self) -> str:
        return f"papers/{self.slug}/"


@dataclass(frozen=True)
class Count:
    """A thing and how many papers it has (tag breakdowns, co-authors)."""

    item: TagRef | AuthorRef | VenueRef
    count: int


@dataclass(frozen=True)
class VenueView:
    ref: VenueRef
    venue: Venue
    description_html: Markup
    papers: tuple[PaperView, ...]
    tag_counts: tuple[Count, ...]
    presentation_counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class TagView:
    ref: TagRef
    papers: tuple[PaperView, ...]
    venue_counts: tuple[Count, ...]


@dataclass(frozen=True)
class AuthorView:
    ref: AuthorRef
    papers: tuple[PaperView, ...]
    coauthors: tuple[Count, ...]


@dataclass(frozen=True)
class SiteData:
    catalog: Catalog
    papers: tuple[PaperView, ...]  # by title
    venues: tuple[VenueView, ...]  # newest first
    tags: tuple[TagView, ...]  # taxonomy order
    tags_by_count: tuple[TagView, ...]  # most papers first
    authors: tuple[AuthorView, ...]  # by family name
    recent: tuple[PaperView, ...]
    provisional_count: int


def derive(catalog: Catalog) -> SiteData:
    venue_refs = {v.id: VenueRef(v.id, v.name, v.full_name, v.year) for v in catalog.venues.values()}
    tag_refs = {t.id: _tag_ref(t) for t in catalog.tags.values()}
    author_refs = _author_refs(catalog.papers)

    views = tuple(
        sorted(
            (_paper_view(p, venue_refs, tag_refs, author_refs) for p in catalog.papers),
            key=lambda v: (v.title_plain.casefold(), v.slug),
        )
    )

    by_venue: dict[str, list[PaperView]] = defaultdict(list)
    by_tag: dict[str, list[PaperView]] = defaultdict(list)
    by_author: dict[str, list[PaperView]] = defaultdict(list)
    for view in views:
        by_venue[view.venue.id].append(view)
        for tag in view.tags:
            by_tag[tag.id].append(view)
        for author in view.authors:
            by_author[author.slug].append(view)

    venues = tuple(
        VenueView(
            ref=venue_refs[v.id],
            venue=v,
            description_html=Markup(render_abstract(v.description)) if v.description else Markup(""),
            papers=tuple(by_venue[v.id]),
            tag_counts=_counts(tag for p in by_venue[v.id] for tag in p.tags),
            presentation_counts=tuple(
                sorted(Counter(p.presentation for p in by_venue[v.id] if p.presentation).items())
            ),
        )
        for v in catalog.venues.values()
    )
    tags = tuple(
        TagView(ref=tag_refs[t.id], papers=tuple(by_tag[t.id]), venue_counts=_counts(p.venue for p in by_tag[t.id]))
        for t in catalog.tags.values()
    )
    authors = tuple(
        sorted(
            (
                AuthorView(
                    ref=ref,
                    papers=tuple(by_author[ref.slug]),
                    coauthors=_counts(a for p in by_author[ref.slug] for a in p.authors if a.slug != ref.slug),
                )
                for ref in author_refs.values()
            ),
            key=lambda a: (_family_key(a.ref.name), a.ref.slug),
        )
    )
    return SiteData(
        catalog=catalog,
        papers=views,
        venues=venues,
        tags=tags,
        tags_by_count=tuple(sorted(tags, key=lambda t: (-len(t.papers), t.ref.name.casefold()))),
        authors=authors,
        recent=_recent(views, catalog),
        provisional_count=sum(1 for v in views if v.provisional),
    )


def _tag_ref(tag: Tag) -> TagRef:
    return TagRef(tag.id, tag.name, tag.description)


def _paper_view(paper: Paper, venues: Mapping[str, VenueRef], tags: Mapping[str, TagRef],
                authors: Mapping[str, AuthorRef]) -> PaperView:
    abstract_plain = plain_text(paper.abstract)
    return PaperView(
        slug=paper.slug,
        title_html=Markup(render_title(paper.title)),
        title_plain=plain_text(paper.title),
        abstract_html=Markup(render_abstract(paper.abstract)),
        abstract_plain=abstract_plain,
        description=excerpt(abstract_plain, 200),
        authors=tuple(authors[author_key(name)] for name in paper.authors),
        venue=venues[paper.venue],
        tags=tuple(tags[t] for t in paper.tags if t in tags),
        presentation=paper.presentation,
        links=paper.links,
        provisional=paper.provisional,
        source=paper.source,
        paper=paper,
    )


def author_key(name: str) -> str:
    """Identity of an author across papers: the slug of the name (accents folded).

    "José García" and "Jose Garcia" are taken to be one person; two different people
    with the same name cannot be told apart from names alone.
    """
    # Names with no Latin letters (e.g. "张伟") slug to nothing: use a stable digest instead.
    return slugify(name) or "author-" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:10]


def _author_refs(papers: tuple[Paper, ...]) -> dict[str, AuthorRef]:
    """One ref per author key, shown with the most frequent spelling (ties: first met)."""
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for paper in papers:
        for name in paper.authors:
            spellings[author_key(name)][name] += 1
    return {key: AuthorRef(names.most_common(1)[0][0], key) for key, names in spellings.items()}


def _family_key(name: str) -> tuple[str, str]:
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    parts = folded.split()
    return (parts[-1] if parts else "", folded)


def _counts(items) -> tuple[Count, ...]:
    counter = Counter(items)
    return tuple(Count(item, n) for item, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0].name.casefold())))


def _recent(views: tuple[PaperView, ...], catalog: Catalog) -> tuple[PaperView, ...]:
    """Most recently added papers: by ``added`` date, then by the venue's year."""
    def key(v: PaperView):
        added = v.paper.added.toordinal() if v.paper.added else 0
        return (-added, -v.venue.year, v.title_plain.casefold())
    return tuple(sorted(views, key=key)[:RECENT_COUNT])
