"""``SiteWriter``: writes output files into a staging folder, each path once only (paths
that differ only in case count as the same, as on macOS and Windows); files whose bytes did
not change are hard-linked from the current output instead, keeping their inode and mtime."""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import replace
from pathlib import Path
from typing import Callable

from ..errors import OutputError
from .manifest import FileRecord, digest_of
from .paths import check_output_path

class SiteWriter:
    """Writes output files into a staging folder, linking those the output already has.

    ``previous``: files of the current output in ``source`` known to be intact (their
    manifest record matches the disk); a file whose new bytes have the same digest is
    hard-linked from there instead of written (same inode and mtime: the rebuild changes
    nothing about it), or written after all if the link fails or the file changed meanwhile.
    Several writers may work on one staging folder (one per worker process); ``merge``
    brings their records together and catches two writers claiming one path.
    """

    def __init__(self, root: Path, previous: dict[str, FileRecord] | None = None, source: Path | None = None,
                 listed: tuple[str, ...] = ()):
        self.root = root
        self.previous = previous or {}
        self.source = source  # the current output, where ``previous`` files are
        self.listed = listed  # every file the current output's manifest lists (``keep_previous``)
        self.written: dict[str, str] = {}  # case-folded path -> path as written
        self.records: dict[str, FileRecord] = {}
        self.staged: list[str] = []  # paths present in the staging folder (changed or new)
        self.bytes_written = 0  # size of the whole site, unchanged files included
        self.files_changed = 0  # set once the output is updated: files written or removed
        self.pages_kept = 0  # pages kept as rendered before (``keep_page``)
        self._folders: set[str] = set()

    def _claim(self, key: str) -> None:
        folded = key.casefold()
        if folded in self.written:
            other = self.written[folded]
            same = "" if other == key else f" (as {other}: paths that differ only in case are one file on macOS)"
            raise OutputError(f"two pages want the same output file: {key}{same}")
        self.written[folded] = key

    def _target(self, key: str, segments: list[str]) -> Path:
        target = self.root.joinpath(*segments)
        folder = key.rpartition("/")[0]
        if folder and folder not in self._folders:
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise OutputError(f"cannot create the folder for {key}: {exc.strerror or exc}") from exc
            self._folders.add(folder)
        return target

    def write_text(self, rel_path: str, text: str, render_key: str = "") -> None:
        """Write ``text``; ``render_key``: the page's (``outputs.page_keys``), for the manifest."""
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as exc:  # a lone surrogate: the loader refuses them, so a bug
            raise OutputError(f"cannot write {rel_path}: {exc.reason}") from exc
        self.write_bytes(rel_path, data, render_key)

    def write_bytes(self, rel_path: str, data: bytes, render_key: str = "") -> None:
        segments = check_output_path(rel_path)
        key = "/".join(segments)
        self._claim(key)
        digest = digest_of(data)
        self.bytes_written += len(data)
        old = self.previous.get(key)
        target = self._target(key, segments)
        if old is not None and old.digest == digest and old.size == len(data) and self._link(old, target):
            self.records[key] = old if old.key == render_key else replace(old, key=render_key)
            return
        try:
            with open(target, "wb", buffering=0) as handle:
                view = memoryview(data)
                while view:
                    view = view[handle.write(view):]
                mtime = os.fstat(handle.fileno()).st_mtime_ns
        except OSError as exc:
            raise OutputError(f"cannot write {rel_path}: {exc.strerror or exc}") from exc
        # Unbuffered, so the mtime is that of the last write: close() and rename keep it.
        self.records[key] = FileRecord(key, digest, len(data), mtime, render_key)
        self.staged.append(key)

    def _link(self, old: FileRecord, target: Path) -> bool:
        """Hard-link the output's unchanged file ``old`` to ``target``; False (nothing left at
        ``target``) when that is not possible or the file is no longer as recorded."""
        if self.source is None:
            return False
        try:
            os.link(os.path.join(self.source, old.path), target, follow_symlinks=False)
        except OSError:  # gone meanwhile, no hard links on this file system, another device
            return False
        try:
            st = os.lstat(target)
            if stat.S_ISREG(st.st_mode) and (st.st_size, st.st_mtime_ns) == (old.size, old.mtime_ns):
                return True
            os.unlink(target)  # edited or replaced since the scan: write the new bytes instead
        except OSError:
            pass
        return False

    def keep_page(self, rel_path: str, render_key: str) -> bool:
        """Hard-link the current output's page ``rel_path`` when it was rendered from the same
        inputs (its manifest record has this ``render_key``, ``outputs.page_keys``, and the
        file is as recorded); False, with nothing claimed, when it was not or cannot be
        linked: then the caller renders the page."""
        key = "/".join(check_output_path(rel_path))
        old = self.previous.get(key)
        if old is None or not render_key or old.key != render_key or not self._keep(old):
            return False
        self.pages_kept += 1
        return True

    def keep_previous(self, wanted: Callable[[str], bool]) -> bool:
        """Hard-link every ``wanted`` file the current output's manifest lists, unchanged; all
        or nothing: False, with none of them kept, when one is not as listed (edited, gone,
        or not linkable)."""
        keys = [key for key in self.listed if wanted(key)]
        if any(key not in self.previous for key in keys):
            return False
        kept: list[str] = []
        for key in keys:
            if not self._keep(self.previous[key]):
                for done in kept:  # undo: the caller writes these files itself
                    del self.written[done.casefold()]
                    del self.records[done]
                    with contextlib.suppress(OSError):
                        os.unlink(self.root.joinpath(*done.split("/")))
                self.bytes_written -= sum(self.previous[k].size for k in kept)
                return False
            kept.append(key)
        return True

    def _keep(self, old: FileRecord) -> bool:
        """Claim ``old``'s path and hard-link the current output's file there; False, with the
        path not claimed, when it cannot be linked."""
        self._claim(old.path)
        if not self._link(old, self._target(old.path, old.path.split("/"))):
            del self.written[old.path.casefold()]
            return False
        self.records[old.path] = old
        self.bytes_written += old.size
        return True

    def copy_file(self, source: Path, rel_path: str, transform: Callable[[str, bytes], bytes] | None = None) -> None:
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            raise OutputError(f"cannot copy {source} to {rel_path}: {exc.strerror or exc}") from exc
        self.write_bytes(rel_path, transform(rel_path, data) if transform else data)

    def copy_tree(self, source: Path, rel_dir: str, transform: Callable[[str, bytes], bytes] | None = None) -> None:
        """Copy the regular files below ``source``; hidden files and links out of it are
        skipped. ``transform(rel_path, data)``, if given, gives the bytes to write."""
        source = Path(source)
        real_source = source.resolve()
        for path in sorted(source.rglob("*")):
            rel = path.relative_to(source)
            if any(part.startswith(".") for part in rel.parts):
                continue
            try:
                real = path.resolve(strict=True)
                regular = stat.S_ISREG(os.stat(real).st_mode)
            except (OSError, RuntimeError):
                continue
            if regular and real_source in real.parents:
                self.copy_file(real, f"{rel_dir}/{rel.as_posix()}", transform)

    def share(self) -> "SiteWriter":
        """A fresh writer on the same staging folder and previous files (for a worker process)."""
        return SiteWriter(self.root, self.previous, self.source)

    def merge(self, records: list[FileRecord], staged: list[str], size: int, kept: int = 0) -> None:
        """Take over what another writer on this staging folder wrote."""
        self.pages_kept += kept
        for record in records:
            self._claim(record.path)
            self.records[record.path] = record
        self.staged.extend(staged)
        self.bytes_written += size
