"""Import papers from BibTeX files (``papershelf import bibtex FILE.bib``): plan one paper
file per entry (entries read by ``bibtex_read``, venues chosen by ``venues``), then
write them:

* ``@proceedings`` (and ``@periodical``) entries, and volumes that another entry names as its
  crossref, are not papers: they are skipped and listed as such in the summary.
* ``title`` → ``title``: LaTeX is kept (the site renders it), the braces that only
  protect capitals are removed (``{BERT}: Pre-training`` → ``BERT: Pre-training``),
  ``\\&``, ``\\%``, ``\\textless{}`` … become the characters themselves and ``--``/``---``
  become en/em dashes; whitespace is collapsed.
* ``author`` → ``authors``: BibTeX's name rules (``Last, First``, ``von``, ``Jr``,
  braces), LaTeX accents decoded to Unicode, written "First von Last Jr"; ``others``
  (et al.) is left out.
* the venue (see ``venues``): ``--venue ID``, else an existing venue, a known
  conference or a new venue from ``booktitle`` and ``year``. Missing venue files are
  created, existing ones are never changed.
* links: the fields our exports write (``pdf``, ``openreview``, ``arxiv``, ``code``,
  ``project``, ``venue_page``), then ``eprint`` (arXiv), ``url`` (by its host: arXiv,
  OpenReview, a ``.pdf``, GitHub/GitLab code, else the venue page) and ``doi``
  (``https://doi.org/…`` as the ``doi`` link, beside the landing page). A ``url`` that points into this catalog's
  own site (its absolute ``base_url``) is not a link and is skipped.
* ``abstract`` → the body (LaTeX kept as for titles; each line stripped, paragraphs kept).
* ``keywords`` that name tags of ``tags.toml`` (by id or name) → ``tags``; otherwise tags
  are suggested from the title and abstract, as by the seed importer. ``tags.toml`` is
  optional: without it no tags are suggested (the summary says so).
* ``presentation`` (oral, spotlight, poster) as written by our exports.

Validation and idempotence are those of every record importer (``records``): every input is read and checked and
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

import re
from pathlib import Path
from typing import Sequence

from bibtexparser import model as bibmodel

from ..content.model import LINK_KINDS
from ..errors import Problems
from ..text.bibtex import bib_text_to_content, decode_url
from .bibtex_read import PARENT_TITLE_AS, Entry, read_bib, resolve_crossrefs
from .common import clean_line
from .records import Format, Record, RecordsReport, arxiv_url, classify_url, doi_url, import_records

# Entry types that are volumes, not papers: never imported as papers (they can be crossref parents).
CONTAINER_ONLY_TYPES = ("proceedings", "mvproceedings", "periodical")
CONTAINER_FIELDS = ("booktitle", "journal", "eventtitle")
LINK_FIELD_NAMES = tuple(LINK_KINDS)
BIBTEX = Format("BibTeX")


def _authors(entry: Entry, where: str, warnings: list[str]) -> list[str]:
    value = entry.decoded.get("author")
    written = [n for n in re.split(r"\s+and\s+", entry.raw.get("author", "")) if n.strip()]
    if isinstance(value, list):
        raw_names = []
        for parts in value:
            if isinstance(parts, bibmodel.Field):  # pragma: no cover - defensive
                continue
            merged = getattr(parts, "merge_first_name_first", None)
            raw_names.append(merged if isinstance(merged, str) else str(parts))
        if len(raw_names) == len(written):
            # A name with commas as written ("Doe1,2", a glued "A B, C D, E F", "Last, First")
            # goes to the name cleaning as it is (names.NameCleaner reads "Last, First" as BibTeX
            # does): BibTeX's name parts would make "2 Doe1" and "E F A B, C D" of the others.
            raw_names = [raw if "," in raw else merged for raw, merged in zip(written, raw_names)]
    else:
        raw_names = written
    names: list[str] = []
    for raw_name in raw_names:
        name = clean_line(raw_name.replace("{", "").replace("}", "").replace("~", " "))
        if name.casefold() == "others":
            warnings.append(f"{where}: 'and others' (et al.) left out: only the names given are imported")
            continue
        names.append(name)
    return names


def _link_offers(entry: Entry, where: str, warnings: list[str]) -> list[tuple[str, str, str]]:
    """The links an entry offers, in order of preference: our exports' own fields, then
    ``eprint`` (arXiv), ``url`` (by its host) and ``doi``."""
    offers = [(kind, decode_url(entry.raw[kind]), kind) for kind in LINK_FIELD_NAMES
              if kind != "doi" and entry.raw.get(kind, "").strip()]
    eprint = decode_url(entry.raw.get("eprint", ""))
    prefix = (entry.raw.get("archiveprefix") or entry.raw.get("eprinttype") or "").strip().lower()
    if eprint:
        url = arxiv_url(eprint) if prefix in ("", "arxiv") else None
        if url is None:
            warnings.append(f"{where}: eprint {eprint!r} is not an arXiv identifier; ignored")
        elif not any(kind == "arxiv" for kind, _, _ in offers):
            offers.append(("arxiv", url, "eprint"))
    url = decode_url(entry.raw.get("url", ""))
    if url and url not in [u for _, u, _ in offers]:
        offers.append((classify_url(url), url, "url"))
    doi = decode_url(entry.raw.get("doi", ""))
    if doi:
        offers.append(("doi", doi_url(doi), "doi"))
    return offers


def _year(entry: Entry) -> int | None:
    for name in ("year", "date"):
        match = re.search(r"\b(\d{4})\b", entry.raw.get(name, ""))
        if match:
            return int(match.group(1))
    return None


def _record(entry: Entry, warnings: list[str]) -> Record:
    where = f"{entry.file}:{entry.line} ({entry.key})"
    container = next((entry.decoded.get(f) or entry.raw.get(f) for f in CONTAINER_FIELDS
                      if (entry.decoded.get(f) or entry.raw.get(f) or "").strip()), None)
    location = entry.decoded.get("address") or None
    keywords = entry.decoded.get("keywords")
    ref = entry.raw.get("crossref", "").strip()
    return Record(
        file=entry.file, line=entry.line, key=entry.key,
        title=bib_text_to_content(entry.raw.get("title", ""), title=True),
        authors=_authors(entry, where, warnings),
        abstract=bib_text_to_content(entry.raw.get("abstract", ""), title=False),
        container=container if isinstance(container, str) else None,
        year=_year(entry),
        location=location if isinstance(location, str) else None,
        keywords=keywords if isinstance(keywords, str) else entry.raw.get("keywords", ""),
        presentation=entry.raw.get("presentation") or None,
        links=_link_offers(entry, where, warnings),
        hint=f" (nor has its crossref {ref!r})" if ref else "",
        pages=_plain(entry, "pages"),
        editors=_names(entry, "editor", where, warnings),
        publisher=_plain(entry, "publisher"),
        month=_plain(entry, "month"),
        track_hints=tuple(t for t in (_plain(entry, "series"), _plain(entry, "eventtitle")) if t),
    )


def _plain(entry: Entry, name: str) -> str | None:
    """A field's text as decoded (braces gone), None when empty."""
    value = entry.decoded.get(name) or entry.raw.get(name)
    if not isinstance(value, str) or not value.strip():
        return None
    return clean_line(value.replace("{", "").replace("}", ""))


def _names(entry: Entry, name: str, where: str, warnings: list[str]) -> tuple[str, ...]:
    """The names of a name list field (``editor``) as written, "Last, First" turned round later."""
    raw = entry.raw.get(name, "")
    names = [clean_line(n.replace("{", "").replace("}", "").replace("~", " "))
             for n in re.split(r"\s+and\s+", raw) if n.strip()]
    return tuple(n for n in names if n and n.casefold() != "others")


def import_bibtex(
    files: Sequence[Path],
    content_dir: Path,
    *,
    venue: str | None = None,
    force: bool = False,
) -> RecordsReport:
    """Import BibTeX ``files`` into ``content_dir`` (see the module docstring).

    Raises ``ContentError`` — before writing anything — when any input is refused.
    """
    problems = Problems()
    report = BIBTEX.new_report(len(files))
    if not files:
        problems.add("bibtex", "no BibTeX files given")
        problems.raise_if_any()
    entries: list[Entry] = []
    for path in files:
        entries.extend(read_bib(Path(path), problems, report.warnings))
    parents = resolve_crossrefs(entries, report.warnings)
    records = []
    for entry in entries:
        if entry.type in CONTAINER_ONLY_TYPES or (id(entry) in parents and entry.type in PARENT_TITLE_AS):
            used_by = parents.get(id(entry))
            report.skipped.append(f"{entry.file}:{entry.line} ({entry.key}): @{entry.type} is a volume, not a paper"
                                  + (f" (crossref of {', '.join(map(repr, used_by))})" if used_by else ""))
            continue
        records.append(_record(entry, report.warnings))
    del entries, parents  # the parsed fields: not needed once they are records (a 100k archive's worth)
    return import_records(records, content_dir, report, problems, BIBTEX, venue=venue, force=force)
