"""The output folder's manifest (``.papershelf-site``): the files it holds (digest, size,
mtime) and the fingerprint of the inputs it was built from, so that a build with nothing
to do stops at once (``still_as_built``) and an update can reuse unchanged files."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .freshness import Inputs


MARKER = ".papershelf-site"  # in the output folder: says Papershelf wrote it, and lists what
MANIFEST_HEADER = "papershelf-site 2"
NO_KEY = "-"  # in a record's key column: not a page with a render key


@dataclass(frozen=True)
class FileRecord:
    """One output file: what it holds (digest) and how it sits on disk (size, mtime); for a
    page, the render key of what it was rendered from (``outputs.page_keys``)."""

    path: str
    digest: str
    size: int
    mtime_ns: int
    key: str = ""


@dataclass(frozen=True)
class Manifest:
    """What the previous build wrote, read from the marker file in the output folder.

    ``fingerprint`` summarises the build's inputs (see ``freshness``); ``files`` maps each
    output path to its record.
    """

    fingerprint: str
    files: dict[str, FileRecord]

    def format(self) -> str:
        lines = [f"{MANIFEST_HEADER} {self.fingerprint}"]
        lines += [f"{r.digest} {r.size} {r.mtime_ns} {r.key or NO_KEY} {r.path}"
                  for r in sorted(self.files.values(), key=lambda r: r.path)]
        return "\n".join(lines) + "\n"


def read_manifest(output: Path) -> Manifest | None:
    """The manifest of the site in ``output``; None when missing, unreadable or of another format."""
    try:
        text = (Path(output) / MARKER).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    lines = text.split("\n")
    header = lines[0].rsplit(" ", 1)
    if len(header) != 2 or header[0] != MANIFEST_HEADER:
        return None
    files: dict[str, FileRecord] = {}
    try:
        for line in lines[1:]:
            if line:
                digest, size, mtime, key, path = line.split(" ", 4)
                files[path] = FileRecord(path, digest, int(size), int(mtime), "" if key == NO_KEY else key)
    except ValueError:
        return None
    return Manifest(header[1], files)


def built_from(output: Path) -> Inputs | None:
    """The ``Inputs`` the site in ``output`` was built from, by its manifest's first line."""
    try:
        with open(Path(output) / MARKER, encoding="utf-8") as handle:
            header = handle.readline().rstrip("\n").rsplit(" ", 1)
    except (OSError, UnicodeDecodeError):
        return None
    return Inputs.parse(header[1]) if len(header) == 2 and header[0] == MANIFEST_HEADER else None


def still_as_built(output: Path, fingerprint: str) -> bool:
    """True when ``output``'s manifest has this input ``fingerprint`` and every file it lists
    is still there with the size and mtime it was written with.

    The no-change check, so it is lean: one stat per listed file and no records built.
    Files someone added to the folder are not looked for here; the next real build
    removes them.
    """
    try:
        text = (Path(output) / MARKER).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    lines = text.split("\n")
    if lines[0] != f"{MANIFEST_HEADER} {fingerprint}" or lines[-1] != "":
        return False
    root = str(output) + os.sep
    stat_of = os.stat
    try:
        for line in lines[1:-1]:
            _, size, mtime, _, path = line.split(" ", 4)
            st = stat_of(root + path, follow_symlinks=False)
            if st.st_mtime_ns != int(mtime) or st.st_size != int(size) or not stat.S_ISREG(st.st_mode):
                return False
    except (OSError, ValueError):
        return False
    return True


def scan_output(output: Path) -> dict[str, tuple[int, int]]:
    """(size, mtime_ns) of every file below ``output`` by relative path (the marker excluded)."""
    found: dict[str, tuple[int, int]] = {}
    root = str(output)
    stack = [(root, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            rel = prefix + entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, rel + "/"))
                elif rel != MARKER:
                    st = entry.stat(follow_symlinks=False)
                    found[rel] = (st.st_size, st.st_mtime_ns)
            except OSError:
                continue
    return found


def digest_of(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()
