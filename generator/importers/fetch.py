"""``papershelf add ID...``: fetch each paper's metadata from the service its ID belongs to,
then import every record in one ``records.import_records`` call (all or nothing, as for
the file importers: nothing is written when any ID or record is refused).

IDs (``parse_paper_id``):

* arXiv: ``2305.18436``, ``arXiv:2305.18436v2``, ``hep-th/9901001``, arxiv.org ``/abs/``,
  ``/pdf/`` and ``/html/`` URLs, and arXiv's own DOIs (``10.48550/arXiv.2305.18436``) →
  one request to the arXiv API for the whole batch
  (``export.arxiv.org/api/query?id_list=a,b,…``; 100 IDs a request, 3 s apart, as arXiv
  asks), read by ``arxiv.records_from_atom``. The version is dropped: the latest is fetched.
* DOIs: ``10.xxxx/…``, ``doi:10.xxxx/…``, ``https://doi.org/10.xxxx/…`` → doi.org content
  negotiation (``Accept: application/vnd.citationstyles.csl+json``), which answers CSL-JSON
  for Crossref, DataCite and mEDRA DOIs alike (Crossref's REST API knows only Crossref's):
  one request a DOI, as the service takes one, read by ``csl.records_from_csl``.
* OpenReview: ``https://openreview.net/forum?id=X`` (or ``/pdf?id=X``), ``openreview:X``
  or a bare forum id → ``api2.openreview.net/notes?id=X``; a note that API v2 does not know
  is asked of API v1 (``api.openreview.net``: ICLR up to 2023, NeurIPS up to 2022). Read by
  ``openreview.records_from_notes``: a submission that was not accepted is skipped, as in
  ``papershelf import openreview``.

Anything else is a problem naming the argument, found before any request is made (as are an
unknown ``--venue`` and an unreadable ``tags.toml``). An ID the service does not know is a
problem naming the argument. When a service cannot be reached (offline, DNS, TLS, a
timeout, an HTTP error other than "not found") the run stops with a ``ContentError`` that
says so ("cannot reach export.arxiv.org: …; papershelf add needs the network"): no
traceback, nothing written. Every request names Papershelf in its User-Agent; answers are
read up to ``MAX_ANSWER_BYTES``.

Each record's "file" is the argument it was fetched for, so messages and the summary name
what was typed. The same paper given twice (``2305.18436`` and its URL) is fetched and
added once.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field, replace
from http.client import HTTPException
from pathlib import Path
from typing import Any, Callable, Sequence
from urllib.error import HTTPError, URLError
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit
from urllib.request import Request, urlopen

from .. import __version__
from ..errors import ContentError, Problem, Problems
from .arxiv import records_from_atom
from .common import clean_line
from .csl import parse_csl_json, records_from_csl
from .openreview import records_from_notes
from .records import ARXIV_ID, Format, Record, RecordsReport, import_records, read_catalog

ARXIV, DOI, OPENREVIEW = "arXiv", "DOI", "OpenReview"
USER_AGENT = f"Papershelf/{__version__} (research-paper catalog generator; papershelf add)"
ARXIV_API = "https://export.arxiv.org/api/query"
DOI_RESOLVER = "https://doi.org/"
OPENREVIEW_APIS = ("https://api2.openreview.net/notes", "https://api.openreview.net/notes")
CSL_JSON = "application/vnd.citationstyles.csl+json"
MAX_ANSWER_BYTES = 20_000_000
ARXIV_BATCH = 100  # IDs in one arXiv API request
ARXIV_PAUSE = 3.0  # seconds between arXiv API requests (arXiv's terms of use)
ADD = Format("papershelf add", noun="paper", container="venue (journal_ref, container-title or OpenReview venue)",
             container_field="venue")

Opener = Callable[[Request], Any]  # returns a response: ``read(n)``, optionally ``close()``

_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_\-]{5,40}$")
_BARE_OPENREVIEW_ID = re.compile(r"^(?=.*[A-Za-z])(?=.*[0-9A-Z_\-])[A-Za-z0-9_\-]{8,16}$")
_SCHEMELESS = re.compile(r"^(?:www\.|export\.|dx\.)?(?:arxiv\.org|doi\.org|openreview\.net)/", re.IGNORECASE)
_NOT_FOUND = (404, 410)


# --------------------------------------------------------------------------- IDs


@dataclass(frozen=True)
class PaperId:
    """One argument of ``papershelf add``, understood: ``service`` (``ARXIV``, ``DOI`` or
    ``OPENREVIEW``) and ``value`` (a versionless arXiv id, a DOI, an OpenReview forum id)."""

    service: str
    value: str
    argument: str


def _versionless(arxiv_id: str) -> str:
    return re.sub(r"v\d+$", "", arxiv_id)


def _arxiv(text: str, argument: str) -> PaperId | None:
    match = ARXIV_ID.match(text)
    return PaperId(ARXIV, _versionless(match.group(1)), argument) if match else None


def _doi(text: str, argument: str) -> PaperId | None:
    text = text.strip()
    arxiv_doi = _ARXIV_DOI.match(text)
    if arxiv_doi:
        return _arxiv(arxiv_doi.group(1), argument)
    return PaperId(DOI, text, argument) if _DOI.match(text) else None


def _from_url(url: str, argument: str) -> PaperId | None:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = unquote(parts.path)
    if host in ("arxiv.org", "export.arxiv.org"):
        match = re.match(r"^/(?:abs|pdf|html)/(.+?)(?:\.pdf)?/?$", path)
        return _arxiv(match.group(1), argument) if match else None
    if host in ("doi.org", "dx.doi.org"):
        return _doi(path.lstrip("/"), argument)
    if host == "openreview.net" and path.rstrip("/") in ("/forum", "/pdf", "/attachment"):
        ids = parse_qs(parts.query).get("id", [])
        return PaperId(OPENREVIEW, ids[0], argument) if len(ids) == 1 and _OPENREVIEW_ID.match(ids[0]) else None
    return None


def parse_paper_id(argument: str) -> PaperId | None:
    """What ``argument`` names (see the module docstring), or None."""
    text = argument.strip()
    if _SCHEMELESS.match(text):
        text = "https://" + text
    lowered = text.lower()
    if lowered.startswith(("https://", "http://")):
        return _from_url(text, argument)
    if lowered.startswith("doi:"):
        return _doi(text[4:], argument)
    if lowered.startswith("openreview:"):
        value = text[len("openreview:"):].strip()
        return PaperId(OPENREVIEW, value, argument) if _OPENREVIEW_ID.match(value) else None
    if text.startswith("10."):
        return _doi(text, argument)
    found = _arxiv(text, argument)
    if found is not None:
        return found
    return PaperId(OPENREVIEW, text, argument) if _BARE_OPENREVIEW_ID.match(text) else None


# --------------------------------------------------------------------------- requests


@dataclass(frozen=True)
class Answer:
    status: int  # 200, or the "not found"-like HTTP status the service answered with
    body: bytes


class Fetcher:
    """Requests through ``opener``; a service that cannot be reached stops the run."""

    def __init__(self, opener: Opener | None, timeout: float):
        self.timeout = timeout
        self.opener = opener if opener is not None else lambda request: urlopen(request, timeout=timeout)

    def get(self, url: str, accept: str, *, keep: Sequence[int] = _NOT_FOUND) -> Answer:
        """The answer to ``GET url``; an HTTP error in ``keep`` is an answer too (with its body)."""
        host = urlsplit(url).netloc
        request = Request(url, headers={"User-Agent": USER_AGENT, "Accept": accept})
        try:
            response = self.opener(request)
        except HTTPError as exc:
            if exc.code in keep:
                return Answer(exc.code, self._read(exc, host) if exc.fp is not None else b"")
            hint = "; try again later" if exc.code == 429 or exc.code >= 500 else ""
            raise self._stop(f"{host} answered HTTP {exc.code} ({clean_line(str(exc.reason))}){hint}") from None
        except (OSError, HTTPException, ValueError) as exc:
            raise self._stop(f"cannot reach {host}: {self._reason(exc)}; papershelf add needs the network") from None
        return Answer(200, self._read(response, host))

    def _read(self, response: Any, host: str) -> bytes:
        try:
            body = response.read(MAX_ANSWER_BYTES + 1)
        except (OSError, HTTPException, ValueError) as exc:
            raise self._stop(f"cannot read the answer of {host}: {self._reason(exc)}; papershelf add needs the "
                             f"network") from None
        finally:
            close = getattr(response, "close", None)
            if callable(close):
                close()
        if len(body) > MAX_ANSWER_BYTES:
            raise self._stop(f"{host} answered with more than {MAX_ANSWER_BYTES:,} bytes; refused")
        return body if isinstance(body, bytes) else bytes(body)

    def _reason(self, exc: BaseException) -> str:
        reason: object = exc.reason if isinstance(exc, URLError) else exc
        if isinstance(reason, TimeoutError):
            return f"no answer within {self.timeout:g} s"
        return clean_line(str(reason)) or type(reason).__name__

    @staticmethod
    def _stop(message: str) -> ContentError:
        return ContentError([Problem("papershelf add", None, None, message)], where="fetching the papers")


def _text(answer: Answer) -> str | None:
    try:
        return answer.body.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _shown(answer: Answer) -> str:
    """What an answer that is not what was asked for begins with: ``HTTP 200, '<!DOCTYPE html>…'``."""
    return f"HTTP {answer.status}, {clean_line(answer.body[:60].decode('utf-8', 'replace'))!r}…"


def _json(answer: Answer, file: str, what: str, problems: Problems) -> tuple[object, str] | None:
    text = _text(answer)
    try:
        if text is not None:
            return json.loads(text), text
    except (ValueError, RecursionError):
        pass
    problems.add(file, f"{what} did not answer with JSON ({_shown(answer)})")
    return None


# --------------------------------------------------------------------------- the services


def _arxiv_records(ids: list[PaperId], fetcher: Fetcher, problems: Problems,
                   warnings: list[str]) -> dict[str, list[Record]]:
    """argument → records, for the arXiv IDs (one request per ``ARXIV_BATCH`` IDs)."""
    found: dict[str, list[Record]] = {}
    for start in range(0, len(ids), ARXIV_BATCH):
        if start:
            time.sleep(ARXIV_PAUSE)
        batch = ids[start:start + ARXIV_BATCH]
        query = urlencode({"id_list": ",".join(p.value for p in batch), "max_results": len(batch)}, safe=",/")
        answer = fetcher.get(f"{ARXIV_API}?{query}", "application/atom+xml", keep=(400, *_NOT_FOUND))
        label = urlsplit(ARXIV_API).netloc
        by_id = {p.value.casefold(): p for p in batch}
        before = len(problems.items)
        for record in records_from_atom(answer.body, label, problems, warnings):
            paper = by_id.get(record.key.casefold())
            if paper is None:
                warnings.append(f"{label}: arXiv answered with {record.key}, which was not asked for; left out")
                continue
            found.setdefault(paper.argument, []).append(replace(record, file=paper.argument, line=None))
        if len(problems.items) > before:
            continue  # an error feed (or an unreadable one) already says what went wrong
        for paper in batch:
            if paper.argument not in found:
                problems.add(paper.argument, f"arXiv has no paper {paper.value}", field="id")
    return found


def _doi_records(paper: PaperId, fetcher: Fetcher, problems: Problems, warnings: list[str],
                 skipped: list[str]) -> list[Record]:
    answer = fetcher.get(DOI_RESOLVER + quote(paper.value, safe="/:;()"), CSL_JSON, keep=(*_NOT_FOUND, 406))
    if answer.status in _NOT_FOUND:
        problems.add(paper.argument, f"doi.org does not know the DOI {paper.value}", field="DOI")
        return []
    text = _text(answer)
    if answer.status == 406 or text is None or not text.lstrip().startswith(("{", "[")):
        # (doi.org sends a DOI whose agency has no CSL-JSON to its landing page: HTML)
        problems.add(paper.argument, f"doi.org has no CSL-JSON for the DOI {paper.value} (it answered "
                                     f"{_shown(answer)})", field="DOI")
        return []
    loaded = parse_csl_json(text, paper.argument, problems)
    if loaded is None:
        return []
    return [replace(record, line=None)
            for record in records_from_csl(loaded[0], paper.argument, problems, warnings, skipped=skipped)]


def _openreview_records(paper: PaperId, fetcher: Fetcher, problems: Problems, warnings: list[str],
                        skipped: list[str]) -> list[Record]:
    for api in OPENREVIEW_APIS:
        answer = fetcher.get(f"{api}?{urlencode({'id': paper.value})}", "application/json",
                             keep=(400, 403, *_NOT_FOUND))
        if answer.status == 403:
            problems.add(paper.argument, f"OpenReview does not show the note {paper.value} to readers who are not "
                                         f"logged in", field="id")
            return []
        if answer.status != 200:
            continue  # not found (400: an id it cannot read): ask the next API
        loaded = _json(answer, paper.argument, urlsplit(api).netloc, problems)
        if loaded is None:
            return []
        data, _ = loaded
        if isinstance(data, dict) and data.get("notes") == []:
            continue
        return records_from_notes(data, paper.argument, problems, warnings, skipped=skipped)
    problems.add(paper.argument, f"OpenReview has no note {paper.value}", field="id")
    return []


# --------------------------------------------------------------------------- add


@dataclass
class AddReport(RecordsReport):
    """What ``add_papers`` did; ``services`` counts the IDs asked of each service."""

    format: str = ADD.name
    services: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        n = len(self.papers)
        asked = ", ".join(f"{service}: {count}" for service, count in self.services.items())
        lines = [f"Added {n} paper{'s' if n != 1 else ''} for {self.files} ID{'s' if self.files != 1 else ''}"
                 f"{f' ({asked})' if asked else ''}: {self.counts_text()}."]
        lines.extend(self.venue_lines())
        lines.extend(self.changed_lines())
        if self.skipped:
            lines.append("Not added:")
            lines.extend(f"  - {s}" for s in self.skipped)
        lines.extend(self.notes)
        lines.extend(self.warning_lines())
        return "\n".join(lines)


def add_papers(ids: Sequence[str], content_dir: Path, *, venue: str | None = None, force: bool = False,
               opener: Opener | None = None, timeout: float = 20) -> AddReport:
    """Fetch the papers ``ids`` name and import them into ``content_dir`` (see the module
    docstring). ``opener`` makes the requests (default: ``urllib.request.urlopen`` with
    ``timeout``); tests pass one that answers from files.

    Raises ``ContentError`` — before writing anything — when an ID, a service or a record fails.
    """
    problems = Problems()
    report = AddReport(files=len(ids))
    papers: list[PaperId] = []
    seen: dict[tuple[str, str], str] = {}
    for argument in ids:
        paper = parse_paper_id(argument)
        if paper is None:
            problems.add(argument, "is not an arXiv id (2305.18436, arXiv:2305.18436v2, an arxiv.org URL), a DOI "
                                   "(10.1145/…, doi:…, a doi.org URL) or an OpenReview forum id or URL "
                                   "(openreview.net/forum?id=…)")
            continue
        # DOIs and arXiv ids ignore case; OpenReview ids do not.
        key = (paper.service, paper.value if paper.service == OPENREVIEW else paper.value.casefold())
        if key in seen:
            report.warnings.append(f"{argument}: the same paper as {seen[key]}; added once")
            continue
        seen[key] = argument
        papers.append(paper)
    if not ids:
        problems.add("papershelf add", "no IDs given")
    read_catalog(Path(content_dir), venue, problems)  # an unknown --venue stops the run before any request
    problems.raise_if_any()

    fetcher = Fetcher(opener, timeout)
    for service in (ARXIV, DOI, OPENREVIEW):
        count = sum(1 for p in papers if p.service == service)
        if count:
            report.services[service] = count
    found = _arxiv_records([p for p in papers if p.service == ARXIV], fetcher, problems, report.warnings)
    for paper in papers:
        if paper.service == DOI:
            found[paper.argument] = _doi_records(paper, fetcher, problems, report.warnings, report.skipped)
        elif paper.service == OPENREVIEW:
            found[paper.argument] = _openreview_records(paper, fetcher, problems, report.warnings, report.skipped)
    records = [record for paper in papers for record in found.get(paper.argument, [])]
    return import_records(records, Path(content_dir), report, problems, ADD, venue=venue, force=force)
