"""Has anything a build reads changed? File snapshots and the fingerprint of a build's inputs.

A build records the fingerprint of its inputs in the output's manifest; the next build with
the same fingerprint, over an output that still matches its manifest, has nothing to do.
The serve loop uses the same snapshots to notice edits.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib import metadata
from pathlib import Path
from typing import Iterable

GENERATOR = Path(__file__).resolve().parent


def snapshot(roots: Iterable[Path], *, hidden: bool = False) -> dict[str, tuple[int, int]]:
    """(mtime, size) of every file below ``roots``; a change of either means 'edited'.

    Hidden files are skipped unless ``hidden``; an entry that cannot be followed (a
    dangling link, a file that vanished) counts as (-1, -1), so its arrival is a change too.
    """
    state: dict[str, tuple[int, int]] = {}
    for root in roots:
        if Path(root).is_file():
            st = os.stat(root)
            state[str(root)] = (st.st_mtime_ns, st.st_size)
            continue
        stack = [str(root)]
        while stack:
            folder = stack.pop()
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith(".") and not hidden:
                    continue
                try:
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
                        continue
                    st = entry.stat()
                    state[entry.path] = (st.st_mtime_ns, st.st_size)
                except OSError:
                    state[entry.path] = (-1, -1)
    return state


# Libraries whose version can change the output (index format, Markdown, MathML, YAML).
LIBRARIES = ("jinja2", "markupsafe", "markdown-it-py", "mdit-py-plugins", "linkify-it-py", "lunr",
             "latex2mathml", "PyYAML", "bibtexparser")
VERSION_CONTROL = {".git", ".hg", ".svn"}


def fingerprint(inputs: Iterable[Path], settings: Iterable[object]) -> str:
    """A digest of every input file's path, size and mtime (hidden files included, folder
    links followed), of the generator's own code, of Python's and the libraries' versions,
    and of ``settings`` (options that change the output, such as the base URL)."""
    digest = hashlib.blake2b(digest_size=16)
    files = _input_files([Path(os.path.abspath(p)) for p in inputs])
    files.update((path, stat) for path, stat in snapshot([GENERATOR]).items()
                 if path.endswith(".py"))  # not __pycache__: written after this check
    for path, (mtime, size) in sorted(files.items()):
        digest.update(f"{path}\0{mtime}\0{size}\n".encode("utf-8", "surrogateescape"))
    digest.update(repr([sys.version, *map(_version, LIBRARIES), *settings]).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _input_files(roots: list[Path]) -> dict[str, tuple[int, int]]:
    """Like ``snapshot(hidden=True)``, but following links to folders (Jinja and the loader
    do), once each, and skipping version-control folders."""
    state: dict[str, tuple[int, int]] = {}
    seen: set[str] = set()
    stack = [str(root) for root in roots]
    while stack:
        path = stack.pop()
        try:
            if os.path.isdir(path):
                real = os.path.realpath(path)
                if os.path.islink(path):  # a folder becoming a link to itself elsewhere is a change
                    state[path + os.sep] = (int(hashlib.blake2b(os.fsencode(real), digest_size=8).hexdigest(), 16), -2)
                if real in seen:
                    continue
                seen.add(real)
                with os.scandir(path) as entries:
                    stack.extend(e.path for e in entries if e.name not in VERSION_CONTROL)
                continue
            st = os.stat(path)
            state[path] = (st.st_mtime_ns, st.st_size)
        except OSError:
            state[path] = (-1, -1)  # a dangling link, a file that vanished: its arrival is a change
    return state


def _version(name: str) -> str:
    try:
        return f"{name} {metadata.version(name)}"
    except metadata.PackageNotFoundError:
        return f"{name} -"
