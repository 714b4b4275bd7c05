"""Derived data: everything the pages need that is computed from the catalog.

Rendered text (HTML, MathML, plain text), author identities, the papers of each venue,
tag and author, tag counts, co-authors, related papers (``related.py``), the sort keys and
filter options of list pages and the bar widths of the home page's tag chart. The result
is a ``SiteData`` of frozen views, the one flattening step between the model and the
templates: templates only read attributes of these views, never the model's internals.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from markupsafe import Markup

from ..content.model import Catalog, Link, Paper, Person, Tag, Venue
from ..content.series import full_name_of
from ..cache import cached_call, cached_map
from .counts import Count, count_items, ref_counts
from .contents import TrackContents, title_order_key, track_names, venue_contents
from .related import inputs_digest, related_indices
from .topics import TopicData, site_topics
from .trends import Trends, site_trends
from .sessions import SessionData, derive_sessions
from .people import (Authorship, Merge, Profile, family_key, identify, page_threshold, profile, shown_authors,
                     spellings_of, unmatched_people)
from .urls import SCHOLAR_NAME, SCHOLAR_SEARCH, author_page, author_path, paper_page, scholar_search, search_for, tag_page, venue_page
from .urls import pdf_url as derived_pdf_url
from ..text import TextFallback, collect_fallbacks, excerpt, plain_text, render_abstract, render_title
from ..text.fallbacks import strict

RECENT_COUNT, RECENT_MIN = 10, 3  # "Recently added": its papers, and the dated papers it needs
AUTHORS_SHOWN = 10  # a long author list shows this many, then "and N more" (a <details>)...
AUTHORS_HIDDEN_MIN = 1  # ...when at least this many would be folded away
LIST_CONTROLS_MIN = 6  # lists this long or longer get sort and filter controls
BAR_STEP = 5  # tag chart bars are 0, 5, ..., 100 percent of the largest tag (CSS classes)
COAUTHORS_SHOWN = 24  # an author page names this many co-authors (the most shared papers first)


@dataclass(frozen=True, slots=True)
class AuthorRef:
    name: str
    slug: str
    profile: Profile | None = None  # when authors.toml describes the person
    # Whether the person has a page here: at least ``author_page_min_papers`` papers (site.toml).
    # Every author up to 20,000 papers (issue 36), else those with two (issue 25).
    has_page: bool = True
    number: str | None = None  # one of several people of this name ("0001": authors.toml, dblp's numbering)

    @property
    def full_name(self) -> str:
        """The name with the person's number ("Jie Zhou 0001"), as their page and the index show it."""
        return f"{self.name} {self.number}" if self.number else self.name

    @property
    def url(self) -> str | None:
        """The person's page here, None without one (their name is then plain text, or a link
        to ``elsewhere``)."""
        return author_page(self.slug) if self.has_page else None

    @property
    def path(self) -> str | None:
        """Where the page is below ``authors/`` (``urls.author_path``), None without one."""
        return author_path(self.slug) if self.has_page else None

    @property
    def elsewhere(self) -> str | None:
        """The person's own page (homepage, else ORCID record, from authors.toml) for a name
        without a page here; None otherwise."""
        if self.has_page or self.profile is None:
            return None
        return self.profile.homepage or self.profile.orcid_url

    @property
    def search_url(self) -> str | None:
        """A search of this site for the name, where a name with no page anywhere links."""
        return None if self.has_page or self.elsewhere else search_for(self.name)


@dataclass(frozen=True, slots=True)
class TagRef:
    id: str
    name: str
    description: str

    @property
    def url(self) -> str:
        return tag_page(self.id)


@dataclass(frozen=True, slots=True)
class VenueRef:
    id: str
    name: str
    full_name: str
    year: int
    track: str | None = None  # a track's ref (contents.track_names: "ACL 2022 Findings", its proceedings)
    base: "VenueRef | None" = None  # and then the venue's own

    @property
    def url(self) -> str:
        return venue_page(self.id)


@dataclass(frozen=True, slots=True)
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
    def extra(self) -> Mapping:
        """The paper's ``extra`` front matter, for custom templates."""
        return self.paper.extra

    @property
    def url(self) -> str:
        return paper_page(self.venue.id, self.slug)

    @property
    def tag_ids(self) -> str:
        """The paper's tag ids separated by spaces (for the client-side tag filter)."""
        return " ".join(t.id for t in self.tags)

    @property
    def pdf_url(self) -> str | None:
        """The paper's PDF: its ``pdf`` link, else derived from its OpenReview or arXiv link."""
        return derived_pdf_url({link.kind: link.url for link in self.links})

    @property
    def find_url(self) -> str | None:
        """Where to look for a paper without a known PDF: a title search (None with a PDF)."""
        return None if self.pdf_url else scholar_search(self.title_plain)

    @property
    def more_links(self) -> tuple[Link, ...]:
        """The links after the PDF, which pages show first: all but the ``pdf`` link."""
        return tuple(link for link in self.links if link.kind != "pdf")


@dataclass(frozen=True, slots=True)
class VenueView:
    ref: VenueRef
    venue: Venue
    description_html: Markup
    papers: tuple[PaperView, ...]
    tag_counts: tuple[Count, ...]
    presentation_counts: tuple[tuple[str, int], ...]
    tracks: tuple["TrackContents", ...] = ()  # its table of contents (``contents.venue_contents``), or ()


@dataclass(frozen=True, slots=True)
class TagView:
    ref: TagRef
    papers: tuple[PaperView, ...]
    venue_counts: tuple[Count, ...]
    bar: int = 0  # width of the tag's bar in the home page chart: 0..100, a multiple of BAR_STEP


@dataclass(frozen=True, slots=True)
class AuthorView:
    ref: AuthorRef
    papers: tuple[PaperView, ...]
    coauthors: tuple[Count, ...]  # most shared papers first
    other_names: tuple[str, ...] = ()  # spellings the papers use other than ``ref.name``, most used first

    @property
    def coauthors_shown(self) -> tuple[Count, ...]:
        """The co-authors an author page names: the ``COAUTHORS_SHOWN`` with the most shared
        papers (a prolific author has hundreds: their page was 140 kB)."""
        return self.coauthors[:COAUTHORS_SHOWN]


@dataclass(frozen=True, slots=True)
class SiteData:
    catalog: Catalog
    papers: tuple[PaperView, ...]  # by title
    venues: tuple[VenueView, ...]  # newest first
    tags: tuple[TagView, ...]  # taxonomy order
    tags_by_count: tuple[TagView, ...]  # most papers first
    authors: tuple[AuthorView, ...]  # the people with a page (AuthorRef.has_page), by family name
    recent: tuple[PaperView, ...]
    provisional_count: int
    related: Mapping[str, tuple[PaperView, ...]] = field(default_factory=dict)  # slug -> most similar
    # For the person building: each text shown as plain text because it could not be rendered,
    # each person of authors.toml who is no paper's author.
    warnings: tuple[str, ...] = ()
    topics: TopicData | None = None  # topics found in the texts (``topics.py``); None: too few papers
    trends: Trends | None = None  # papers, tags and topics by year (``trends.py``)
    author_count: int = 0  # every author, with a page or not
    sessions: SessionData | None = None  # the reading group's sessions (``sessions.py``); None: none
    authorship: Authorship = Authorship({})  # who each author name is (``people.identify``)
    author_refs: Mapping[str, AuthorRef] = field(default_factory=dict)  # page slug -> ref, every author
    venue_refs: Mapping = field(default_factory=dict)  # venue id, (venue id, track) -> ref (``venue_refs_of``)

    @property
    def merges(self) -> tuple[Merge, ...]:
        """Spellings taken to be one person, with their evidence."""
        return self.authorship.merges

    @property
    def find_pattern(self) -> str:
        """``PaperView.find_url`` with ``{query}`` for the title, for list items made in the page."""
        return SCHOLAR_SEARCH

    @property
    def find_engine(self) -> str:
        """The name of the search engine of ``find_url`` (for link text)."""
        return SCHOLAR_NAME


@dataclass(frozen=True, slots=True)
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
        tags=count_items(t for p in papers for t in p.tags if t.id != own_tag),
        venue_count=len({p.venue.id for p in papers}),
    )


def venue_refs_of(catalog: Catalog, known: Mapping | None = None) -> dict:
    """The refs of the venues (by id) and of each (venue id, track) a paper names ("ACL 2022
    Findings", its proceedings); those of ``known`` (a site's) kept, only the missing made."""
    refs = dict(known) if known else {v.id: VenueRef(v.id, v.name, full_name_of(v), v.year)
                                      for v in catalog.venues.values()}
    for key, names in track_names(catalog, refs).items():
        if key not in refs:
            refs[key] = VenueRef(key[0], *names, refs[key[0]].year, key[1], refs[key[0]])
    return refs


def derive(catalog: Catalog) -> SiteData:
    venue_refs = venue_refs_of(catalog)
    tag_refs = {t.id: _tag_ref(t) for t in catalog.tags.values()}
    authorship = identify(catalog.papers, catalog.people)
    spellings, people = spellings_of(catalog.papers, authorship), authorship.people
    author_refs = refs_of_authors(spellings, people, page_threshold(catalog.site.author_page_min_papers, len(catalog.papers)))

    views, notes = _paper_views(catalog, venue_refs, tag_refs, author_refs, authorship)

    by_venue: dict[str, list[PaperView]] = defaultdict(list)
    by_tag: dict[str, list[PaperView]] = defaultdict(list)
    by_author: dict[str, list[PaperView]] = defaultdict(list)
    for view in views:
        by_venue[view.venue.id].append(view)
        for tag in view.tags:
            by_tag[tag.id].append(view)
        for author in view.authors:
            listed = by_author[author.slug]
            if not listed or listed[-1] is not view:  # (two spellings of one person on one paper)
                listed.append(view)

    venues = tuple(
        VenueView(
            ref=venue_refs[v.id],
            venue=v,
            description_html=_description_html(v, notes),
            papers=tuple(by_venue[v.id]),
            tracks=venue_contents(v, by_venue[v.id]),
            tag_counts=ref_counts(tag for p in by_venue[v.id] for tag in p.tags),
            presentation_counts=tuple(
                sorted(Counter(p.presentation for p in by_venue[v.id] if p.presentation).items())
            ),
        )
        for v in catalog.venues.values()
    )
    largest = max((len(by_tag[t]) for t in catalog.tags), default=0)
    tags = tuple(
        TagView(ref=tag_refs[t.id], papers=tuple(by_tag[t.id]),
                venue_counts=ref_counts(p.venue.base or p.venue for p in by_tag[t.id]),  # a track counts as its venue
                bar=_bar(len(by_tag[t.id]), largest))
        for t in catalog.tags.values()
    )
    chain = itertools.chain.from_iterable
    authors = tuple(
        sorted(
            (
                AuthorView(
                    ref=ref,
                    papers=tuple(by_author[ref.slug]),
                    # Every author in a view is the one ref of its slug: leaving out ``ref``
                    # itself leaves out exactly the entries with its slug.
                    coauthors=ref_counts(chain(p.authors for p in by_author[ref.slug]), exclude=ref),
                    other_names=tuple(name for name, _ in spellings[ref.slug].most_common() if name != ref.name),
                )
                for ref in author_refs.values() if ref.has_page
            ),
            key=lambda a: (family_key(a.ref.name), a.ref.slug),
        )
    )
    topics = site_topics(views, {v.id: v.year for v in catalog.venues.values()}, ref_counts)
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
        warnings=tuple(notes) + unmatched_people(people, author_refs),
        topics=topics,
        trends=site_trends(views, tags, topics.topics if topics else None),
        author_count=len(author_refs),
        sessions=derive_sessions(catalog.sessions, views, catalog.site),
        authorship=authorship,
        author_refs=author_refs,
        venue_refs=venue_refs,
    )



def _tag_ref(tag: Tag) -> TagRef:
    return TagRef(tag.id, tag.name, tag.description)


def _paper_views(catalog: Catalog, venues: Mapping[str, VenueRef], tags: Mapping[str, TagRef],
                 authors: Mapping[str, AuthorRef], keys: Authorship) -> tuple[tuple[PaperView, ...], list[str]]:
    """The papers' views, by title (then slug), with their title and venue sort keys, and the
    notes on texts that could not be rendered (in catalog order).

    The text of every paper is rendered first, so that the sort keys are known when each
    view is made (views are frozen: filling in the ranks afterwards would copy them all).
    """
    papers = catalog.papers
    # The Markdown and math of 10,000 papers: kept in the build cache, the rest on every core.
    texts = cached_map("paper text", paper_text, papers, _paper_text_inputs)
    by_title = sorted(range(len(papers)), key=lambda i: (title_order_key(texts[i][1]), papers[i].slug))
    position = {venue_id: rank for rank, venue_id in enumerate(catalog.venues)}
    last = len(position)
    by_venue = sorted(range(len(by_title)),
                      key=lambda rank: (position.get(venues[papers[by_title[rank]].venue].id, last), rank))
    venue_rank = [0] * len(by_venue)
    for rank, title_rank in enumerate(by_venue):
        venue_rank[title_rank] = rank
    views = tuple(
        view_of(papers[i], texts[i], venues, tags, authors, keys, title_rank, venue_rank[title_rank])
        for title_rank, i in enumerate(by_title)
    )
    return views, [note for text in texts for note in text[4]]


_PaperText = tuple[str, str, str, str, tuple[str, ...]]


def _paper_text_inputs(paper: Paper) -> tuple[object, ...]:
    """All that ``paper_text`` depends on (the build cache's key)."""
    return paper.title, paper.abstract, paper.source or paper.slug, strict()


def paper_text(paper: Paper) -> _PaperText:
    """(title HTML, title plain text, abstract HTML, abstract plain text, notes).

    The notes say which of the two texts could not be rendered (and is shown as plain text).
    They are part of the result, so they come back from a worker process with it.
    """
    with collect_fallbacks() as title_failed:
        title_html, title_plain = render_title(paper.title), plain_text(paper.title)
    with collect_fallbacks() as abstract_failed:
        abstract_html, abstract_plain = render_abstract(paper.abstract), plain_text(paper.abstract)
    notes = (_fallback_notes(paper.source or paper.slug, "title", title_failed)
             + _fallback_notes(paper.source or paper.slug, "abstract", abstract_failed))
    return title_html, title_plain, abstract_html, abstract_plain, notes


def _description_html(venue: Venue, notes: list[str]) -> Markup:
    """A venue's description as HTML; a note added to ``notes`` if it could not be rendered."""
    if not venue.description:
        return Markup("")
    with collect_fallbacks() as failed:
        html = render_abstract(venue.description)
    notes.extend(_fallback_notes(venue.source or venue.id, "description", failed))
    return Markup(html)


def _fallback_notes(source: str, part: str, failed: list[TextFallback]) -> tuple[str, ...]:
    """The note for a text that fell back to plain text (naming the first error), or ()."""
    if not failed:
        return ()
    return (f"{source}: {part}: could not be rendered ({failed[0].error}); shown as plain text",)


def view_of(paper: Paper, text: _PaperText, venues: Mapping[str, VenueRef],
                tags: Mapping[str, TagRef], authors: Mapping[str, AuthorRef], keys: Authorship,
                title_rank: int, venue_rank: int) -> PaperView:
    title_html, title_plain, abstract_html, abstract_plain, _notes = text
    refs = tuple(authors[slug] for slug in keys.slugs(paper))
    head, tail = fold_authors(refs)
    return PaperView(
        slug=paper.slug,
        title_html=Markup(title_html),
        title_plain=title_plain,
        abstract_html=Markup(abstract_html),
        abstract_plain=abstract_plain,
        description=excerpt(abstract_plain, 200),
        authors=refs,
        venue=venues.get((paper.venue, paper.track)) or venues[paper.venue],  # a track's ref, else the venue's
        tags=tuple(tags[t] for t in paper.tags if t in tags),
        presentation=paper.presentation,
        links=paper.links,
        provisional=paper.provisional,
        source=paper.source,
        paper=paper,
        authors_head=head,
        authors_tail=tail,
        title_rank=title_rank,
        venue_rank=venue_rank,
    )


def fold_authors(authors: tuple[AuthorRef, ...]) -> tuple[tuple[AuthorRef, ...], tuple[AuthorRef, ...]]:
    """(shown, folded) parts of an author list: long lists fold after ``AUTHORS_SHOWN``."""
    if len(authors) - AUTHORS_SHOWN < AUTHORS_HIDDEN_MIN:
        return authors, ()
    return authors[:AUTHORS_SHOWN], authors[AUTHORS_SHOWN:]


def _related(views: tuple[PaperView, ...]) -> dict[str, tuple[PaperView, ...]]:
    texts = [(v.title_plain, v.abstract_plain) for v in views]
    tags = [v.paper.tags for v in views]
    # The texts and tags alone decide (in this order): an edit of authors, venue or links
    # finds the lists in the build cache.
    indices = cached_call("related papers", lambda: related_indices(texts, tags=tags), (inputs_digest(texts, tags),))
    return {view.slug: tuple(views[j] for j in found) for view, found in zip(views, indices)}


def _bar(count: int, largest: int) -> int:
    """``count`` as a percentage of ``largest``, rounded up to a multiple of BAR_STEP (0 only for 0)."""
    if count <= 0 or largest <= 0:
        return 0
    return min(100, -(-count * 100 // (largest * BAR_STEP)) * BAR_STEP)


def refs_of_authors(spellings: Mapping[str, Counter[str]], people: Mapping[str, Person],
                 min_papers: int = 1) -> dict[str, AuthorRef]:
    """One ref per author, by slug (``people.shown_authors``: name, person, whether a page)."""
    return {key: AuthorRef(name, key, profile(person) if person else None, page, person.number if person else None)
            for key, (name, person, page) in shown_authors(spellings, people, min_papers).items()}


def _recent(views: tuple[PaperView, ...], catalog: Catalog) -> tuple[PaperView, ...]:
    """The papers added last (``added``, then venue year); none with fewer than RECENT_MIN dated."""
    dated = sorted((v for v in views if v.paper.added),
                   key=lambda v: (-v.paper.added.toordinal(), -v.venue.year, v.title_plain.casefold()))
    return tuple(dated[:RECENT_COUNT]) if len(dated) >= min(RECENT_MIN, len(views)) else ()
