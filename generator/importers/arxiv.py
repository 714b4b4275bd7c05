"""Import papers from arXiv API responses (``papershelf import arxiv FEED.xml``): the Atom
feeds that ``export.arxiv.org/api/query?id_list=…`` or ``?search_query=…`` answer with
(``papershelf add`` fetches the same feeds and reads them here). One paper file per entry:

* ``title`` → ``title`` and ``summary`` → the body. arXiv's metadata is TeX-flavoured plain
  text, as BibTeX's is, and is read the same way (``bib_text_to_content``): math and
  text-mode LaTeX kept, protective braces dropped, ``--`` as a dash. arXiv wraps long lines:
  they are joined; a line that starts indented (arXiv's mark of a new paragraph) or follows
  a blank line starts a new paragraph.
* ``author/name`` → ``authors``, in order (affiliations are left out).
* the entry's ``id`` (``http://arxiv.org/abs/2305.18436v2``) → the versionless arXiv id: the
  ``arxiv`` link ``https://arxiv.org/abs/<id>`` and the ``pdf`` link
  ``https://arxiv.org/pdf/<id>`` (always the latest version). ``arxiv:doi`` →
  ``https://doi.org/…`` as the ``doi`` link (the first DOI when several are given).
* the venue, in this order (``--venue ID`` overrides all of it):

  1. ``arxiv:journal_ref``, when it names a venue: "ICLR 2024", "Proceedings of ICML 2024",
     "Phys. Rev. D 99, 123456 (2019)". Its name is cut to the venue's name (lead-ins such as
     "Published in", volume, pages and parenthesised numbers dropped: "Phys. Rev. D") and its
     year is the last year it names; a journal_ref with no year takes the year of the first
     arXiv version (a warning says so).
  2. else ``arxiv:comment``, when a clause of it says the paper was accepted ("Accepted at
     NeurIPS 2023 (oral)", "ICLR'24 spotlight", "to appear in CVPR 2024"), or starts by naming
     one ("CVPR 2021. Code: …"), at one of the known conferences (``common.KNOWN_VENUES``), named
     with a year; "Findings of ACL 2025" is that Findings volume. A clause that says
     "submitted", "under review" or names a workshop gives no venue: the main conference
     would be wrong. Only known conferences are trusted in free text.
  3. else the paper is a preprint: the venue "arXiv" and the year of its first version
     (``published``), e.g. ``arxiv-2023``: a catalog can keep its preprints apart and move
     them to their venue once published (``--venue ID`` to put them elsewhere).

* the presentation (oral, spotlight, poster) when the journal_ref names one, or an
  accepting clause of the comment does.
* categories (``arxiv:primary_category`` first, then every ``category``; arXiv's own codes
  only, not ACM or MSC classes) → keywords: ``cs.LG, stat.ML``. They pick tags only when
  ``tags.toml`` has a tag of that id or name; otherwise tags are suggested from title and
  abstract, as for every import.

The XML is read by expat with every DTD refused: a feed with a ``<!DOCTYPE``, an entity
declaration or an external entity is refused outright (no entity is ever expanded: no
"billion laughs", no file or network read), as are feeds over ``MAX_FEED_BYTES`` or nested
deeper than ``MAX_DEPTH``. The API's error feed (an entry whose id is
``http://arxiv.org/api/errors#…``) is a problem carrying arXiv's message. Every problem
names the file, the line of the entry and the field; nothing is written when there is one
(see ``records``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence
from xml.parsers import expat

from ..errors import Problems
from ..text.bibtex import bib_text_to_content
from .common import KNOWN_VENUES, clean_line
from .records import Format, Record, RecordsReport, arxiv_url, doi_url, import_files, read_input

ARXIV = Format("arXiv", noun="entry", container="arxiv:journal_ref or published date",
               container_field="arxiv:journal_ref", command="arxiv", inputs="arXiv feed")
ATOM_NS = "http://www.w3.org/2005/Atom"
ARXIV_NS = "http://arxiv.org/schemas/atom"
PREPRINT_VENUE = "arXiv"  # the container of a paper with no journal_ref and no accepting comment
MAX_FEED_BYTES = 20_000_000  # a feed of 2,000 entries (the API's largest page) is about 8 MB
MAX_DEPTH = 32  # an arXiv feed nests 4 deep

_ERROR_ID = re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/api/errors", re.IGNORECASE)
_ABS_ID = re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/abs/(.+?)(?:v\d+)?$", re.IGNORECASE)
_CATEGORY = re.compile(r"^[a-z][a-z\-]*(?:\.[A-Za-z\-]+)?$")


# --------------------------------------------------------------------------- safe XML


class XmlRefused(Exception):
    """Why an XML text is not read: ``message`` completes "<file>: ..."."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass
class Element:
    """One XML element: ``name`` is ``{namespace}local`` (or ``local``), ``line`` its start tag's."""

    name: str
    attrs: dict[str, str]
    line: int
    children: list[Element] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The character data directly inside the element."""
        return "".join(self.parts)

    def findall(self, namespace: str, local: str) -> list[Element]:
        name = f"{{{namespace}}}{local}"
        return [child for child in self.children if child.name == name]

    def find(self, namespace: str, local: str) -> Element | None:
        found = self.findall(namespace, local)
        return found[0] if found else None

    def child_text(self, namespace: str, local: str) -> str:
        child = self.find(namespace, local)
        return child.text if child is not None else ""


def parse_xml(data: str | bytes, limit: int = MAX_FEED_BYTES) -> Element:
    """The root element of ``data``; raises ``XmlRefused`` for XML that is not well-formed,
    too large or too deep, or that has a DTD (``<!DOCTYPE``), entity declarations or
    external entities: nothing is expanded or fetched. Bytes are decoded as their XML
    declaration says (UTF-8 by default)."""
    if len(data) > limit:
        raise XmlRefused(f"is too large ({len(data):,} bytes; at most {limit:,})")
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    roots: list[Element] = []
    stack: list[Element] = []

    def refuse(what: str):
        def handler(*_args: object) -> None:
            raise XmlRefused(f"has {what}; DTDs and entities are refused (an arXiv feed has none)",
                             parser.CurrentLineNumber)
        return handler

    def start(name: str, attrs: dict[str, str]) -> None:
        if len(stack) >= MAX_DEPTH:
            raise XmlRefused(f"nests elements more than {MAX_DEPTH} deep", parser.CurrentLineNumber)
        namespace, _, local = name.rpartition(" ")
        element = Element(f"{{{namespace}}}{local}" if namespace else local, attrs, parser.CurrentLineNumber)
        (stack[-1].children if stack else roots).append(element)
        stack.append(element)

    def end(_name: str) -> None:
        stack.pop()

    def characters(text: str) -> None:
        if stack:
            stack[-1].parts.append(text)

    parser.StartDoctypeDeclHandler = refuse("a DOCTYPE declaration")
    parser.EntityDeclHandler = refuse("an entity declaration")
    parser.UnparsedEntityDeclHandler = refuse("an entity declaration")
    parser.NotationDeclHandler = refuse("a notation declaration")
    parser.ExternalEntityRefHandler = refuse("an external entity")
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise XmlRefused(f"is not well-formed XML: {expat.ErrorString(exc.code)} (column {exc.offset + 1})",
                         exc.lineno) from None
    return roots[0]


# --------------------------------------------------------------------------- the venue


_ACCEPTED = re.compile(r"\b(accept(ed)?|to appear|appears?|appeared|published|camera[- ]ready|oral|spotlight|"
                       r"poster|presented)\b", re.IGNORECASE)
_NOT_ACCEPTED = re.compile(r"\b(submitted|submission|under review|in review|rejected|workshops?|tutorial|"
                           r"competition|challenge)\b", re.IGNORECASE)
_PRESENTATION = re.compile(r"\b(oral|spotlight|poster)\b", re.IGNORECASE)
_KNOWN_YEAR = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, KNOWN_VENUES), key=len, reverse=True))
                         + r")(?:\s*((?:19|20)\d\d)|\s*['’]\s*(\d\d)|(\d\d))(?![\w-])", re.IGNORECASE)
_YEAR = re.compile(r"(?<![\w\-–:.])((?:19|20)\d\d)(?![\w\-–:])")
_LEAD_IN = re.compile(r"^(?:(?:accepted|published|appeared|appears|to appear|presented)\s+(?:at|in|to|by|for|as)?"
                      r"\s*|in:?\s+)(?:the\s+)?", re.IGNORECASE)
_NUMBERED_PARENS = re.compile(r"\s*\((?:[^()\d]*\d[^()]*|\s*(?:oral|spotlight|poster)\s*)\)", re.IGNORECASE)
_NUMBER_TOKEN = re.compile(r"^(?:[\d:/\-–.()]*\d[\d:/\-–.()]*|(?:vol|no|pp|pages?|art|issue)\.?)$", re.IGNORECASE)
_NAMES_VENUE = re.compile(r"\s*(?:(?:the|in|at)\s+)?(?:findings\s+of\s+(?:the\s+)?)?" + _KNOWN_YEAR.pattern,
                         re.IGNORECASE)
_FINDINGS = re.compile(r"\bfindings\b", re.IGNORECASE)
MAX_HINT_CHARS = 1000  # of a journal_ref or comment read for the venue (arXiv keeps them short)


def journal_venue(journal_ref: str) -> tuple[str | None, int | None]:
    """(venue name, year) of a journal_ref: ``"Phys. Rev. D 99, 123456 (2019)"`` →
    ``("Phys. Rev. D", 2019)``; ``"Proceedings of ICML 2024"`` → ``("Proceedings of ICML", 2024)``;
    the name is None when nothing of it is left."""
    text = clean_line(journal_ref[:MAX_HINT_CHARS]).split(";")[0]
    years = [int(m.group(1)) for m in _YEAR.finditer(text)]
    year = years[-1] if years else _known_year(text)
    name = text
    while _LEAD_IN.match(name):
        name = _LEAD_IN.sub("", name, count=1)
    words = _NUMBERED_PARENS.sub("", name).split(",")[0].split()
    if words:
        words[-1] = re.sub(r"['’]\d\d$", "", words[-1])  # "NeurIPS'23"
    while words and _NUMBER_TOKEN.match(words[-1]):
        words.pop()  # volume, number, pages, year
    name = " ".join(words).strip(" :,-–")
    return (name if re.search(r"[^\W\d_]", name) else None), year


def _known_year(text: str) -> int | None:
    """The year of a known conference named with it: "ICLR 2024", "NeurIPS'23", "CVPR24"."""
    match = _KNOWN_YEAR.search(text)
    return _match_year(match) if match else None


def _match_year(match: re.Match[str]) -> int:
    return int(match.group(2)) if match.group(2) else 2000 + int(match.group(3) or match.group(4))


def _accepting_clauses(comment: str) -> list[str]:
    """The clauses of a comment that say the paper was accepted somewhere (not a workshop): by
    their words ("Accepted at …", "to appear in …"), or by starting with a known conference
    and its year ("CVPR 2021. Code: …", "Findings of ACL 2025"), as authors mark a paper's venue."""
    clauses = re.split(r"[;\n]|\.\s+(?=[A-Z])", comment[:MAX_HINT_CHARS])
    return [c for c in clauses if (_ACCEPTED.search(c) or _NAMES_VENUE.match(c)) and not _NOT_ACCEPTED.search(c)]


def comment_venue(comment: str) -> tuple[str | None, int | None, str | None]:
    """(container, year, presentation) that a comment's accepting clause names:
    ``"Accepted at NeurIPS 2023 (oral)"`` → ``("NeurIPS 2023", 2023, "oral")``."""
    presentation = None
    for clause in _accepting_clauses(comment):
        found = _PRESENTATION.search(clause)
        if found:
            presentation = found.group(1).lower()
        match = _KNOWN_YEAR.search(clause)
        if match:
            year = _match_year(match)
            name = f"{KNOWN_VENUES[match.group(1).lower()][0]} {year}"
            return f"Findings of {name}" if _FINDINGS.search(clause) else name, year, presentation
    return None, None, presentation


def entry_venue(journal_ref: str, comment: str, published: int | None, where: str,
                warnings: list[str]) -> tuple[str, int | None, str | None]:
    """(container, year, presentation) of an entry (see the module docstring)."""
    from_comment = comment_venue(comment)
    if journal_ref:
        name, year = journal_venue(journal_ref)
        if name is not None:
            found = _PRESENTATION.search(journal_ref)
            if year is None and published is not None:
                warnings.append(f"{where}: arxiv:journal_ref {journal_ref!r} names no year; the year of the first "
                                f"arXiv version ({published}) is used")
                year = published
            return name, year, found.group(1).lower() if found else from_comment[2]
    container, year, presentation = from_comment
    if container is not None:
        return container, year, presentation
    return PREPRINT_VENUE, published, None


# --------------------------------------------------------------------------- entries


def _abstract(summary: str) -> str:
    """arXiv's wrapped lines joined; an indented line or a blank line starts a paragraph."""
    paragraphs: list[list[str]] = []
    new = True
    for line in summary.strip().splitlines():
        if not line.strip():
            new = True
            continue
        if new or line[:1].isspace():
            paragraphs.append([])
        paragraphs[-1].append(line.strip())
        new = False
    texts = (bib_text_to_content(" ".join(lines), title=True) for lines in paragraphs)
    return "\n\n".join(text for text in texts if text)


def _categories(entry: Element) -> list[str]:
    primary = entry.find(ARXIV_NS, "primary_category")
    terms = [primary.attrs.get("term", "")] if primary is not None else []
    terms += [category.attrs.get("term", "") for category in entry.findall(ATOM_NS, "category")]
    return list(dict.fromkeys(term.strip() for term in terms if _CATEGORY.match(term.strip())))


def _record(entry: Element, file: str, problems: Problems, warnings: list[str]) -> Record | None:
    line = entry.line
    raw_id = clean_line(entry.child_text(ATOM_NS, "id"))
    if _ERROR_ID.match(raw_id):
        message = clean_line(entry.child_text(ATOM_NS, "summary")) or raw_id
        problems.add(file, f"the arXiv API answered with an error: {message}", line=line, field="id")
        return None
    match = _ABS_ID.match(raw_id)
    key = match.group(1) if match and arxiv_url(match.group(1)) else None
    if key is None:
        problems.add(file, f"entry has no arXiv id (its id is {raw_id!r})", line=line, field="id")
        return None
    abs_url = arxiv_url(key)
    assert abs_url is not None
    where = f"{file}:{line} ({key})"
    published = re.match(r"\s*(\d{4})-", entry.child_text(ATOM_NS, "published"))
    container, year, presentation = entry_venue(clean_line(entry.child_text(ARXIV_NS, "journal_ref")),
                                                clean_line(entry.child_text(ARXIV_NS, "comment")),
                                                int(published.group(1)) if published else None, where, warnings)
    links = [("arxiv", abs_url, "id"), ("pdf", f"https://arxiv.org/pdf/{key}", "id")]
    doi = entry.child_text(ARXIV_NS, "doi").replace(";", " ").split()
    if doi:
        links.append(("doi", doi_url(doi[0]), "arxiv:doi"))
    authors = [clean_line(author.child_text(ATOM_NS, "name")) for author in entry.findall(ATOM_NS, "author")]
    return Record(
        file=file, line=line, key=key,
        title=bib_text_to_content(entry.child_text(ATOM_NS, "title"), title=True),
        authors=[name for name in authors if name],
        abstract=_abstract(entry.child_text(ATOM_NS, "summary")),
        container=container, year=year, presentation=presentation,
        keywords=", ".join(_categories(entry)),
        links=links,
        hint=" (nor a published date)",
        pages=_journal_pages(clean_line(entry.child_text(ARXIV_NS, "journal_ref"))),
    )


_JOURNAL_PAGES = re.compile(r"\b(?:pages?|pp?\.)\s*(\d+\s*(?:-{1,2}|–)\s*\d+|\d+)", re.IGNORECASE)


def _journal_pages(journal_ref: str) -> str | None:
    """The pages a journal_ref names ("Findings of ACL 2022, pages 1149-1162", "pp. 12--20")."""
    found = _JOURNAL_PAGES.search(journal_ref[:MAX_HINT_CHARS])
    return found.group(1) if found else None


def records_from_atom(xml_text: str | bytes, file: str, problems: Problems, warnings: list[str]) -> list[Record]:
    """The papers of an arXiv API feed (text, or bytes decoded as the XML declaration says),
    in feed order; what cannot be read is added to ``problems``, naming ``file``, the line
    and the field."""
    try:
        root = parse_xml(xml_text)
    except XmlRefused as exc:
        problems.add(file, exc.message, line=exc.line)
        return []
    if root.name != f"{{{ATOM_NS}}}feed":
        local = root.name.rpartition("}")[2]
        problems.add(file, f"is not an Atom feed (its root element is <{local}>); expected an answer of the arXiv "
                           f"API", line=root.line)
        return []
    entries = root.findall(ATOM_NS, "entry")
    if not entries:
        warnings.append(f"{file}: the feed holds no entries")
    records = []
    for entry in entries:
        record = _record(entry, file, problems, warnings)
        if record is not None:
            records.append(record)
    return records


def import_arxiv(files: Sequence[Path], content_dir: Path, *, venue: str | None = None,
                 force: bool = False) -> RecordsReport:
    """Import arXiv API feeds ``files`` into ``content_dir`` (see the module docstring).

    Raises ``ContentError`` — before writing anything — when any input is refused.
    """
    return import_files(files, content_dir, ARXIV, _file_records, venue=venue, force=force)


def _file_records(path: Path, problems: Problems, report: RecordsReport) -> list[Record]:
    raw = read_input(path, problems, ARXIV, MAX_FEED_BYTES)
    return [] if raw is None else records_from_atom(raw, str(path), problems, report.warnings)
