"""Read BibTeX files into entries (``read_bib``, ``resolve_crossrefs``), with bibtexparser (v2):

* ``@string`` macros and ``#`` concatenations are resolved (the month names ``jan`` …
  ``dec`` are predefined, as in BibTeX); a macro no ``@string`` defines is an error.
* ``crossref``: an entry takes the fields it lacks from the entry it names (in any of the
  files given), one level deep, as BibTeX does; the parent's ``title`` becomes the child's
  ``booktitle`` when the parent is a volume (``@proceedings``, ``@book``, ``@collection`` …;
  ``journal`` for ``@periodical``) and the parent has no ``booktitle`` itself. Fields that
  describe the parent rather than the paper (title, abstract, keywords, doi, url, eprint,
  link fields) are not inherited.
* Syntax errors, duplicate keys and fields, and undefined macros are problems naming file,
  line and field. bibtexparser's own log messages are kept off the terminal (its failed
  blocks are reported as our problems, with what is missing and the entry's key).
"""

from __future__ import annotations

import copy
import logging
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import bibtexparser
from bibtexparser import model as bibmodel
from bibtexparser.exceptions import PartialMiddlewareException
from bibtexparser.model import MiddlewareErrorBlock
from bibtexparser.middlewares import (
    LatexDecodingMiddleware,
    NormalizeFieldKeys,
    RemoveEnclosingMiddleware,
    ResolveStringReferencesMiddleware,
    SeparateCoAuthors,
    SplitNameParts,
)

from ..content.model import LINK_KINDS
from ..content.characters import decode_utf8
from ..errors import Problems

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


@dataclass
class Entry:
    """One BibTeX entry: where it is, its raw and decoded fields, and what it inherited."""

    file: str
    line: int
    key: str
    type: str  # the entry type, lower case: "inproceedings", "proceedings", …
    raw: dict[str, str]  # field → raw LaTeX value
    decoded: dict[str, Any]  # field → decoded value (authors: list of NameParts)
    inherited: dict[str, str] = field(default_factory=dict)  # field → key of the crossref entry it came from


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


# Fields read as decoded text (names, venue names, keywords, a crossref parent's title); the
# rest (abstracts above all) are read from the raw LaTeX, and pylatexenc, which costs
# milliseconds a field, is not asked to decode them. Text without LaTeX needs no decoding either.
DECODED_FIELDS = frozenset({"author", "editor", "title", "booktitle", "journal", "eventtitle", "address",
                            "keywords", "publisher", "series", "organization", "institution", "school"})
_LATEX_SYNTAX = re.compile(r"[\\{}$~%&^_`\"]|--|''")


class _FieldsDecoding(LatexDecodingMiddleware):
    """``LatexDecodingMiddleware`` for the ``DECODED_FIELDS`` that hold LaTeX only."""

    def transform_entry(self, entry, library):  # type: ignore[no-untyped-def]
        errors = []
        for f in entry.fields:
            if isinstance(f.value, str) and f.key.lower() in DECODED_FIELDS and _LATEX_SYNTAX.search(f.value):
                enclosing = f.enclosing
                f.value, error = self._transform_python_value_string(f.value)
                f.enclosing = enclosing
                errors.append(error)
        errors = [e for e in errors if e]
        return MiddlewareErrorBlock(block=entry, error=PartialMiddlewareException(errors)) if errors else entry


def read_bib(path: Path, problems: Problems, warnings: list[str]) -> list[Entry]:
    label = str(path)
    try:
        raw_bytes = path.read_bytes()
    except FileNotFoundError:
        problems.add(label, "BibTeX file not found")
        return []
    except OSError as exc:
        problems.add(label, f"cannot read the file: {exc.strerror or exc}")
        return []
    text = decode_utf8(raw_bytes, label, problems)
    if text is None:
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
            # The decoded fields: the same parse, decoded on a copy (parsing twice cost as much again).
            decoded_lib = copy.deepcopy(raw_lib)
            for middleware in (_FieldsDecoding(keep_braced_groups=True), SeparateCoAuthors(), SplitNameParts()):
                decoded_lib = middleware.transform(decoded_lib)
            decoded = decoded_lib.entries_dict
        except Exception:  # pragma: no cover - decoding is a convenience; raw values still work
            decoded = {}
    _report_failed_blocks(raw_lib.failed_blocks, text, label, problems)
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
        entries.append(Entry(label, (entry.start_line or 0) + 1, entry.key, entry.entry_type.lower(), raw, dec))
    if not raw_lib.entries and not raw_lib.failed_blocks:
        problems.add(label, "no BibTeX entries found (expected @inproceedings{key, title = {…}, …})")
    return entries



def _report_failed_blocks(blocks, text: str, label: str, problems: Problems) -> None:
    """A problem, with its line, for each block bibtexparser could not read."""
    for block in blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, bibmodel.DuplicateBlockKeyBlock):
            problems.add(label, f"duplicate entry key {block.key!r}; every key must be unique in a file", line=line)
        elif isinstance(block, bibmodel.DuplicateFieldKeyBlock):
            names = ", ".join(sorted(block.duplicate_keys))
            problems.add(label, f"a field is given twice in one entry: {names}", line=line)
        else:
            problems.add(label, _failed_block_message(block, text), line=line)

def resolve_crossrefs(entries: list[Entry], warnings: list[str]) -> dict[int, list[str]]:
    """Fill the fields each entry lacks from its ``crossref`` entry, one level deep as BibTeX
    does; a volume's ``title`` becomes the child's ``booktitle`` (``journal`` for a periodical).
    Fields that describe the parent itself (``NOT_INHERITED``) are not taken. Returns, for each
    entry referenced (by ``id``), the keys of the entries that reference it."""
    by_key: dict[tuple[str, str], Entry] = {}
    by_key_anywhere: dict[str, Entry] = {}
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
