"""Site-wide exports: venues' BibTeX, Atom feeds, sitemap, robots.txt; the whole catalog's
BibTeX and data are ``catalog``'s (a file a year, gzip, and ``papers.json``).

``iter_exports(site, citations)`` yields these files as ``(path, text)`` (paths relative to
the site root), which the build writes as they come; ``build_exports`` collects them and the
catalog's into a dict. Nothing here writes files.

=================================  ===================================================
``venues/<id>/<id>.bib``           the papers of a venue (the entries their pages show)
``robots.txt``                     allows everything; names the sitemap when there is one
``feed.xml``                       Atom feed of the whole catalog        (absolute base only)
``venues/<id>/feed.xml``           Atom feed of a venue                   (absolute base only)
``tags/<id>/feed.xml``             Atom feed of a tag                     (absolute base only)
``sitemap.xml``                    the sitemap index of ``sitemap-<n>.xml.gz`` (absolute base only)
``sitemap-<n>.xml.gz``             every page, absolute URLs, 50,000 a file, gzip
=================================  ===================================================

Sitemaps and feeds are read by programs that fetch them on their own, so every URL in
them must be absolute: they are written only when ``base_url`` is an absolute URL
(``https://host/path/``); with a path such as ``/`` the build says so (``notes``).

Each paper's own BibTeX is in its page (the Cite section, which saves it and the RIS it
makes as files in the browser); there is no file per paper. Only the catalog's yearly files
carry the full entries (they round-trip through ``papershelf import bibtex``); a venue's
file holds its papers' citation entries, plain (a reader's import of one proceedings). A
tag has no file of its own: its papers are in their venues' files and in the catalog's,
whose ``keywords`` name their tags (issue 25: one copy of each entry, not three).

Builds are deterministic: a feed's ``updated`` is the date of its newest paper (its
``added`` date, else 1 January of its venue's year), never the time of the build.
"""

from __future__ import annotations

import datetime
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape as xml_escape  # & < > as ElementTree escapes text
from dataclasses import dataclass, replace
from typing import Iterable, Iterator, Sequence

from .. import __version__
from .atom import ATOM_NS, XML_LANG, sub as _sub, timestamp as _timestamp, xml_text
from .catalog import CatalogFile, catalog_exports, gzip_bytes, size_label
from .citations import CitationIndex, paper_date, text_as_shown
from ..derive.views import PaperView, SiteData, TagView, VenueView
from .pages import Page, plan_pages
from .session_pages import session_files
from ..derive.urls import (CATALOG_FEED, HOME, PAPERS, PAPERS_JSON, ROBOTS, SITEMAP, TAGS, SiteUrls, in_list,
                   is_folder, sitemap_part, tag_feed_path, tag_page, venue_bib_path, venue_feed_path, venue_page)

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"

FEED_LIMIT = 20  # entries per feed: the newest papers (a reader polls a feed for what is new)
SITEMAP_LIMIT = 50_000  # URLs per sitemap file (the protocol's limit)


@dataclass(frozen=True)
class ExportLink:
    """A link to an export file, for templates (``{{ base }}{{ link.url }}``)."""

    label: str  # link text
    url: str  # relative to the site root
    type: str  # MIME type
    download: bool  # offer to save rather than to open


# ---------------------------------------------------------------------------------------
# Everything
# ---------------------------------------------------------------------------------------


def build_exports(site: SiteData, citations: CitationIndex) -> dict[str, str | bytes]:
    """Every export file of the site, ``{path relative to the site root: text or bytes}``
    (the catalog's gzip files and ``papers.json`` as bytes)."""
    return {**dict(iter_exports(site, citations)), **dict(catalog_exports(site, citations))}


def iter_exports(site: SiteData, citations: CitationIndex) -> Iterator[tuple[str, str | bytes]]:
    """The exports but the catalog's (``catalog.catalog_exports``) as (path relative to the
    site root, text, or bytes for a gzip file), one at a time: the build writes each as it comes."""
    for venue in site.venues:
        yield venue_bib_path(venue.ref.id), bulk_bibtex(venue.papers, citations)
    if citations.absolute:
        yield from feeds(site, citations).items()
        yield from sitemaps(site, citations.urls).items()
    yield ROBOTS, robots_txt(citations.urls)
    yield from session_files(site.sessions, site, citations.urls)  # issue 34: the calendar and feed


def notes(citations: CitationIndex) -> list[str]:
    """What a person building the site should know about the exports."""
    if citations.absolute:
        return []
    base = citations.config.base_url
    return [
        f"sitemap.xml and the Atom feeds were not written: they need absolute URLs and base_url "
        f"{base!r} is a path. Set base_url = \"https://your.host{base}\" in site.toml or pass "
        f"--base-url https://your.host{base} to write them (and absolute canonical links)."
    ]


# ---------------------------------------------------------------------------------------
# BibTeX
# ---------------------------------------------------------------------------------------


def bulk_bibtex(views: Iterable[PaperView], citations: CitationIndex) -> str:
    """The citation entries (``Citation.bibtex``, as the pages show them) of ``views``,
    ordered by key (an empty string for no papers)."""
    pairs = sorted(((citations.for_paper(v).key, v) for v in views), key=lambda kv: kv[0])
    return "\n".join(citations.for_paper(v).bibtex for _, v in pairs)


# ---------------------------------------------------------------------------------------
# XML helpers
# ---------------------------------------------------------------------------------------


def _serialize(root: ET.Element, children: Sequence[str] = ()) -> str:
    """The XML document of ``root``, indented by two spaces.

    ``children``: more children of ``root`` after its own, already serialized (as
    ``_serialize_child`` does): a paper's feed entry is written once for all the feeds it
    is in, and the sitemap's thousands of ``<url>`` elements are written as plain text.
    """
    if not children:
        ET.indent(root, space="  ")
        return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
    # A placeholder child takes their place: "<_ />" appears nowhere else (text and
    # attribute values are escaped), and indenting gives it the tail the last one needs.
    marker = ET.SubElement(root, "_")
    try:
        ET.indent(root, space="  ")
        text = ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
    finally:
        root.remove(marker)
    return text.replace("<_ />", "\n  ".join(children), 1)


def _serialize_child(element: ET.Element) -> str:
    """``element`` as ``_serialize`` writes it as a child of the root (without its tail)."""
    ET.indent(element, space="  ", level=1)
    element.tail = None
    return ET.tostring(element, encoding="unicode")


# ---------------------------------------------------------------------------------------
# Atom feeds
# ---------------------------------------------------------------------------------------


def feeds(site: SiteData, citations: CitationIndex) -> dict[str, str]:
    """The Atom feeds of the catalog, of each venue and of each tag (absolute base only)."""
    config = site.catalog.site
    entries: dict[str, str] = {}  # one <entry> per paper, shared by the feeds it is in
    out = {CATALOG_FEED: atom_feed(site, citations, title=config.title, subtitle=config.description,
                                   feed_path=CATALOG_FEED, page_path=HOME, views=site.papers, entries=entries)}
    for venue in site.venues:
        out[venue_feed_path(venue.ref.id)] = atom_feed(
            site, citations, title=f"{venue.ref.name} · {config.title}", subtitle=venue.venue.full_name,
            feed_path=venue_feed_path(venue.ref.id), page_path=venue_page(venue.ref.id), views=venue.papers,
            entries=entries)
    for tag in site.tags:
        out[tag_feed_path(tag.ref.id)] = atom_feed(
            site, citations, title=f"{tag.ref.name} · {config.title}", subtitle=tag.ref.description,
            feed_path=tag_feed_path(tag.ref.id), page_path=tag_page(tag.ref.id), views=tag.papers, entries=entries)
    return out


def feed_order(views: Iterable[PaperView]) -> list[PaperView]:
    """Newest first (``paper_date``), then by title; at most ``FEED_LIMIT``."""
    ordered = sorted(views, key=lambda v: (-paper_date(v).toordinal(), v.title_plain.casefold(), v.slug))
    return ordered[:FEED_LIMIT]


def atom_feed(site: SiteData, citations: CitationIndex, *, title: str, subtitle: str, feed_path: str,
              page_path: str, views: Sequence[PaperView], entries: dict[str, str] | None = None) -> str:
    """One Atom feed; ``entries`` caches the serialized ``<entry>`` of each paper between feeds."""
    entries = {} if entries is None else entries
    urls = citations.urls
    assert urls.absolute_base is not None, "feeds need an absolute base URL"
    config = site.catalog.site
    ordered = feed_order(views)
    newest = max((paper_date(v) for v in ordered), default=None)
    if newest is None:  # an empty feed: the catalog's newest date, so it still does not move
        newest = max((paper_date(v) for v in site.papers), default=datetime.date(1970, 1, 1))

    feed = ET.Element("feed", {"xmlns": ATOM_NS, XML_LANG: config.language})
    _sub(feed, "id", urls.absolute(page_path))
    _sub(feed, "title", title, type="text")
    if subtitle:
        _sub(feed, "subtitle", subtitle, type="text")
    _sub(feed, "updated", _timestamp(newest))
    _sub(feed, "link", rel="self", type="application/atom+xml", href=urls.absolute(feed_path) or "")
    _sub(feed, "link", rel="alternate", type="text/html", href=urls.absolute(page_path) or "")
    author = _sub(feed, "author")  # for entries without authors (Atom requires one)
    _sub(author, "name", config.owner or config.title)
    _sub(feed, "generator", "Papershelf", version=__version__)
    texts = []
    for view in ordered:
        text = entries.get(view.slug)
        if text is None:
            text = entries[view.slug] = _serialize_child(_entry(view, citations))
        texts.append(text)
    return _serialize(feed, texts)


def _entry(view: PaperView, citations: CitationIndex) -> ET.Element:
    urls = citations.urls
    page = urls.absolute(view.url) or ""
    entry = ET.Element("entry")
    _sub(entry, "id", page)
    _sub(entry, "title", text_as_shown(view.paper.title), type="text")
    _sub(entry, "link", rel="alternate", type="text/html", href=page)
    day = _timestamp(paper_date(view))
    _sub(entry, "published", day)
    _sub(entry, "updated", day)
    for name, ref in zip(view.paper.authors, view.authors):
        author = _sub(entry, "author")
        _sub(author, "name", name)
        uri = urls.absolute(ref.url) if ref.url else ref.elsewhere  # their page here, else their own
        if uri:
            _sub(author, "uri", uri)
    for tag in view.tags:
        _sub(entry, "category", term=tag.id, label=tag.name, scheme=urls.absolute(TAGS) or "")
    for link in view.links:
        _sub(entry, "link", rel="related", href=link.url, title=link.label,
             **({"type": "application/pdf"} if link.kind == "pdf" else {}))
    if view.abstract_html:  # the abstract; a summary would only say its start again
        _sub(entry, "content", str(view.abstract_html), type="html")
    return entry


# ---------------------------------------------------------------------------------------
# Sitemap and robots.txt
# ---------------------------------------------------------------------------------------


def sitemap_pages(site: SiteData) -> list[tuple[str, datetime.date | None]]:
    """(URL relative to the root, lastmod) of every page at a folder URL (not the 404 page)."""
    pages: list[tuple[str, datetime.date | None]] = []
    for page in plan_pages(site):
        if not is_folder(page.url):
            continue
        paper = next((v for v in page.context.values() if isinstance(v, PaperView)), None)
        pages.append((page.url, paper.paper.added if paper is not None else None))
    return pages


def sitemaps(site: SiteData, urls: SiteUrls) -> dict[str, str | bytes]:
    """``sitemap.xml``, the index of the sitemaps ``sitemap-<n>.xml.gz`` (``SITEMAP_LIMIT``
    URLs each, gzip as the protocol allows: a tenth of the bytes, 26 MB less at 100,000
    papers), whatever the catalog's size: the URL search engines are given never changes."""
    pages = sitemap_pages(site)
    chunks = [pages[i : i + SITEMAP_LIMIT] for i in range(0, len(pages), SITEMAP_LIMIT)] or [[]]
    out: dict[str, str | bytes] = {}
    index = ET.Element("sitemapindex", {"xmlns": SITEMAP_NS})
    for n, chunk in enumerate(chunks, 1):
        name = sitemap_part(n)
        out[name] = gzip_bytes(_urlset(chunk, urls))
        _sub(_sub(index, "sitemap"), "loc", urls.absolute(name))
    out[SITEMAP] = _serialize(index)
    return out


def _urlset(pages: Sequence[tuple[str, datetime.date | None]], urls: SiteUrls) -> str:
    """A sitemap; its ``<url>`` elements written directly, as ``ElementTree`` would write them."""
    assert urls.absolute_base is not None, "sitemaps need an absolute base URL"
    root = ET.Element("urlset", {"xmlns": SITEMAP_NS})
    children = []
    for rel, lastmod in pages:
        loc = f"<url>\n    <loc>{xml_escape(xml_text(urls.absolute(rel) or ''))}</loc>"
        if lastmod is not None:
            loc += f"\n    <lastmod>{lastmod.isoformat()}</lastmod>"
        children.append(loc + "\n  </url>")
    return _serialize(root, children)


def robots_txt(urls: SiteUrls) -> str:
    lines = ["# Written by Papershelf.", "User-agent: *", "Disallow:"]
    if urls.absolute_base:
        lines.append(f"Sitemap: {urls.absolute(SITEMAP)}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------
# Links for the templates
# ---------------------------------------------------------------------------------------


def _collection(page: Page) -> VenueView | TagView | None:
    return next((v for v in page.context.values() if isinstance(v, (VenueView, TagView))), None)


def _is_catalog_page(page: Page) -> bool:
    """The home page and the list of all papers (each of its pages)."""
    return page.url == HOME or in_list(page.url, PAPERS)


def page_feeds(page: Page, citations: CitationIndex) -> tuple[ExportLink, ...]:
    """Feeds for ``<link rel="alternate">`` on the pages that list papers (the home page, all
    papers, a venue, a tag): the catalog's, and the venue's or tag's. (A paper's or an
    author's page, ~35,000 of them at 10,000 papers, links none: each link is ~150 bytes.)"""
    if not citations.absolute:
        return ()
    collection = _collection(page)
    if collection is None and not _is_catalog_page(page):
        return ()
    title = citations.config.title
    links = [ExportLink(f"{title}: all papers", CATALOG_FEED, "application/atom+xml", False)]
    if isinstance(collection, VenueView):
        links.append(ExportLink(f"{title}: {collection.ref.name}", venue_feed_path(collection.ref.id),
                                "application/atom+xml", False))
    elif isinstance(collection, TagView):
        links.append(ExportLink(f"{title}: {collection.ref.name}", tag_feed_path(collection.ref.id),
                                "application/atom+xml", False))
    return tuple(links)


def page_downloads(page: Page, citations: CitationIndex, files: Sequence[CatalogFile] = ()) -> tuple[ExportLink, ...]:
    """Download links of a venue, tag or all-papers page: BibTeX, Atom feed, data. The first
    page of all papers lists the catalog's yearly files (``files``: ``catalog.CatalogFile``,
    with their sizes), the other pages of the list and a tag's page link there."""
    collection = _collection(page)
    links: list[ExportLink] = []
    whole = ExportLink("BibTeX and data of the whole catalog (gzip, a file a year)", f"{PAPERS}#downloads",
                       "text/html", False)
    if isinstance(collection, VenueView):
        n, name, ident = len(collection.papers), collection.ref.name, collection.ref.id
        links.append(ExportLink(f"BibTeX for {name} ({_entries(n)})", venue_bib_path(ident), "application/x-bibtex",
                                True))
        if citations.absolute:
            links.append(ExportLink(f"Atom feed for {name}", venue_feed_path(ident), "application/atom+xml", False))
    elif isinstance(collection, TagView):
        if citations.absolute:
            links.append(ExportLink(f"Atom feed for {collection.ref.name}", tag_feed_path(collection.ref.id),
                                    "application/atom+xml", False))
        links.append(replace(whole, label="BibTeX of the whole catalog, by year (each entry names its tags in "
                                          "keywords) or by venue"))
    elif page.url == PAPERS:
        for file in files:
            links.append(ExportLink(f"BibTeX {file.year} ({_entries(file.papers)}, {size_label(file.bibtex_bytes)} gzip)",
                                    file.bibtex, "application/gzip", True))
            links.append(ExportLink(f"JSON {file.year} ({size_label(file.json_bytes)} gzip)", file.json,
                                    "application/gzip", True))
        links.append(ExportLink("The catalog's index (JSON)", PAPERS_JSON, "application/json", False))
        if citations.absolute:
            links.append(ExportLink("Atom feed of all papers", CATALOG_FEED, "application/atom+xml", False))
    elif _is_catalog_page(page):
        links.append(whole)
        if citations.absolute:
            links.append(ExportLink("Atom feed of all papers", CATALOG_FEED, "application/atom+xml", False))
    return tuple(links)


def _entries(n: int) -> str:
    return f"{n:,} entr{'y' if n == 1 else 'ies'}"
