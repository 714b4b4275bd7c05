"""Paper identifiers as search keys: arXiv ids, DOIs, ACL Anthology, OpenReview and PMLR ids.

``link_keys(url)`` gives the keys of one of a paper's links (front matter ``links``);
``query_keys(query)`` the keys a query may stand for. A query whose key is a paper's finds
that paper first (``search/ids/<n>.json``, ``shards.py``). Keys are lower case:

* arXiv ``2301.01234`` (no version; ``arxiv.org/abs/2301.01234v2``, ``arXiv:2301.01234v2``),
  old style ``cs/0112017``;
* DOI ``10.18653/v1/2022.acl-long.75`` (``https://doi.org/...``, ``doi:...``);
* ACL Anthology ``2022.acl-long.75``, ``p19-1001`` (``aclanthology.org/...``, and the
  Anthology's DOIs ``10.18653/v1/<id>``);
* OpenReview ``b184e5qee`` (``openreview.net/forum?id=...``, ``/pdf?id=...``);
* PMLR ``v202/smith23a`` and ``smith23a`` (``proceedings.mlr.press/v202/smith23a.html``).

The page's twin is ``idKeys``/``queryKeys`` in static/js/search-engine.js (same patterns,
compared in tests/outputs/test_search_parity.py); ``key_file`` is the shared hash.
"""

from __future__ import annotations

import re

ARXIV_NEW = re.compile(r"(\d{4}\.\d{4,5})(?:v\d+)?", re.I)
ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf|html)/([a-z-]+(?:\.[a-z]{2})?/\d{7}|\d{4}\.\d{4,5})(?:v\d+)?", re.I)
DOI = re.compile(r"(10\.\d{4,9}/[^\s?#]+)", re.I)
ACL = re.compile(r"^(\d{4}\.[a-z0-9]+(?:-[a-z0-9]+)*\.\d+|[a-z]\d{2}-\d{4})$", re.I)
ACL_URL = re.compile(r"aclanthology\.org/(\d{4}\.[a-z0-9]+(?:-[a-z0-9]+)*\.\d+|[a-z]\d{2}-\d{4})", re.I)
OPENREVIEW_URL = re.compile(r"openreview\.net/(?:forum|pdf|attachment)\?(?:[^#\s]*&)?id=([a-z0-9_-]+)", re.I)
PMLR_URL = re.compile(r"proceedings\.mlr\.press/(v\d+)/([a-z0-9_-]+?)(?:\.html|\.pdf|/|$)", re.I)
ID_TOKEN = re.compile(r"^[a-z0-9][a-z0-9._/:-]{4,}$", re.I)
MAX_KEY = 120


def _acl_of_doi(doi: str) -> list[str]:
    m = re.match(r"10\.18653/v1/(.+)$", doi, re.I)
    return [m.group(1)] if m and ACL.match(m.group(1)) else []


def _doi(text: str) -> list[str]:
    doi = text.rstrip("/.").lower()
    if doi.endswith(".pdf"):
        doi = doi[:-4]
    return [doi, *_acl_of_doi(doi)]


def link_keys(url: str) -> list[str]:
    """The identifier keys of one link of a paper."""
    keys: list[str] = []
    if m := ARXIV_URL.search(url):
        keys.append(m.group(1).lower())
    if re.search(r"doi\.org/", url, re.I) and (m := DOI.search(url)):
        keys += _doi(m.group(1))
    if m := ACL_URL.search(url):
        keys.append(m.group(1).lower())
    if m := OPENREVIEW_URL.search(url):
        keys.append(m.group(1).lower())
    if m := PMLR_URL.search(url):
        keys += [f"{m.group(1)}/{m.group(2)}".lower(), m.group(2).lower()]
    return [k for i, k in enumerate(keys) if len(k) <= MAX_KEY and k not in keys[:i]]


def query_keys(query: str) -> list[str]:
    """The keys a query may stand for: a pasted link's, or the query as one identifier."""
    text = query.strip()
    if not text or len(text) > 300 or any(c.isspace() for c in text):
        return []
    if "://" in text or text.lower().startswith(("arxiv.org", "aclanthology.org", "openreview.net", "doi.org")):
        return link_keys(text)
    lower = text.lower()
    for prefix in ("doi:", "arxiv:"):
        if lower.startswith(prefix):
            lower = lower[len(prefix):]
    if m := DOI.fullmatch(lower):
        return _doi(m.group(1))
    if m := ARXIV_NEW.fullmatch(lower):
        return [m.group(1)]
    if ID_TOKEN.match(lower) and (any(c.isdigit() for c in lower) or text != lower):
        return [lower.rstrip("/")]
    return []


def key_file(key: str, files: int) -> int:
    """Which of ``files`` files holds a key: FNV-1a over its UTF-16 code units (search-engine.js ``hashKey``)."""
    h = 0x811C9DC5
    data = key.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        h ^= data[i] | (data[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h % max(1, files)
