"""Write the site atomically: into a fresh folder beside the output, swapped in on success.

A failed build, an exception or Ctrl-C leaves the previous output exactly as it was
and removes the temporary folder. The swap itself and the clean-up run with Ctrl-C
deferred, so an interrupt cannot leave a half-swapped site or a stray folder; on Linux
the swap is one atomic ``renameat2(RENAME_EXCHANGE)``, so a preview server never
sees the output folder missing. Temporary folders are named
``.<output>.building-<pid>-<random>`` (and ``.old-`` while swapping); ones left behind
by a process that no longer runs (killed with SIGKILL, power cut) are removed by the
next build.

Each output path may be written once only, so two pages can never silently
overwrite each other (paths that differ only in case count as the same, since they
are on macOS and Windows), and every path is checked segment by segment: no absolute
paths, no ``..`` or empty segments, no backslashes or characters Windows forbids, no
reserved device names (``con``, ``nul.html``, ...).
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
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .slugs import RESERVED


class OutputError(Exception):
    """A problem with the output folder or a page path (not with the content)."""


_BAD_SEGMENT_CHAR = re.compile(r'[\x00-\x1f\x7f\\:*?"<>|]')
MAX_SEGMENT_BYTES = 255


def check_output_path(rel_path: str) -> list[str]:
    """The segments of a relative output path; OutputError when it could leave the folder."""
    def refuse(why: str) -> OutputError:
        return OutputError(f"refusing to write {rel_path!r}: {why}")

    if not isinstance(rel_path, str) or not rel_path:
        raise refuse("empty path")
    if rel_path.startswith("/") or re.match(r"^[A-Za-z]:", rel_path):
        raise refuse("absolute path, outside the output folder")
    segments = rel_path.split("/")
    for segment in segments:
        if segment in ("", ".", ".."):
            raise refuse("empty, '.' or '..' segment (outside the output folder)")
        if _BAD_SEGMENT_CHAR.search(segment):
            raise refuse("control character, backslash or a character Windows forbids")
        if segment.endswith((".", " ")):
            raise refuse("a name ending in '.' or a space")
        if segment.split(".", 1)[0].lower() in RESERVED:
            raise refuse("a reserved device name on Windows")
        if len(segment.encode("utf-8")) > MAX_SEGMENT_BYTES:
            raise refuse("a name longer than 255 bytes")
    return segments


class SiteWriter:
    def __init__(self, root: Path):
        self.root = root
        self.written: dict[str, str] = {}  # case-folded path -> path as written
        self.bytes_written = 0

    def _target(self, rel_path: str) -> Path:
        segments = check_output_path(rel_path)
        key = "/".join(segments)
        folded = key.casefold()
        if folded in self.written:
            other = self.written[folded]
            same = "" if other == key else f" (as {other}: paths that differ only in case are one file on macOS)"
            raise OutputError(f"two pages want the same output file: {key}{same}")
        self.written[folded] = key
        target = self.root.joinpath(*segments)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create the folder for {key}: {exc.strerror or exc}") from exc
        return target

    def write_text(self, rel_path: str, text: str) -> None:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as exc:  # a lone surrogate: the loader refuses them, so a bug
            raise OutputError(f"cannot write {rel_path}: {exc.reason}") from exc
        target = self._target(rel_path)
        try:
            target.write_bytes(data)
        except OSError as exc:
            raise OutputError(f"cannot write {rel_path}: {exc.strerror or exc}") from exc
        self.bytes_written += len(data)

    def copy_file(self, source: Path, rel_path: str) -> None:
        target = self._target(rel_path)
        try:
            shutil.copyfile(source, target)
            self.bytes_written += target.stat().st_size
        except OSError as exc:
            raise OutputError(f"cannot copy {source} to {rel_path}: {exc.strerror or exc}") from exc

    def copy_tree(self, source: Path, rel_dir: str) -> None:
        """Copy the regular files below ``source``; hidden files and links out of it are skipped."""
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
                self.copy_file(real, f"{rel_dir}/{rel.as_posix()}")


@contextmanager
def atomic_output(output: Path) -> Iterator[SiteWriter]:
    """Yield a writer on a temporary folder; replace ``output`` with it if the block succeeds."""
    output = Path(output).resolve()
    if output.exists() and not output.is_dir():
        raise OutputError(f"output path exists and is not a folder: {output}")
    if output == Path(output.anchor) or output == Path.home():
        raise OutputError(f"refusing to use {output} as the output folder")
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_folders(output)
        tmp = Path(tempfile.mkdtemp(prefix=f".{output.name}.building-{os.getpid()}-", dir=output.parent))
    except OSError as exc:
        raise OutputError(f"cannot create a folder beside {output}: {exc.strerror or exc}") from exc
    try:
        yield SiteWriter(tmp)
        with _interrupts_deferred():
            try:
                tmp.chmod(0o755)
                _swap_in(tmp, output)
            except OSError as exc:
                raise OutputError(f"cannot replace {output}: {exc.strerror or exc}") from exc
    finally:
        with _interrupts_deferred():
            _remove_tree(tmp)


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
    for entry in entries:
        match = _STALE.match(entry.name)
        if not match or match.group("name") != output.name or entry.is_symlink() or not entry.is_dir():
            continue
        pid = int(match.group("pid"))
        if pid != os.getpid() and not _process_alive(pid):
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
