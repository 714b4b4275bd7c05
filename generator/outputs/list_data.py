"""The data that sorts and filters a paper list in the browser without its other pages (issue 32).

A list page shows ``pages.PAGE_SIZE`` papers by title and links its other pages (no
JavaScript needed). Sorting or filtering the whole list in the browser used to fetch every
page of it: megabytes for the list of all papers at 100,000. Instead, static/js/list.js
fetches two kinds of small files, gzip (as the search's numbered files: ``gzip_bytes``):

``<list>/list.json.gz`` (``urls.list_data``), one per paper list with controls (venue, tag,
topic, all papers), and one for every tag (a tag filter on another list reads a tag's file):

- ``n``: how many papers; ``o``: their ordinals (a paper's place in the catalog by title,
  ``PaperView.title_rank``), ascending, as gaps (the first is the ordinal itself): the list
  by title, the server's order; runs of 1 compress to nothing (all papers: ~0.5 kB).
- ``v``: each paper's venue as an index into ``lists/venues.json.gz`` (``urls.LIST_VENUES``:
  the catalog's venues in the venue order, ``PaperView.venue_rank``, each ``[id, name,
  year]``, one file that the rows name venues by too) (when the list sorts by venue or year).
- ``P``: ``PRESENTATIONS``; ``p``: each paper's presentation, a digit a paper: its index in
  ``P``, or ``len(P)`` for none (when the list sorts or filters by presentation).
- ``A``: the dates papers were added, newest first; ``a``: each paper's index into ``A``,
  ``len(A)`` for undated (when the list sorts by date added).

Every sort of the lists' control is "a group, then title" (``pages.sort_ranks``), so the
order of the columns (by title) and a stable sort by the group give the server's order. A
tag filter keeps the papers whose ordinal is in the tag's own list file (``o``).

``lists/<k>/<n>.json.gz`` (``urls.list_rows``): the rows of ``ROW_SHARD`` consecutive
ordinals, ``n = ordinal // ROW_SHARD``: what a list item shows, each row ``[badge index
(into lists/venues.json.gz: the venues, then each track's badge, "ACL 2022 Findings"),
slug, plain title, authors, presentation digit, provisional (0/1), PDF URL or "", title
HTML]`` (the last only when it holds markup: math; not for a title's escaped quotes). list.js
builds the list page's item from it (the markup of partials/paper_item.html) and fetches
only the rows of the papers it shows: at most ``PAGE_SIZE`` files for a page of results.

The authors (``byline_record``) are the byline the server renders (``render.byline``,
partials/byline.html: every name, each linked as partials/author_name.html links it),
each author one entry: the name alone where their page is at ``name_path(name)`` (most
names: as the search's records say 1), ``[name, path]`` for a page elsewhere below
``authors/`` (namesakes, non-ASCII names), ``[name, 0, url]`` for a person with no page
here but their own (``AuthorRef.elsewhere``), ``[name]`` for a name with none (a search of
the site for it); a ``0`` between entries is the fold: the names after it are in the
byline's <details> ("and N more"). No authors: ``[]``.

Each paper costs about 8 bytes (gzip) a list it is on, and ~110 bytes of rows; the sizes
are deterministic (same catalog, same bytes).
"""

from __future__ import annotations

import gzip
import html
import json
from typing import Iterator

from ..content.model import PRESENTATIONS
from ..derive.urls import LIST_ROWS_SHARD as ROW_SHARD
from ..derive.urls import LIST_VENUES, PAPERS, list_data, list_rows, tag_page, topic_page, venue_page
from ..derive.views import AuthorRef, PaperList, PaperView, SiteData, paper_list
from .catalog import gzip_bytes
from .pages import SORT_ADDED, SORT_PRESENTATION, SORT_VENUE, SORT_YEAR, list_controls
from .render import byline
from .search.shards import name_path


def paper_lists(site: SiteData) -> Iterator[tuple[str, PaperList]]:
    """Every paper list that pages.plan_pages pages with controls, by its first page's URL."""
    for venue in site.venues:
        if not venue.tracks:  # a venue of tracks is a table of contents, without controls
            yield venue_page(venue.ref.id), paper_list(venue.papers)
    for tag in site.tags:
        yield tag_page(tag.ref.id), paper_list(tag.papers, own_tag=tag.ref.id)
    for topic in site.topics.topics if site.topics else ():
        yield topic_page(topic.ref.id), paper_list(topic.papers)
    yield PAPERS, paper_list(site.papers)


def presentation_digit(paper: PaperView) -> int:
    return PRESENTATIONS.index(paper.presentation) if paper.presentation in PRESENTATIONS else len(PRESENTATIONS)


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def list_record(listing: PaperList, venue_index: dict[str, int]) -> dict:
    """The data of one list (see the module's doc), as a JSON-ready dict."""
    papers = listing.papers
    controls = list_controls(listing)
    sorts = set(controls.sorts)
    gaps, last = [], 0
    for i, p in enumerate(papers):
        gaps.append(p.title_rank - last if i else p.title_rank)
        last = p.title_rank
    record: dict = {"n": len(papers), "o": gaps, "P": list(PRESENTATIONS)}
    if sorts & {SORT_VENUE, SORT_YEAR}:
        record["v"] = [venue_index[p.venue.id] for p in papers]
    if SORT_PRESENTATION in sorts or controls.presentations:
        record["p"] = "".join(str(presentation_digit(p)) for p in papers)
    if SORT_ADDED in sorts:
        dates = sorted({p.paper.added for p in papers if p.paper.added}, reverse=True)
        at = {d: i for i, d in enumerate(dates)}
        record["A"] = [d.isoformat() for d in dates]
        record["a"] = [at.get(p.paper.added, len(dates)) if p.paper.added else len(dates) for p in papers]
    return record


def author_record(a: AuthorRef) -> str | list:
    """One name of a row's byline (see the module's doc), linked as partials/author_name.html links it."""
    if a.path:
        return a.name if a.path == name_path(a.name) else [a.name, a.path]
    if a.elsewhere:
        return [a.name, 0, a.elsewhere]
    return [a.name]  # a search of the site for the name (AuthorRef.search_url)


def byline_record(p: PaperView) -> list:
    """The authors of a row: the server's byline (``render.byline``), the fold a ``0``."""
    shown = byline(p)
    record = [author_record(a) for a in shown.head]
    if shown.tail:
        record.append(0)
        record.extend(author_record(a) for a in shown.tail)
    return record


def badge_key(p: PaperView) -> str | tuple[str, str]:
    """The entry of ``lists/venues.json.gz`` that badges ``p``: its venue, or its venue's track
    ("ACL 2022 Findings": a track's paper is never badged as the main conference)."""
    return (p.venue.id, p.venue.track) if p.venue.track else p.venue.id


def row_record(p: PaperView, badge_index: dict) -> list:
    row = [badge_index[badge_key(p)], p.slug, p.title_plain, byline_record(p), presentation_digit(p),
           1 if p.provisional else 0, p.pdf_url or ""]
    if html.unescape(str(p.title_html)) != p.title_plain:  # markup (math), not only escaped quotes
        row.append(str(p.title_html))
    return row


def build_list_data(site: SiteData) -> Iterator[tuple[str, bytes]]:
    """Every list's data file and the row files, by path, gzip."""
    venues = _venue_order(site)
    venue_index = {v.ref.id: i for i, v in enumerate(venues)}  # the venue sort's order
    entries = [[v.ref.id, v.ref.name, v.ref.year] for v in venues]
    badge_index: dict = dict(venue_index)  # ... then each track's badge, after the venues
    for p in site.papers:
        if badge_key(p) not in badge_index:
            badge_index[badge_key(p)] = len(entries)
            entries.append([p.venue.id, p.venue.name, p.venue.year])
    yield LIST_VENUES, gzip_bytes(_json(entries))
    tags = {tag_page(tag.ref.id) for tag in site.tags}
    for url, listing in paper_lists(site):
        if url in tags or list_controls(listing).shown:  # a tag's for the tag filter of other lists
            yield list_data(url), gzip_bytes(_json(list_record(listing, venue_index)))
    papers = site.papers
    for start in range(0, len(papers), ROW_SHARD):
        rows = [row_record(p, badge_index) for p in papers[start:start + ROW_SHARD]]
        yield list_rows(start // ROW_SHARD), gzip_bytes(_json(rows))


def _venue_order(site: SiteData) -> list:
    """The venues in the order of the venue sort (``PaperView.venue_rank``: the catalog's venue order)."""
    return list(site.venues)


def read_list_data(data: bytes, venues: bytes) -> dict:
    """A list's data file read back as list.js reads it (for the tests and bench/list_bytes):
    the record, ``V`` the venues' file joined, ``ordinals`` the gaps of ``o`` added up."""
    record = json.loads(gzip.decompress(data))
    record["V"] = json.loads(gzip.decompress(venues))
    at, ordinals = 0, []
    for i, gap in enumerate(record["o"]):
        at = at + gap if i else gap
        ordinals.append(at)
    record["ordinals"] = ordinals
    return record
