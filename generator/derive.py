"""Derived data: everything the pages need that is computed from the catalog.

Rendered text (HTML, MathML, plain text), author identities, the papers of each venue,
tag and author, tag counts, co-authors, related papers (``related.py``), the sort keys and
filter options of list pages and the bar widths of the home page's tag chart. The result
is a ``SiteData`` of frozen views, the one flattening step between the model and the
templates: templates only read attributes of these views, never the model's internals.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from markupsafe import Markup

from .model import Catalog, Link, Paper, Tag, Venue
from .related import related_indices
from .slugs import slugify
from .text import excerpt, plain_text, render_abstract, render_title

RECENT_COUNT = 10
AUTHORS_SHOWN = 8  # a long author list shows this many, then "+ N more"...
AUTHORS_HIDDEN_MIN = 3  # ...but only when at least this many would be folded away
LIST_CONTROLS_MIN = 6  # lists this long or longer get sort and filter controls
BAR_STEP = 5  # tag chart bars are 0, 5, ..., 100 percent of the largest tag (CSS classes)


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
    # A long author list folds after ``authors_head``; ``authors_tail`` is () when it does not.
    authors_head: tuple[AuthorRef, ...] = ()
    authors_tail: tuple[AuthorRef, ...] = ()
    # Sort keys of list pages: the paper's position in the whole catalog by title, and by
    # venue (newest venue first) then title. Every list is a subsequence of both orders.
    title_rank: int = 0
    venue_rank: int = 0

    @property
    def url(self) -> str:
        return f"papers/{self.slug}/"

    @property
    def tag_ids(self) -> str:
        """The paper's tag ids separated by spaces (for the client-side tag filter)."""
        return " ".join(t.id for t in self.tags)


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
    bar: int = 0  # width of the tag's bar in the home page chart: 0..100, a multiple of BAR_STEP


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
    related: Mapping[str, tuple[PaperView, ...]] = field(default_factory=dict)  # slug -> most similar


@dataclass(frozen=True)
class PaperList:
    """The papers of a list page and what its sort and filter controls offer."""

    papers: tuple[PaperView, ...]  # by title
    tags: tuple[Count, ...]  # tags of these papers, most papers first (the tag filter's options)
    venue_count: int  # distinct venues (sorting by venue is offered when there are two or more)

    @property
    def sortable_by_venue(self) -> bool:
        return self.venue_count > 1 and len(self.papers) >= LIST_CONTROLS_MIN

    @property
    def filterable(self) -> bool:
        return bool(self.tags) and len(self.papers) >= LIST_CONTROLS_MIN


def paper_list(papers: Iterable[PaperView], own_tag: str | None = None) -> PaperList:
    """A list page's papers with its filter options; ``own_tag`` (a tag page's) is not offered."""
    papers = tuple(papers)
    return PaperList(
        papers=papers,
        tags=_counts(t for p in papers for t in p.tags if t.id != own_tag),
        venue_count=len({p.venue.id for p in papers}),
    )


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
    views = _with_ranks(views, list(catalog.venues))

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
    largest = max((len(by_tag[t]) for t in catalog.tags), default=0)
    tags = tuple(
        TagView(ref=tag_refs[t.id], papers=tuple(by_tag[t.id]), venue_counts=_counts(p.venue for p in by_tag[t.id]),
                bar=_bar(len(by_tag[t.id]), largest))
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
        related=_related(views),
    )


def _tag_ref(tag: Tag) -> TagRef:
    return TagRef(tag.id, tag.name, tag.description)


def _paper_view(paper: Paper, venues: Mapping[str, VenueRef], tags: Mapping[str, TagRef],
                authors: Mapping[str, AuthorRef]) -> PaperView:
    abstract_plain = plain_text(paper.abstract)
    refs = tuple(authors[author_key(name)] for name in paper.authors)
    head, tail = fold_authors(refs)
    return PaperView(
        slug=paper.slug,
        title_html=Markup(render_title(paper.title)),
        title_plain=plain_text(paper.title),
        abstract_html=Markup(render_abstract(paper.abstract)),
        abstract_plain=abstract_plain,
        description=excerpt(abstract_plain, 200),
        authors=refs,
        venue=venues[paper.venue],
        tags=tuple(tags[t] for t in paper.tags if t in tags),
        presentation=paper.presentation,
        links=paper.links,
        provisional=paper.provisional,
        source=paper.source,
        paper=paper,
        authors_head=head,
        authors_tail=tail,
    )


def fold_authors(authors: tuple[AuthorRef, ...]) -> tuple[tuple[AuthorRef, ...], tuple[AuthorRef, ...]]:
    """(shown, folded) parts of an author list: long lists fold after ``AUTHORS_SHOWN``."""
    if len(authors) - AUTHORS_SHOWN < AUTHORS_HIDDEN_MIN:
        return authors, ()
    return authors[:AUTHORS_SHOWN], authors[AUTHORS_SHOWN:]


def _with_ranks(views: tuple[PaperView, ...], venue_order: list[str]) -> tuple[PaperView, ...]:
    """The views (sorted by title) with their title and venue sort keys filled in."""
    position = {venue_id: i for i, venue_id in enumerate(venue_order)}
    by_venue = sorted(range(len(views)), key=lambda i: (position.get(views[i].venue.id, len(position)), i))
    venue_rank = {i: rank for rank, i in enumerate(by_venue)}
    return tuple(replace(v, title_rank=i, venue_rank=venue_rank[i]) for i, v in enumerate(views))


def _related(views: tuple[PaperView, ...]) -> dict[str, tuple[PaperView, ...]]:
    indices = related_indices([(v.title_plain, v.abstract_plain) for v in views])
    return {view.slug: tuple(views[j] for j in found) for view, found in zip(views, indices)}


def _bar(count: int, largest: int) -> int:
    """``count`` as a percentage of ``largest``, rounded up to a multiple of BAR_STEP (0 only for 0)."""
    if count <= 0 or largest <= 0:
        return 0
    return min(100, -(-count * 100 // (largest * BAR_STEP)) * BAR_STEP)


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
