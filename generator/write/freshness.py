"""Has anything a build reads changed? File snapshots and the fingerprint of a build's inputs.

A build records the fingerprint of its inputs in the output's manifest; the next build with
the same fingerprint, over an output that still matches its manifest, has nothing to do.
The serve loop uses the same snapshots to notice edits.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..cache import generator_version


VERSION_CONTROL = {".git", ".hg", ".svn"}


def snapshot(roots: Iterable[Path], *, hidden: bool = False) -> dict[str, tuple[int, int]]:
    """(mtime, size) of every file below ``roots``; a change of either means 'edited'.

    Links to folders are followed (Jinja and the loader follow them), each folder once, and
    a folder link is recorded by its target, so turning a folder into a link is a change.
    Version-control folders are skipped, other hidden files unless ``hidden``. An entry that
    cannot be followed (a dangling link, a file that vanished) counts as (-1, -1), so its
    arrival is a change too.
    """
    state: dict[str, tuple[int, int]] = {}
    seen: set[str] = set()
    stack = [str(root) for root in roots]
    while stack:
        path = stack.pop()
        try:
            if os.path.isdir(path):
                real = os.path.realpath(path)
                if os.path.islink(path):
                    state[path + os.sep] = (int(hashlib.blake2b(os.fsencode(real), digest_size=8).hexdigest(), 16), -2)
                if real in seen:
                    continue
                seen.add(real)
                with os.scandir(path) as entries:
                    stack.extend(e.path for e in entries
                                 if e.name not in VERSION_CONTROL and (hidden or not e.name.startswith(".")))
                continue
            st = os.stat(path)
            state[path] = (st.st_mtime_ns, st.st_size)
        except OSError:
            state[path] = (-1, -1)
    return state


def fingerprint(inputs: Iterable[Path], settings: Iterable[object], *, code: bool = True) -> str:
    """A digest of every input file's path, size and mtime (hidden files included, folder
    links followed), of ``settings`` (options that change the output, such as the base URL)
    and, unless not ``code``, of the generator: ``cache.generator_version``, the one digest
    of its code, Python's and the libraries' versions."""
    digest = hashlib.blake2b(digest_size=16)
    files = snapshot([Path(os.path.abspath(p)) for p in inputs], hidden=True)
    for path, (mtime, size) in sorted(files.items()):
        digest.update(f"{path}\0{mtime}\0{size}\n".encode("utf-8", "surrogateescape"))
    digest.update(repr([generator_version() if code else "", *settings]).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


@dataclass(frozen=True)
class Inputs:
    """A build's inputs as three fingerprints, by what a change of each must redo:
    ``content`` (the catalog, the base URL, the generator: everything is derived again),
    ``templates`` (every page is rendered again from the same data), ``static`` (the static
    files are copied again; nothing else reads them). The manifest keeps them as ``token``."""

    content: str
    templates: str
    static: str

    @property
    def token(self) -> str:
        return f"{self.content}.{self.templates}.{self.static}"

    @classmethod
    def parse(cls, token: str) -> "Inputs | None":
        parts = token.split(".")
        return cls(*parts) if len(parts) == 3 else None


def content_fingerprint(content: Path, settings: Iterable[object]) -> str:
    """``Inputs.content``: the content folder, the generator and ``settings`` (the base URL)."""
    return fingerprint([content], settings)


def build_inputs(content: Path, templates: Iterable[Path], static: Iterable[Path], settings: Iterable[object]) -> Inputs:
    """The ``Inputs`` of a build: ``settings`` (such as the base URL) count as content."""
    return Inputs(content_fingerprint(content, settings), fingerprint(templates, [], code=False),
                  fingerprint(static, [], code=False))
