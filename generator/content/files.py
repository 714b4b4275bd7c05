"""One content file read safely: what may be read (no link out of the content folder, no
device, nothing over ``MAX_FILE_BYTES``) and decoded (UTF-8 only, no NUL or noncharacters),
each refusal a problem that names the file (and line)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from . import characters
from ..errors import Problems

MAX_FILE_BYTES = 1_000_000  # an abstract is about 2 kB; this bounds memory and rendering time


def shown_name(name: str) -> str:
    """A file name fit for an error message: control characters and undecodable bytes escaped.

    (A file named with an ANSI escape sequence must not repaint the terminal.)
    """
    def shown(ch: str) -> str:
        if ch.isprintable():
            return ch
        if 0xDC80 <= ord(ch) <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
            return f"\\x{ord(ch) - 0xDC00:02x}"
        return ch.encode("unicode_escape").decode("ascii")

    return name if name.isprintable() else "".join(shown(ch) for ch in name)


def read_content_file(path: Path, label: str, problems: Problems, *, root: Path) -> str | None:
    """The text of one content file, or None after adding a problem that says why not.

    Refused: a missing file, a symbolic link out of ``root`` (or to nothing), a folder,
    a device, pipe or socket, a file over ``MAX_FILE_BYTES``, bytes that are not UTF-8
    (UTF-16 is named as such), NUL characters and Unicode noncharacters.
    """
    link = path.is_symlink()
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        problems.add(label, "is a symbolic link to a file that does not exist" if link else "file not found")
        return None
    except (OSError, RuntimeError) as exc:  # a symlink loop, a permission problem
        problems.add(label, f"cannot read the file: {getattr(exc, 'strerror', None) or exc}")
        return None
    if real != root and root not in real.parents:
        where = "is a symbolic link to" if link else "resolves to"
        problems.add(label, f"{where} {real}, outside the content folder; copy the file into the content "
                            "folder instead")
        return None
    try:
        info = os.stat(real)
    except OSError as exc:
        problems.add(label, f"cannot read the file: {exc.strerror or exc}")
        return None
    if stat.S_ISDIR(info.st_mode):
        problems.add(label, "is a folder, not a file")
        return None
    if not stat.S_ISREG(info.st_mode):
        problems.add(label, "is not a regular file (a device, pipe or socket)")
        return None
    if info.st_size > MAX_FILE_BYTES:
        problems.add(label, f"is too large ({_size(info.st_size)}); a content file may be at most "
                            f"{_size(MAX_FILE_BYTES)}")
        return None
    try:
        with open(real, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        problems.add(label, f"cannot read the file: {exc.strerror or exc}")
        return None
    if len(raw) > MAX_FILE_BYTES:
        problems.add(label, f"is too large; a content file may be at most {_size(MAX_FILE_BYTES)}")
        return None
    return decode_text(raw, label, problems)


def decode_text(raw: bytes, label: str, problems: Problems) -> str | None:
    """UTF-8 (with or without BOM) to text; otherwise add a problem naming the line."""
    if len(raw) >= 4 and raw.count(b"\x00") * 4 >= len(raw):  # UTF-16 without its byte-order mark
        problems.add(label, "is UTF-16 text, not UTF-8; save the file as UTF-8")
        return None
    text = characters.decode_utf8(raw, label, problems)
    if text is None:
        return None
    bad = characters.find_forbidden_in_file(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        problems.add(label, f"contains {characters.describe_char(bad.group())}; remove it (is this a text file?)",
                     line=line)
        return None
    return text.removeprefix("\ufeff")


def _size(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n >= 100_000 else f"{n:,} bytes"
