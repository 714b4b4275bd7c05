"""Import papers from CSL-JSON (``import_csl``): Zotero's "Export → CSL JSON" (a list of
items) and what doi.org content negotiation returns for ``Accept:
application/vnd.citationstyles.csl+json`` (one item object, Crossref's "extended citeproc").
Each item becomes a ``records.Record``; ``records.import_records`` plans, checks and writes
the files, as for BibTeX (venues, tags, slugs, idempotence, kept edits, one error for all).

* Items: the file is a JSON list of objects or one object. Each problem names the file, the
  line where the item starts and the field, with the item's ``id`` (a Crossref object's
  ``DOI``; ``[index]`` without either).
  ``null`` is the same as a missing field; fields that are not read are not checked.
* ``type``: papers are ``article``, ``article-journal``, ``article-magazine``,
  ``paper-conference``, ``chapter``, ``report``, ``thesis``, ``manuscript``, ``speech``,
  ``review``, ``document`` and ``entry`` (no type: a paper), and Crossref's names for them
  (``journal-article``, ``proceedings-article``, ``posted-content`` …). Volumes (``book``,
  ``collection``, ``periodical``, Crossref's ``proceedings`` …) and what is not a paper
  (``dataset``, ``software``, ``webpage``, ``patent`` …, or a type CSL does not know) are
  skipped, and listed as such in the summary.
* ``title`` (+ Crossref's ``subtitle``) → ``title``; ``abstract`` → the body: rich text
  through ``markup.rich_text_to_content`` (``<i>`` → ``\\emph``, ``<sup>``, JATS paragraphs
  and formulas, ``$…$`` kept as math, every other character shown as typed).
* ``author`` → ``authors``: "given dropping-particle non-dropping-particle family suffix",
  or ``literal``; entities decoded. Without authors, the ``editor`` names are used (warned).
* The venue: ``container-title``, for ``paper-conference`` the ``event-title`` first (the
  conference; also the older ``event``, a string, or Crossref's ``{"name": …}``); a preprint
  without one (an arXiv identifier, or ``type`` ``article`` with a ``publisher`` such as
  bioRxiv) takes "arXiv" or its publisher. The year: ``issued`` (``date-parts``, a number
  or a string of digits; else the first four-digit year in ``raw``, ``literal`` or an EDTF
  string), else ``event-date``. The location, for a new venue: ``event-place`` (Crossref's
  event ``location``), for a ``paper-conference`` also ``publisher-place``.
* Links: an arXiv identifier in ``number`` or ``archive_location`` (written ``arXiv:…``, or
  bare when ``archive``/``publisher``/``container-title`` say arXiv) or an arXiv DOI
  (``10.48550/arXiv.…``) → ``arxiv``; any other ``DOI`` → ``doi`` (``https://doi.org/…``);
  ``URL`` by its host (``records.classify_url``) unless the identifiers already gave a link
  of its kind (``arxiv.org/abs`` with an arXiv number; a publisher's page is kept beside the
  DOI), and a doi.org ``URL`` is the DOI.
* ``keyword`` (text, or a list of words) → tags, as BibTeX ``keywords``; ``genre`` oral,
  spotlight or poster (Zotero's presentation type) → ``presentation``.
* Refused (nothing written): a file that is not UTF-8 or not JSON (file, line and column),
  another top level than a list or an object, Crossref's REST API envelope or Zotero's own
  JSON (with what to export instead), an item that is not an object, a field of the wrong
  type (text fields: text, or a list of texts as Crossref writes them; numbers where CSL
  allows them), a field given twice in an item, text longer than ``MAX_TEXT`` (``MAX_ABSTRACT`` for
  abstracts, ``MAX_NAME`` for a name, which may be a whole author list); and every problem of the core (no title, no venue or year without
  ``--venue``, a paper file larger than the build reads).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Sequence

from ..content.model import PRESENTATIONS
from ..errors import Problems
from .common import clean_line
from .markup import clean_text, decode_entities, rich_text_to_content
from .records import (ARXIV_ID, Format, Record, RecordsReport, arxiv_url, classify_url, doi_url, import_files,
                      read_input_text)

CSL = Format("CSL-JSON", noun="item", container="container-title or event-title", container_field="container-title",
             command="csl", inputs="CSL-JSON")
PAPER_TYPES = frozenset({
    "article", "article-journal", "article-magazine", "paper-conference", "chapter", "report", "thesis",
    "manuscript", "speech", "review", "review-book", "document", "entry",
    # Crossref's own type names, which its "extended citeproc" sometimes keeps:
    "journal-article", "proceedings-article", "posted-content", "book-chapter", "book-section", "dissertation",
    "report-component"})
VOLUME_TYPES = frozenset({"book", "collection", "periodical", "proceedings", "edited-book", "monograph",
                          "reference-book", "book-series", "book-set", "journal", "journal-issue", "journal-volume",
                          "proceedings-series", "report-series"})
MAX_TEXT = 2_000  # characters of a title, a name, a venue name …
MAX_ABSTRACT = 100_000
MAX_NAME = 20_000  # characters of one name part: a whole author list in one ``literal`` is split on import
_WS = re.compile(r"[ \t\n\r]*")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_ARXIV_DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)?10\.48550/arxiv\.(.+)$", re.IGNORECASE)
_FROM_ITEM: Any = object()  # Item.text: read the field from the item
_DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)?10\.\d{4,9}/\S+$", re.IGNORECASE)


class _Object(dict):
    """A JSON object that remembers the keys it was given more than once."""

    duplicates: tuple[str, ...] = ()

    @classmethod
    def from_pairs(cls, pairs: list[tuple[str, Any]]) -> "_Object":
        obj = cls(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            twice: dict[str, None] = {}
            for key, _ in pairs:
                if key in seen:
                    twice[key] = None
                seen.add(key)
            obj.duplicates = tuple(twice)
        return obj


# --------------------------------------------------------------------------- the import


def import_csl(files: Sequence[Path], content_dir: Path, *, venue: str | None = None,
               force: bool = False) -> RecordsReport:
    """Import CSL-JSON ``files`` into ``content_dir`` (see the module docstring).

    Raises ``ContentError`` — before writing anything — when any input is refused.
    """
    return import_files(files, content_dir, CSL, _file_records, venue=venue, force=force)


def _file_records(path: Path, problems: Problems, report: RecordsReport) -> list[Record]:
    loaded = read_csl(path, problems)
    if loaded is None:
        return []
    data, lines = loaded
    return records_from_csl(data, str(path), problems, report.warnings, lines=lines, skipped=report.skipped)


def read_csl(path: Path, problems: Problems) -> tuple[object, list[int]] | None:
    """The parsed JSON of ``path`` and the line where each item starts (one line for an object);
    None, with the problem added, when the file cannot be read or is not JSON."""
    text = read_input_text(path, problems, CSL)
    return None if text is None else parse_csl_json(text, str(path), problems)


def parse_csl_json(text: str, label: str, problems: Problems) -> tuple[object, list[int]] | None:
    """``text`` parsed (objects remember repeated keys), with the line of each top-level item."""
    decoder = json.JSONDecoder(object_pairs_hook=_Object.from_pairs)
    start = _WS.match(text).end()  # type: ignore[union-attr]
    if start == len(text):
        problems.add(label, "the file is empty; expected CSL-JSON: a list of items or one item object")
        return None
    lines: list[int] = []
    line, counted = 1, 0
    try:
        if text[start] != "[":
            data, end = decoder.raw_decode(text, start)
            lines.append(text.count("\n", 0, start) + 1)
        else:
            data, pos = [], _WS.match(text, start + 1).end()  # type: ignore[union-attr]
            while data or not text.startswith("]", pos):  # one item, then "," and the next, up to "]"
                line += text.count("\n", counted, pos)
                counted = pos
                item, pos = decoder.raw_decode(text, pos)
                data.append(item)
                lines.append(line)
                pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
                if text.startswith("]", pos):
                    break
                if not text.startswith(",", pos):
                    raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)
                pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
            end = pos + 1
        end = _WS.match(text, end).end()  # type: ignore[union-attr]
        if end != len(text):
            raise json.JSONDecodeError("Extra data", text, end)
    except json.JSONDecodeError as exc:
        problems.add(label, f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)
        return None
    except RecursionError:
        problems.add(label, "invalid JSON: nested too deeply", line=line)
        return None
    except ValueError as exc:  # a number of more than 4300 digits
        problems.add(label, f"invalid JSON: {str(exc).split(':')[0]}", line=line)
        return None
    return data, lines


# --------------------------------------------------------------------------- items to records


def records_from_csl(data: object, file: str, problems: Problems, warnings: list[str], *,
                     lines: Sequence[int] | None = None, skipped: list[str] | None = None) -> list[Record]:
    """The papers of parsed CSL-JSON ``data`` (a list of items, or one item object) as records.

    Problems (naming ``file``, the item's line from ``lines`` or its ``[index]``, and the field)
    go to ``problems``; items that are not papers to ``skipped`` (else to ``warnings``)."""
    first_line = lines[0] if lines else None
    if isinstance(data, dict):
        if isinstance(data.get("message"), (dict, list)) and "status" in data:
            problems.add(file, "this is a Crossref REST API response, not CSL-JSON; ask doi.org for CSL-JSON "
                               "(Accept: application/vnd.citationstyles.csl+json)", line=first_line)
            return []
        data = [data]
    if not isinstance(data, list):
        problems.add(file, f"expected CSL-JSON: a list of items or one item object, found {_kind(data)}",
                     line=first_line)
        return []
    if not data:
        problems.add(file, "no CSL-JSON items (the list is empty)", line=first_line)
        return []
    records = []
    for index, item in enumerate(data):
        line = lines[index] if lines is not None and index < len(lines) else None
        if not isinstance(item, dict):
            problems.add(file, f"item [{index}] is {_kind(item)}, not an object", line=line)
            continue
        reader = _Item(item, index, file, line, problems, warnings)
        record = reader.record(skipped if skipped is not None else warnings)
        if record is not None:
            records.append(record)
    return records


class _Item:
    """One CSL-JSON item being read: its fields checked as they are read, problems collected."""

    def __init__(self, item: dict, index: int, file: str, line: int | None, problems: Problems,
                 warnings: list[str]):
        self.item, self.file, self.line, self.problems, self.warnings = item, file, line, problems, warnings
        self.refused = False
        self.reported: set[tuple[str, str]] = set()  # (field, message): a field read twice is reported once
        ident = item.get("id", item.get("DOI"))  # Crossref's items have no id: their DOI names them
        key = clean_line(str(ident))[:200] if isinstance(ident, (str, int)) and not isinstance(ident, bool) else ""
        self.key = (f"[{index}] {key}" if line is None else key) if key else f"[{index}]"
        self.where = f"{file}:{line} ({self.key})" if line is not None else f"{file} ({self.key})"

    def problem(self, field: str, message: str) -> None:
        self.refused = True
        if (field, message) not in self.reported:
            self.reported.add((field, message))
            self.problems.add(self.file, f"item {self.key!r}: {message}", line=self.line, field=field)

    def record(self, skipped: list[str]) -> Record | None:
        item = self.item
        for name in getattr(item, "duplicates", ()):
            self.problem(name, "this field is given twice in the item")
        if "itemType" in item and "type" not in item:
            self.problem("itemType", "this is Zotero's own JSON, not CSL-JSON; export with the format 'CSL JSON'")
            return None
        kind = (self.text("type") or "").strip().lower()
        if kind and kind not in PAPER_TYPES:
            if not self.refused:
                reason = "is a volume, not a paper" if kind in VOLUME_TYPES else \
                    "is not a paper" if _known_type(kind) else "is not a type of paper CSL knows"
                skipped.append(f"{self.where}: {kind} {reason}")
            return None
        title = self.text("title", rich=True, title=True) or ""
        subtitle = self.text("subtitle", rich=True, title=True)
        if subtitle and title and subtitle.casefold() not in title.casefold():
            title = f"{title}: {subtitle}"
        abstract = self.text("abstract", rich=True, title=False, limit=MAX_ABSTRACT) or ""
        authors = self.names("author")
        if not authors:
            authors = self.names("editor")
            if authors:
                self.warnings.append(f"{self.where}: no author; the editors are listed as its authors")
        event = self.event()
        containers = [self.text("container-title"), event[0]]
        if kind in ("paper-conference", "proceedings-article"):
            containers.reverse()
        container = next((c for c in containers if c and c.strip()), None)
        links, arxiv = self.links()
        if container is None and (arxiv or kind in ("article", "posted-content")):
            container = "arXiv" if arxiv else self.text("publisher")
        year = self.year("issued") or self.year("event-date")
        location = event[1] or (self.text("publisher-place") if kind in ("paper-conference",
                                                                        "proceedings-article") else None)
        keywords = self.keywords()
        genre = (self.text("genre") or "").strip().lower()
        if self.refused:
            return None
        citation = self.citation(kind, authors)
        # the other of container-title and event name may name the track ("Findings of …" beside "ACL 2022")
        citation["track_hints"] = (*citation["track_hints"], *(c for c in containers if c and c != container))
        if self.refused:
            return None
        return Record(file=self.file, line=self.line, key=self.key, title=title, authors=authors, abstract=abstract,
                      container=container, year=year, location=location, keywords=keywords,
                      presentation=genre if genre in PRESENTATIONS else None, links=links, **citation)

    def citation(self, kind: str, authors: list[str]) -> dict:
        """Its track hints and citation fields (``Record``): collection-title and genre may name
        the track; page, editors (unless they stood in for the authors), publisher, the
        publisher's place (a conference paper's is the location already), the month issued."""
        editors = self.names("editor")
        found: dict = {
            "track_hints": tuple(t for t in (self.text("collection-title"), self.text("genre")) if t),
            "pages": self.text("page"),
            "editors": tuple(editors) if editors != authors else (),
            "publisher": self.text("publisher") if (self.text("publisher") or "").casefold() != "arxiv" else None,
            "month": self.month("issued"),
        }
        if kind not in ("paper-conference", "proceedings-article"):
            found["address"] = self.text("publisher-place")
        return found

    def month(self, name: str) -> int | None:
        value = self.item.get(name)
        parts = value.get("date-parts") if isinstance(value, dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and len(parts[0]) > 1:
            month = parts[0][1]
            if isinstance(month, str) and month.strip().isdigit():
                month = int(month)
            if isinstance(month, int) and not isinstance(month, bool) and 1 <= month <= 12:
                return month
        return None

    # ----------------------------------------------------------------------- fields

    def text(self, name: str, *, rich: bool = False, title: bool = True, limit: int = MAX_TEXT,
             value: Any = _FROM_ITEM, field: str | None = None) -> str | None:
        """A text field: text, a number (where CSL allows one), or the first text of a list
        (Crossref); rich text converted to content text, other text as one clean line."""
        value = self.item.get(name) if value is _FROM_ITEM else value
        if (not rich and type(value) is str and len(value) <= limit and value.isascii() and value.isprintable()
                and "&" not in value and "`" not in value):
            return " ".join(value.split()) or None  # the usual short field: nothing to decode or clean
        field = field or name
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = next((v for v in value if v.strip()), None)
        if value is None:
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and name in ("number", "id"):
            value = str(value)
        if not isinstance(value, str):
            self.problem(field, f"expected text, found {_kind(value)}")
            return None
        if len(value) > limit:
            self.problem(field, f"is too long ({len(value):,} characters; at most {limit:,})")
            return None
        if rich:
            return rich_text_to_content(value, title=title)
        return clean_line(decode_entities(clean_text(value))) or None

    def names(self, name: str) -> list[str]:
        value = self.item.get(name)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem(name, f"expected a list of names, found {_kind(value)}")
            return []
        found = []
        for i, person in enumerate(value):
            field = f"{name}[{i}]"
            if not isinstance(person, dict):
                self.problem(field, f"expected a name object (family, given …), found {_kind(person)}")
                continue
            parts = {p: self.text(p, value=person[p], field=f"{field}.{p}", limit=MAX_NAME)
                     if person.get(p) is not None else None
                     for p in ("literal", "given", "dropping-particle", "non-dropping-particle", "family", "suffix")}
            full = parts["literal"] or " ".join(p for k, p in parts.items() if k != "literal" and p)
            if full:
                found.append(full)
            elif not self.refused:
                self.warnings.append(f"{self.where}: {field} has no family, given or literal name; left out")
        return found

    def event(self) -> tuple[str | None, str | None]:
        """(name, place) of the event: ``event-title`` or ``event`` (text, or Crossref's object), ``event-place``."""
        value = self.item.get("event")
        name = place = None
        if isinstance(value, dict):
            name = self.text("event", value=value.get("name"), field="event.name")
            place = self.text("event", value=value.get("location"), field="event.location")
        elif value is not None:
            name = self.text("event")
        return self.text("event-title") or name, self.text("event-place") or place

    def year(self, name: str) -> int | None:
        value = self.item.get(name)
        if value is None:
            return None
        if isinstance(value, str):  # an EDTF date: "2024-05-01"
            value = {"raw": value}
        if not isinstance(value, dict):
            self.problem(name, f"expected a date object (date-parts, raw or literal), found {_kind(value)}")
            return None
        parts = value.get("date-parts")
        if parts is not None:
            if not (isinstance(parts, list) and parts and isinstance(parts[0], list)):
                self.problem(name, f"date-parts: expected a list of [year, month, day] lists, found {_kind(parts)}")
                return None
            if parts[0] and parts[0][0] is not None:
                first = parts[0][0]
                if isinstance(first, float) and first.is_integer():
                    first = int(first)
                if isinstance(first, str) and first.strip().lstrip("-").isdigit():
                    first = int(first)
                if isinstance(first, bool) or not isinstance(first, int):
                    self.problem(name, f"date-parts: expected a year, found {_kind(first)}")
                    return None
                if not 1000 <= first <= 9999:
                    self.problem(name, f"date-parts: expected a four-digit year, found {first}")
                    return None
                return first
        for key in ("raw", "literal", "edtf"):
            text = self.text(name, value=value.get(key), field=f"{name}.{key}")
            match = _YEAR.search(text or "")
            if match:
                return int(match.group(1))
        return None

    def keywords(self) -> str:
        value = self.item.get("keyword")
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = ", ".join(value)
        return self.text("keyword", value=value or None) or ""

    def links(self) -> tuple[list[tuple[str, str, str]], bool]:
        """The link offers, in order of preference, and whether the item is on arXiv."""
        offers: list[tuple[str, str, str]] = []
        says_arxiv = any("arxiv" in (self.text(f) or "").lower() for f in ("archive", "publisher", "container-title"))
        for name in ("number", "archive_location"):
            value = (self.text(name) or "").strip()
            marked = value.lower().startswith("arxiv:")
            url = arxiv_url(value) if (marked or says_arxiv) else None
            if url and not offers:
                offers.append(("arxiv", url, name))
            elif marked and not url:
                self.warnings.append(f"{self.where}: {name} {value!r} is not an arXiv identifier; ignored")
        url = (self.text("URL") or "").strip()
        doi = (self.text("DOI") or "").strip()
        if not doi and _DOI.match(url) and re.match(r"https?://(dx\.)?doi\.org/", url, re.IGNORECASE):
            doi, url = url, ""
        if doi:
            arxiv_doi = _ARXIV_DOI.match(doi)
            if arxiv_doi and ARXIV_ID.match(arxiv_doi.group(1)):
                if not offers:
                    offers.append(("arxiv", f"https://arxiv.org/abs/{arxiv_doi.group(1)}", "DOI"))
            elif _DOI.match(doi):
                offers.append(("doi", doi_url(doi), "DOI"))
            else:
                self.warnings.append(f"{self.where}: DOI {doi!r} is not a DOI (10.…/…); ignored")
        if url and (not doi or doi_url(url) != doi_url(doi)):
            kind = classify_url(url)
            if all(kind != k for k, _, _ in offers):
                offers.append((kind, url, "URL"))
        return offers, says_arxiv or any(kind == "arxiv" for kind, _, _ in offers)


def _known_type(kind: str) -> bool:
    return kind in VOLUME_TYPES or kind in {
        "article-newspaper", "bill", "broadcast", "classic", "dataset", "entry-dictionary", "entry-encyclopedia",
        "event", "figure", "graphic", "hearing", "interview", "legal_case", "legislation", "map", "motion_picture",
        "musical_score", "pamphlet", "patent", "performance", "personal_communication", "post", "post-weblog",
        "regulation", "software", "song", "standard", "treaty", "webpage", "component", "peer-review", "other",
        "reference-entry", "grant", "database"}


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"
