"""What every importer shares: the file statuses and the report's counts, the known
conferences, paper and venue file text, slugs, author lists, and the careful part — reading
existing files within limits, deciding created/updated/unchanged/kept-edited, and atomic
writes.

Every importer reads and checks all its input first, plans every file, then compares each
planned file with what is on disk (``check_status``): a file that already holds exactly what
would be written is "unchanged"; a file that differs (someone edited it) is kept
("kept-edited") unless ``force`` ("updated"). ``write_planned`` writes the rest atomically
(temp file in the same folder, synced, + ``os.replace``), several files at once.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from ..content import frontmatter
from ..content.loader import MAX_FILE_BYTES
from ..content.series import table as series_table
from ..content.slugs import MAX_LENGTH, author_key, slugify
from ..errors import Problems
from ..write.writer import write_atomic

CREATED = "created"
UPDATED = "updated"
UNCHANGED = "unchanged"
KEPT_EDITED = "kept-edited"
STATUSES = (CREATED, UPDATED, UNCHANGED, KEPT_EDITED)

# Acronym (lower case) -> (the series' short name, full name, URL template or None): the known
# conference series (content/series.toml), as the seed and arXiv importers look them up.
KNOWN_VENUES: dict[str, tuple[str, str, str | None]] = {
    acronym.lower(): (series.short, series.full_name, series.url)
    for series in series_table().values() for acronym in series.acronyms}


# --------------------------------------------------------------------------- report


@dataclass
class StatusCounts:
    """What every importer's report holds and answers about its ``papers`` (each with slug
    and status), with the summary lines they share."""

    papers: list = field(default_factory=list)
    venues_created: list[str] = field(default_factory=list)
    venues_existing: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def statuses(self) -> dict[str, str]:
        """slug -> status, in input order."""
        return {p.slug: p.status for p in self.papers}

    def slugs(self, status: str) -> list[str]:
        return [p.slug for p in self.papers if p.status == status]

    def count(self, status: str) -> int:
        return sum(1 for p in self.papers if p.status == status)

    def counts_text(self) -> str:
        """``"3 created, 0 updated, 1 unchanged, 0 kept-edited"``."""
        return ", ".join(f"{self.count(s)} {s}" for s in STATUSES)

    def venue_lines(self) -> list[str]:
        lines = []
        if self.venues_created:
            lines.append(f"Venues created: {', '.join(self.venues_created)}.")
        if self.venues_existing:
            lines.append(f"Venues already present (left as they are): {', '.join(self.venues_existing)}.")
        return lines

    def changed_lines(self) -> list[str]:
        """The papers kept as edited, and those updated (``force``)."""
        lines = []
        if self.slugs(KEPT_EDITED):
            lines.append("Kept as edited (not overwritten; use --force to replace): "
                         + ", ".join(self.slugs(KEPT_EDITED)))
        if self.slugs(UPDATED):
            lines.append("Updated: " + ", ".join(self.slugs(UPDATED)))
        return lines

    def warning_lines(self) -> list[str]:
        if not self.warnings:
            return []
        return [f"Warnings ({len(self.warnings)}):"] + [f"  - {w}" for w in self.warnings]


# --------------------------------------------------------------------------- reading within limits


WRITE_THREADS = 8  # files written at once by write_planned
MAX_INPUT_BYTES = 50_000_000  # a seed or metadata file; the real ones are about 100 kB


class Unreadable(Exception):
    """Why a file cannot be read: the message completes "<file>: ..."."""


def read_limited(path: Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (never blocks on a pipe or device)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise Unreadable(f"cannot read the file: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise Unreadable("is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise Unreadable("is not a regular file (a device, pipe or socket)")
    if info.st_size > limit:
        raise Unreadable(f"is too large ({info.st_size:,} bytes; at most {limit:,})")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise Unreadable(f"cannot read the file: {exc.strerror or exc}") from None
    if len(raw) > limit:
        raise Unreadable(f"is too large (at most {limit:,} bytes)")
    return raw


def paper_files(papers_dir: Path) -> Iterator[tuple[str, frontmatter.FrontMatter]]:
    """(slug, front matter) of every paper file already in ``papers_dir``, in name order;
    files that cannot be read (``read_limited``: regular files of at most ``MAX_FILE_BYTES``)
    or parsed are passed over."""
    if not papers_dir.is_dir():
        return
    for path in sorted(papers_dir.glob("*.md")):
        if path.name.startswith("."):
            continue
        try:
            fm = frontmatter.parse(read_limited(path, MAX_FILE_BYTES).decode("utf-8"), path.name)
        except (OSError, Unreadable, UnicodeDecodeError, frontmatter.FrontMatterError):
            continue
        yield path.stem, fm


# --------------------------------------------------------------------------- names and slugs


def clean_line(text: str) -> str:
    """One line of printable text: control and separator characters become spaces."""
    if text.isascii() and text.isprintable():  # the usual case: no such character but " "
        return " ".join(text.split())
    chars = [" " if unicodedata.category(ch)[0] in "CZ" and ch != " " else ch for ch in text]
    return " ".join("".join(chars).split())


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





def paper_slug(title: str, fallback: str, used: set[str]) -> str:
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


# --------------------------------------------------------------------------- file text


def venue_file_text(name: str, full_name: str, year: int, url: str | None, location: str | None,
                    description: str, tracks: Sequence[dict[str, str]] = ()) -> str:
    data: dict[str, Any] = {"name": name, "full_name": full_name, "year": year}
    if url:
        data["url"] = url
    if location:
        data["location"] = location
    if tracks:
        data["tracks"] = [dict(t) for t in tracks]
    return frontmatter.dump(data, description)


def paper_data(*, title: str, authors: Sequence[str], venue: str, tags: Sequence[str], presentation: str | None = None,
               links: Sequence[tuple[str, str]] = (), provisional: bool = False,
               citation: dict[str, Any] | None = None) -> dict[str, Any]:
    """A paper file's front matter, in the order of the content format. ``citation``: its
    track and citation fields (track, pages, editors, publisher, address, month), those given."""
    citation = citation or {}
    data: dict[str, Any] = {"title": title, "authors": list(authors), "venue": venue}
    if citation.get("track"):
        data["track"] = citation["track"]
    data["tags"] = list(tags)
    if presentation:
        data["presentation"] = presentation
    if links:
        data["links"] = dict(links)
    for name in ("pages", "editors", "publisher", "address", "month"):
        if citation.get(name):
            data[name] = list(citation[name]) if name == "editors" else citation[name]
    if provisional:
        data["provisional"] = True
    return data


def paper_text(data: dict[str, Any], abstract: str) -> str:
    """A paper file: ``paper_data``'s front matter, then the abstract (``frontmatter.dump``)."""
    return frontmatter.dump(data, abstract)


def paper_file_text(*, abstract: str, **fields: Any) -> str:
    """``paper_text`` of ``paper_data(**fields)``."""
    return paper_text(paper_data(**fields), abstract)


# --------------------------------------------------------------------------- comparing and writing


def check_status(target: Path, content: bytes, force: bool, problems: Problems) -> str:
    """What writing ``content`` to ``target`` would be: ``CREATED``, ``UNCHANGED``, or for a
    file that differs ``UPDATED`` (``force``) or ``KEPT_EDITED``. A target that cannot be
    replaced (a folder, an unreadable file) is a problem, and kept."""
    if not target.exists() and not target.is_symlink():
        return CREATED
    if target.is_dir():
        problems.add(str(target), "is a folder; cannot write the paper there")
        return KEPT_EDITED
    try:
        current = read_limited(target, MAX_FILE_BYTES)
    except Unreadable as exc:
        problems.add(str(target), f"cannot replace the existing file: it {exc}")
        return KEPT_EDITED
    except OSError as exc:
        problems.add(str(target), f"cannot read the existing file: {exc.strerror or exc}")
        return KEPT_EDITED
    if current == content:
        return UNCHANGED
    return UPDATED if force else KEPT_EDITED


def plan_paper_write(target: Path, content: bytes, force: bool, problems: Problems, warnings: list[str],
                     actions: list[tuple[Path, bytes]], *, force_hint: str = "--force") -> str:
    """The status of writing ``content`` to the paper file ``target`` (``check_status``): a file
    edited by hand is kept, with a warning; one to create or update joins ``actions``."""
    status = check_status(target, content, force, problems)
    if status == KEPT_EDITED:
        warnings.append(f"papers/{target.name}: differs from the import (edited by hand?); kept as it is — "
                        f"use {force_hint} to overwrite it")
    if status in (CREATED, UPDATED):
        actions.append((target, content))
    return status


def write_planned(actions: list[tuple[Path, bytes]], folders: Sequence[Path], problems: Problems) -> None:
    """Last step of every importer: refuse if a target folder is a file, else write it all."""
    for directory in folders:
        if directory.exists() and not directory.is_dir():
            problems.add(str(directory), "exists but is not a folder")
    problems.raise_if_any()
    if len(actions) < 2 or len({target for target, _ in actions}) < len(actions):
        for target, content in actions:
            write_atomic(target, content)
        return
    if hasattr(os, "sync"):
        _write_all_then_sync(actions)
        return
    # Each file is still synced before it replaces its target, but on a busy disk one
    # fsync can wait milliseconds: several threads overlap the waits (10,000 files took
    # 20 s one after the other). The targets differ, so the result is the same.
    pool = ThreadPoolExecutor(max_workers=min(WRITE_THREADS, len(actions)))
    try:
        for future in [pool.submit(write_atomic, target, content) for target, content in actions]:
            future.result()  # the first failure, in input order, is raised
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _write_all_then_sync(actions: list[tuple[Path, bytes]]) -> None:
    """Every file written to a temp file beside its target, one ``os.sync`` for all of them,
    then each moved into place: as safe as a sync per file (no target is replaced before its
    new bytes are on disk), without 100,000 waits for the disk. Temp files are removed if
    anything fails before they are moved."""
    temps: list[tuple[str, Path]] = []
    folders: set[Path] = set()
    try:
        for target, content in actions:
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders.add(target.parent)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            temps.append((tmp, target))
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
            os.chmod(tmp, 0o644)
        os.sync()
        while temps:
            tmp, target = temps[-1]
            os.replace(tmp, target)
            temps.pop()
    finally:
        for tmp, _ in temps:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
