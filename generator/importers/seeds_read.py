"""Read seed files (``*.txt``: a venue header, then one abstract per paragraph) and their
metadata (``metadata/*.json``), checked, into ``SeedFile`` and ``PaperFacts``.

Seed file (see ``/work/shared/seeds/README.md``)::

    ICLR 2024 Papers                 <- venue header: venue name, year, the word "Papers"

    First abstract, one line ...     <- one abstract per paragraph

    Second abstract ...

UTF-8 with or without BOM, LF or CRLF, whitespace-only separator lines and a missing
final newline are accepted; a paragraph wrapped over several lines is joined with
spaces. Refused (a problem naming the file): an empty file, a file that is not UTF-8 text
(or holds NUL characters or Unicode noncharacters), a file without a venue header, a file
with no abstracts, and anything that is not a regular file (a folder, a pipe).

Metadata: ``<metadata_dir>/<seed stem>.json`` (default: ``metadata/`` beside each seed
file), a JSON array of records ``{seed, index, first_words, title, authors, venue,
presentation, urls, ...}``. A record is used for the abstract at ``index`` (1-based, in
file order) only when ``first_words`` matches the abstract's first words (whitespace
normalised); otherwise it is ignored with a warning and the paper is provisional.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..content.citation_fields import doi_of, month, pages
from ..content.model import LINK_KINDS, PRESENTATIONS
from ..content.tracks import STANDARD, anthology_id
from ..content.characters import decode_utf8, describe_char, find_forbidden_in_file
from ..content.schema import is_http_url
from ..errors import Problems
from .common import KNOWN_VENUES, Unreadable, add_author, clean_line, read_limited

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
_PAPERS = re.compile(r"papers", re.IGNORECASE)  # how a header ends (_HEADER)
_MAX_HEADER_NAME = 60
_MAX_HEADER_WORDS = 6
TRAILING_STOPWORDS = frozenset(
    "a an the of in on for to with and or but which that who whose is are was were be been being very by as at "
    "from its their our this these those such than into over under via per while whereas".split()
)


# --------------------------------------------------------------------------- seeds


@dataclass(frozen=True)
class SeedFile:
    path: Path
    label: str
    venue_name: str  # "ICLR 2024"
    venue_short: str  # "ICLR"
    year: int
    abstracts: tuple[tuple[int, int, str], ...]  # (index, line, text)


def read_seed(path: Path, problems: Problems) -> SeedFile | None:
    """The checked seed file at ``path``, or None with the problem added."""
    label = str(path)
    try:
        raw = read_limited(path)
    except FileNotFoundError:
        problems.add(label, "seed file not found")
        return None
    except Unreadable as exc:
        problems.add(label, str(exc))
        return None
    text = decode_utf8(raw, label, problems)
    if text is None:
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
    if not _PAPERS.fullmatch(line, len(line) - 6):  # most lines are abstracts: skip _HEADER's slow scan
        return None
    match = _HEADER.match(line)
    if not match:
        return None
    name = match.group("name")
    words = name.split()
    if (
        len(name) > _MAX_HEADER_NAME
        or len(words) > _MAX_HEADER_WORDS
        or words[-1].lower() in TRAILING_STOPWORDS
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
    # Its track and citation fields where the record gives them (issue 36; ``common.paper_data``).
    citation: dict[str, Any] | None = None


def read_metadata(
    seed: SeedFile, metadata_dir: Path | None, problems: Problems, warnings: list[str]
) -> dict[int, PaperFacts]:
    folder = metadata_dir if metadata_dir is not None else seed.path.parent / "metadata"
    path = folder / f"{seed.path.stem}.json"
    label = str(path)
    if not path.is_file():
        warnings.append(f"{seed.label}: no metadata file {label}; its papers are provisional (no title or authors)")
        return {}
    try:
        raw = read_limited(path)
        data = json.loads(raw.decode("utf-8-sig"))
    except Unreadable as exc:
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
        actual = abstract.split(maxsplit=len(expected))[: len(expected)]  # the first words, not all of them
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
        title = clean_line(title) if isinstance(title, str) else None
        if not title:
            warnings.append(f"{where}: 'title' is not usable text; the paper is provisional")
            title = None

    authors: tuple[str, ...] | None = None
    raw_authors = record.get("authors")
    if isinstance(raw_authors, list):
        names: list[str] = []
        for item in raw_authors:
            name = clean_line(item) if isinstance(item, str) else ""
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
    doi = record.get("doi")
    if isinstance(doi, str) and doi.strip() and "doi" not in links:
        found = doi_of(doi)
        if found:
            links["doi"] = f"https://doi.org/{found}"
        else:
            warnings.append(f"{where}: doi {doi!r} is not a readable DOI; left out")
    ordered = tuple(sorted(links.items(), key=lambda kv: LINK_KINDS.index(kv[0])))
    return PaperFacts(title=title, authors=authors, presentation=presentation, links=ordered,
                      citation=_citation(record, links, where, warnings))


def _citation(record: dict[str, Any], links: dict[str, str], where: str, warnings: list[str]) -> dict[str, Any]:
    """A metadata record's track (its ``track``, else its ACL Anthology link's) and citation
    fields (pages, editors, publisher, month); what cannot be read is left out with a warning."""
    citation: dict[str, Any] = {}
    track = record.get("track")
    if isinstance(track, str) and track.strip() in STANDARD:
        citation["track"] = track.strip()
    else:
        found = next((anthology_id(url) for url in links.values() if anthology_id(url)), None)
        if found is not None and found.track and found.track != "main":
            citation["track"] = found.track
    raw_pages = record.get("pages")
    if raw_pages not in (None, ""):
        citation["pages"] = pages(raw_pages)
        if citation["pages"] is None:
            warnings.append(f"{where}: pages {raw_pages!r} is not a readable page range; left out")
    if record.get("month") not in (None, ""):
        citation["month"] = month(record["month"])
    editors = record.get("editors")
    if isinstance(editors, list):
        citation["editors"] = [clean_line(e) for e in editors if isinstance(e, str) and clean_line(e)]
    if isinstance(record.get("publisher"), str) and record["publisher"].strip():
        citation["publisher"] = clean_line(record["publisher"])
    return citation


def _is_http_url(value: Any) -> bool:
    """The site build's rule (``schema.http_url``), so an imported link never fails the build."""
    return isinstance(value, str) and is_http_url(value)
