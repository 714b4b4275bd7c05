"""Write the site atomically: into a fresh folder beside the output, swapped in on success.

A failed build, an exception or Ctrl-C leaves the previous output exactly as it was
and removes the temporary folder. Each output path may be written once only, so two
pages can never silently overwrite each other.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Iterator


class OutputError(Exception):
    """A problem with the output folder or a page path (not with the content)."""


class SiteWriter:
    def __init__(self, root: Path):
        self.root = root
        self.written: set[str] = set()
        self.bytes_written = 0

    def _target(self, rel_path: str) -> Path:
        rel = PurePosixPath(rel_path)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise OutputError(f"refusing to write outside the output folder: {rel_path!r}")
        key = rel.as_posix()
        if key in self.written:
            raise OutputError(f"two pages want the same output file: {key}")
        self.written.add(key)
        target = self.root.joinpath(*rel.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        return target

    def write_text(self, rel_path: str, text: str) -> None:
        data = text.encode("utf-8")
        self._target(rel_path).write_bytes(data)
        self.bytes_written += len(data)

    def copy_file(self, source: Path, rel_path: str) -> None:
        target = self._target(rel_path)
        shutil.copyfile(source, target)
        self.bytes_written += target.stat().st_size

    def copy_tree(self, source: Path, rel_dir: str) -> None:
        for path in sorted(source.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                self.copy_file(path, f"{rel_dir}/{path.relative_to(source).as_posix()}")


@contextmanager
def atomic_output(output: Path) -> Iterator[SiteWriter]:
    """Yield a writer on a temporary folder; replace ``output`` with it if the block succeeds."""
    output = Path(output).resolve()
    if output.exists() and not output.is_dir():
        raise OutputError(f"output path exists and is not a folder: {output}")
    if output == Path(output.anchor) or output == Path.home():
        raise OutputError(f"refusing to use {output} as the output folder")
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{output.name}.building-", dir=output.parent))
    try:
        yield SiteWriter(tmp)
        tmp.chmod(0o755)
        _swap_in(tmp, output)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def _swap_in(new: Path, output: Path) -> None:
    """Replace ``output`` by ``new``. The old folder is moved aside first, then removed."""
    if not output.exists():
        os.rename(new, output)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{output.name}.old-", dir=output.parent))
    os.rmdir(old)
    os.rename(output, old)
    try:
        os.rename(new, output)
    except BaseException:
        os.rename(old, output)
        raise
    shutil.rmtree(old, ignore_errors=True)
