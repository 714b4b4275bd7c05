"""Import seed abstracts (``*.txt``) and their metadata (``metadata/*.json``) into content:
plan one paper file per abstract (title, authors, links from the metadata; tags suggested
from ``tags.toml``; a provisional title from the abstract when the metadata has none) and
one venue file per seed file, then write them. The formats are read by ``seeds_read``.
Words that PDF extraction split at a line end ("explic- itly") are joined again when the
catalog knows the word (``dehyphen``); the report lists them.

Every input file is read and checked before anything is written; refused (``ContentError``
naming the file, and nothing written): any seed file ``seeds_read`` refuses, a broken or
missing ``tags.toml``, and an abstract too long for a paper file
(``loader.MAX_FILE_BYTES``). Writes are atomic and the importer is idempotent (see
``common``): a file that already holds exactly what would be written is "unchanged"; a
file that differs (someone edited it) is kept ("kept-edited", with a warning) unless
``force=True`` ("updated"). Venue files are created when missing and never overwritten.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..content.duplicates import abstract_key
from ..content.loader import MAX_FILE_BYTES
from ..content.series import MAIN, find_series
from ..content.model import Tag
from ..content.slugs import slugify
from ..content.taxonomy import read_taxonomy
from ..errors import ContentError, Problems
from .common import (
    CREATED,
    UPDATED,
    StatusCounts,
    plan_paper_write,
    clean_line,
    paper_file_text,
    paper_files,
    paper_slug,
    venue_file_text,
    write_planned,
)
from .dehyphen import Joined, Vocabulary, catalog_texts, joined_lines
from .repairs import Repairs
from .text_repairs import TextRepairs
from .seeds_read import TRAILING_STOPWORDS, PaperFacts, SeedFile, read_metadata, read_seed
from .tags import place_tags, placement_lines

_PROVISIONAL_WORDS = 10


# --------------------------------------------------------------------------- report


@dataclass(frozen=True)
class PaperResult:
    slug: str
    status: str  # one of STATUSES
    title: str
    tags: tuple[str, ...]
    provisional: bool
    seed: str  # seed file label
    index: int  # 1-based position of the abstract in its seed file


@dataclass
class ImportReport(StatusCounts):
    papers: list[PaperResult] = field(default_factory=list)
    seed_files: int = 0
    joined: list[tuple[str, list[Joined]]] = field(default_factory=list)  # (paper file, words joined in it)
    # The seeds' citations are the curator's own text: marked on the page, not dropped.
    repairs: Repairs = field(default_factory=lambda: Repairs(texts=TextRepairs(drop_citations=False)))
    placed: Counter = field(default_factory=Counter)  # how the papers' tags were placed (tags.Placement.by)

    def summary(self, *, verbose: bool = False) -> str:
        provisional = [p.slug for p in self.papers if p.provisional]
        files = f"{self.seed_files} seed file{'s' if self.seed_files != 1 else ''}"
        lines = [f"Imported {len(self.papers)} paper{'s' if len(self.papers) != 1 else ''} from {files}: "
                 f"{self.counts_text()}; {len(provisional)} provisional."]
        lines.extend(self.venue_lines())
        if verbose:
            lines.extend(f"  {p.status:<11} {p.slug}  [{', '.join(p.tags)}]" for p in self.papers)
        else:
            lines.extend(self.changed_lines())
        if provisional:
            lines.append("Provisional (title or authors unknown): " + ", ".join(provisional))
        lines.extend(self.repairs.summary_lines())
        lines.extend(placement_lines(self.placed))
        lines.extend(joined_lines(self.joined))
        lines.extend(self.warning_lines())
        return "\n".join(lines)


# --------------------------------------------------------------------------- titles


def provisional_title(abstract: str, max_words: int = _PROVISIONAL_WORDS) -> str:
    """A short LaTeX-free title from the abstract's first sentence, ending in "…" when cut."""
    plain = _plain_text(abstract)
    sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(\[])", plain, maxsplit=1)[0] if plain else ""
    words = sentence.split()
    if not words:
        return "Untitled abstract"
    if len(words) <= max_words:
        return " ".join(words).rstrip(".!?;:,") or "Untitled abstract"
    cut = words[:max_words]
    for k in range(max_words - 1, 5, -1):  # prefer ending at a clause boundary
        if cut[k - 1].endswith((",", ";", ":")):
            cut = cut[:k]
            break
    cut[-1] = cut[-1].rstrip(".,;:!?-–—(")
    while len(cut) > 3 and (not cut[-1] or cut[-1].lower() in TRAILING_STOPWORDS):
        cut.pop()
        cut[-1] = cut[-1].rstrip(".,;:!?-–—(")
    return " ".join(w for w in cut if w) + "…"


def _plain_text(text: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)\s]*\)", r"\1", text)  # Markdown links -> their text
    text = re.sub(r"(?:https?://|www\.)\S+", " ", text)
    text = re.sub(r"\\[A-Za-z]+\*?", " ", text)  # \emph, \mathcal
    text = re.sub(r"\\.", " ", text)  # \%, \\, \{
    text = re.sub(r"[$`{}*_^~]", "", text)
    return clean_line(text)


def _abstract_key(text: str) -> str:
    """The duplicate check's key (``content.duplicates``); a short abstract as its words."""
    return abstract_key(text) or " ".join(text.casefold().split())


# --------------------------------------------------------------------------- planning and writing


@dataclass
class _PlannedPaper:
    slug: str
    title: str
    tags: tuple[str, ...]
    provisional: bool
    seed: str
    index: int
    content: bytes
    abstract_key: str
    joined: list[Joined]


@dataclass
class _PlannedVenue:
    id: str
    content: bytes


def _venue_text(short: str, year: int) -> str:
    """The venue file of a seed file's header: a known series' proceedings name and URL
    (``content.series``), else the header's name."""
    known = find_series(short)
    name = f"{short} {year}"
    if known and known[1] == MAIN:
        venue = known[0].venue(year)
        return venue_file_text(venue.name, venue.proceedings, year, venue.url, None,
                               f"Papers presented at {venue.name}, the {known[0].full_name}.")
    return venue_file_text(name, name, year, None, None, f"Papers presented at {name}.")


def import_seeds(
    files: Sequence[Path],
    content_dir: Path,
    metadata_dir: Path | None = None,
    *,
    force: bool = False,
) -> ImportReport:
    """Import seed files into ``content_dir`` (see the module docstring).

    Raises ``ContentError`` — before writing anything — when any input is refused.
    """
    content_dir = Path(content_dir)
    metadata_dir = Path(metadata_dir) if metadata_dir is not None else None
    problems = Problems()
    report = ImportReport()
    seeds, taxonomy, facts_by_seed = _read_inputs(files, content_dir, metadata_dir, problems, report.warnings)
    problems.raise_if_any()
    report.seed_files = len(seeds)
    venues, planned = _plan(seeds, taxonomy, facts_by_seed, content_dir / "papers", problems, report)
    problems.raise_if_any()
    _write(planned, venues, content_dir, force, problems, report)
    return report


def _read_inputs(files: Sequence[Path], content_dir: Path, metadata_dir: Path | None, problems: Problems,
                 warnings: list[str]) -> tuple[list[SeedFile], dict[str, Tag], dict[int, dict[int, PaperFacts]]]:
    """Read and check every input: the seed files, the taxonomy, the metadata of each seed."""
    if not files:
        problems.add("seeds", "no seed files given")
    seeds: list[SeedFile] = []
    for path in files:
        seed = read_seed(Path(path), problems)
        if seed is not None:
            seeds.append(seed)
    tags_path = content_dir / "tags.toml"
    taxonomy: dict[str, Tag] = {}
    if not tags_path.is_file():
        problems.add(str(tags_path), "file not found: the importer suggests tags from the taxonomy in tags.toml")
    else:
        try:
            taxonomy = read_taxonomy(tags_path, str(tags_path))
        except ContentError as exc:
            problems.extend(exc.problems)
    facts_by_seed: dict[int, dict[int, PaperFacts]] = {}
    for i, seed in enumerate(seeds):
        facts_by_seed[i] = read_metadata(seed, metadata_dir, problems, warnings)
    return seeds, taxonomy, facts_by_seed


def _plan(seeds: list[SeedFile], taxonomy: dict[str, Tag], facts_by_seed: dict[int, dict[int, PaperFacts]],
          papers_dir: Path, problems: Problems, report: ImportReport) -> tuple[dict, list[_PlannedPaper]]:
    """Plan every file: a venue per seed file, a paper per abstract not seen before."""
    warnings = report.warnings
    venues: dict[str, _PlannedVenue] = {}
    planned: list[_PlannedPaper] = []
    used_slugs: set[str] = set()
    seen_abstracts: dict[str, str] = {}
    repairs = report.repairs
    abstracts = [repairs.text(abstract, f"{seed.label}:{line}") for seed in seeds
                 for _, line, abstract in seed.abstracts]
    titles = [fact.title for facts in facts_by_seed.values() for fact in facts.values() if fact.title]
    mended = iter(Vocabulary(abstracts + titles, fallback=catalog_texts(papers_dir)).join_all(abstracts))
    for i, seed in enumerate(seeds):
        venue_id = slugify(seed.venue_name)
        if venue_id not in venues:
            venues[venue_id] = _PlannedVenue(venue_id, _venue_text(seed.venue_short, seed.year).encode("utf-8"))
        facts = facts_by_seed[i]
        for index, line, abstract in seed.abstracts:
            where = f"{seed.label}:{line}"
            abstract, joined = next(mended)
            key = _abstract_key(abstract)
            if key in seen_abstracts:
                warnings.append(f"{where}: abstract #{index} repeats the abstract at {seen_abstracts[key]}; "
                                f"imported once")
                continue
            seen_abstracts[key] = f"{seed.label}:{line} (#{index})"
            fact = facts.get(index)
            title = repairs.text(fact.title, where, title=True) if fact and fact.title is not None else None
            authors = repairs.authors(fact.authors, where) if fact and fact.authors is not None else None
            provisional = title is None or authors is None
            shown_title = title if title is not None else provisional_title(abstract)
            tags, placed = place_tags(title or "", abstract, taxonomy, venue=venue_id)
            if repairs.duplicate(f"{seed.label}:{line} (#{index})", shown_title, venue_id, authors or (), abstract):
                continue
            report.placed[placed] += 1
            slug = paper_slug(shown_title, f"{seed.venue_name} paper {index}", used_slugs)
            used_slugs.add(slug)
            repairs.count_pdf(fact.links if fact else ())
            text = paper_file_text(
                title=shown_title,
                authors=authors or (),
                venue=venue_id,
                tags=tags,
                abstract=abstract,
                presentation=fact.presentation if fact else None,
                links=fact.links if fact else (),
                provisional=provisional,
                citation=fact.citation if fact else None,
            )
            encoded = text.encode("utf-8")
            if len(encoded) > MAX_FILE_BYTES:
                problems.add(seed.label, f"abstract #{index} is too long ({len(encoded):,} bytes as a paper "
                                         f"file); the site build reads paper files of at most "
                                         f"{MAX_FILE_BYTES:,} bytes", line=line)
            planned.append(_PlannedPaper(slug, shown_title, tags, provisional, seed.label, index, encoded, key,
                                         joined))
    return venues, planned


def _write(planned: list[_PlannedPaper], venues: dict, content_dir: Path, force: bool, problems: Problems,
           report: ImportReport) -> None:
    """Compare with what is on disk, refuse targets that cannot be written, then write."""
    papers_dir, venues_dir = content_dir / "papers", content_dir / "venues"
    warnings = report.warnings
    existing_by_abstract: dict[str, str] | None = None  # read when first needed: not when every file exists
    planned_slugs = {p.slug for p in planned}
    actions: list[tuple[Path, bytes]] = []
    results: list[PaperResult] = []
    for paper in planned:
        slug = paper.slug
        target = papers_dir / f"{slug}.md"
        if not target.exists():
            if existing_by_abstract is None:
                existing_by_abstract = _existing_abstracts(papers_dir)
            other = existing_by_abstract.get(paper.abstract_key)
            if other and other != slug and other not in planned_slugs:
                # The same abstract already lives under another name (renamed by hand?).
                slug, target = other, papers_dir / f"{other}.md"
                warnings.append(f"papers/{paper.slug}.md: the same abstract is already in papers/{other}.md; "
                                f"that file is used instead of creating a duplicate")
        status = plan_paper_write(target, paper.content, force, problems, warnings, actions,
                                  force_hint="force=True (--force)")
        if status in (CREATED, UPDATED) and paper.joined:
            report.joined.append((f"papers/{slug}.md", paper.joined))
        results.append(PaperResult(slug, status, paper.title, paper.tags, paper.provisional, paper.seed,
                                   paper.index))
    for venue in venues.values():
        target = venues_dir / f"{venue.id}.md"
        if target.exists() or target.is_symlink():
            report.venues_existing.append(venue.id)
        else:
            report.venues_created.append(venue.id)
            actions.append((target, venue.content))
    # 4. Write.
    write_planned(actions, (papers_dir, venues_dir), problems)
    report.papers = results


def _existing_abstracts(papers_dir: Path) -> dict[str, str]:
    """Normalised abstract -> slug of the paper files already in ``papers_dir``."""
    found: dict[str, str] = {}
    for slug, fm in paper_files(papers_dir):
        key = _abstract_key(fm.body)
        if key:
            found.setdefault(key, slug)
    return found
