"""The page plan: which pages the site has, at which URL, with which template and data.

URLs are stable (``derive.urls``): ``/papers/<venue>/<slug>/``, ``/venues/<id>/``,
``/tags/<id>/``, ``/authors/<bucket>/<slug>/`` (people with ``author_page_min_papers``
papers), ``/authors/<letter>/`` (the index by family name), ``/years/<yyyy>/``, the index
pages and ``/reading-list/``; each is written as ``<url>index.html``. The tables readers
browse by (venues as series by year, authors by letter, papers in groups) are
``derive.browse``'s.

An author's papers are grouped by year (newest first) and a year's by venue
(``grouped_list_pages``), ``PAGE_SIZE`` papers a page, without sort controls: the groups
are the order.

Paper lists (a venue's, a tag's, an author's, all papers) are split into pages of
``PAGE_SIZE`` papers, by title: the first page at the list's URL, the others at
``<url>page/<n>/``. Every paper is reachable without JavaScript, and no page grows with
the catalog; ``static/js/list.js`` adds sorting and filtering over the whole list (from the
list's data file and the rows of the papers it shows, ``outputs.list_data``: never the
list's other pages) and the list's keyboard moves.
``list_controls`` says which sorts and filters a list offers, ``sort_ranks`` where each
paper falls in each sort order.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from ..content.model import PRESENTATIONS
from ..derive.views import LIST_CONTROLS_MIN, Count, PaperList, PaperView, SiteData, paper_list
from ..derive.browse import PaperGroup
from ..derive.contents import order_words
from ..derive.browse import (VenueTable, author_letters, by_venue, by_year, grouped_pages, letter_nav, series_counts,
                             venue_table)
from ..derive.urls import LIST_ROWS, LIST_ROWS_FOLDER, LIST_ROWS_SHARD, LIST_VENUES, list_data, search_for
from ..derive.urls import (AUTHORS, HOME, NOT_FOUND, PAPERS, READING_LIST, SEARCH, TAGS, TOPICS, TRENDS, VENUES, YEARS,
                           author_letter_page, author_page, list_page, output_path, reading_list_data, section, tag_page,
                           topic_page, venue_page, year_page)
from ..derive.urls import SESSIONS, SiteUrls
from .session_pages import subscriptions

PAGE_SIZE = 100  # papers per list page
AUTHORS_PAGE_SIZE = 1000  # names per page of a letter of the author index
AUTHORS_TOP = 24  # the author index's first page names the people with the most papers
READING_LIST_SHARD = 100  # papers per reading-list data file (the page fetches only the files it needs)
RELATED_SHOWN = 3  # related papers a paper's page lists (the most similar first)
WINDOW = 2  # page links shown on each side of the current page


@dataclass(frozen=True, slots=True)
class Page:
    url: str  # relative to the site root, "" for the home page, ending in "/" or ".html"
    template: str
    title: str  # plain text for <title>
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def output_path(self) -> str:
        return output_path(self.url)

    @property
    def section(self) -> str:
        """The URL's first segment ("papers", "tags", ...; "" for the home page): the nav's current item."""
        return section(self.url)


@dataclass(frozen=True, slots=True)
class PageLink:
    number: int
    url: str  # relative to the site root
    current: bool


@dataclass(frozen=True, slots=True)
class Pagination:
    """Where a page sits in a paginated list; ``links`` holds None where page numbers are skipped."""

    number: int  # 1-based
    count: int  # pages in the list
    total: int  # papers in the list
    first: int  # 1-based position of the page's first paper
    last: int  # ... and of its last
    base_url: str  # the list's first page; page n > 1 is at base_url + "page/<n>/"
    prev_url: str | None
    next_url: str | None
    links: tuple[PageLink | None, ...]
    size: int = PAGE_SIZE  # papers per page (the last may hold fewer)


def paginate(base_url: str, total: int, size: int = PAGE_SIZE) -> list[Pagination]:
    """The pagination of a list of ``total`` papers whose first page is at ``base_url``."""
    count = max(1, -(-total // size))
    pages = []
    for number in range(1, count + 1):
        shown = sorted({1, count, *range(max(1, number - WINDOW), min(count, number + WINDOW) + 1)})
        links: list[PageLink | None] = []
        for i, n in enumerate(shown):
            if i and n - shown[i - 1] > 1:
                links.append(None)
            links.append(PageLink(n, list_page(base_url, n), n == number))
        pages.append(Pagination(
            number=number, count=count, total=total,
            first=min(total, (number - 1) * size + 1), last=min(total, number * size),
            base_url=base_url,
            prev_url=list_page(base_url, number - 1) if number > 1 else None,
            next_url=list_page(base_url, number + 1) if number < count else None,
            links=tuple(links),
            size=size,
        ))
    return pages


@dataclass(frozen=True, slots=True)
class SortOption:
    """One order of a list's sort control: a group, then title (``SortRanks``; static/js/list.js
    sorts by the group the list's data file gives) and says ``describe`` in the list's status."""

    value: str  # the URL's ?sort= value ("title" is the server's order and no parameter)
    label: str
    describe: str


SORT_TITLE = SortOption("title", "Title", "by title")
SORT_YEAR = SortOption("year", "Year, newest first", "by year (newest first), then title")
SORT_VENUE = SortOption("venue", "Venue, newest first", "by venue (newest first), then title")
SORT_PRESENTATION = SortOption("presentation", f"Presentation, {PRESENTATIONS[0]}s first",
                               "by presentation (" + ", ".join(PRESENTATIONS) + ", then none given), then title")
SORT_ADDED = SortOption("added", "Date added, newest first", "by date added (newest first, undated last), then title")


@dataclass(frozen=True, slots=True)
class PresentationCount:
    value: str  # "oral", ...: the URL's ?presentation= value and the items' data-presentation
    label: str  # "Oral"
    count: int


@dataclass(frozen=True, slots=True)
class FilterOption:
    value: str  # the URL's value and what the items' attribute holds
    label: str
    count: int
    name: str | None = None  # data-name: what the list's status calls the choice, when not ``label``


@dataclass(frozen=True, slots=True)
class ListFilter:
    """One filter control of a list: ``name`` is the URL's parameter and the select's id
    (``list-<name>``); ``attribute`` the item attribute it matches; ``describe`` its phrase
    in the list's status (static/js/list.js)."""

    name: str
    label: str
    all_label: str
    attribute: str
    describe: str
    options: tuple[FilterOption, ...]


@dataclass(frozen=True, slots=True)
class ListControls:
    """What a list page's sort and filter controls offer: only what would change the list.

    A sort is offered when the list's papers differ in its key (and year only when it is not
    the venue order again: when some year has two of the list's venues); a filter when one
    of its options leaves papers out. Lists shorter than ``LIST_CONTROLS_MIN`` get none.
    ``presentation_counts`` (oral, spotlight, poster order) is there for every list.
    """

    sorts: tuple[SortOption, ...]  # title first; the sort control is shown with two or more
    tags: tuple[Count, ...]  # the tag filter's options (none: no tag filter)
    presentations: tuple[PresentationCount, ...]  # the presentation filter's options (none: no filter)
    presentation_counts: tuple[PresentationCount, ...]

    @property
    def sortable(self) -> bool:
        return len(self.sorts) > 1

    @property
    def shown(self) -> bool:
        return self.sortable or bool(self.tags) or bool(self.presentations)

    @property
    def filters(self) -> tuple[ListFilter, ...]:
        """The filter controls shown, tags first."""
        found = []
        if self.tags:
            found.append(ListFilter("tag", "Show tag", "All tags", "data-tags", "tagged",
                                    tuple(FilterOption(c.item.id, c.item.name, c.count) for c in self.tags)))
        if self.presentations:
            found.append(ListFilter("presentation", "Show presentation", "All presentations", "data-presentation",
                                    "presented as", tuple(FilterOption(c.value, c.label, c.count, c.value)
                                                          for c in self.presentations)))
        return tuple(found)


def list_controls(listing: PaperList) -> ListControls:
    papers = listing.papers
    counts = [sum(1 for p in papers if p.presentation == kind) for kind in PRESENTATIONS]
    presentation_counts = tuple(PresentationCount(kind, kind.capitalize(), n)
                                for kind, n in zip(PRESENTATIONS, counts) if n)
    if len(papers) < LIST_CONTROLS_MIN:
        return ListControls((SORT_TITLE,), (), (), presentation_counts)
    years = {p.venue.year for p in papers}
    venues = {p.venue.id for p in papers}
    presentations = {p.presentation for p in papers}
    added = {p.paper.added for p in papers}
    sorts = [SORT_TITLE]
    if 1 < len(years) < len(venues):
        sorts.append(SORT_YEAR)
    if len(venues) > 1:
        sorts.append(SORT_VENUE)
    if len(presentations) > 1:
        sorts.append(SORT_PRESENTATION)
    if len(added) > 1:
        sorts.append(SORT_ADDED)
    leaves_some_out = any(c.count < len(papers) for c in listing.tags)
    return ListControls(
        sorts=tuple(sorts),
        tags=listing.tags if leaves_some_out else (),
        presentations=presentation_counts if len(presentations) > 1 else (),
        presentation_counts=presentation_counts,
    )


@dataclass(frozen=True, slots=True)
class SortRanks:
    """A paper's place in the whole catalog in each order of the lists' sort control (the
    title and venue orders are the views' ``title_rank`` and ``venue_rank``). Every list is
    a subsequence of the catalog, so one rank per paper orders every list it is on."""

    year: int  # newest year first, then title
    presentation: int  # oral, spotlight, poster, none; then title
    added: int  # newest first, undated last; then title


def sort_ranks(papers: Sequence[PaperView]) -> dict[str, SortRanks]:
    """``SortRanks`` of ``papers`` (the whole catalog) by slug."""
    last = len(PRESENTATIONS)
    kind = {name: i for i, name in enumerate(PRESENTATIONS)}

    def ranks(key) -> dict[str, int]:
        return {p.slug: rank for rank, p in enumerate(sorted(papers, key=key))}

    year = ranks(lambda p: (-p.venue.year, p.title_rank))
    presentation = ranks(lambda p: (kind.get(p.presentation, last), p.title_rank))
    added = ranks(lambda p: (p.paper.added is None, -p.paper.added.toordinal() if p.paper.added else 0, p.title_rank))
    return {p.slug: SortRanks(year[p.slug], presentation[p.slug], added[p.slug]) for p in papers}


@dataclass(frozen=True, slots=True)
class ListData:
    """Where static/js/list.js finds a list's sort and filter data (``outputs.list_data``):
    paths relative to the site root; ``rows`` and ``tag`` are patterns ({k}, {n}; {id})."""

    data: str  # this list's file
    # "Find in these papers": the search page's filters that hold the list to its papers
    # (("venue", id), ("tag", id); () for all papers); None: no such form (a topic's list)
    search: tuple[tuple[str, str], ...] | None = None
    tag: str = list_data(tag_page("{id}"))  # a tag's list file (the tag filter)
    search_url: str = SEARCH
    name_search: str = search_for("")  # where a name without a page links: the name, quoted, follows
    rows: str = LIST_ROWS
    venues: str = LIST_VENUES
    rows_shard: int = LIST_ROWS_SHARD
    rows_folder: int = LIST_ROWS_FOLDER


def list_pages(url: str, template: str, title: str, listing: PaperList,
               context: dict[str, Any] | None = None, size: int = PAGE_SIZE,
               search: tuple[tuple[str, str], ...] | None = None) -> Iterator[Page]:
    """The pages of one paper list: ``papers`` (this page's), ``listing`` (the whole list),
    ``controls`` (its ``ListControls``) and ``pagination`` (None when the list fits on one
    page) join ``context``."""
    pagination = paginate(url, len(listing.papers), size)
    controls = list_controls(listing)
    for p in pagination:
        chunk = listing.papers[(p.number - 1) * size:p.number * size]
        page_title = title if p.number == 1 else f"{title} (page {p.number} of {p.count})"
        yield Page(list_page(url, p.number), template, page_title, {
            **(context or {}),
            "listing": listing,
            "controls": controls,
            "papers": chunk,
            "pagination": p if p.count > 1 else None,
            "list_data": ListData(list_data(url), search),
        })


def plan_pages(site: SiteData) -> Iterator[Page]:
    table = venue_table(site.venues)
    yield Page(HOME, "index.html", site.catalog.site.title, {  # all it shows: a render key, not the whole site
        "home": True, "paper_count": len(site.papers), "venue_count": len(site.venues), "tag_count": len(site.tags),
        "author_count": site.author_count, "tags_by_count": site.tags_by_count, "recent": site.recent,
        "series_rows": table.largest, "series_count": len(table.rows), "years": table.years,
        "home_sessions": site.sessions.home if site.sessions else (),
        "home_session": site.sessions.shown_on_home if site.sessions else None})
    for paper in site.papers:
        yield from paper_pages(site, paper)
    yield Page(VENUES, "venues.html", "Venues", {"table": table})
    for venue in site.venues:
        context = {"venue": venue, "topic_mix": site.topics.mix(venue.ref.id) if site.topics else (),
                   "series": table.row_of[venue.ref.id], "year_url": year_page(venue.ref.year), "contents": None}
        if venue.tracks:  # a table of contents: by track, in the proceedings' order (derive.contents)
            yield from venue_contents_pages(venue, context)
        else:
            yield from list_pages(venue_page(venue.ref.id), "venue.html", venue.ref.name, paper_list(venue.papers),
                                  context, search=(("venue", venue.ref.id),))
    yield from year_pages(site, table)
    yield Page(TAGS, "tags.html", "Tags")
    for tag in site.tags:
        yield from list_pages(tag_page(tag.ref.id), "tag.html", tag.ref.name,
                              paper_list(tag.papers, own_tag=tag.ref.id),
                              {"tag": tag, "years": site.trends.of_tag(tag.ref.id) if site.trends else None},
                              search=(("tag", tag.ref.id),))
    # Topics found in the texts (derive/topics.py) and the trends by year (derive/trends.py).
    yield Page(TOPICS, "topics.html", "Topics", {"topics": site.topics.index if site.topics else None})
    for topic in site.topics.topics if site.topics else ():
        yield from list_pages(topic_page(topic.ref.id), "topic.html", topic.ref.name, paper_list(topic.papers),
                              {"topic": topic})
    yield Page(TRENDS, "trends.html", "Trends", {"trends": site.trends})
    yield from author_index_pages(site)
    for author in site.authors:  # the people with a page
        yield from grouped_list_pages(author_page(author.ref.slug), "author.html", author.ref.full_name, by_year(author.papers),
                                      {"author": author, "own": author.ref.slug,
                                       "series": series_counts(author.papers, table)})
    yield from list_pages(PAPERS, "papers.html", "All papers", paper_list(site.papers), search=())
    shards = reading_list_shards(site)
    yield Page(READING_LIST, "reading_list.html", "Reading list",
               {"shard_count": len(shards), "names": reading_list_names(site)})
    for number, papers in enumerate(shards):
        yield Page(reading_list_data(number), "reading_list_data.json", "", {"papers": papers})
    yield from session_pages(site)
    yield Page(SEARCH, "search.html", "Search")
    yield Page(NOT_FOUND, "404.html", "Page not found")


def session_pages(site: SiteData) -> Iterator[Page]:
    """``sessions/``: upcoming sessions (soonest first), then the past ones by year (newest
    first); ``sessions/<id>/``: a session's notes, links and papers (issue 34)."""
    sessions = site.sessions
    if sessions is None:
        return
    yield Page(SESSIONS, "sessions.html", "Sessions",
               {"upcoming": sessions.upcoming, "past": sessions.past,
                "subscriptions": subscriptions(SiteUrls.from_config(site.catalog.site))})
    for view in sessions.sessions:
        yield Page(view.url, "session.html", f"{view.title_plain} ({view.date.isoformat()})", {"session": view})


def paper_pages(site: SiteData, paper: PaperView) -> Iterator[Page]:
    """The pages of one paper of ``site``: what the build plans for each paper, and what the
    preview renders again when the paper's file is saved (``serve.fast``)."""
    yield Page(paper.url, "paper.html", paper.title_plain,
               {"paper": paper, "related": site.related.get(paper.slug, ())[:RELATED_SHOWN],
                "topic": site.topics.of(paper.slug) if site.topics else None,
                "sessions": site.sessions.of(paper.slug) if site.sessions else ()})


def grouped_list_pages(url: str, template: str, title: str, groups, context: dict[str, Any],
                       size: int = PAGE_SIZE) -> Iterator[Page]:
    """The pages of a list of papers in groups (``browse.grouped_pages``): ``groups`` (this
    page's ``PaperGroup``s), ``total`` and ``pagination`` (None on one page) join ``context``."""
    total = sum(len(papers) for _, _, papers in groups)
    chunks = grouped_pages(groups, size)
    for p, chunk in zip(paginate(url, total, size), chunks):
        page_title = title if p.number == 1 else f"{title} (page {p.number} of {p.count})"
        yield Page(list_page(url, p.number), template, page_title,
                   {**context, "groups": chunk, "total": total, "pagination": p if p.count > 1 else None})


def venue_contents_pages(venue, context: dict[str, Any], size: int = PAGE_SIZE) -> Iterator[Page]:
    """A venue page as a table of contents (``derive.contents``): its tracks as groups, each
    named in the header with its proceedings' title and the page its group starts on."""
    url = venue_page(venue.ref.id)
    groups = [(c.heading, None, c.papers) for c in venue.tracks]
    starts, seen = [], 0
    for c in venue.tracks:
        starts.append(TrackLink(c.heading, c.proceedings, len(c.papers), list_page(url, seen // size + 1),
                                PaperGroup(c.heading, None, 0, ()).anchor))
        seen += len(c.papers)
    listing = paper_list(venue.papers)
    yield from grouped_list_pages(url, "venue.html", venue.ref.name, groups,
                                  {**context, "contents": tuple(starts), "own": None, "listing": listing,
                                   "controls": list_controls(listing), "order": order_words(venue.tracks)}, size)


@dataclass(frozen=True, slots=True)
class TrackLink:
    """A track in a venue page's header: its name, proceedings, papers and where its list starts."""

    name: str
    proceedings: str
    count: int
    page: str  # the list page its group starts on
    anchor: str


def year_pages(site: SiteData, table: VenueTable) -> Iterator[Page]:
    """``years/``: the years with their papers and venues; ``years/<yyyy>/``: a year's papers by venue."""
    yield Page(YEARS, "years.html", "Years", {"years": table.years})
    of_year: dict[int, list[PaperView]] = {y.year: [] for y in table.years}
    for p in site.papers:
        of_year[p.venue.year].append(p)
    for i, y in enumerate(table.years):
        newer = table.years[i - 1] if i else None
        older = table.years[i + 1] if i + 1 < len(table.years) else None
        venues = tuple(row for row in table.rows if any(c.year == y.year for c in row.cells))
        yield from grouped_list_pages(year_page(y.year), "year.html", str(y.year), by_venue(of_year[y.year], table),
                                      {"year": y, "newer": newer, "older": older, "own": None,
                                       "venues": tuple(c for row in venues for c in row.cells if c.year == y.year)})


def author_index_pages(site: SiteData) -> Iterator[Page]:
    """``authors/``: the letters with their counts and the people with the most papers;
    ``authors/<l>/``: a letter's people by family name, ``AUTHORS_PAGE_SIZE`` a page."""
    letters = author_letters(site.authors)
    nav = letter_nav(letters)
    top = tuple(sorted(site.authors, key=lambda a: (-len(a.papers), a.ref.name.casefold(), a.ref.slug))[:AUTHORS_TOP])
    yield Page(AUTHORS, "authors.html", "Authors",
               {"letters": nav, "letter": None, "authors": top, "total": len(site.authors),
                "author_count": site.author_count, "pagination": None})
    for link in nav:
        people = letters.get(link.letter, ())
        if not people:
            continue
        base = author_letter_page(link.letter)
        for p in paginate(base, len(people), AUTHORS_PAGE_SIZE):
            title = f"Authors: {link.label}" + ("" if p.number == 1 else f" (page {p.number} of {p.count})")
            yield Page(list_page(base, p.number), "authors.html", title,
                       {"letters": nav, "letter": link, "authors": tuple(people[p.first - 1:p.last]),
                        "total": len(site.authors), "author_count": site.author_count,
                        "pagination": p if p.count > 1 else None})


def shard_of(slug: str, count: int) -> int:
    """The reading-list data file that holds ``slug`` (``shardOf`` in static/js/reading-list-page.js)."""
    data = slug.encode("utf-16-le")
    h = 0
    for unit in struct.unpack(f"<{len(data) // 2}H", data):  # UTF-16 code units, as JavaScript sees them
        h = (h * 31 + unit) & 0xFFFFFFFF
    return h % count


def reading_list_shards(site: SiteData) -> list[list[PaperView]]:
    """The papers of each reading-list data file (``shard_of`` chooses the file), in catalog
    order; ``render.reading_list_records`` writes what the page needs of them."""
    count = max(1, -(-len(site.papers) // READING_LIST_SHARD))
    shards: list[list[PaperView]] = [[] for _ in range(count)]
    for p in site.papers:
        shards[shard_of(p.slug, count)].append(p)
    return shards


def reading_list_names(site: SiteData) -> dict[str, dict[str, Any]]:
    """The venues (``v``: id -> [name, full name, year]) and tags (``g``: id -> name) the
    reading list's data files name by id (``render.reading_list_record``), once, on its page;
    and each track other than the main conference as ``"<venue>/<track>"`` ("ACL 2022 Findings")."""
    venues = {v.ref.id: [v.ref.name, v.ref.full_name, v.ref.year] for v in site.venues}
    for p in site.papers:
        if p.venue.track:
            venues.setdefault(f"{p.venue.id}/{p.venue.track}", [p.venue.name, p.venue.full_name, p.venue.year])
    return {"v": venues, "g": {t.ref.id: t.ref.name for t in site.tags}}
