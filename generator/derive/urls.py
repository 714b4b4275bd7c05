"""Every path and URL of the built site, made in one place.

A *path* is relative to the site root and never starts with "/": ``""`` is the home page,
the path of a page ends in "/" (it is written as ``<path>index.html``) or names a file
(``404.html``, ``papers-2024.bib.gz``, ``reading-list/data/0.json``). ``SiteUrls`` turns a path
into a URL: the base path and the path (``/catalog/papers/x/``) for links within the
site, or the absolute URL (``https://host/catalog/papers/x/``) when ``base_url`` is one;
feeds, sitemaps and metadata need those.

===================================  ==============================================
``""``                               the home page
``papers/``  ``venues/``  ``tags/``  the lists of all papers, venues, tags, authors
``authors/``
``papers/<venue>/<slug>/``           a paper (``paper_page``), in its venue's folder
``venues/<id>/``                     a venue (``venue_page``)
``tags/<id>/``                       a tag (``tag_page``)
``authors/<bb>/<slug>/``             an author with a page (``author_page``; ``<bb>``: ``author_bucket``)
``authors/<l>/``                     the authors whose family name starts with letter ``<l>`` (``a``…``z``;
                                     ``0``: any other character: digits, other scripts; ``author_letter_page``)
``years/``, ``years/<yyyy>/``        the years, a year's papers by venue (``year_page``)
``venues/#series-<key>``             a series' row of the table of venues (``series_row``)
``topics/``, ``topics/<id>/``        the topics found in the catalog, a topic (``topic_page``)
``trends/``                          papers, tags and topics by year
``<list>page/<n>/``                  page n > 1 of a paper list (``list_page``)
``reading-list/``, ``search/``       the reading list (data in ``reading-list/data/<n>.json``), search
``404.html``                         the page for missing pages
``venues/<id>/<id>.bib``             a venue's BibTeX
``venues/<id>/feed.xml``             a venue's Atom feed, ``tags/<id>/feed.xml`` a tag's
``papers-<year>.bib.gz``             the catalog's BibTeX (``catalog_bib``) and data
``papers-<year>.json.gz``            (``catalog_json``), a file a year, gzip
``papers.json``                      the catalog's index: site, venues, tags, the files above
``feed.xml``, ``sitemap.xml``,       the catalog's Atom feed, the sitemap index (its sitemaps:
``robots.txt``                       ``sitemap-<n>.xml.gz``, 50,000 URLs each), robots.txt
===================================  ==============================================

**No folder grows past ~10,000 entries** (Netlify refuses a deploy with a folder of more
than 54,000), and no URL moves as the catalog grows: a paper's page is in its venue's
folder (a venue holds thousands of papers, not a catalog's hundred thousand); an author's
in a bucket named by the first two letters or digits of their slug (``author_bucket``: at
most 37² buckets, a few thousand authors each at 100,000 papers); beside them in ``authors/`` the 27
one-character letter pages of the index (a letter with more than a page of names pages on
in its own ``page/`` folder); ``years/`` a folder per year; the whole catalog's
exports are a file per year, always (one gzip file passes Cloudflare's 25 MiB at ~100,000
papers, and a URL must not depend on a size). ``page`` is not a venue id: ``papers/page/<n>/``
are the pages of the list of all papers (``content.schema.RESERVED_VENUE_IDS``).

Links to other sites are made here too: a paper's PDF derived from its landing page (by the host table,
``content.hosts``), OpenReview or arXiv link (``pdf_url``), a title search for a paper without one (``scholar_search``), a person's
ORCID record (``orcid_record``).

The derived views (``derive.views``: ``PaperView.url``, ``VenueRef.url``, ``TagRef.url``,
``AuthorRef.url``) give the templates these page paths by calling the functions here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping
from urllib.parse import quote, urlsplit

from ..content.hosts import host_name, pdf_of
from ..content.model import SiteConfig

# ---------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------

HOME = ""
PAPERS = "papers/"  # all papers; each paper's folder is under it
VENUES = "venues/"
TAGS = "tags/"
AUTHORS = "authors/"
READING_LIST = "reading-list/"
SEARCH = "search/"
NOT_FOUND = "404.html"
TOPICS = "topics/"
TRENDS = "trends/"
YEARS = "years/"
SESSIONS = "sessions/"  # the reading group's sessions (issue 34): sessions/<id>/ each
SESSIONS_CALENDAR = f"{SESSIONS}sessions.ics"  # iCalendar of every session (outputs.calendar)
SESSIONS_FEED = f"{SESSIONS}feed.xml"  # Atom feed of the sessions (absolute base only)


def session_page(session_id: str) -> str:
    return f"{SESSIONS}{session_id}/"


def paper_page(venue_id: str, slug: str) -> str:
    """A paper's page, in its venue's folder (slugs are unique in the whole catalog)."""
    return f"{PAPERS}{venue_id}/{slug}/"


def venue_page(venue_id: str) -> str:
    return f"{VENUES}{venue_id}/"


def tag_page(tag_id: str) -> str:
    return f"{TAGS}{tag_id}/"


BUCKET_PAD = "_"  # pads the bucket of a one-character slug: never a character of a slug


def author_bucket(slug: str) -> str:
    """The folder of an author's page under ``authors/``: the first two letters or digits of
    the slug, hyphens skipped (``"li-wei"`` -> ``"li"``, ``"a-b-c"`` -> ``"ab"``), padded with
    ``_`` for a one-character slug (``"x"`` -> ``"x_"``). Always two characters, so a bucket
    is never a one-character page of the authors' index nor its ``page/`` folder."""
    return (slug.replace("-", "")[:2] + BUCKET_PAD * 2)[:2]


def author_path(slug: str) -> str:
    """Where an author's page is below ``authors/``: ``<bucket>/<slug>`` (what the reading
    list's data gives the page's JavaScript, which fills ``author_page_at("{path}")``)."""
    return f"{author_bucket(slug)}/{slug}"


def author_page_at(path: str) -> str:
    """The page of the author at ``path`` (``author_path``) below ``authors/``."""
    return f"{AUTHORS}{path}/"


def author_page(slug: str) -> str:
    """An author's page: ``authors/<bucket>/<slug>/``. Only people with at least
    ``author_page_min_papers`` papers have one (``derive.views.AuthorRef.url``)."""
    return author_page_at(author_path(slug))


def search_for(name: str) -> str:
    """A search of this site for a person's name (``search/?q=…``, as the search page reads
    it): where a name without a page of its own links (issue 36)."""
    return f"{SEARCH}?q={quote(name, safe='')}"


LETTERS = "abcdefghijklmnopqrstuvwxyz"
OTHER_LETTER = "0"  # the letter page of family names that start with no letter a-z (digits, other scripts)


def author_letter_page(letter: str) -> str:
    """The authors whose family name starts with ``letter`` (a-z, else ``OTHER_LETTER``):
    ``authors/<l>/``. One character, so never an author bucket (two) nor ``page``."""
    if len(letter) != 1 or letter not in LETTERS + OTHER_LETTER:
        raise ValueError(f"not a letter of the authors' index: {letter!r}")
    return f"{AUTHORS}{letter}/"


def series_row(key: str) -> str:
    """A series' row of the table of venues: ``venues/#series-<key>`` (``derive.browse``)."""
    return f"{VENUES}#series-{key}"


def year_page(year: int) -> str:
    """A year's papers, by venue: ``years/2019/``."""
    return f"{YEARS}{year:04d}/"


def topic_page(topic_id: str) -> str:
    return f"{TOPICS}{topic_id}/"


def list_page(list_url: str, number: int) -> str:
    """Page ``number`` (1-based) of a paginated list whose first page is at ``list_url``."""
    return list_url if number == 1 else f"{list_url}page/{number}/"


def in_list(url: str, list_url: str) -> bool:
    """Whether ``url`` is one of the pages of the list whose first page is at ``list_url``."""
    return url == list_url or url.startswith(f"{list_url}page/")


def reading_list_data(number: int) -> str:
    """The reading list's data file ``number`` (0-based)."""
    return f"{READING_LIST}data/{number}.json"


def is_folder(url: str) -> bool:
    """Whether a page's path is a folder (the home page and paths ending in "/")."""
    return url == "" or url.endswith("/")


def output_path(url: str) -> str:
    """The file a page at ``url`` is written to: ``<url>index.html`` for a folder."""
    return url + "index.html" if is_folder(url) else url


def section(url: str) -> str:
    """The path's first segment ("papers", "tags", ...; "" for the home page)."""
    return url.split("/", 1)[0] if "/" in url else ""


# ---------------------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------------------

FEED = "feed.xml"  # an Atom feed, in the folder of what it follows
CATALOG_FEED = FEED
PAPERS_JSON = "papers.json"  # the index of the catalog's data: site, venues, tags, the yearly files


def catalog_bib(year: int) -> str:
    """The full BibTeX of the papers of one year's venues, gzip."""
    return f"papers-{year}.bib.gz"


def catalog_json(year: int) -> str:
    """The papers of one year's venues as data (``papers.json``'s records), gzip."""
    return f"papers-{year}.json.gz"
SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"


def venue_bib_path(venue_id: str) -> str:
    return f"{venue_page(venue_id)}{venue_id}.bib"


def venue_feed_path(venue_id: str) -> str:
    return f"{venue_page(venue_id)}{FEED}"


def tag_feed_path(tag_id: str) -> str:
    return f"{tag_page(tag_id)}{FEED}"


LIST_ROWS_SHARD = 16  # papers (consecutive by title) a row file of the lists holds
LIST_ROWS_FOLDER = 1000  # row files a folder of lists/ holds (the widest folder stays small)
LIST_ROWS = "lists/{k}/{n}.json.gz"  # row file n, in folder k = n // LIST_ROWS_FOLDER
LIST_VENUES = "lists/venues.json.gz"  # the venues the lists' data and rows name by index


def list_data(list_url: str) -> str:
    """A paper list's sort and filter data (``outputs.list_data``), beside its first page, gzip."""
    return f"{list_url}list.json.gz"


def list_rows(number: int) -> str:
    """Row file ``number`` (0-based: the papers ``number * LIST_ROWS_SHARD`` on by title) of the
    list items made in the browser (``outputs.list_data``), gzip."""
    return LIST_ROWS.format(k=number // LIST_ROWS_FOLDER, n=number)


def sitemap_part(number: int) -> str:
    """Sitemap file ``number`` (1-based) of the sitemap index ``sitemap.xml``, gzip."""
    return f"sitemap-{number}.xml.gz"


# ---------------------------------------------------------------------------------------
# Other sites: a paper's PDF, a title search, a person's ORCID record
# ---------------------------------------------------------------------------------------

# A title search where a paper has no PDF link; {query} is percent-encoded as JavaScript's
# encodeURIComponent does (static/js/paper-item.js fills the same pattern in the page).
SCHOLAR_SEARCH = "https://scholar.google.com/scholar?q={query}"
SCHOLAR_NAME = "Google Scholar"  # what the links to SCHOLAR_SEARCH say
ORCID_RECORD = "https://orcid.org/{id}"

PDF_FROM = ("venue_page", "doi", "openreview", "arxiv")  # the links a PDF is derived from, in order


def pdf_url(links: Mapping[str, str]) -> str | None:
    """A paper's PDF, from its links (kind -> URL): the ``pdf`` link as written, else the PDF
    its landing page gives by its host's rule (``content.hosts``: PMLR, CVF, ACL Anthology …),
    else that of its OpenReview forum (the version the venue published), else of its arXiv
    abstract."""
    if links.get("pdf"):
        return links["pdf"]
    for kind in PDF_FROM:
        found = pdf_of(links[kind]) if links.get(kind) else None
        if found:
            return found
    return None


def arxiv_pdf(url: str) -> str | None:
    """``https://arxiv.org/abs/2305.18436v2`` -> ``https://arxiv.org/pdf/2305.18436v2``; None
    for any other URL (an arXiv listing, another site)."""
    return pdf_of(url) if host_name(url) == "arXiv" else None


def openreview_pdf(url: str) -> str | None:
    """``https://openreview.net/forum?id=X`` (or ``/pdf?id=X``) -> ``https://openreview.net/pdf?id=X``."""
    return pdf_of(url) if host_name(url) == "OpenReview" else None


def scholar_search(title: str) -> str:
    """A Google Scholar search for a title (plain text), encoded as encodeURIComponent does."""
    return SCHOLAR_SEARCH.format(query=quote(title, safe="!'()*"))


def orcid_record(orcid: str) -> str:
    """The public record of an ORCID iD (``0000-0002-1825-0097``), as ORCID asks iDs to be shown."""
    return ORCID_RECORD.format(id=orcid)


# ---------------------------------------------------------------------------------------
# URLs
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SiteUrls:
    """URLs of the site's files: ``path`` (with the base path) or ``absolute`` (or None)."""

    base_path: str  # "/" or "/catalog/"
    absolute_base: str | None  # "https://host/catalog/" or None when base_url is a path

    @classmethod
    def from_config(cls, config: SiteConfig) -> "SiteUrls":
        parts = urlsplit(config.base_url)
        absolute = config.base_url if parts.scheme else None
        return cls(parts.path or "/", absolute)

    def path(self, rel: str) -> str:
        return self.base_path + rel

    def absolute(self, rel: str) -> str | None:
        return self.absolute_base + rel if self.absolute_base else None

    def best(self, rel: str) -> str:
        """Absolute when possible, else a path from the root of the host."""
        return self.absolute(rel) or self.path(rel)
