"""Import seed abstracts (``*.txt``) and their metadata (``metadata/*.json``) into content.

Seed file (see ``/work/shared/seeds/README.md``)::

    ICLR 2024 Papers                 <- venue header: venue name, year, the word "Papers"

    First abstract, one line ...     <- one abstract per paragraph

    Second abstract ...

UTF-8 with or without BOM, LF or CRLF, whitespace-only separator lines and a missing
final newline are accepted; a paragraph wrapped over several lines is joined with
spaces. Refused (``ContentError`` naming the file, and nothing written): an empty file,
a file that is not UTF-8 text (or holds NUL characters or Unicode noncharacters), a file
without a venue header, a file with no abstracts, an abstract too long for a paper file
(``loader.MAX_FILE_BYTES``), and anything that is not a regular file (a folder, a pipe).

Metadata: ``<metadata_dir>/<seed stem>.json`` (default: ``metadata/`` beside each seed
file), a JSON array of records ``{seed, index, first_words, title, authors, venue,
presentation, urls, ...}``. A record is used for the abstract at ``index`` (1-based, in
file order) only when ``first_words`` matches the abstract's first words (whitespace
normalised); otherwise it is ignored with a warning and the paper is provisional.

Every input file is read and checked before anything is written. Writes are atomic
(temp file in the same folder + ``os.replace``) and the importer is idempotent: a file
that already holds exactly what would be written is "unchanged"; a file that differs
(someone edited it) is kept ("kept-edited", with a warning) unless ``force=True``
("updated"). Venue files are created when missing and never overwritten.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..content import frontmatter
from ..errors import ContentError, Problems
from ..content.loader import MAX_FILE_BYTES
from ..content.model import LINK_KINDS, PRESENTATIONS, Tag
from ..content.schema import describe_char, find_forbidden_in_file, is_http_url
from ..content.slugs import MAX_LENGTH, author_key, slugify
from ..content.taxonomy import read_taxonomy
from .tags import suggest_tags

CREATED = "created"
UPDATED = "updated"
UNCHANGED = "unchanged"
KEPT_EDITED = "kept-edited"
STATUSES = (CREATED, UPDATED, UNCHANGED, KEPT_EDITED)

# Short name (lower-case) -> (canonical short name, full name, URL template or None).
KNOWN_VENUES: dict[str, tuple[str, str, str | None]] = {
    "iclr": ("ICLR", "International Conference on Learning Representations", "https://iclr.cc/Conferences/{year}"),
    "icml": ("ICML", "International Conference on Machine Learning", "https://icml.cc/Conferences/{year}"),
    "neurips": ("NeurIPS", "Conference on Neural Information Processing Systems",
                "https://neurips.cc/Conferences/{year}"),
    "nips": ("NeurIPS", "Conference on Neural Information Processing Systems",
             "https://neurips.cc/Conferences/{year}"),
    "cvpr": ("CVPR", "IEEE/CVF Conference on Computer Vision and Pattern Recognition",
             "https://cvpr.thecvf.com/Conferences/{year}"),
    "iccv": ("ICCV", "IEEE/CVF International Conference on Computer Vision", None),
    "eccv": ("ECCV", "European Conference on Computer Vision", None),
    "acl": ("ACL", "Annual Meeting of the Association for Computational Linguistics", "https://{year}.aclweb.org"),
    "emnlp": ("EMNLP", "Conference on Empirical Methods in Natural Language Processing", "https://{year}.emnlp.org"),
    "naacl": ("NAACL", "Annual Conference of the North American Chapter of the Association for Computational "
                       "Linguistics", None),
    "aaai": ("AAAI", "AAAI Conference on Artificial Intelligence", None),
    "ijcai": ("IJCAI", "International Joint Conference on Artificial Intelligence", None),
    "colt": ("COLT", "Conference on Learning Theory", "https://learningtheory.org/colt{year}/"),
    "aistats": ("AISTATS", "International Conference on Artificial Intelligence and Statistics",
                "https://aistats.org/aistats{year}/"),
    "uai": ("UAI", "Conference on Uncertainty in Artificial Intelligence", "https://www.auai.org/uai{year}/"),
    "kdd": ("KDD", "ACM SIGKDD Conference on Knowledge Discovery and Data Mining", "https://kdd.org/kdd{year}/"),
    "corl": ("CoRL", "Conference on Robot Learning", None),
    "www": ("WWW", "ACM Web Conference", None),
    "sigir": ("SIGIR", "ACM SIGIR Conference on Research and Development in Information Retrieval", None),
    "interspeech": ("Interspeech", "Interspeech Conference", None),
}

URL_KEYS = {
    "pdf": "pdf",
    "openreview": "openreview",
    "arxiv": "arxiv",
    "code": "code",
    "project": "project",
    "project_page": "project",
    "venue_page": "venue_page",
}

_HEADER = re.compile(r"^(?P<name>.*?\S)\s+(?P<year>(?:19|20|21)\d\d)\s+papers$", re.IGNORECASE)
_MAX_HEADER_NAME = 60
_MAX_HEADER_WORDS = 6
_PROVISIONAL_WORDS = 10
_TRAILING_STOPWORDS = frozenset(
    "a an the of in on for to with and or but which that who whose is are was were be been being very by as at "
    "from its their our this these those such than into over under via per while whereas".split()
)


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


class StatusCounts:
    """What every importer's report answers about its ``papers`` (each with slug and status)."""

    papers: list

    @property
    def statuses(self) -> dict[str, str]:
        """slug -> status, in input order."""
        return {p.slug: p.status for p in self.papers}

    def slugs(self, status: str) -> list[str]:
        return [p.slug for p in self.papers if p.status == status]

    def count(self, status: str) -> int:
        return sum(1 for p in self.papers if p.status == status)


@dataclass
class ImportReport(StatusCounts):
    papers: list[PaperResult] = field(default_factory=list)
    venues_created: list[str] = field(default_factory=list)
    venues_existing: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    seed_files: int = 0

    def summary(self, *, verbose: bool = False) -> str:
        counts = ", ".join(f"{self.count(s)} {s}" for s in STATUSES)
        provisional = [p.slug for p in self.papers if p.provisional]
        files = f"{self.seed_files} seed file{'s' if self.seed_files != 1 else ''}"
        lines = [f"Imported {len(self.papers)} paper{'s' if len(self.papers) != 1 else ''} from {files}: "
                 f"{counts}; {len(provisional)} provisional."]
        if self.venues_created:
            lines.append(f"Venues created: {', '.join(self.venues_created)}.")
        if self.venues_existing:
            lines.append(f"Venues already present (left as they are): {', '.join(self.venues_existing)}.")
        if verbose:
            lines.extend(f"  {p.status:<11} {p.slug}  [{', '.join(p.tags)}]" for p in self.papers)
        else:
            if self.slugs(KEPT_EDITED):
                lines.append("Kept as edited (not overwritten; use --force to replace): "
                             + ", ".join(self.slugs(KEPT_EDITED)))
            if self.slugs(UPDATED):
                lines.append("Updated: " + ", ".join(self.slugs(UPDATED)))
        if provisional:
            lines.append("Provisional (title or authors unknown): " + ", ".join(provisional))
        if self.warnings:
            lines.append(f"Warnings ({len(self.warnings)}):")
            lines.extend(f"  - {w}" for w in self.warnings)
        return "\n".join(lines)


# --------------------------------------------------------------------------- seeds


@dataclass(frozen=True)
class SeedFile:
    path: Path
    label: str
    venue_name: str  # "ICLR 2024"
    venue_short: str  # "ICLR"
    year: int
    abstracts: tuple[tuple[int, int, str], ...]  # (index, line, text)


MAX_INPUT_BYTES = 50_000_000  # a seed or metadata file; the real ones are about 100 kB


class _Unreadable(Exception):
    """Why a file cannot be read: the message completes "<file>: ..."."""


def _read_limited(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (never blocks on a pipe or device)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise _Unreadable(f"cannot read the file: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise _Unreadable("is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise _Unreadable("is not a regular file (a device, pipe or socket)")
    if info.st_size > limit:
        raise _Unreadable(f"is too large ({info.st_size:,} bytes; at most {limit:,})")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise _Unreadable(f"cannot read the file: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise _Unreadable(f"is too large (at most {limit:,} bytes)")
    return raw


def _read_seed(path: Path, problems: Problems) -> SeedFile | None:
    label = str(path)
    try:
        raw = _read_limited(path)
    except FileNotFoundError:
        problems.add(label, "seed file not found")
        return None
    except _Unreadable as exc:
        problems.add(label, str(exc))
        return None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problems.add(label, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8", line=line)
        return None
    return parse_seed(text, label, path, problems)


def parse_seed(text: str, label: str, path: Path, problems: Problems) -> SeedFile | None:
    """Parse a seed file's text; add problems (naming ``label``) and return None when refused."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        problems.add(label, "the seed file is empty; expected a venue header such as 'ICLR 2024 Papers' "
                            "followed by abstracts")
        return None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        problems.add(label, "contains NUL characters; is it a text file?", line=line)
        return None
    bad = find_forbidden_in_file(text)
    if bad:  # a noncharacter or lone surrogate: the site build would refuse the paper file
        line = text.count("\n", 0, bad.start()) + 1
        problems.add(label, f"contains {describe_char(bad.group())}; remove it", line=line)
        return None
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if line.strip())
    header = _parse_header(lines[first])
    if header is None:
        shown = " ".join(lines[first].split())
        shown = shown if len(shown) <= 50 else shown[:47] + "…"
        problems.add(label, "expected a venue header such as 'ICLR 2024 Papers' (venue name, year, the word "
                            f"'Papers') on the first line, found {shown!r}", line=first + 1)
        return None
    short, year = header
    abstracts: list[tuple[int, int, str]] = []
    paragraph: list[str] = []
    start = 0
    ok = True

    def flush() -> None:
        nonlocal ok
        if not paragraph:
            return
        joined = " ".join(part.strip() for part in paragraph)
        if _parse_header(joined) is not None:
            problems.add(label, f"a second venue header {joined!r}; a seed file holds the papers of one venue",
                         line=start + 1)
            ok = False
        else:
            abstracts.append((len(abstracts) + 1, start + 1, joined))
        paragraph.clear()

    for number in range(first + 1, len(lines)):
        line = lines[number]
        if line.strip():
            if not paragraph:
                start = number
            paragraph.append(line)
        else:
            flush()
    flush()
    if not ok:
        return None
    if not abstracts:
        problems.add(label, "no abstracts after the venue header; expected one abstract per paragraph, "
                            "separated by blank lines", line=first + 1)
        return None
    return SeedFile(path=path, label=label, venue_name=f"{short} {year}", venue_short=short, year=year,
                    abstracts=tuple(abstracts))


def _parse_header(line: str) -> tuple[str, int] | None:
    """``"ICLR  2024 Papers"`` -> ``("ICLR", 2024)``; None when the line is not a header."""
    line = " ".join(line.split())
    match = _HEADER.match(line)
    if not match:
        return None
    name = match.group("name")
    words = name.split()
    if (
        len(name) > _MAX_HEADER_NAME
        or len(words) > _MAX_HEADER_WORDS
        or words[-1].lower() in _TRAILING_STOPWORDS
        or not any(ch.isalpha() for ch in name)
        or name[-1] in ".,;:!?"
    ):
        return None
    known = KNOWN_VENUES.get(name.lower())
    return (known[0] if known else name), int(match.group("year"))


# --------------------------------------------------------------------------- metadata


@dataclass(frozen=True)
class PaperFacts:
    title: str | None
    authors: tuple[str, ...] | None
    presentation: str | None
    links: tuple[tuple[str, str], ...]


def _read_metadata(
    seed: SeedFile, metadata_dir: Path | None, problems: Problems, warnings: list[str]
) -> dict[int, PaperFacts]:
    folder = metadata_dir if metadata_dir is not None else seed.path.parent / "metadata"
    path = folder / f"{seed.path.stem}.json"
    label = str(path)
    if not path.is_file():
        warnings.append(f"{seed.label}: no metadata file {label}; its papers are provisional (no title or authors)")
        return {}
    try:
        raw = _read_limited(path)
        data = json.loads(raw.decode("utf-8-sig"))
    except _Unreadable as exc:
        problems.add(label, str(exc))
        return {}
    except OSError as exc:
        problems.add(label, f"cannot read the metadata file: {exc.strerror or exc}")
        return {}
    except RecursionError:
        problems.add(label, "invalid JSON: nested too deeply")
        return {}
    except UnicodeDecodeError:
        problems.add(label, "not UTF-8 text; save the metadata file as UTF-8")
        return {}
    except json.JSONDecodeError as exc:
        problems.add(label, f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)
        return {}
    if not isinstance(data, list):
        problems.add(label, "expected a JSON array with one record per abstract")
        return {}

    by_index = {index: text for index, _, text in seed.abstracts}
    facts: dict[int, PaperFacts] = {}
    for position, record in enumerate(data, 1):
        where = f"{label}: record {position}"
        if not isinstance(record, dict):
            warnings.append(f"{where}: not a JSON object; ignored")
            continue
        index = record.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or index < 1:
            warnings.append(f"{where}: 'index' must be a whole number from 1; ignored")
            continue
        where = f"{label}: record #{index}"
        seed_name = record.get("seed")
        if seed_name is not None and seed_name != seed.path.name:
            warnings.append(f"{where}: is for seed {seed_name!r}, not {seed.path.name!r}; ignored")
            continue
        if index in facts:
            warnings.append(f"{where}: a second record for abstract #{index}; ignored")
            continue
        abstract = by_index.get(index)
        if abstract is None:
            warnings.append(f"{where}: {seed.label} has no abstract #{index}; ignored")
            continue
        first_words = record.get("first_words")
        if not isinstance(first_words, str) or not first_words.split():
            warnings.append(f"{where}: no 'first_words' to check the match; ignored")
            continue
        expected = first_words.split()
        actual = abstract.split()[: len(expected)]
        if actual != expected:
            warnings.append(
                f"{where}: first_words {' '.join(expected)!r} do not match abstract #{index} of {seed.label} "
                f"({' '.join(actual)!r}); record ignored, the paper is provisional"
            )
            continue
        facts[index] = _facts(record, where, seed, warnings)
    return facts


def _facts(record: dict[str, Any], where: str, seed: SeedFile, warnings: list[str]) -> PaperFacts:
    title = record.get("title")
    if title is not None:
        title = _clean_line(title) if isinstance(title, str) else None
        if not title:
            warnings.append(f"{where}: 'title' is not usable text; the paper is provisional")
            title = None

    authors: tuple[str, ...] | None = None
    raw_authors = record.get("authors")
    if isinstance(raw_authors, list):
        names: list[str] = []
        for item in raw_authors:
            name = _clean_line(item) if isinstance(item, str) else ""
            if not name:
                warnings.append(f"{where}: an author is not usable text; left out")
            else:
                add_author(names, name, where, warnings)
        authors = tuple(names) if names else None
    elif raw_authors is not None:
        warnings.append(f"{where}: 'authors' is not a list; ignored")

    presentation = record.get("presentation")
    if presentation is not None and presentation not in PRESENTATIONS:
        warnings.append(f"{where}: presentation {presentation!r} is not one of {', '.join(PRESENTATIONS)}; ignored")
        presentation = None

    venue = record.get("venue")
    if isinstance(venue, str) and " ".join(venue.split()).lower() != seed.venue_name.lower():
        warnings.append(f"{where}: venue {venue!r} differs from the seed header {seed.venue_name!r}; "
                        f"the header is used")

    links: dict[str, str] = {}
    urls = record.get("urls")
    if isinstance(urls, dict):
        for key, url in urls.items():
            if url is None or url == "":
                continue
            kind = URL_KEYS.get(key)
            if kind is None:
                warnings.append(f"{where}: unknown URL kind {key!r}; ignored")
            elif not _is_http_url(url):
                warnings.append(f"{where}: urls.{key} is not an http(s) URL; ignored")
            elif kind not in links:
                links[kind] = url.strip()
    elif urls is not None:
        warnings.append(f"{where}: 'urls' is not a mapping; ignored")
    ordered = tuple(sorted(links.items(), key=lambda kv: LINK_KINDS.index(kv[0])))
    return PaperFacts(title=title, authors=authors, presentation=presentation, links=ordered)


def _is_http_url(value: Any) -> bool:
    """The site build's rule (``schema.http_url``), so an imported link never fails the build."""
    return isinstance(value, str) and is_http_url(value)


def _clean_line(text: str) -> str:
    """One line of printable text: control and separator characters become spaces."""
    chars = [" " if unicodedata.category(ch)[0] in "CZ" and ch != " " else ch for ch in text]
    return " ".join("".join(chars).split())


# --------------------------------------------------------------------------- titles and slugs


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
    while len(cut) > 3 and (not cut[-1] or cut[-1].lower() in _TRAILING_STOPWORDS):
        cut.pop()
        cut[-1] = cut[-1].rstrip(".,;:!?-–—(")
    return " ".join(w for w in cut if w) + "…"


def _plain_text(text: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)\s]*\)", r"\1", text)  # Markdown links -> their text
    text = re.sub(r"(?:https?://|www\.)\S+", " ", text)
    text = re.sub(r"\\[A-Za-z]+\*?", " ", text)  # \emph, \mathcal
    text = re.sub(r"\\.", " ", text)  # \%, \\, \{
    text = re.sub(r"[$`{}*_^~]", "", text)
    return _clean_line(text)


def add_author(names: list[str], name: str, where: str, warnings: list[str]) -> None:
    """Append ``name`` to ``names`` unless it is an author already listed (the same author
    page: same name but for accents, case or punctuation), which is a warning instead."""
    key = author_key(name)
    same = next((n for n in names if author_key(n) == key), None)
    if same is None:
        names.append(name)
        return
    again = "listed twice" if same == name else f"the same author as {same!r} (one author page)"
    warnings.append(f"{where}: author {name!r} is {again}; listed once")


def _paper_slug(title: str, fallback: str, used: set[str]) -> str:
    """``slugify(title)`` (≤ 80 characters, cut at a word); ``-2``, ``-3``… when already used."""
    title = re.sub(r"(?<=\w)['’](?=\w)", "", title)  # "Let's" -> "lets", not "let-s"
    base = slugify(title) or slugify(fallback) or "paper"
    if base not in used:
        return base
    n = 2
    while True:
        suffix = f"-{n}"
        stem = slugify(title, MAX_LENGTH - len(suffix)) or slugify(fallback, MAX_LENGTH - len(suffix)) or "paper"
        candidate = stem + suffix
        if candidate not in used:
            return candidate
        n += 1


def _abstract_key(text: str) -> str:
    return " ".join(text.split())


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


@dataclass
class _PlannedVenue:
    id: str
    content: bytes


def venue_file_text(short: str, year: int) -> str:
    known = KNOWN_VENUES.get(short.lower())
    name = f"{short} {year}"
    data: dict[str, Any] = {"name": name}
    if known:
        full = f"{known[1]} {year}"
        data["full_name"] = full
        data["year"] = year
        if known[2]:
            data["url"] = known[2].format(year=year)
        body = f"Papers presented at {name}, the {known[1]}."
    else:
        data["full_name"] = name
        data["year"] = year
        body = f"Papers presented at {name}."
    return frontmatter.dump(data, body)


def paper_file_text(
    *,
    title: str,
    authors: Sequence[str],
    venue: str,
    tags: Sequence[str],
    abstract: str,
    presentation: str | None = None,
    links: Sequence[tuple[str, str]] = (),
    provisional: bool = False,
) -> str:
    data: dict[str, Any] = {"title": title, "authors": list(authors), "venue": venue, "tags": list(tags)}
    if presentation:
        data["presentation"] = presentation
    if links:
        data["links"] = dict(links)
    if provisional:
        data["provisional"] = True
    return frontmatter.dump(data, abstract)


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
    warnings = report.warnings

    # 1. Read and check every input.
    if not files:
        problems.add("seeds", "no seed files given")
    seeds: list[SeedFile] = []
    for path in files:
        seed = _read_seed(Path(path), problems)
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
        facts_by_seed[i] = _read_metadata(seed, metadata_dir, problems, warnings)
    problems.raise_if_any()
    report.seed_files = len(seeds)

    # 2. Plan every file.
    papers_dir = content_dir / "papers"
    venues_dir = content_dir / "venues"
    venues: dict[str, _PlannedVenue] = {}
    planned: list[_PlannedPaper] = []
    used_slugs: set[str] = set()
    seen_abstracts: dict[str, str] = {}
    seen_titles: dict[tuple[str, str], str] = {}
    for i, seed in enumerate(seeds):
        venue_id = slugify(seed.venue_name)
        if venue_id not in venues:
            venues[venue_id] = _PlannedVenue(venue_id, venue_file_text(seed.venue_short, seed.year).encode("utf-8"))
        facts = facts_by_seed[i]
        for index, line, abstract in seed.abstracts:
            where = f"{seed.label}:{line}"
            key = _abstract_key(abstract)
            if key in seen_abstracts:
                warnings.append(f"{where}: abstract #{index} repeats the abstract at {seen_abstracts[key]}; "
                                f"imported once")
                continue
            seen_abstracts[key] = f"{seed.label}:{line} (#{index})"
            fact = facts.get(index)
            title = fact.title if fact else None
            authors = fact.authors if fact else None
            provisional = title is None or authors is None
            shown_title = title if title is not None else provisional_title(abstract)
            tags = suggest_tags(title or "", abstract, taxonomy)
            slug = _paper_slug(shown_title, f"{seed.venue_name} paper {index}", used_slugs)
            used_slugs.add(slug)
            title_key = (venue_id, " ".join(re.sub(r"[\W_]+", " ", shown_title.casefold()).split()))
            if title_key in seen_titles:
                warnings.append(f"{where}: abstract #{index} has the same title as {seen_titles[title_key]} "
                                f"({shown_title!r}); the site build refuses two papers with one title — fix the "
                                f"metadata")
            else:
                seen_titles[title_key] = f"{seed.label}:{line} (#{index})"
            text = paper_file_text(
                title=shown_title,
                authors=authors or (),
                venue=venue_id,
                tags=tags,
                abstract=abstract,
                presentation=fact.presentation if fact else None,
                links=fact.links if fact else (),
                provisional=provisional,
            )
            encoded = text.encode("utf-8")
            if len(encoded) > MAX_FILE_BYTES:
                problems.add(seed.label, f"abstract #{index} is too long ({len(encoded):,} bytes as a paper "
                                         f"file); the site build reads paper files of at most "
                                         f"{MAX_FILE_BYTES:,} bytes", line=line)
            planned.append(_PlannedPaper(slug, shown_title, tags, provisional, seed.label, index, encoded, key))

    problems.raise_if_any()

    # 3. Compare with what is on disk; refuse targets that cannot be written.
    existing_by_abstract = _existing_abstracts(papers_dir)
    planned_slugs = {p.slug for p in planned}
    actions: list[tuple[Path, bytes]] = []
    results: list[PaperResult] = []
    for paper in planned:
        slug = paper.slug
        target = papers_dir / f"{slug}.md"
        if not target.exists():
            other = existing_by_abstract.get(paper.abstract_key)
            if other and other != slug and other not in planned_slugs:
                # The same abstract already lives under another name (renamed by hand?).
                slug, target = other, papers_dir / f"{other}.md"
                warnings.append(f"papers/{paper.slug}.md: the same abstract is already in papers/{other}.md; "
                                f"that file is used instead of creating a duplicate")
        status = _status(target, paper.content, force, problems)
        if status == KEPT_EDITED:
            warnings.append(f"papers/{slug}.md: differs from the import (edited by hand?); kept as it is — "
                            f"use force=True (--force) to overwrite it")
        if status in (CREATED, UPDATED):
            actions.append((target, paper.content))
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
    return report


def write_planned(actions: list[tuple[Path, bytes]], folders: Sequence[Path], problems: Problems) -> None:
    """Last step of every importer: refuse if a target folder is a file, else write it all."""
    for directory in folders:
        if directory.exists() and not directory.is_dir():
            problems.add(str(directory), "exists but is not a folder")
    problems.raise_if_any()
    for target, content in actions:
        _write_atomic(target, content)


def _status(target: Path, content: bytes, force: bool, problems: Problems) -> str:
    if not target.exists() and not target.is_symlink():
        return CREATED
    if target.is_dir():
        problems.add(str(target), "is a folder; cannot write the paper there")
        return KEPT_EDITED
    try:
        current = _read_limited(target, MAX_FILE_BYTES)
    except _Unreadable as exc:
        problems.add(str(target), f"cannot replace the existing file: it {exc}")
        return KEPT_EDITED
    except OSError as exc:
        problems.add(str(target), f"cannot read the existing file: {exc.strerror or exc}")
        return KEPT_EDITED
    if current == content:
        return UNCHANGED
    return UPDATED if force else KEPT_EDITED


def _existing_abstracts(papers_dir: Path) -> dict[str, str]:
    """Normalised abstract -> slug of the paper files already in ``papers_dir``."""
    found: dict[str, str] = {}
    if not papers_dir.is_dir():
        return found
    for path in sorted(papers_dir.glob("*.md")):
        if path.name.startswith("."):
            continue
        try:
            fm = frontmatter.parse(_read_limited(path, MAX_FILE_BYTES).decode("utf-8"), path.name)
        except (OSError, _Unreadable, UnicodeDecodeError, frontmatter.FrontMatterError):
            continue
        key = _abstract_key(fm.body)
        if key:
            found.setdefault(key, path.stem)
    return found


def _write_atomic(target: Path, content: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
