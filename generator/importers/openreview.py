"""Import the papers of an OpenReview venue (``import_openreview``) from the JSON its API
returns: ``GET https://api2.openreview.net/notes?content.venueid=ICLR.cc/2024/Conference``
(a venue), ``/notes?id=<id>`` (one paper) or ``/notes?forum=<id>`` (a paper and its
replies), saved to files. Input: the response object (``{"notes": [...], "count": N}``),
a bare array of notes, or one note. Both API versions are read, also mixed in one file:
API v2 wraps every content value (``"title": {"value": "…"}``; a field without ``value``
is hidden and read as absent), API v1 (``api.openreview.net``, ICLR up to 2023, NeurIPS
up to 2022) does not (``"title": "…"``). Each note becomes a ``Record`` for
``records.import_records``, which plans, checks and writes the paper and venue files.

Which notes are papers of the venue:

* accepted submissions: the decision is read off ``venueid`` and ``venue``. A venueid
  whose last part names a status (``…/Submission`` under review, ``…/Rejected_Submission``,
  ``…/Withdrawn_Submission``, ``…/Desk_Rejected_Submission``, ``…/Under_Review``) or a
  venue string that says so ("Submitted to ICLR 2024", "ICLR 2022 Submitted", "ICLR 2024
  Conference Withdrawn Submission", "… Desk Rejected Submission", "Reject") is not a paper
  of the venue: it is skipped and listed in ``report.skipped`` with the reason, also with
  ``--venue``. Deleted notes (``ddate``) are skipped too. A note with neither field can
  only be imported with ``--venue`` (otherwise "has no venue or venueid": a problem).
* replies in a forum (reviews, comments, decisions: ``replyto`` set, or ``forum`` is not
  the note's own id), as ``?forum=`` returns them, are not papers: counted per file, by
  invitation, in one ``report.skipped`` line.

Mapping of an accepted note:

* ``title`` → ``title``, as content text (LaTeX math kept, whitespace and control
  characters collapsed to single spaces). HTML in it stays text: the site shows it as typed.
* ``authors`` → ``authors`` (display names; ``authorids``, the profile ids, are not used).
  No authors (hidden) is a warning.
* ``abstract`` → the body. OpenReview abstracts are Markdown with LaTeX: kept as they are,
  with line ends made ``\\n``, trailing spaces and control characters removed and runs of
  blank lines made one.
* the venue: ``--venue ID``, else ``venues.choose_venue`` with the venue string less its
  decision words ("ICLR 2024 oral" → "ICLR 2024"; "Accepted by TMLR" → "TMLR"), or else the
  venueid's name ("ICLR.cc/2024/Conference" → "ICLR"), and the year of the venueid, else
  of the venue string, else of ``pdate`` (the publication date; journals such as TMLR). A
  track of a known conference ("NeurIPS 2023 Datasets and Benchmarks Poster") joins the
  conference's venue unless the catalog has a venue of that name; or pass ``--venue``.
* ``presentation``: the last word of the venue string when it is oral, spotlight or poster
  ("Accept (Oral)", ICML's "spotlightposter" → spotlight); ICLR 2023's "notable top 5%" →
  oral and "notable top 25%" → spotlight. Otherwise none ("NeurIPS 2022 Accept").
* links: the forum → ``https://openreview.net/forum?id=<forum>`` (openreview); ``pdf``:
  an OpenReview path (``/pdf/<hash>.pdf``) → ``https://openreview.net/pdf?id=<forum>``
  (the paper's current PDF, not one revision's file), another path → its absolute URL on
  openreview.net, an http(s) URL → itself (by host: an arXiv abstract is the arxiv link);
  ``code`` → code; ``html`` (the publisher's page of notes imported from DBLP) → by host,
  usually the venue page. Links that are not http(s) URLs are left out with a warning.
* ``keywords`` that name tags of ``tags.toml`` → ``tags`` (else tags are suggested).

Not imported: TL;DR, primary area, supplementary material, ``_bibtex``, the decision
replies of a forum (the submission's own venue fields say the same), ``cdate`` (a
submission date is not the paper's year), ``number``.

Refused, naming the file, the note (``#3 HkxLXnAcFQ``: its position in the file, from 1,
and its id), the line of its ``"id"`` and the field: a file that is not UTF-8 JSON
(line and column), a shape that is not notes, values of the wrong type, text with NUL,
lone surrogates or noncharacters, texts too long for a paper file, notes without a title.
An error response saved by mistake (``{"name": "ForbiddenError", …}``) is named as such.
Every problem of every file is reported in one run and nothing is written. A response
that holds fewer notes than its ``count`` (the query's total: the API pages at 1000) is a
warning, unless the import is given the query's other pages too (``pages_complete``). An
author "name" may be long (a whole author list in one string, split on import by
``names``); only a paper too large for its file is refused.
"""

from __future__ import annotations

import datetime
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any, Sequence

from ..content.loader import MAX_FILE_BYTES
from ..content.characters import describe_char, find_forbidden_in_file
from ..errors import Problems
from .common import clean_line
from .records import Format, Record, RecordsReport, classify_url, import_files, read_input_text
from .openreview_pages import PageShortfall, pages_complete

OPENREVIEW = Format("OpenReview", noun="note", container="venue", container_field="venue", command="openreview",
                    inputs="OpenReview")
SITE = "https://openreview.net"

MAX_TITLE = 1_000  # characters; real titles are under 250
MAX_NAME = 20_000  # characters of one author's "name": a glued list of many people is split on import
MAX_AUTHORS = 1_000
MAX_SHORT = 500  # venue, venueid, a keyword, a URL
MAX_KEYWORDS = 200
MAX_ABSTRACT_BYTES = 500_000  # a paper file holds at most MAX_FILE_BYTES; real abstracts are ~2 kB

_ID = re.compile(r"^[A-Za-z0-9_\-]{1,64}$")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
_NOT_ACCEPTED = {"submission", "submitted", "withdrawn", "withdrawal", "rejected", "reject", "rejection",
                 "retracted"}
_LEADING = re.compile(r"^\s*(?:(?:accepted|published|presented)\s+(?:by|at|in|to)\s+|proceedings\s+of\s+(?:the\s+)?)",
                      re.IGNORECASE)
_DECISION_TAIL = re.compile(r"(?:[\s,:;(\[\-\u2013\u2014]*\b(?:notable[\s-]+top[\s-]+\d+\s*%|accept(?:ed)?|(?:oral|"
                            r"spotlight|poster)\w*)[)\]]?)+\s*$", re.IGNORECASE)
_NOTABLE = re.compile(r"notable[\s-]+top[\s-]+(\d+)\s*%", re.IGNORECASE)
_LINE_ENDS = re.compile(r"\r\n|[\r\u2028\u2029\x85]")
_CONTROL = re.compile(r"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "an array" if isinstance(value, list) else "an object"


def _shown(value: str, limit: int = 60) -> str:
    return repr(value if len(value) <= limit else value[: limit - 1] + "…")


# --------------------------------------------------------------------------- one note


class _Note:
    """Reads one note's fields with their types checked; every problem names file, note,
    line and field."""

    def __init__(self, note: dict, file: str, key: str, line: int | None, problems: Problems):
        self.note, self.file, self.key, self.line, self.problems = note, file, key, line, problems
        self.ok = True
        content = note.get("content")
        if not isinstance(content, dict):
            self.problem("content", f"expected an object of fields, found {_json_type(content)}")
            content = {}
        self.content = content

    def problem(self, field: str, message: str) -> None:
        self.problems.add(self.file, f"note {self.key!r}: {message}", line=self.line, field=field)
        self.ok = False

    def raw(self, name: str) -> Any:
        """A content field's value: API v2's ``{"value": …}`` unwrapped (no ``value``: hidden)."""
        value = self.content.get(name)
        if isinstance(value, dict):
            return value.get("value")
        return value

    def _checked(self, field: str, value: Any, limit: int, what: str = "text") -> str | None:
        if value is None:
            return None
        if not isinstance(value, str):
            self.problem(field, f"expected {what}, found {_json_type(value)}")
            return None
        if len(value) > limit:
            self.problem(field, f"is too long ({len(value):,} characters; at most {limit:,})")
            return None
        bad = find_forbidden_in_file(value)
        if bad:
            self.problem(field, f"contains {describe_char(bad.group())}; remove it")
            return None
        return value

    def text(self, name: str, limit: int = MAX_SHORT) -> str | None:
        return self._checked(f"content.{name}", self.raw(name), limit)

    def texts(self, name: str, limit_items: int, limit_each: int, what: str) -> list[str]:
        """A list of texts (a single text is a list of one)."""
        value, field = self.raw(name), f"content.{name}"
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.problem(field, f"expected an array of {what}s, found {_json_type(value)}")
            return []
        if len(value) > limit_items:
            self.problem(field, f"has too many items ({len(value):,}; at most {limit_items:,})")
            return []
        items = [self._checked(f"{field}[{i}]", item, limit_each, f"a {what}") for i, item in enumerate(value)]
        return [item for item in items if item is not None]


def _abstract(text: str) -> str:
    """Markdown kept; line ends, trailing spaces, control characters and blank runs normalised."""
    text = _CONTROL.sub(" ", _LINE_ENDS.sub("\n", text))
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _year_of(ms: Any) -> int | None:
    """The year of an OpenReview timestamp (milliseconds since 1970, UTC)."""
    if isinstance(ms, bool) or not isinstance(ms, (int, float)):
        return None
    try:
        return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc).year
    except (OverflowError, OSError, ValueError):
        return None


def not_accepted(venue: str | None, venueid: str | None) -> str | None:
    """Why a submission is not a paper of its venue ("withdrawn", "rejected", …), or None."""
    for text, words in ((venueid, set(re.split(r"[\W_]+", (venueid or "").rstrip("/").rsplit("/", 1)[-1].lower()))),
                        (venue, set(re.findall(r"[a-z]+", (venue or "").lower())))):
        if not text:
            continue
        if "withdrawn" in words or "withdrawal" in words:
            return "withdrawn"
        if words & {"reject", "rejected", "rejection"}:
            return "desk rejected" if "desk" in words else "rejected"
        if "retracted" in words:
            return "retracted"
        if words & _NOT_ACCEPTED or {"under", "review"} <= words:
            return "not accepted (a submission: under review, or rejected)"
    return None


def presentation_of(venue: str | None) -> str | None:
    """oral, spotlight or poster from a venue string ("ICLR 2024 oral", "ICLR 2023 notable top 5%")."""
    if not venue:
        return None
    notable = _NOTABLE.search(venue)
    if notable:
        return {"5": "oral", "25": "spotlight"}.get(notable.group(1))
    words = re.findall(r"[a-z]+", venue.lower())
    last = words[-1] if words else ""
    return next((p for p in ("oral", "spotlight", "poster") if last.startswith(p)), None)


def _name_from_venue(venue: str) -> str | None:
    """The venue's name in a venue string, decision words left out: "ICLR 2024 oral" → "ICLR 2024"."""
    text = _DECISION_TAIL.sub("", _LEADING.sub("", " ".join(venue.split())))
    return text.strip(" ,:;-(") or None


def _name_from_venueid(venueid: str) -> str | None:
    """The venue's name in a venueid: "ICLR.cc/2024/Conference" → "ICLR"; "TMLR" → "TMLR"."""
    parts = [p for p in venueid.split("/") if p]
    years = [i for i, p in enumerate(parts) if _YEAR.fullmatch(p)]
    candidates = parts[: years[0]] if years else parts[:1]
    if not candidates:
        return None
    name = candidates[-1]
    if len(candidates) == 1 and "." in name:
        name = name.split(".", 1)[0]  # the domain of the first part: "ICLR.cc" -> "ICLR"
    name = clean_line(name.replace("_", " "))
    return name or None


def _venue_and_year(reader: _Note, venue: str | None, venueid: str | None,
                    where: str, warnings: list[str]) -> tuple[str | None, int | None, str]:
    """(container name, year, hint for "has no …" messages)."""
    id_year = next((int(part) for part in (venueid or "").split("/") if _YEAR.fullmatch(part)), None)
    match = _YEAR.search(venue or "")
    venue_year = int(match.group(1)) if match else None
    if id_year and venue_year and id_year != venue_year:
        warnings.append(f"{where}: venue {_shown(venue or '')} says {venue_year}, venueid {_shown(venueid or '')} "
                        f"says {id_year}; the venueid's year is used")
    year = id_year or venue_year or _year_of(reader.note.get("pdate"))
    container = (_name_from_venue(venue) if venue else None) or (_name_from_venueid(venueid) if venueid else None)
    hint = " or venueid" if not container else " (in its venueid, venue or pdate)"
    return container, year, hint


def _links(reader: _Note, forum: str | None) -> list[tuple[str, str, str]]:
    offers: list[tuple[str, str, str]] = []
    if forum:
        offers.append(("openreview", f"{SITE}/forum?id={forum}", "forum"))
    pdf = (reader.text("pdf") or "").strip()
    if pdf:
        if pdf.startswith("/pdf/") and forum:
            url = f"{SITE}/pdf?id={forum}"
        elif pdf.startswith("/") and not pdf.startswith("//"):
            url = SITE + pdf
        else:
            url = pdf
        offers.append(("pdf" if url.startswith(SITE + "/") else classify_url(url), url, "content.pdf"))
    code = (reader.text("code") or "").strip()
    if code:
        offers.append(("code", code, "content.code"))
    html = (reader.text("html") or "").strip()
    if html:
        offers.append((classify_url(html), html, "content.html"))
    return offers


def _record(reader: _Note, forum: str | None, venue: str | None, venueid: str | None, where: str,
            warnings: list[str]) -> Record | None:
    title = reader.text("title", MAX_TITLE)
    title = clean_line(title) if title is not None else ""
    if not title and reader.ok:
        reader.problem("content.title", "has no title")
    authors = reader.texts("authors", MAX_AUTHORS, MAX_NAME, "name")
    abstract = reader.text("abstract", MAX_ABSTRACT_BYTES)
    abstract = _abstract(abstract) if abstract else ""
    if len(abstract.encode("utf-8")) > MAX_ABSTRACT_BYTES:
        reader.problem("content.abstract", f"is too long (more than {MAX_ABSTRACT_BYTES:,} bytes)")
    keywords = reader.texts("keywords", MAX_KEYWORDS, MAX_SHORT, "keyword")
    container, year, hint = _venue_and_year(reader, venue, venueid, where, warnings)
    links = _links(reader, forum)
    size = sum(len(s.encode("utf-8")) for s in [title, abstract, *authors, *(url for _, url, _ in links)])
    if reader.ok and size > MAX_FILE_BYTES - 10_000:
        reader.problem("content", f"is too large for a paper file ({size:,} bytes of text; the site build reads "
                                  f"paper files of at most {MAX_FILE_BYTES:,} bytes)")
    if not reader.ok:
        return None
    if not any(clean_line(name) for name in authors):
        warnings.append(f"{where}: has no authors (hidden?); imported without authors")
    return Record(file=reader.file, line=reader.line, key=reader.key, title=title, authors=authors,
                  abstract=abstract, container=container, year=year,
                  keywords=", ".join(" ".join(k.split()) for k in keywords),
                  presentation=presentation_of(venue), links=links, hint=hint)


# --------------------------------------------------------------------------- a file of notes


class _Lines:
    """The line of each note's ``"id"`` in the JSON text, found in file order (linear time)."""

    def __init__(self, text: str | None):
        self.text, self.pos, self.line = text, 0, 1

    def of(self, note_id: Any) -> int | None:
        if self.text is None or not isinstance(note_id, str) or not _ID.match(note_id):
            return None
        pattern = re.compile(r'"id"\s*:\s*"' + re.escape(note_id) + '"')
        match = pattern.search(self.text, self.pos)
        if match is None:
            match = pattern.search(self.text)
            return None if match is None else self.text.count("\n", 0, match.start()) + 1
        self.line += self.text.count("\n", self.pos, match.start())
        self.pos = match.start()
        return self.line


def _notes(data: object, file: str, problems: Problems, warnings: list[str]) -> list | None:
    """The notes of a response object, a bare array or one note; None, with a problem, otherwise."""
    expected = 'expected the JSON of OpenReview notes: {"notes": [...]} as the API returns it, an array of notes'
    if isinstance(data, list):
        notes = data
    elif isinstance(data, dict) and "notes" in data:
        notes, count = data["notes"], data.get("count")
        if not isinstance(notes, list):
            problems.add(file, f"expected an array of notes, found {_json_type(notes)}", field="notes")
            return None
        if isinstance(count, int) and not isinstance(count, bool) and count > len(notes):
            warnings.append(PageShortfall.of(file, len(notes), count, notes))
    elif isinstance(data, dict) and ("content" in data or "forum" in data):
        notes = [data]
    elif isinstance(data, dict) and isinstance(data.get("name"), str) and "message" in data:
        message = data["message"] if isinstance(data["message"], str) else json.dumps(data["message"])[:200]
        problems.add(file, f"is an OpenReview error response ({_shown(data['name'])}: {_shown(message, 200)}), "
                           f"not notes; {expected}")
        return None
    else:
        keys = f" with keys {', '.join(map(_shown, list(data)[:5]))}" if isinstance(data, dict) and data else ""
        problems.add(file, f"{expected} or one note; found {_json_type(data)}{keys}")
        return None
    if not notes:
        problems.add(file, "holds no notes (is the venue id of the query right?)", field="notes")
        return None
    return notes


def records_from_notes(data: object, file: str, problems: Problems, warnings: list[str], *,
                       skipped: list[str] | None = None, text: str | None = None) -> list[Record]:
    """The records of the accepted submissions among the notes in ``data`` (parsed JSON; see the
    module docstring). Problems are added to ``problems``; notes that are not papers of their
    venue are listed in ``skipped`` (in ``warnings`` when it is None). ``text``, the JSON as
    read, gives the problems and records the line of each note's ``"id"``."""
    skipped = warnings if skipped is None else skipped
    notes = _notes(data, file, problems, warnings)
    if notes is None:
        return []
    lines = _Lines(text)
    records: list[Record] = []
    replies: Counter[str] = Counter()
    for index, note in enumerate(notes, 1):
        if not isinstance(note, dict):
            problems.add(file, f"note '#{index}': expected a note (a JSON object), found {_json_type(note)}")
            continue
        note_id, forum = note.get("id"), note.get("forum")
        usable_id = isinstance(note_id, str) and bool(_ID.match(note_id))
        key, line = (f"#{index} {note_id}" if usable_id else f"#{index}"), lines.of(note_id)
        wrong = False
        for name, value in (("id", note_id), ("forum", forum)):
            if value is None or (name == "forum" and value == note_id):
                continue
            if not isinstance(value, str):
                message = f"expected text, found {_json_type(value)}"
            elif not _ID.match(value):
                message = f"{_shown(value)} is not an OpenReview id (letters, digits, '-' and '_')"
            else:
                continue
            problems.add(file, f"note {key!r}: {message}", line=line, field=name)
            wrong = True
        if wrong:
            continue
        if note.get("replyto") or (forum and note_id and forum != note_id):
            invitations = note.get("invitations") or [note.get("invitation")]
            invitation = invitations[0] if isinstance(invitations, list) and invitations else None
            replies[invitation.rsplit("/", 1)[-1] if isinstance(invitation, str) else "reply"] += 1
            continue
        reader = _Note(note, file, key, line, problems)
        where = f"{file}:{line} ({key})" if line is not None else f"{file} ({key})"
        venue, venueid = reader.text("venue"), reader.text("venueid")
        if not reader.ok:
            continue
        reason = "deleted" if note.get("ddate") else not_accepted(venue, venueid)
        if reason is not None:
            shown = ", ".join(f"{name} {_shown(value)}" for name, value in (("venue", venue), ("venueid", venueid))
                              if value)
            skipped.append(f"{where}: {reason}" + (f" ({shown})" if shown else "") + "; not a paper of the venue")
            continue
        record = _record(reader, forum or note_id, venue, venueid, where, warnings)
        if record is not None:
            records.append(record)
    if replies:
        kinds = ", ".join(f"{kind} ×{n}" if n > 1 else kind for kind, n in sorted(replies.items()))
        n = sum(replies.values())
        skipped.append(f"{file}: {n} repl{'ies' if n != 1 else 'y'} in forums ({kinds}): not papers")
    return records


def read_notes_file(path: Path, problems: Problems) -> tuple[object, str] | None:
    """The parsed JSON of ``path`` and its text; None, with the problem added, when it cannot be read."""
    label = str(path)
    text = read_input_text(path, problems, OPENREVIEW)
    if text is None:
        return None
    if not text.strip():
        problems.add(label, "the file is empty; expected the JSON of OpenReview notes")
        return None
    try:
        return json.loads(text), text
    except json.JSONDecodeError as exc:
        problems.add(label, f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)
    except RecursionError:
        problems.add(label, "invalid JSON: nested too deeply")
    except ValueError as exc:  # a number of more than 4300 digits
        problems.add(label, f"invalid JSON: {exc}")
    return None


def import_openreview(
    files: Sequence[Path],
    content_dir: Path,
    *,
    venue: str | None = None,
    force: bool = False,
) -> RecordsReport:
    """Import the accepted papers in OpenReview JSON ``files`` into ``content_dir`` (see the
    module docstring).

    Raises ``ContentError`` — before writing anything — when any input is refused.
    """
    report = import_files(files, content_dir, OPENREVIEW, _file_records, venue=venue, force=force)
    report.warnings[:] = pages_complete(report.warnings)
    return report


def _file_records(path: Path, problems: Problems, report: RecordsReport) -> list[Record]:
    loaded = read_notes_file(path, problems)
    if loaded is None:
        return []
    data, text = loaded
    return records_from_notes(data, str(path), problems, report.warnings, skipped=report.skipped, text=text)
