"""Import papers from BibTeX files (``papershelf import bibtex FILE.bib``).

One paper file per entry, read with bibtexparser (v2):

* ``@string`` macros and ``#`` concatenations are resolved (the month names ``jan`` …
  ``dec`` are predefined, as in BibTeX); a macro no ``@string`` defines is an error.
* ``crossref``: an entry takes the fields it lacks from the entry it names (in any of the
  files given), one level deep, as BibTeX does; the parent's ``title`` becomes the child's
  ``booktitle`` when the parent is a volume (``@proceedings``, ``@book``, ``@collection`` …;
  ``journal`` for ``@periodical``) and the parent has no ``booktitle`` itself. Fields that
  describe the parent rather than the paper (title, abstract, keywords, doi, url, eprint,
  link fields) are not inherited.
* ``@proceedings`` (and ``@periodical``) entries, and volumes that another entry names as its
  crossref, are not papers: they are skipped and listed as such in the summary.
* ``title`` → ``title``: LaTeX is kept (the site renders it), the braces that only
  protect capitals are removed (``{BERT}: Pre-training`` → ``BERT: Pre-training``),
  ``\\&``, ``\\%``, ``\\textless{}`` … become the characters themselves and ``--``/``---``
  become en/em dashes; whitespace is collapsed.
* ``author`` → ``authors``: BibTeX's name rules (``Last, First``, ``von``, ``Jr``,
  braces), LaTeX accents decoded to Unicode, written "First von Last Jr"; ``others``
  (et al.) is left out.
* the venue: ``--venue ID`` for every entry; else ``booktitle`` (or ``journal``,
  ``eventtitle``) and ``year`` (or ``date``): an existing venue with that name (short or
  full, ignoring "Proceedings of the", ordinals and the year) and year; else a known
  conference (the seed importer's list: ICLR, ICML, NeurIPS, …, by acronym or full name)
  as ``<acronym>-<year>``; else a new venue named after the booktitle. Missing venue
  files are created, existing ones are never changed.
* links: the fields our exports write (``pdf``, ``openreview``, ``arxiv``, ``code``,
  ``project``, ``venue_page``), then ``eprint`` (arXiv), ``url`` (by its host: arXiv,
  OpenReview, a ``.pdf``, GitHub/GitLab code, else the venue page) and ``doi``
  (``https://doi.org/…`` as the venue page). A ``url`` that points into this catalog's
  own site (its absolute ``base_url``) is not a link and is skipped.
* ``abstract`` → the body (LaTeX kept as for titles; each line stripped, paragraphs kept).
* ``keywords`` that name tags of ``tags.toml`` (by id or name) → ``tags``; otherwise tags
  are suggested from the title and abstract, as by the seed importer. ``tags.toml`` is
  optional: without it no tags are suggested (the summary says so).
* ``presentation`` (oral, spotlight, poster) as written by our exports.

Validation and idempotence are the seed importer's: every input is read and checked and
every planned file is validated against the paper schema before anything is written; a
paper already in the catalog (same venue and title) is matched to its file; a file that
already holds what would be written is "unchanged", one edited by hand is kept
("kept-edited") unless ``force=True``. Entries that cannot become papers (no title, no
venue or year without ``--venue``, syntax errors, duplicate keys, undefined macros) are
errors naming file, line and field; every problem of every file is reported in one run,
and nothing is written. bibtexparser's own log messages are kept off the terminal (its
failed blocks are reported as our problems, with what is missing and the entry's key).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence
from urllib.parse import urlsplit

import bibtexparser
from bibtexparser import model as bibmodel
from bibtexparser.middlewares import (
    LatexDecodingMiddleware,
    NormalizeFieldKeys,
    RemoveEnclosingMiddleware,
    ResolveStringReferencesMiddleware,
    SeparateCoAuthors,
    SplitNameParts,
)

from ..content import frontmatter
from ..content import schema
from ..text.latex import bib_text_to_content, decode_url
from ..errors import ContentError, Problem, Problems
from .seeds import (
    CREATED,
    KEPT_EDITED,
    KNOWN_VENUES,
    STATUSES,
    StatusCounts,
    UPDATED,
    _clean_line,
    _paper_slug,
    _status,
    add_author,
    paper_file_text,
    write_planned,
)
from ..content.loader import read_site_config, read_venues, title_key
from ..content.model import LINK_KINDS, PRESENTATIONS, Tag, Venue
from ..content.slugs import slugify
from ..content.taxonomy import read_taxonomy
from ..text import plain_text
from .tags import suggest_tags

CONTAINER_FIELDS = ("booktitle", "journal", "eventtitle")
# Entry types that are volumes, not papers: never imported as papers (they can be crossref parents).
CONTAINER_ONLY_TYPES = ("proceedings", "mvproceedings", "periodical")
# Entry types whose ``title`` a crossref child inherits as the field named here (biblatex's rule).
PARENT_TITLE_AS = {"proceedings": "booktitle", "mvproceedings": "booktitle", "book": "booktitle",
                   "mvbook": "booktitle", "collection": "booktitle", "mvcollection": "booktitle",
                   "reference": "booktitle", "mvreference": "booktitle", "periodical": "journal"}
# Fields a crossref child never inherits: they describe the parent itself, not the paper.
NOT_INHERITED = frozenset(("title", "crossref", "xref", "ids", "abstract", "keywords", "url", "doi", "eprint",
                           "archiveprefix", "eprinttype", "isbn", "issn", *LINK_KINDS))
# Macros every BibTeX style defines (the months); other names need an @string.
PREDEFINED_MACROS = dict(zip(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
    ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
     "November", "December")))
LINK_FIELD_NAMES = tuple(LINK_KINDS)

_ARXIV_ID = re.compile(r"^(?:arxiv:)?((?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)$", re.IGNORECASE)
_CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org")


# --------------------------------------------------------------------------- report


@dataclass(frozen=True)
class BibPaperResult:
    slug: str
    status: str  # one of import_seeds.STATUSES
    title: str
    tags: tuple[str, ...]
    file: str  # the .bib file
    key: str  # the entry's key


@dataclass
class BibImportReport(StatusCounts):
    papers: list[BibPaperResult] = field(default_factory=list)
    venues_created: list[str] = field(default_factory=list)
    venues_existing: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # entries that are not papers, and why
    notes: list[str] = field(default_factory=list)
    files: int = 0

    def summary(self) -> str:
        counts = ", ".join(f"{self.count(s)} {s}" for s in STATUSES)
        n = len(self.papers)
        lines = [f"Imported {n} paper{'s' if n != 1 else ''} from {self.files} BibTeX "
                 f"file{'s' if self.files != 1 else ''}: {counts}."]
        if self.venues_created:
            lines.append(f"Venues created: {', '.join(self.venues_created)}.")
        if self.venues_existing:
            lines.append(f"Venues already present (left as they are): {', '.join(self.venues_existing)}.")
        if self.slugs(KEPT_EDITED):
            lines.append("Kept as edited (not overwritten; use --force to replace): "
                         + ", ".join(self.slugs(KEPT_EDITED)))
        if self.slugs(UPDATED):
            lines.append("Updated: " + ", ".join(self.slugs(UPDATED)))
        if self.skipped:
            n = len(self.skipped)
            lines.append(f"Skipped {n} entr{'ies that are not papers' if n != 1 else 'y that is not a paper'}:")
            lines.extend(f"  - {s}" for s in self.skipped)
        lines.extend(self.notes)
        if self.warnings:
            lines.append(f"Warnings ({len(self.warnings)}):")
            lines.extend(f"  - {w}" for w in self.warnings)
        return "\n".join(lines)


# --------------------------------------------------------------------------- venues

_ORDINAL = re.compile(r"\b(\d+(st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b")
_PROCEEDINGS = re.compile(r"^(proceedings|proc)\.?\s+(of\s+)?(the\s+)?")


def _venue_norm(name: str, year: int | None = None) -> str:
    text = unicodedata.normalize("NFKD", name).casefold()
    text = re.sub(r"[^\w\s/]+", " ", text)
    text = " ".join(text.split())
    text = _PROCEEDINGS.sub("", text)
    text = _ORDINAL.sub(" ", text)
    if year is not None:
        text = re.sub(rf"\b{year}\b|'{str(year)[2:]}\b", " ", text)
    text = re.sub(r"\b(19|20|21)\d\d\b", " ", text)
    text = re.sub(r"\(.*?\)", " ", text)
    return " ".join(text.split())


def _known_venue(container: str) -> tuple[str, str, str | None] | None:
    """(short name, full name, URL template) of a known conference named in ``container``."""
    norm = " " + _venue_norm(container) + " "
    best: tuple[int, tuple[str, str, str | None]] | None = None
    for key, known in KNOWN_VENUES.items():
        short, full, _ = known
        full_norm = _venue_norm(full)
        tail = full_norm.rsplit("conference on ", 1)[-1]
        candidates = [full_norm] + ([tail] if len(tail.split()) >= 4 else [])
        score = max((len(c) for c in candidates if f" {c} " in norm), default=0)
        if not score and re.search(rf"(?<![\w-]){re.escape(short)}(?![\w-])", container):
            score = len(short)  # the acronym as a word, in its own capitals: "ICML"
        if score and (best is None or score > best[0]):
            best = (score, known)
    return best[1] if best else None


@dataclass
class _PlannedVenue:
    id: str
    name: str
    full_name: str
    year: int
    text: str


def _venue_file_text(name: str, full_name: str, year: int, url: str | None, location: str | None,
                     description: str) -> str:
    data: dict[str, Any] = {"name": name, "full_name": full_name, "year": year}
    if url:
        data["url"] = url
    if location:
        data["location"] = location
    return frontmatter.dump(data, description)


# --------------------------------------------------------------------------- entries


@dataclass
class _Entry:
    file: str
    line: int
    key: str
    type: str  # the entry type, lower case: "inproceedings", "proceedings", …
    raw: dict[str, str]  # field → raw LaTeX value
    decoded: dict[str, Any]  # field → decoded value (authors: list of NameParts)
    inherited: dict[str, str] = field(default_factory=dict)  # field → key of the crossref entry it came from


@dataclass
class _Planned:
    slug: str
    title: str
    venue: str
    tags: tuple[str, ...]
    content: bytes
    file: str
    key: str
    where: str


def _split_concatenation(value: str) -> list[str]:
    """The pieces of ``a # "b" # {c}`` (stripped), split at the ``#`` outside braces and quotes."""
    pieces, depth, quote, start = [], 0, False, 0
    for i, c in enumerate(value):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == '"' and depth == 0 and (i == 0 or value[i - 1] != "\\"):
            quote = not quote
        elif c == "#" and depth == 0 and not quote:
            pieces.append(value[start:i])
            start = i + 1
    pieces.append(value[start:])
    return [piece.strip() for piece in pieces]


def _resolve_concatenation(value: str, strings: dict[str, str]) -> tuple[str, list[str]]:
    """``icml # " 2024"`` → the pieces joined (bibtexparser resolves single references only),
    and the names of the macros in it that no ``@string`` (nor BibTeX itself) defines."""
    if "#" not in value:
        return value, []
    pieces = _split_concatenation(value)
    if len(pieces) == 1:
        return value, []
    out, undefined = [], []
    for piece in pieces:
        if len(piece) >= 2 and piece[0] + piece[-1] in ('""', "{}"):
            out.append(piece[1:-1])
        elif piece.lower() in strings:
            out.append(strings[piece.lower()])
        elif piece.lower() in PREDEFINED_MACROS:
            out.append(PREDEFINED_MACROS[piece.lower()])
        else:
            out.append(piece)
            if not piece.isdigit():
                undefined.append(piece)
    return "".join(out), undefined


@contextmanager
def _library_logging_captured() -> Iterator[list[logging.LogRecord]]:
    """bibtexparser logs each block it cannot parse (to stderr, through logging's last resort);
    we report those blocks ourselves, so its records are kept here instead, then the logger
    is put back as it was."""
    logger = logging.getLogger("bibtexparser")
    records: list[logging.LogRecord] = []

    class _Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = _Keep()
    saved_propagate = logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield records
    finally:
        logger.removeHandler(handler)
        logger.propagate = saved_propagate


_BLOCK_KEY = re.compile(r"\s*@\s*\w+\s*[{(]\s*([^\s,{}()=\"#%]+)")
# What BibTeX accepts as the name of a @string macro.
_MACRO_NAME = re.compile(r"[^\d\s\"#%'(),={}][^\s\"#%'(),={}]*")


def _failed_block_message(block: bibmodel.ParsingFailedBlock, text: str) -> str:
    """Why bibtexparser could not read ``block``, in words: what is missing, and where."""
    raw = block.raw or ""
    key = _BLOCK_KEY.match(raw)
    subject = f"cannot read this entry ({key.group(1)!r})" if key else "cannot read this entry"
    error = getattr(block, "error", None)
    reason = getattr(error, "abort_reason", None) or (str(error) if error is not None else "")
    reason = " ".join(reason.split()).rstrip(".")
    if reason.startswith("Unexpectedly reached end of file"):
        return f"{subject}: it is not closed — the file ends inside it (a closing brace is missing)"
    started = re.match(r"Unexpected block start: `([^`]*)`", reason)
    if started:
        where = ""
        if raw and block.start_line is not None:
            line_start = 0
            for _ in range(block.start_line):
                line_start = text.find("\n", line_start) + 1
            pos = text.find(raw, line_start)
            if pos >= 0:
                next_line = text.count("\n", 0, pos + len(raw) + 1) + 1
                where = f" on line {next_line}"
        return (f"{subject}: it is not closed — a closing brace is missing before the next entry "
                f"({started.group(1)}{where})")
    return f"{subject}: {reason[:1].lower() + reason[1:] if reason else 'syntax error'}"


def _read_bib(path: Path, problems: Problems, warnings: list[str]) -> list[_Entry]:
    label = str(path)
    try:
        raw_bytes = path.read_bytes()
    except FileNotFoundError:
        problems.add(label, "BibTeX file not found")
        return []
    except OSError as exc:
        problems.add(label, f"cannot read the file: {exc.strerror or exc}")
        return []
    try:
        text = raw_bytes.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw_bytes[: exc.start].count(b"\n") + 1
        problems.add(label, f"not UTF-8 text (byte 0x{raw_bytes[exc.start]:02x}); save the file as UTF-8", line=line)
        return []
    if "\x00" in text:
        problems.add(label, "contains NUL characters; is it a text file?")
        return []
    with _library_logging_captured():
        try:
            raw_lib = bibtexparser.parse_string(text, append_middleware=[NormalizeFieldKeys()])
        except Exception as exc:  # pragma: no cover - a bibtexparser bug, not a problem of the file
            problems.add(label, f"bibtexparser could not read the file ({type(exc).__name__}: {exc})")
            return []
        try:
            decoded_lib = bibtexparser.parse_string(
                text, append_middleware=[NormalizeFieldKeys(), LatexDecodingMiddleware(keep_braced_groups=True),
                                         SeparateCoAuthors(), SplitNameParts()])
            decoded = decoded_lib.entries_dict
        except Exception:  # pragma: no cover - decoding is a convenience; raw values still work
            decoded = {}
    for block in raw_lib.failed_blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, bibmodel.DuplicateBlockKeyBlock):
            problems.add(label, f"duplicate entry key {block.key!r}; every key must be unique in a file", line=line)
        elif isinstance(block, bibmodel.DuplicateFieldKeyBlock):
            names = ", ".join(sorted(block.duplicate_keys))
            problems.add(label, f"a field is given twice in one entry: {names}", line=line)
        else:
            problems.add(label, _failed_block_message(block, text), line=line)
    strings = {k.lower(): str(s.value) for k, s in raw_lib.strings_dict.items()}
    entries = []
    for entry in raw_lib.entries:
        raw: dict[str, str] = {}
        concatenated: set[str] = set()
        enclosing = entry.parser_metadata.get(RemoveEnclosingMiddleware.metadata_key(), {})
        resolved = set(entry.parser_metadata.get(ResolveStringReferencesMiddleware.metadata_key(), ()))
        for f in entry.fields:
            if not isinstance(f.value, str):
                continue
            raw[f.key], undefined = _resolve_concatenation(f.value, strings)
            if raw[f.key] != f.value:
                concatenated.add(f.key)
            if (enclosing.get(f.key) == "no-enclosing" and f.key not in resolved and "#" not in f.value
                    and not f.value.strip().isdigit()):
                name = f.value.strip()
                if name.lower() in PREDEFINED_MACROS:
                    raw[f.key] = PREDEFINED_MACROS[name.lower()]
                    concatenated.add(f.key)
                else:
                    undefined = [name]
            field_line = (f.start_line if f.start_line is not None else entry.start_line or 0) + 1
            for name in undefined:
                if _MACRO_NAME.fullmatch(name):
                    problems.add(label, f"entry {entry.key!r}: undefined @string macro {name!r}; define it with "
                                        f"@string{{{name} = {{…}}}} or write the text in braces",
                                 line=field_line, field=f.key)
                else:
                    problems.add(label, f"entry {entry.key!r}: cannot read the value {name!r}: it is neither in "
                                        f"braces or quotes nor a number or @string name (a comma missing "
                                        f"between fields?)", line=field_line, field=f.key)
        dec_entry = decoded.get(entry.key)
        dec = {f.key: f.value for f in dec_entry.fields} if dec_entry is not None else {}
        for key in concatenated:  # bibtexparser left "a # b" as it was: use the resolved text
            dec[key] = raw[key]
        if dec_entry is None:
            warnings.append(f"{label}:{(entry.start_line or 0) + 1}: entry {entry.key!r}: LaTeX in names and "
                            f"keywords could not be decoded; kept as written")
        entries.append(_Entry(label, (entry.start_line or 0) + 1, entry.key, entry.entry_type.lower(), raw, dec))
    if not raw_lib.entries and not raw_lib.failed_blocks:
        problems.add(label, "no BibTeX entries found (expected @inproceedings{key, title = {…}, …})")
    return entries


def _resolve_crossrefs(entries: list[_Entry], warnings: list[str]) -> dict[int, list[str]]:
    """Fill the fields each entry lacks from its ``crossref`` entry, one level deep as BibTeX
    does; a volume's ``title`` becomes the child's ``booktitle`` (``journal`` for a periodical).
    Fields that describe the parent itself (``NOT_INHERITED``) are not taken. Returns, for each
    entry referenced (by ``id``), the keys of the entries that reference it."""
    by_key: dict[tuple[str, str], _Entry] = {}
    by_key_anywhere: dict[str, _Entry] = {}
    for entry in entries:
        by_key.setdefault((entry.file, entry.key.casefold()), entry)
        by_key_anywhere.setdefault(entry.key.casefold(), entry)
    own = {id(entry): (dict(entry.raw), dict(entry.decoded)) for entry in entries}  # before inheriting
    children: dict[int, list[str]] = {}
    for entry in entries:
        ref = entry.raw.get("crossref", "").strip()
        if not ref:
            continue
        parent = by_key.get((entry.file, ref.casefold())) or by_key_anywhere.get(ref.casefold())
        if parent is None:
            warnings.append(f"{entry.file}:{entry.line} ({entry.key}): crossref {ref!r} names no entry of the "
                            f"given files; nothing is inherited")
            continue
        if parent is entry:
            continue
        children.setdefault(id(parent), []).append(entry.key)
        parent_raw, parent_decoded = own[id(parent)]
        # The parent's own booktitle (classic BibTeX style) comes before its title as booktitle.
        for name in sorted(parent_raw, key=lambda n: n == "title"):
            if name == "title":
                target = PARENT_TITLE_AS.get(parent.type)
            else:
                target = None if name in NOT_INHERITED else name
            if target is None or entry.raw.get(target, "").strip() or not parent_raw[name].strip():
                continue
            entry.raw[target] = parent_raw[name]
            entry.decoded[target] = parent_decoded.get(name, parent_raw[name])
            entry.inherited[target] = parent.key
    return children


def _authors(entry: _Entry, where: str, warnings: list[str]) -> list[str]:
    value = entry.decoded.get("author")
    names: list[str] = []
    if isinstance(value, list):
        raw_names = []
        for parts in value:
            if isinstance(parts, bibmodel.Field):  # pragma: no cover - defensive
                continue
            merged = getattr(parts, "merge_first_name_first", None)
            raw_names.append(merged if isinstance(merged, str) else str(parts))
    elif "author" in entry.raw:
        raw_names = [n for n in re.split(r"\s+and\s+", entry.raw["author"]) if n.strip()]
    else:
        raw_names = []
    for raw_name in raw_names:
        name = _clean_line(raw_name.replace("{", "").replace("}", "").replace("~", " "))
        if not name:
            continue
        if name.casefold() == "others":
            warnings.append(f"{where}: 'and others' (et al.) left out: only the names given are imported")
            continue
        add_author(names, name, where, warnings)
    return names


def _nor_crossref(entry: _Entry) -> str:
    """' (nor has its crossref 'x')' for a message about a field missing from ``entry``."""
    ref = entry.raw.get("crossref", "").strip()
    return f" (nor has its crossref {ref!r})" if ref else ""


def _year(entry: _Entry) -> int | None:
    for name in ("year", "date"):
        match = re.search(r"\b(\d{4})\b", entry.raw.get(name, ""))
        if match:
            return int(match.group(1))
    return None


def _classify_url(url: str) -> str:
    parts = urlsplit(url)
    host = parts.netloc.lower().removeprefix("www.")
    path = parts.path.lower()
    if host == "arxiv.org":
        return "pdf" if path.startswith("/pdf/") else "arxiv"
    if host == "openreview.net":
        return "pdf" if path.startswith("/pdf") else "openreview"
    if path.endswith(".pdf"):
        return "pdf"
    if host in _CODE_HOSTS:
        return "code"
    return "venue_page"


def _links(entry: _Entry, own_site: str | None, where: str, warnings: list[str]) -> list[tuple[str, str]]:
    links: dict[str, str] = {}

    def offer(kind: str, url: str, source: str) -> None:
        if not schema.is_http_url(url):
            warnings.append(f"{where}: {source} {url!r} is not an http(s) URL; ignored")
        elif url in links.values():
            pass
        elif kind in links:
            warnings.append(f"{where}: {source} {url!r} left out: the paper already has a {kind} link")
        else:
            links[kind] = url

    for kind in LINK_FIELD_NAMES:
        if entry.raw.get(kind, "").strip():
            offer(kind, decode_url(entry.raw[kind]), kind)
    eprint = decode_url(entry.raw.get("eprint", ""))
    prefix = (entry.raw.get("archiveprefix") or entry.raw.get("eprinttype") or "").strip().lower()
    if eprint:
        match = _ARXIV_ID.match(eprint)
        if match and prefix in ("", "arxiv"):
            if "arxiv" not in links:
                offer("arxiv", f"https://arxiv.org/abs/{match.group(1)}", "eprint")
        else:
            warnings.append(f"{where}: eprint {eprint!r} is not an arXiv identifier; ignored")
    url = decode_url(entry.raw.get("url", ""))
    if url and not (own_site and url.startswith(own_site)) and url not in links.values():
        offer(_classify_url(url), url, "url")
    doi = decode_url(entry.raw.get("doi", ""))
    if doi:
        doi = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", doi, flags=re.IGNORECASE)
        offer("venue_page", "https://doi.org/" + doi, "doi")
    return sorted(links.items(), key=lambda kv: LINK_KINDS.index(kv[0]))


def _tags_from_keywords(keywords: str, taxonomy: dict[str, Tag]) -> tuple[str, ...]:
    """Tag ids named by ``keywords`` (separated by commas or semicolons), in keyword order."""
    text = " ".join(keywords.split()).casefold()
    found: list[tuple[int, str]] = []
    for tag in taxonomy.values():
        for label in (tag.id, tag.name):
            match = re.search(rf"(?:^|[,;])\s*{re.escape(label.casefold())}\s*(?=$|[,;])", text)
            if match:
                found.append((match.start(), tag.id))
                break
    return tuple(tag_id for _, tag_id in sorted(found))


# --------------------------------------------------------------------------- the import


def import_bibtex(
    files: Sequence[Path],
    content_dir: Path,
    *,
    venue: str | None = None,
    force: bool = False,
) -> BibImportReport:
    """Import BibTeX ``files`` into ``content_dir`` (see the module docstring).

    Raises ``ContentError`` — before writing anything — when any input is refused.
    """
    content_dir = Path(content_dir)
    problems = Problems()
    report = BibImportReport()
    warnings = report.warnings

    # 1. Read and check every input.
    if not files:
        problems.add("bibtex", "no BibTeX files given")
    entries: list[_Entry] = []
    for path in files:
        entries.extend(_read_bib(Path(path), problems, warnings))
    parents = _resolve_crossrefs(entries, warnings)
    # A broken entry does not stop the others from being checked: every problem of every
    # file is reported in one run. Only a catalog that cannot be read stops here.
    catalog_problems = Problems()
    tags_path = content_dir / "tags.toml"
    taxonomy: dict[str, Tag] = {}
    if not (tags_path.exists() or tags_path.is_symlink()):
        # tags.toml is optional (as for the build): without it no tags are suggested.
        report.notes.append(f"No taxonomy ({tags_path} not found): no tags were suggested.")
    else:
        try:
            taxonomy = read_taxonomy(tags_path, str(tags_path))
        except ContentError as exc:
            catalog_problems.extend(exc.problems)
    venues: dict[str, Venue] = read_venues(content_dir / "venues", catalog_problems)
    if venue is not None and venue not in venues:
        known = ", ".join(sorted(venues)) or "none"
        catalog_problems.add("--venue", f"unknown venue {venue!r}; known venues: {known}", field="venue")
    own_site = None
    if (content_dir / "site.toml").is_file():
        config = read_site_config(content_dir / "site.toml", Problems())
        if config is not None and urlsplit(config.base_url).scheme:
            own_site = config.base_url
    problems.extend(catalog_problems.items)
    if catalog_problems or not files:
        problems.raise_if_any()
    report.files = len(files)

    # 2. Plan every file.
    papers_dir = content_dir / "papers"
    venues_dir = content_dir / "venues"
    existing = _existing_papers(papers_dir)
    used_slugs = set(existing.values()) | _existing_slugs(papers_dir)
    planned: list[_Planned] = []
    new_venues: dict[str, _PlannedVenue] = {}
    seen: dict[tuple[str, str], str] = {}
    for entry in entries:
        where = f"{entry.file}:{entry.line} ({entry.key})"
        if entry.type in CONTAINER_ONLY_TYPES or (id(entry) in parents and entry.type in PARENT_TITLE_AS):
            used_by = parents.get(id(entry))
            report.skipped.append(f"{where}: @{entry.type} is a volume, not a paper"
                                  + (f" (crossref of {', '.join(map(repr, used_by))})" if used_by else ""))
            continue
        title = bib_text_to_content(entry.raw.get("title", ""), title=True)
        if not title:
            problems.add(entry.file, f"entry {entry.key!r} has no title", line=entry.line, field="title")
            continue
        venue_id = _choose_venue(entry, venue, venues, new_venues, problems, warnings, where)
        if venue_id is None:
            continue
        key = (venue_id, title_key(title))
        if key in seen:
            warnings.append(f"{where}: same title and venue as {seen[key]}; imported once")
            continue
        seen[key] = where
        authors = _authors(entry, where, warnings)
        abstract = bib_text_to_content(entry.raw.get("abstract", ""), title=False)
        plain_title, plain_abstract = plain_text(title), plain_text(abstract)
        keywords = entry.decoded.get("keywords")
        tags = _tags_from_keywords(keywords if isinstance(keywords, str) else entry.raw.get("keywords", ""), taxonomy)
        if not tags and taxonomy:
            tags = suggest_tags(plain_title, plain_abstract, taxonomy)
        presentation = entry.raw.get("presentation", "").strip().lower() or None
        if presentation is not None and presentation not in PRESENTATIONS:
            warnings.append(f"{where}: presentation {presentation!r} is not one of {', '.join(PRESENTATIONS)}; "
                            f"ignored")
            presentation = None
        links = _links(entry, own_site, where, warnings)
        slug = existing.get(key)
        if slug is None:
            slug = _paper_slug(plain_title, f"{entry.key} paper", used_slugs)
            used_slugs.add(slug)
        text = paper_file_text(title=title, authors=authors, venue=venue_id, tags=tags, abstract=abstract,
                               presentation=presentation, links=links)
        _validate(text, slug, where, problems)
        planned.append(_Planned(slug, title, venue_id, tags, text.encode("utf-8"), entry.file, entry.key, where))
    problems.raise_if_any()

    # 3. Compare with what is on disk.
    actions: list[tuple[Path, bytes]] = []
    for paper in planned:
        target = papers_dir / f"{paper.slug}.md"
        status = _status(target, paper.content, force, problems)
        if status == KEPT_EDITED:
            warnings.append(f"papers/{paper.slug}.md: differs from the import (edited by hand?); kept as it is — "
                            f"use --force to overwrite it")
        if status in (CREATED, UPDATED):
            actions.append((target, paper.content))
        report.papers.append(BibPaperResult(paper.slug, status, paper.title, paper.tags, paper.file, paper.key))
    for venue_id in dict.fromkeys(p.venue for p in planned):
        planned_venue = new_venues.get(venue_id)
        target = venues_dir / f"{venue_id}.md"
        if planned_venue is None or target.exists() or target.is_symlink():
            report.venues_existing.append(venue_id)
        else:
            report.venues_created.append(venue_id)
            actions.append((target, planned_venue.text.encode("utf-8")))
    # 4. Write.
    write_planned(actions, (papers_dir, venues_dir), problems)
    return report


def _choose_venue(entry: _Entry, forced: str | None, venues: dict[str, Venue], new_venues: dict[str, _PlannedVenue],
                  problems: Problems, warnings: list[str], where: str) -> str | None:
    year = _year(entry)
    if forced is not None:
        if year is not None and year != venues[forced].year:
            warnings.append(f"{where}: year {year} differs from the year of venue {forced!r} "
                            f"({venues[forced].year}); the venue is used")
        return forced
    container = next((entry.decoded.get(f) or entry.raw.get(f) for f in CONTAINER_FIELDS
                      if (entry.decoded.get(f) or entry.raw.get(f) or "").strip()), None)
    if not isinstance(container, str) or not container.strip():
        problems.add(entry.file, f"entry {entry.key!r} has no booktitle or journal{_nor_crossref(entry)} to take "
                                 f"the venue from; pass --venue ID", line=entry.line, field="booktitle")
        return None
    container = _clean_line(container.replace("{", "").replace("}", ""))
    if year is None:
        problems.add(entry.file, f"entry {entry.key!r} has no year{_nor_crossref(entry)}; add one or pass --venue ID",
                     line=entry.line, field="year")
        return None
    norm = _venue_norm(container, year)
    candidates = [(v.id, v.name, v.full_name, v.year) for v in venues.values()]
    candidates += [(v.id, v.name, v.full_name, v.year) for v in new_venues.values()]
    for vid, name, full_name, venue_year in candidates:
        if venue_year == year and norm in (_venue_norm(full_name, year), _venue_norm(name, year)):
            return vid
    known = _known_venue(container)
    if known is not None:
        short, full, url_template = known
        vid = slugify(f"{short} {year}")
        if vid in venues or vid in new_venues:
            return vid
        name, full_name = f"{short} {year}", f"{full} {year}"
        url = url_template.format(year=year) if url_template else None
        description = f"Papers presented at {name}, the {full}."
    else:
        name = full_name = container if str(year) in container else f"{container} {year}"
        vid = slugify(full_name) or f"venue-{year}"
        if vid in venues:
            # Another venue already has this id (a different name): do not mix them.
            n = 2
            while f"{vid[:75]}-{n}" in venues or f"{vid[:75]}-{n}" in new_venues:
                n += 1
            vid = f"{vid[:75]}-{n}"
        url = None
        description = f"Papers presented at {name}."
    if vid not in new_venues:
        location = entry.decoded.get("address") or None
        location = _clean_line(location) if isinstance(location, str) else None
        new_venues[vid] = _PlannedVenue(vid, name, full_name, year,
                                        _venue_file_text(name, full_name, year, url, location, description))
    return vid


def _validate(text: str, slug: str, where: str, problems: Problems) -> None:
    """The planned file must load: the same schema as the build."""
    label = f"papers/{slug}.md"
    try:
        fm = frontmatter.parse(text, label)
    except frontmatter.FrontMatterError as exc:  # pragma: no cover - our own dump
        problems.add(where, f"would write an unreadable file: {exc.problem.message}")
        return
    scratch = Problems()
    schema.check_fields(fm.data, schema.PAPER_FIELDS, file=label, line_of=fm.line_of, problems=scratch)
    for problem in scratch.items:
        problems.extend([Problem(where, None, problem.field, problem.message)])


def _existing_papers(papers_dir: Path) -> dict[tuple[str, str], str]:
    """(venue id, title key) → slug of the paper files already in the catalog."""
    found: dict[tuple[str, str], str] = {}
    if not papers_dir.is_dir():
        return found
    for path in sorted(papers_dir.glob("*.md")):
        if path.name.startswith("."):
            continue
        try:
            fm = frontmatter.parse(path.read_text(encoding="utf-8"), path.name)
        except (OSError, UnicodeDecodeError, frontmatter.FrontMatterError):
            continue
        title, venue = fm.data.get("title"), fm.data.get("venue")
        if isinstance(title, str) and isinstance(venue, str):
            found.setdefault((venue, title_key(title)), path.stem)
    return found


def _existing_slugs(papers_dir: Path) -> set[str]:
    if not papers_dir.is_dir():
        return set()
    return {path.stem for path in papers_dir.iterdir()}
