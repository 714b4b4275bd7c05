"""Has anything a build reads changed? File snapshots and the fingerprint of a build's inputs.

A build records the fingerprint of its inputs in the output's manifest; the next build with
the same fingerprint, over an output that still matches its manifest, has nothing to do.
The serve loop uses the same snapshots to notice edits.
"""

from __future__ import annotations

import hashlib
import os
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


def fingerprint(inputs: Iterable[Path], settings: Iterable[object]) -> str:
    """A digest of every input file's path, size and mtime, of the generator's own code, and of
    ``settings`` (options that change the output, such as the base URL)."""
    digest = hashlib.blake2b(digest_size=16)
    roots = [Path(p).resolve() for p in inputs] + [GENERATOR]
    for path, (mtime, size) in sorted(snapshot(roots, hidden=True).items()):
        digest.update(f"{path}\0{mtime}\0{size}\n".encode("utf-8", "surrogateescape"))
    digest.update(repr(list(settings)).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()
