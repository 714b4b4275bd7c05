"""What the record importers share (BibTeX, CSL-JSON, OpenReview, arXiv, ``papershelf add``):
each format's reader turns its input into ``Record`` values (one paper, already in content
terms: title and abstract as content text, names, the venue's name and year, link offers,
keywords), and ``import_records`` does the rest the same way for all of them:

1. reads the catalog (``tags.toml``, optional; the venues; ``site.toml``'s absolute base URL);
2. plans every paper file: the venue (``--venue ID``, else ``venues.choose_venue`` from the
   record's container name and year), the authors (cleaned, duplicates dropped), the links
   (http(s) only, one per kind, none into this catalog's own site), the tags (keywords that
   name tags of ``tags.toml`` by id or name; otherwise suggested from title and abstract),
   the presentation (oral, spotlight, poster), the slug (a paper already in the catalog with
   the same venue and title keeps its file), the abstract's words split at a line end by PDF
   extraction joined again (``dehyphen``), each file validated against the paper schema;
3. compares each planned file with the disk (``common.check_status``: unchanged, kept as
   edited by hand unless ``force``, created or updated);
4. writes nothing if any record was refused (every problem of every input in one error,
   naming file, line and field), else every file atomically.

The helpers for links that several formats meet (``arxiv_url``, ``doi_url``,
``classify_url``) live here too.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence
from urllib.parse import urlsplit

from ..content import schema
from ..content.characters import decode_utf8
from ..content.duplicates import title_key
from ..content.loader import MAX_FILE_BYTES, read_people, read_site_config, read_venues
from ..content.model import LINK_KINDS, PRESENTATIONS, Person, Tag, Venue
from ..content.taxonomy import read_taxonomy
from ..errors import ContentError, Problem, Problems
from ..parallel import parallel_map
from ..outputs.citations.bibtex import bibtex_keyword
from ..text import plain_text
from .common import (
    CREATED,
    MAX_INPUT_BYTES,
    UPDATED,
    StatusCounts,
    Unreadable,
    plan_paper_write,
    paper_data,
    paper_files,
    paper_text,
    paper_slug,
    read_limited,
    write_planned,
)
from .dehyphen import Joined, Vocabulary, catalog_texts, joined_lines
from .tags import BY_KEYWORDS, place_tags, placement_lines, suggest_tags
from .repairs import Repairs
from .citations import add_tracks, citation_data
from .venues import Venues, tracks_entries, with_tracks
from .link_kinds import ARXIV_ID, arxiv_url, classify_url, doi_url  # noqa: F401 (also the records' API)



# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Format:
    """How a format names its things in messages: ``"entry 'k' has no booktitle or journal"``."""

    name: str  # "BibTeX": "Imported 3 papers from 2 BibTeX files"
    noun: str = "entry"
    container: str = "booktitle or journal"  # what names the venue, in the format's terms
    container_field: str = "booktitle"
    command: str = "bibtex"  # papershelf import <command>
    inputs: str = "BibTeX"  # what its input files are called: "no BibTeX files given"

    def new_report(self, files: int) -> "RecordsReport":
        """An empty report of an import of ``files`` inputs in this format."""
        return RecordsReport(format=self.name, noun=self.noun, files=files)


@dataclass(frozen=True)
class Record:
    """One paper as a format's reader understood it (content terms, not yet checked)."""

    file: str  # the input, as given
    line: int | None
    key: str  # the record's id in its source (a BibTeX key, a CSL id, an OpenReview note id)
    title: str  # content text (Markdown and LaTeX); empty: refused
    authors: Sequence[str] = ()  # names as written, "First Last" or "Last, First" already resolved
    abstract: str = ""  # content text
    container: str | None = None  # the venue's name as the source gives it
    year: int | None = None
    location: str | None = None
    keywords: str = ""  # separated by commas or semicolons
    presentation: str | None = None
    links: Sequence[tuple[str, str, str]] = ()  # offers, in order: (kind, URL, where it came from)
    hint: str = ""  # appended to "has no <container>" and "has no year" (" (nor has its crossref 'x')")
    # Its track and citation fields where the source gives them (issue 36): other texts that may
    # name the track (CSL ``collection-title``, ``genre``), pages as written, editors' names,
    # publisher, publisher's or conference's place, month (a number or a name).
    track_hints: Sequence[str] = ()
    pages: str | None = None
    editors: Sequence[str] = ()
    publisher: str | None = None
    address: str | None = None
    month: str | int | None = None

    @property
    def where(self) -> str:
        place = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{place} ({self.key})"


# --------------------------------------------------------------------------- links


def _links(record: Record, own_site: str | None, warnings: list[str]) -> list[tuple[str, str]]:
    links: dict[str, str] = {}
    for kind, url, source in record.links:
        if own_site and url.startswith(own_site):
            continue  # a page of this catalog's own site is not a link of the paper
        if not schema.is_http_url(url):
            warnings.append(f"{record.where}: {source} {url!r} is not an http(s) URL; ignored")
        elif url in links.values():
            pass
        elif kind in links:
            warnings.append(f"{record.where}: {source} {url!r} left out: the paper already has a {kind} link")
        else:
            links[kind] = url
    return sorted(links.items(), key=lambda kv: LINK_KINDS.index(kv[0]))


def tags_from_keywords(keywords: str, taxonomy: dict[str, Tag]) -> tuple[str, ...]:
    """Tag ids named by ``keywords`` (separated by commas or semicolons), in keyword order;
    a tag is named by its id, its name, or its name as our BibTeX export writes it when the
    name holds a comma (``bibtex_keyword``: "Robustness / security & safety")."""
    text = " ".join(keywords.split()).casefold()
    found: list[tuple[int, str]] = []
    for tag in taxonomy.values():
        for label in (tag.id, tag.name, bibtex_keyword(tag.name)):
            match = re.search(rf"(?:^|[,;])\s*{re.escape(label.casefold())}\s*(?=$|[,;])", text)
            if match:
                found.append((match.start(), tag.id))
                break
    return tuple(tag_id for _, tag_id in sorted(found))


# --------------------------------------------------------------------------- report


@dataclass(frozen=True)
class RecordResult:
    slug: str
    status: str  # one of common.STATUSES
    title: str
    tags: tuple[str, ...]
    file: str  # the input file
    key: str  # the record's id in it


@dataclass
class RecordsReport(StatusCounts):
    format: str = "BibTeX"
    noun: str = "entry"  # what the format calls a record: "Skipped 2 entries that are not papers"
    papers: list[RecordResult] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # records that are not papers, and why
    notes: list[str] = field(default_factory=list)
    files: int = 0
    joined: list[tuple[str, list[Joined]]] = field(default_factory=list)  # (paper file, words joined in it)
    repairs: Repairs = field(default_factory=Repairs)
    placed: Counter = field(default_factory=Counter)  # how the papers' tags were placed (tags.Placement.by)

    def summary(self) -> str:
        n = len(self.papers)
        lines = [f"Imported {n} paper{'s' if n != 1 else ''} from {self.files} {self.format} "
                 f"file{'s' if self.files != 1 else ''}: {self.counts_text()}."]
        lines.extend(self.venue_lines())
        lines.extend(self.changed_lines())
        if self.skipped:
            n = len(self.skipped)
            nouns = (self.noun[:-1] + "ies") if self.noun.endswith("y") else self.noun + "s"
            lines.append(f"Skipped {n} {nouns + ' that are not papers' if n != 1 else self.noun + ' that is not a paper'}:")
            lines.extend(f"  - {s}" for s in self.skipped)
        lines.extend(self.notes)
        lines.extend(self.repairs.summary_lines())
        lines.extend(placement_lines(self.placed))
        lines.extend(joined_lines(self.joined))
        lines.extend(self.warning_lines())
        return "\n".join(lines)


@dataclass
class _Planned:
    slug: str
    title: str
    venue: str
    tags: tuple[str, ...]
    content: bytes  # the file's bytes (b"" until made, and when the paper is refused)
    file: str
    key: str
    joined: list[Joined]
    data: dict  # front matter, tags yet to suggest when it has none
    abstract: str
    plain_title: str
    where: str


def _finish(paper: _Planned, *, taxonomy: dict[str, Tag]) -> tuple[tuple[str, ...], bytes, list[Problem], str]:
    """(tags, file bytes or b"", problems, how the tags were placed) of a planned paper: the
    tags suggested when its keywords named none, its file text, checked as the build checks it."""
    data = paper.data
    placed = BY_KEYWORDS if data["tags"] else ""
    if not data["tags"] and taxonomy:
        placement = place_tags(paper.plain_title, plain_text(paper.abstract), taxonomy, venue=paper.venue)
        data, placed = {**data, "tags": list(placement.tags)}, placement.by
    problems = Problems()
    if not _valid(data, paper.abstract, paper.slug, paper.where, problems):
        return tuple(data["tags"]), b"", problems.items, placed
    return tuple(data["tags"]), paper_text(data, paper.abstract).encode("utf-8"), [], placed


# --------------------------------------------------------------------------- the import


@dataclass
class Catalog:
    """What an import needs from the catalog it adds to."""

    taxonomy: dict[str, Tag]
    venues: dict[str, Venue]
    own_site: str | None  # site.toml's absolute base URL, if any
    notes: list[str]
    people: tuple[Person, ...] = ()  # authors.toml


def read_catalog(content_dir: Path, venue: str | None, problems: Problems) -> Catalog | None:
    """The catalog's tags, venues and own site; None, with the problems added, when it cannot be read."""
    catalog_problems = Problems()
    tags_path = content_dir / "tags.toml"
    taxonomy: dict[str, Tag] = {}
    notes: list[str] = []
    if not (tags_path.exists() or tags_path.is_symlink()):
        # tags.toml is optional (as for the build): without it no tags are suggested.
        notes.append(f"No taxonomy ({tags_path} not found): no tags were suggested.")
    else:
        try:
            taxonomy = read_taxonomy(tags_path, str(tags_path))
        except ContentError as exc:
            catalog_problems.extend(exc.problems)
    venues_dir = content_dir / "venues"
    # A catalog without venues/ yet gets the folder with the venues the import creates.
    venues: dict[str, Venue] = (read_venues(venues_dir, catalog_problems)
                                if venues_dir.exists() or venues_dir.is_symlink() else {})
    people = read_people(content_dir / "authors.toml", catalog_problems, root=content_dir.resolve())
    if venue is not None and venue not in venues:
        known = ", ".join(sorted(venues)) or "none"
        catalog_problems.add("--venue", f"unknown venue {venue!r}; known venues: {known}", field="venue")
    own_site = None
    if (content_dir / "site.toml").is_file():
        config = read_site_config(content_dir / "site.toml", Problems())
        if config is not None and urlsplit(config.base_url).scheme:
            own_site = config.base_url
    problems.extend(catalog_problems.items)
    return None if catalog_problems else Catalog(taxonomy, venues, own_site, notes, people)


def read_input(path: Path, problems: Problems, form: Format, limit: int = MAX_INPUT_BYTES) -> bytes | None:
    """The bytes of an input file; None, with the problem added, when it is missing, not a
    regular file or too large."""
    label = str(path)
    try:
        return read_limited(path, limit)
    except FileNotFoundError:
        problems.add(label, f"{form.inputs} file not found")
    except Unreadable as exc:
        problems.add(label, str(exc))
    except OSError as exc:
        problems.add(label, f"cannot read the file: {exc.strerror or exc}")
    return None


def read_input_text(path: Path, problems: Problems, form: Format, limit: int = MAX_INPUT_BYTES) -> str | None:
    """The text (UTF-8) of an input file; None, with the problem added, when ``read_input``
    fails or the bytes are UTF-16 or not UTF-8."""
    label = str(path)
    raw = read_input(path, problems, form, limit)
    if raw is None:
        return None
    return decode_utf8(raw, label, problems)


def import_files(files: Sequence[Path], content_dir: Path, form: Format,
                 read: Callable[[Path, Problems, RecordsReport], list[Record]], *, venue: str | None = None,
                 force: bool = False) -> RecordsReport:
    """``papershelf import <format> FILES``: ``read`` makes each file's records (adding its
    problems, and its warnings and skipped records to the report), then ``import_records``.

    Raises ``ContentError`` — before writing anything — when any input is refused.
    """
    problems = Problems()
    report = form.new_report(len(files))
    if not files:
        problems.add(form.command, f"no {form.inputs} files given")
        problems.raise_if_any()
    records: list[Record] = []
    # Each file is read on its own (on every core when there are many): its records, problems,
    # warnings and skipped records are put together in the order of the files.
    for found, file_problems, warnings, skipped in parallel_map(functools.partial(_read_file, read=read, form=form),
                                                                [Path(path) for path in files],
                                                                minimum_items=READ_IN_PARALLEL):
        records.extend(found)
        problems.extend(file_problems)
        report.warnings.extend(warnings)
        report.skipped.extend(skipped)
    return import_records(records, content_dir, report, problems, form, venue=venue, force=force)


READ_IN_PARALLEL = 16  # input files from which they are read on every core


def _read_file(path: Path, *, read: Callable[[Path, Problems, RecordsReport], list[Record]],
               form: Format) -> tuple[list[Record], list[Problem], list[str], list[str]]:
    """(records, problems, warnings, skipped records) of one input file."""
    problems, report = Problems(), form.new_report(1)
    return read(path, problems, report), problems.items, report.warnings, report.skipped


def import_records(records: Sequence[Record], content_dir: Path, report: RecordsReport, problems: Problems,
                   form: Format, *, venue: str | None = None, force: bool = False) -> RecordsReport:
    """Plan, check and write the paper (and new venue) files of ``records`` (see the module
    docstring). ``problems`` may already hold the readers' problems: nothing is written then.

    Raises ``ContentError`` — before writing anything — when any record or input is refused.
    """
    content_dir = Path(content_dir)
    warnings = report.warnings
    catalog = read_catalog(content_dir, venue, problems)
    if catalog is None:
        problems.raise_if_any()
    assert catalog is not None
    report.notes.extend(catalog.notes)
    repairs = report.repairs = Repairs(catalog.people)

    papers_dir = content_dir / "papers"
    existing = _existing_papers(papers_dir)
    used_slugs = set(existing.values()) | _existing_slugs(papers_dir)
    planned: list[_Planned] = []
    venues = Venues(catalog.venues)
    titles = [repairs.text(record.title, record.where, title=True) for record in records]
    abstracts = [repairs.text(record.abstract, record.where) for record in records]
    vocabulary = Vocabulary([text for pair in zip(titles, abstracts) for text in pair],
                            fallback=catalog_texts(papers_dir))
    mended = vocabulary.join_all(abstracts)
    for record, title, (abstract, joined) in zip(records, titles, mended):
        where = record.where
        if not title.strip():
            problems.add(record.file, f"{form.noun} {record.key!r} has no title", line=record.line, field="title")
            continue
        venue_id, track = venues.choose_track(record.container, record.year, record.location, venue, warnings, where,
                                              [url for _, url, _ in record.links], record.track_hints)
        if venue_id is None:
            _no_venue(record, form, problems)
            continue
        authors = repairs.authors(record.authors, where)
        if repairs.duplicate(where, title, venue_id, authors, abstract):
            continue
        plain_title = plain_text(title)
        tags = tags_from_keywords(record.keywords, catalog.taxonomy) if record.keywords else ()
        presentation = (record.presentation or "").strip().lower() or None
        if presentation is not None and presentation not in PRESENTATIONS:
            warnings.append(f"{where}: presentation {presentation!r} is not one of {', '.join(PRESENTATIONS)}; "
                            f"ignored")
            presentation = None
        links = _links(record, catalog.own_site, warnings)
        repairs.count_pdf(links)
        slug = existing.pop((venue_id, title_key(title)), None)  # a paper already in the catalog keeps its file
        if slug is None:
            slug = paper_slug(plain_title, f"{record.key} paper", used_slugs)
            used_slugs.add(slug)
        data = paper_data(title=title, authors=authors, venue=venue_id, tags=tags, presentation=presentation,
                          links=links, citation=citation_data(record, track, repairs, warnings))
        planned.append(_Planned(slug, title, venue_id, tags, b"", record.file, record.key, joined, data, abstract,
                                plain_title, where))
    # Tags, file text and its check: the costly part, per paper, on every core.
    if catalog.taxonomy:
        suggest_tags("", "", catalog.taxonomy)  # its phrase index made once, before the workers fork
    finished = parallel_map(functools.partial(_finish, taxonomy=catalog.taxonomy), planned)
    for paper, (tags, content, found, placed) in zip(planned, finished):
        paper.tags, paper.content = tags, content
        problems.extend(found)
        if placed and content:
            report.placed[placed] += 1
    planned = [paper for paper in planned if paper.content]
    problems.raise_if_any()

    _write(planned, venues, content_dir, force, report, problems)
    return report


def _no_venue(record: Record, form: Format, problems: Problems) -> None:
    """The problem of a record whose venue cannot be told: no container, or no year."""
    if not (record.container or "").strip():
        problems.add(record.file, f"{form.noun} {record.key!r} has no {form.container}{record.hint} to take "
                                  f"the venue from; pass --venue ID", line=record.line, field=form.container_field)
    else:
        problems.add(record.file, f"{form.noun} {record.key!r} has no year{record.hint}; add one or pass "
                                  f"--venue ID", line=record.line, field="year")


def _write(planned: list[_Planned], venues: Venues, content_dir: Path, force: bool, report: RecordsReport,
           problems: Problems) -> None:
    """Compare the planned files with what is on disk, note each paper's and venue's outcome
    in ``report``, and write what changed (nothing at all when a write is refused)."""
    papers_dir, venues_dir = content_dir / "papers", content_dir / "venues"
    warnings = report.warnings
    actions: list[tuple[Path, bytes]] = []
    for paper in planned:
        target = papers_dir / f"{paper.slug}.md"
        status = plan_paper_write(target, paper.content, force, problems, warnings, actions)
        if status in (CREATED, UPDATED) and paper.joined:
            report.joined.append((f"papers/{paper.slug}.md", paper.joined))
        report.papers.append(RecordResult(paper.slug, status, paper.title, paper.tags, paper.file, paper.key))
    for venue_id in dict.fromkeys(p.venue for p in planned):
        planned_venue = venues.planned.get(venue_id)
        target = venues_dir / f"{venue_id}.md"
        titles = venues.track_titles.get(venue_id, {})
        if planned_venue is None or target.exists() or target.is_symlink():
            report.venues_existing.append(venue_id)
            if titles and venue_id in venues.existing:
                add_tracks(venues.existing[venue_id], titles, target, warnings, actions)
        else:
            report.venues_created.append(venue_id)
            text = with_tracks(planned_venue.text, tracks_entries(titles)) or planned_venue.text
            actions.append((target, text.encode("utf-8")))
    write_planned(actions, (papers_dir, venues_dir), problems)


def _valid(data: dict, abstract: str, slug: str, where: str, problems: Problems) -> bool:
    """The planned paper must load: the build's schema, and its size limit."""
    label = f"papers/{slug}.md"
    size = len(abstract.encode("utf-8")) + sum(len(str(v).encode("utf-8")) for v in data.values())
    if size > MAX_FILE_BYTES - 10_000:  # front matter's keys and quoting are far less than 10 kB
        size = len(paper_text(data, abstract).encode("utf-8"))
        if size > MAX_FILE_BYTES:
            problems.add(where, f"would write a paper file of {size:,} bytes; the build reads at most "
                                f"{MAX_FILE_BYTES:,}")
            return False
    scratch = Problems()
    schema.check_fields(data, schema.PAPER_FIELDS, file=label, line_of=lambda key: None, problems=scratch)
    problems.extend([Problem(where, None, p.field, p.message) for p in scratch.items])
    return not scratch


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
