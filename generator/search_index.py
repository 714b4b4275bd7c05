"""The prebuilt search index (lunr.py) and the document store shown with results.

The browser loads ``search/index.json`` with lunr.js 2.3.9 (``lunr.Index.load``) and
``search/docs.json`` for display, so it never indexes anything itself.
"""

from __future__ import annotations

import json
import unicodedata

from lunr import lunr

from .derive import PaperView, SiteData

# Boosts: a match in the title matters most, then authors, then tags and venue.
FIELDS = (
    {"field_name": "title", "boost": 10},
    {"field_name": "authors", "boost": 5},
    {"field_name": "tags", "boost": 3},
    {"field_name": "venue", "boost": 3},
    {"field_name": "abstract", "boost": 1},
)


def fold_accents(text: str) -> str:
    """'José Müller' -> 'Jose Muller', so names match with and without accents."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def search_document(view: PaperView) -> dict[str, str]:
    names = " ".join(a.name for a in view.authors)
    folded = fold_accents(names)
    return {
        "id": view.slug,
        "title": view.title_plain,
        "authors": names if folded == names else f"{names} {folded}",
        "tags": " ".join(t.name for t in view.tags),
        "venue": f"{view.venue.name} {view.venue.full_name}",
        "abstract": view.abstract_plain,
    }


def display_record(view: PaperView) -> dict[str, object]:
    """What a search result shows; plain text only, so the page sets it with textContent."""
    return {
        "t": view.title_plain,
        "u": view.url,
        "a": [a.name for a in view.authors],
        "v": view.venue.name,
        "y": view.venue.year,
        "g": [t.name for t in view.tags],
        "s": view.abstract_plain,
    }


def build_search(site: SiteData) -> dict[str, str]:
    """The search files to write, by path relative to the site root."""
    documents = [search_document(v) for v in site.papers]
    index = lunr(ref="id", fields=list(FIELDS), documents=documents)
    docs = {v.slug: display_record(v) for v in site.papers}
    return {
        "search/index.json": json.dumps(index.serialize(), separators=(",", ":"), ensure_ascii=False),
        "search/docs.json": json.dumps(docs, separators=(",", ":"), ensure_ascii=False),
    }
