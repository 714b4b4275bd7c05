"""Write the site atomically: into a fresh folder beside the output, swapped in on success.

A failed build, an exception or Ctrl-C leaves the previous output exactly as it was
and removes the temporary folder. The swap itself and the clean-up run with Ctrl-C
deferred, so an interrupt cannot leave a half-swapped site or a stray folder; on Linux
the swap is one atomic ``renameat2(RENAME_EXCHANGE)``, so a preview server never
sees the output folder missing. Temporary folders are named
``.<output>.building-<pid>-<random>`` (and ``.old-`` while swapping); ones left behind
by a process that no longer runs (killed with SIGKILL, power cut) are removed by the
next build.

Files are written by a ``staging.SiteWriter``; paths are checked by ``paths``; what the
output holds is recorded in its ``manifest``.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
import threading
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Iterator

from ..errors import OutputError
from .manifest import MARKER, FileRecord, Manifest, read_manifest, scan_output
from .staging import SiteWriter


@contextmanager
def atomic_output(output: Path, fingerprint: str = "") -> Iterator[SiteWriter]:
    """Yield a writer on a staging folder; on success the output becomes what was written.

    The staging folder is made complete: files whose bytes did not change since the last
    build are hard-linked into it from the output (same inode, so same mtime; written
    again where hard links are not possible), then the whole folder is swapped in at once,
    with the old folder's permissions and group. So however the build ends (an error,
    Ctrl-C, SIGKILL, power cut) the output is the whole previous site or the whole new one,
    never a mix. ``fingerprint`` (of the inputs) is kept in the manifest.
    """
    output = Path(output).resolve()
    if output.exists() and not output.is_dir():
        raise OutputError(f"output path exists and is not a folder: {output}")
    if output == Path(output.anchor) or output == Path.home():
        raise OutputError(f"refusing to use {output} as the output folder")
    tmp = _staging_beside(output)
    try:
        mode = _take_group_of(output, tmp)
        manifest = read_manifest(output) if output.is_dir() else None
        on_disk = scan_output(output) if manifest is not None else {}
        intact = _intact(manifest.files, on_disk) if manifest is not None else {}
        writer = SiteWriter(tmp, intact, output, tuple(manifest.files) if manifest is not None else ())
        yield writer
        try:
            (tmp / MARKER).write_text(Manifest(fingerprint, writer.records).format(), encoding="utf-8")
            tmp.chmod(mode)
        except OSError as exc:
            raise OutputError(f"cannot write the manifest of {output}: {exc.strerror or exc}") from exc
        with _interrupts_deferred():
            try:
                _swap_in(tmp, output)
            except OSError as exc:
                raise OutputError(f"cannot replace {output}: {exc.strerror or exc}") from exc
            stale = set(on_disk) - set(writer.records)
            writer.files_changed = len(writer.staged) + len(stale) if manifest else len(writer.records)
    finally:
        with _interrupts_deferred():
            _remove_tree(tmp)


class Unkept(Exception):
    """``atomic_folder`` cannot keep the rest of the output as it is (nothing was changed)."""


@contextmanager
def atomic_folder(output: Path, folder: str, fingerprint: str) -> Iterator[SiteWriter]:
    """Yield a writer for the files of one top-level ``folder`` of the output (``static``);
    on success that folder becomes what was written and every other file stays as it is,
    not even relinked: the cheap update when only that folder's sources changed.

    The new folder is written beside the output and exchanged with the output's in one
    ``renameat2(RENAME_EXCHANGE)``, then the manifest is replaced. The site is the old one
    or the new one, never a mix; killed between the two, the manifest still lists the old
    folder's files, so the next build trusts neither (``still_as_built``) and writes the
    folder again. Raises ``Unkept``, having changed nothing, when a file outside the folder
    is not as the manifest lists or the system has no atomic exchange.
    """
    output = Path(output).resolve()
    manifest = read_manifest(output) if output.is_dir() and (output / folder).is_dir() else None
    if manifest is None:
        raise Unkept(f"no site in {output} to keep")
    prefix = folder + "/"
    intact = _intact(manifest.files, scan_output(output))
    kept = {path: r for path, r in manifest.files.items() if not path.startswith(prefix)}
    if any(path not in intact for path in kept):
        raise Unkept(f"{output} is not what its manifest lists")
    tmp = _staging_beside(output)
    try:
        writer = SiteWriter(tmp, {path: r for path, r in intact.items() if path.startswith(prefix)}, output)
        (tmp / folder).mkdir()
        yield writer
        if any(not path.startswith(prefix) for path in writer.records):
            raise OutputError(f"a file outside {folder}/ was written while only {folder}/ was to change")
        try:
            (tmp / MARKER).write_text(Manifest(fingerprint, {**kept, **writer.records}).format(), encoding="utf-8")
        except OSError as exc:
            raise OutputError(f"cannot write the manifest of {output}: {exc.strerror or exc}") from exc
        with _interrupts_deferred():
            try:
                if not _exchange(tmp / folder, output / folder):
                    raise Unkept("no atomic exchange of folders on this system")
                os.replace(tmp / MARKER, output / MARKER)
            except OSError as exc:
                raise OutputError(f"cannot replace {output / folder}: {exc.strerror or exc}") from exc
        gone = {path for path in manifest.files if path.startswith(prefix)} - set(writer.records)
        writer.files_changed = len(writer.staged) + len(gone)
        writer.bytes_written += sum(r.size for r in kept.values())
    finally:
        with _interrupts_deferred():
            _remove_tree(tmp)


def _staging_beside(output: Path) -> Path:
    """A fresh temporary folder beside ``output`` (after removing those of dead builds)."""
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_folders(output)
        return Path(tempfile.mkdtemp(prefix=f".{output.name}.building-{os.getpid()}-", dir=output.parent))
    except OSError as exc:
        raise OutputError(f"cannot create a folder beside {output}: {exc.strerror or exc}") from exc


def _intact(files: dict[str, FileRecord], on_disk: dict[str, tuple[int, int]]) -> dict[str, FileRecord]:
    """The records of ``files`` that the disk still matches (size and mtime)."""
    return {path: r for path, r in files.items() if on_disk.get(path) == (r.size, r.mtime_ns)}


def _take_group_of(output: Path, tmp: Path) -> int:
    """Give ``tmp`` the group (and set-group-ID bit) of the current ``output``, so what is
    written into it gets them too; returns the mode the new output is to have: the old
    folder's (a private 0o750 site stays private), or 0o755 for a first build."""
    try:
        st = os.stat(output)
    except OSError:
        return 0o755
    mode = stat.S_IMODE(st.st_mode)
    try:
        if os.stat(tmp).st_gid != st.st_gid:
            os.chown(tmp, -1, st.st_gid)
        os.chmod(tmp, 0o700 | (mode & stat.S_ISGID))  # writable by us while building
    except OSError:  # not a member of that group: the folder keeps ours
        pass
    return mode


def _swap_in(new: Path, output: Path) -> None:
    """Replace ``output`` by ``new``; afterwards ``new`` holds the previous site (or is gone)."""
    if not output.exists():
        os.rename(new, output)
        return
    if _exchange(new, output):
        return
    # No atomic exchange on this system: move the old folder aside, then the new one in.
    old = Path(tempfile.mkdtemp(prefix=f".{output.name}.old-{os.getpid()}-", dir=output.parent))
    os.rmdir(old)
    os.rename(output, old)
    try:
        os.rename(new, output)
    except BaseException:
        os.rename(old, output)
        raise
    os.rename(old, new)  # the caller removes ``new``


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths with renameat2(RENAME_EXCHANGE); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    renameat2.restype = ctypes.c_int
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _remove_tree(path: Path) -> None:
    if path.is_symlink() or not path.exists():
        return
    shutil.rmtree(path, ignore_errors=True)


_STALE = re.compile(r"^\.(?P<name>.+)\.(?:building|old)-(?P<pid>\d+)-[A-Za-z0-9_]+$")


def remove_stale_folders(output: Path) -> list[Path]:
    """Remove temporary folders of ``output`` left by builds whose process is gone."""
    removed = []
    try:
        entries = list(output.parent.iterdir())
    except OSError:
        return removed
    for entry in sorted(entries, key=lambda e: ".old-" not in e.name):  # a site to restore first
        match = _STALE.match(entry.name)
        if not match or match.group("name") != output.name or entry.is_symlink() or not entry.is_dir():
            continue
        pid = int(match.group("pid"))
        if pid != os.getpid() and not _process_alive(pid):
            if ".old-" in entry.name and not os.path.lexists(output):
                # Killed between the two renames of the swap without renameat2: this is the
                # previous site, and the output is missing. Put it back.
                with suppress(OSError):
                    os.rename(entry, output)
                    continue
            _remove_tree(entry)
            removed.append(entry)
    return removed


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) until the block is done, then raise KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signals are only ever delivered to the main thread
        return
    received: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
        if received:
            raise KeyboardInterrupt


def write_atomic(target: Path, content: bytes, *, durable: bool = True) -> None:
    """Write one file whole or not at all: a temporary file in the same folder (made with
    it), renamed over ``target``. ``durable``: flushed to the disk before the rename (a
    content file an importer writes); the preview's pages need not wait for the disk."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            if durable:
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
