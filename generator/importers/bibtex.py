"""Import papers from BibTeX files (``papershelf import bibtex FILE.bib``): plan one paper
file per entry (entries read by ``bibtex_read``, venues chosen by ``bibtex_venues``), then
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
* the venue (see ``bibtex_venues``): ``--venue ID``, else an existing venue, a known
  conference or a new venue from ``booktitle`` and ``year``. Missing venue files are
  created, existing ones are never changed.
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

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence
from urllib.parse import urlsplit

from bibtexparser import model as bibmodel

from ..content import frontmatter, schema
from ..content.loader import read_site_config, read_venues, title_key
from ..content.model import LINK_KINDS, PRESENTATIONS, Tag, Venue
from ..content.taxonomy import read_taxonomy
from ..errors import ContentError, Problem, Problems
from ..text import plain_text
from ..text.latex import bib_text_to_content, decode_url
from .bibtex_read import PARENT_TITLE_AS, Entry, read_bib, resolve_crossrefs
from .bibtex_venues import PlannedVenue, choose_venue
from .common import (
    CREATED,
    KEPT_EDITED,
    UPDATED,
    StatusCounts,
    add_author,
    check_status,
    clean_line,
    paper_file_text,
    paper_files,
    paper_slug,
    write_planned,
)
from .tags import suggest_tags

# Entry types that are volumes, not papers: never imported as papers (they can be crossref parents).
CONTAINER_ONLY_TYPES = ("proceedings", "mvproceedings", "periodical")
LINK_FIELD_NAMES = tuple(LINK_KINDS)

_ARXIV_ID = re.compile(r"^(?:arxiv:)?((?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)$", re.IGNORECASE)
_CODE_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "codeberg.org")


# --------------------------------------------------------------------------- report


@dataclass(frozen=True)
class BibPaperResult:
    slug: str
    status: str  # one of common.STATUSES
    title: str
    tags: tuple[str, ...]
    file: str  # the .bib file
    key: str  # the entry's key


@dataclass
class BibImportReport(StatusCounts):
    papers: list[BibPaperResult] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # entries that are not papers, and why
    notes: list[str] = field(default_factory=list)
    files: int = 0

    def summary(self) -> str:
        n = len(self.papers)
        lines = [f"Imported {n} paper{'s' if n != 1 else ''} from {self.files} BibTeX "
                 f"file{'s' if self.files != 1 else ''}: {self.counts_text()}."]
        lines.extend(self.venue_lines())
        lines.extend(self.changed_lines())
        if self.skipped:
            n = len(self.skipped)
            lines.append(f"Skipped {n} entr{'ies that are not papers' if n != 1 else 'y that is not a paper'}:")
            lines.extend(f"  - {s}" for s in self.skipped)
        lines.extend(self.notes)
        lines.extend(self.warning_lines())
        return "\n".join(lines)


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


def _authors(entry: Entry, where: str, warnings: list[str]) -> list[str]:
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
        name = clean_line(raw_name.replace("{", "").replace("}", "").replace("~", " "))
        if not name:
            continue
        if name.casefold() == "others":
            warnings.append(f"{where}: 'and others' (et al.) left out: only the names given are imported")
            continue
        add_author(names, name, where, warnings)
    return names


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


def _links(entry: Entry, own_site: str | None, where: str, warnings: list[str]) -> list[tuple[str, str]]:
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
    entries: list[Entry] = []
    for path in files:
        entries.extend(read_bib(Path(path), problems, warnings))
    parents = resolve_crossrefs(entries, warnings)
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
    new_venues: dict[str, PlannedVenue] = {}
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
        venue_id = choose_venue(entry, venue, venues, new_venues, problems, warnings, where)
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
            slug = paper_slug(plain_title, f"{entry.key} paper", used_slugs)
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
        status = check_status(target, paper.content, force, problems)
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
    for slug, fm in paper_files(papers_dir):
        title, venue = fm.data.get("title"), fm.data.get("venue")
        if isinstance(title, str) and isinstance(venue, str):
            found.setdefault((venue, title_key(title)), slug)
    return found


def _existing_slugs(papers_dir: Path) -> set[str]:
    """Every name in ``papers_dir`` (any file, not only paper files): slugs not to reuse."""
    if not papers_dir.is_dir():
        return set()
    return {path.stem for path in papers_dir.iterdir()}
