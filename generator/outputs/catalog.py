"""The whole catalog as files: full BibTeX and data, a file a year, gzip; and their index.

=================================  ===================================================
``papers-<year>.bib.gz``           every paper of that year's venues, full entries
                                   (abstract, keywords, every link: it round-trips
                                   through ``papershelf import bibtex`` once unzipped)
``papers-<year>.json.gz``          the same papers as data (``papers_json`` records)
``papers.json``                    the index: site, venues, tags and these files
=================================  ===================================================

Why so (issue 25). Compressed, always: BibTeX and JSON shrink to about a third, and a URL
must not change when a catalog passes a size. A file a year, always: at 100,000 papers one
gzip file of either is ~60 MB, past Cloudflare Pages' 25 MiB a file, and a year of even the
largest field (~20,000 papers) is a few MB. The year is the venue's, so a paper's file never
changes as others are added. Each paper's full BibTeX is in the deploy once: here; its page
shows its citation entry, and a venue's file (``exports``) holds those of the venue. A
tag's papers are in their venues' files and here, where each entry's ``keywords`` names its
tags (reference managers import them as tags).

Gzip is written with mtime 0 and no file name, so a build writes the same bytes every time.
"""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterator, Mapping, Sequence

from .. import __version__
from ..derive.urls import HOME, PAPERS_JSON, SiteUrls, catalog_bib, catalog_json, tag_page, venue_bib_path, venue_page
from ..derive.views import PaperView, SiteData
from .citations import CitationIndex

JSON_FORMAT = "papershelf-catalog"
JSON_VERSION = 2  # 2: the papers in a file a year (papers-<year>.json.gz), listed in papers.json's "files"
GZIP_LEVEL = 9


@dataclass(frozen=True, slots=True)
class CatalogFile:
    """One year of the catalog: its papers' BibTeX and data files and their sizes (bytes)."""

    year: int
    papers: int
    bibtex: str  # path relative to the site root
    json: str
    bibtex_bytes: int
    json_bytes: int


def gzip_bytes(text: str) -> bytes:
    """``text`` as UTF-8, gzip: the same bytes for the same text (mtime 0, no file name)."""
    return gzip.compress(text.encode("utf-8"), compresslevel=GZIP_LEVEL, mtime=0)


def by_year(site: SiteData) -> list[tuple[int, list[PaperView]]]:
    """The papers by their venue's year, newest first; within a year by slug."""
    years: dict[int, list[PaperView]] = defaultdict(list)
    for view in site.papers:
        years[view.venue.year].append(view)
    return [(year, sorted(years[year], key=lambda v: v.slug)) for year in sorted(years, reverse=True)]


def catalog_files(site: SiteData, sizes: Mapping[str, int]) -> tuple[CatalogFile, ...]:
    """The catalog's yearly files, newest first, with their sizes from ``sizes`` (by path; 0
    when not known)."""
    return tuple(CatalogFile(year, len(views), catalog_bib(year), catalog_json(year),
                             sizes.get(catalog_bib(year), 0), sizes.get(catalog_json(year), 0))
                 for year, views in by_year(site))


def catalog_exports(site: SiteData, citations: CitationIndex) -> Iterator[tuple[str, bytes]]:
    """Every file of the whole catalog as (path, bytes), one year at a time (the texts of a
    100,000-paper catalog are ~400 MB: never all in memory), then ``papers.json``."""
    sizes: dict[str, int] = {}
    for year, views in by_year(site):
        entries = sorted((citations.for_paper(v).key, citations.for_paper(v).bibtex_full) for v in views)
        data = gzip_bytes("\n".join(entry for _, entry in entries))
        del entries
        sizes[catalog_bib(year)] = len(data)
        yield catalog_bib(year), data
        head = {"format": JSON_FORMAT, "version": JSON_VERSION, "year": year}
        data = gzip_bytes(_paper_lines_json(head, [_paper_record(v, citations) for v in views]))
        sizes[catalog_json(year)] = len(data)
        yield catalog_json(year), data
    yield PAPERS_JSON, papers_json(site, citations, catalog_files(site, sizes)).encode("utf-8")


def papers_json(site: SiteData, citations: CitationIndex, files: Sequence[CatalogFile]) -> str:
    """The catalog's index: site, venues, tags and the yearly files (docs/metadata.md)."""
    urls = citations.urls
    config = site.catalog.site
    data = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "generator": f"Papershelf {__version__}",
        "site": {
            "title": config.title,
            "description": config.description,
            "base_url": config.base_url,
            "language": config.language,
            "owner": config.owner,
            "url": urls.best(HOME),
        },
        "venues": [
            {
                "id": v.ref.id,
                "name": v.venue.name,
                "full_name": v.venue.full_name,
                "year": v.venue.year,
                "url": v.venue.url,
                "location": v.venue.location,
                "dates": v.venue.dates,
                "description": v.venue.description,
                "page": urls.best(venue_page(v.ref.id)),
                "bibtex": urls.best(venue_bib_path(v.ref.id)),
                "papers": len(v.papers),
                **({"tracks": [{"id": c.track.id, "name": c.track.name, "proceedings": c.track.proceedings,
                                "papers": len(c.papers)} for c in v.tracks]} if v.tracks else {}),
            }
            for v in site.venues
        ],
        "tags": [
            {
                "id": t.ref.id,
                "name": t.ref.name,
                "description": t.ref.description,
                "page": urls.best(tag_page(t.ref.id)),
                "papers": len(t.papers),
            }
            for t in site.tags
        ],
        "files": [_file_record(f, urls) for f in files],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _file_record(file: CatalogFile, urls: SiteUrls) -> dict[str, object]:
    return {"year": file.year, "papers": file.papers, "bibtex": urls.best(file.bibtex), "bibtex_bytes": file.bibtex_bytes,
            "json": urls.best(file.json), "json_bytes": file.json_bytes}


def _paper_lines_json(head: dict[str, object], papers: list[dict[str, object]]) -> str:
    """``head`` with a last key ``"papers"`` holding ``papers``, as compact JSON (no
    indentation: it was a third of the file) with each paper on a line of its own, so the
    file still reads and diffs a paper at a time."""
    text = _COMPACT.encode(head)[:-1]  # without its closing brace
    lines = ",\n".join(_COMPACT.encode(p) for p in papers)
    return text + (',"papers":[\n' + lines + "\n]}\n" if papers else ',"papers":[]}\n')


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _paper_record(view: PaperView, citations: CitationIndex) -> dict[str, object]:
    paper = view.paper
    citation = citations.for_paper(view)
    # Every front-matter field as written, where the paper's file is and its BibTeX key. Not
    # here, since they follow from what is (some were another copy of the paper's text):
    # plain-text title and abstract, the year (the venue's), the page (``site.url`` +
    # ``papers/<venue>/<slug>/``).
    record = {
        "slug": paper.slug,
        "title": paper.title,
        "authors": list(paper.authors),
        "venue": paper.venue,
        "tags": list(paper.tags),
        "presentation": paper.presentation,
        "links": {link.kind: link.url for link in paper.links},
        "provisional": paper.provisional,
        "added": paper.added.isoformat() if paper.added else None,
        "abstract": paper.abstract,
        "source": paper.source,
        "bibtex_key": citation.key,
    }
    # Its track and citation fields (issue 36), where the paper has them.
    for name in ("track", "pages", "editors", "publisher", "address", "month"):
        value = getattr(paper, name)
        if value:
            record[name] = list(value) if name == "editors" else value
    return record


def size_label(size: int) -> str:
    """A file's size for a link's label: "820 kB", "3.4 MB", "12 MB" (decimal units)."""
    if size < 1_000_000:
        return f"{max(1, round(size / 1000))} kB"
    if size < 10_000_000:
        return f"{size / 1e6:.1f} MB"
    return f"{round(size / 1e6)} MB"
