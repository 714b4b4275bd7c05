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
import hashlib
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
import threading
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from ..content.slugs import RESERVED
from ..errors import OutputError


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


MARKER = ".papershelf-site"  # in the output folder: says Papershelf wrote it, and lists what
MANIFEST_HEADER = "papershelf-site 1"


@dataclass(frozen=True)
class FileRecord:
    """One output file: what it holds (digest) and how it sits on disk (size, mtime)."""

    path: str
    digest: str
    size: int
    mtime_ns: int


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
        lines += [f"{r.digest} {r.size} {r.mtime_ns} {r.path}" for r in sorted(self.files.values(), key=lambda r: r.path)]
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
                digest, size, mtime, path = line.split(" ", 3)
                files[path] = FileRecord(path, digest, int(size), int(mtime))
    except ValueError:
        return None
    return Manifest(header[1], files)


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
            _, size, mtime, path = line.split(" ", 3)
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


class SiteWriter:
    """Writes output files into a staging folder, linking those the output already has.

    ``previous``: files of the current output in ``source`` known to be intact (their
    manifest record matches the disk); a file whose new bytes have the same digest is
    hard-linked from there instead of written (same inode and mtime: the rebuild changes
    nothing about it), or written after all if the link fails or the file changed meanwhile.
    Several writers may work on one staging folder (one per worker process); ``merge``
    brings their records together and catches two writers claiming one path.
    """

    def __init__(self, root: Path, previous: dict[str, FileRecord] | None = None, source: Path | None = None):
        self.root = root
        self.previous = previous or {}
        self.source = source  # the current output, where ``previous`` files are
        self.written: dict[str, str] = {}  # case-folded path -> path as written
        self.records: dict[str, FileRecord] = {}
        self.staged: list[str] = []  # paths present in the staging folder (changed or new)
        self.bytes_written = 0  # size of the whole site, unchanged files included
        self.files_changed = 0  # set once the output is updated: files written or removed
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

    def write_text(self, rel_path: str, text: str) -> None:
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError as exc:  # a lone surrogate: the loader refuses them, so a bug
            raise OutputError(f"cannot write {rel_path}: {exc.reason}") from exc
        self.write_bytes(rel_path, data)

    def write_bytes(self, rel_path: str, data: bytes) -> None:
        segments = check_output_path(rel_path)
        key = "/".join(segments)
        self._claim(key)
        digest = digest_of(data)
        self.bytes_written += len(data)
        old = self.previous.get(key)
        target = self._target(key, segments)
        if old is not None and old.digest == digest and old.size == len(data) and self._link(old, target):
            self.records[key] = old
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
        self.records[key] = FileRecord(key, digest, len(data), mtime)
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

    def copy_file(self, source: Path, rel_path: str) -> None:
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            raise OutputError(f"cannot copy {source} to {rel_path}: {exc.strerror or exc}") from exc
        self.write_bytes(rel_path, data)

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

    def share(self) -> "SiteWriter":
        """A fresh writer on the same staging folder and previous files (for a worker process)."""
        return SiteWriter(self.root, self.previous, self.source)

    def merge(self, records: list[FileRecord], staged: list[str], size: int) -> None:
        """Take over what another writer on this staging folder wrote."""
        for record in records:
            self._claim(record.path)
            self.records[record.path] = record
        self.staged.extend(staged)
        self.bytes_written += size


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
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_folders(output)
        tmp = Path(tempfile.mkdtemp(prefix=f".{output.name}.building-{os.getpid()}-", dir=output.parent))
    except OSError as exc:
        raise OutputError(f"cannot create a folder beside {output}: {exc.strerror or exc}") from exc
    try:
        mode = _take_group_of(output, tmp)
        manifest = read_manifest(output) if output.is_dir() else None
        on_disk = scan_output(output) if manifest is not None else {}
        intact = {} if manifest is None else {
            path: r for path, r in manifest.files.items() if on_disk.get(path) == (r.size, r.mtime_ns)}
        writer = SiteWriter(tmp, intact, output)
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
