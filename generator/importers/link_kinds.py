"""What a record's URLs and identifiers are: an arXiv id or a DOI as a URL, a URL's link
kind (arxiv, openreview, pdf, doi, code, venue_page) by its host and path."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

ARXIV_ID = re.compile(r"^(?:arxiv:)?((?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)$", re.IGNORECASE)
_CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org")
_DOI_PREFIX = re.compile(r"^(https?://(dx\.)?doi\.org/|doi:)", re.IGNORECASE)


def arxiv_url(identifier: str) -> str | None:
    """``https://arxiv.org/abs/<id>`` for an arXiv identifier (``2305.18436``, ``arXiv:2305.18436v2``,
    ``hep-th/9901001``), else None."""
    match = ARXIV_ID.match(identifier.strip())
    return f"https://arxiv.org/abs/{match.group(1)}" if match else None


def doi_url(doi: str) -> str:
    """``https://doi.org/<doi>`` for a DOI written bare, as ``doi:…`` or as a doi.org URL."""
    return "https://doi.org/" + _DOI_PREFIX.sub("", doi.strip())


def classify_url(url: str) -> str:
    """The link kind of a URL by its host and path: arxiv, openreview, pdf, doi, code or venue_page."""
    parts = urlsplit(url)
    host = parts.netloc.lower().removeprefix("www.")
    path = parts.path.lower()
    if host == "arxiv.org":
        return "pdf" if path.startswith("/pdf/") else "arxiv"
    if host == "openreview.net":
        return "pdf" if path.startswith("/pdf") else "openreview"
    if host in ("doi.org", "dx.doi.org") and path.startswith("/10."):
        return "doi"
    if path.endswith(".pdf"):
        return "pdf"
    if host in _CODE_HOSTS:
        return "code"
    return "venue_page"
