"""The text of a catalog's files: UTF-8 decoding, and the characters that have no place in
text, with how an error names them.

Shared by the content reader, the schema's text fields and the importers, so a file an
importer reads or writes is refused or accepted by the build for the same reasons, in the
same words.
"""

from __future__ import annotations

import re

from ..errors import Problems


# Code points that have no place in text: NUL and other control characters (tab and
# line breaks aside), lone surrogates, and the Unicode noncharacters, which HTML forbids.
_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(
    f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(17))
FORBIDDEN_IN_FILES = re.compile(f"[\x00\ud800-\udfff{_NONCHARACTERS}]")
FORBIDDEN_IN_TEXT = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff{_NONCHARACTERS}]")


def find_forbidden_in_file(text: str) -> re.Match[str] | None:
    """The first NUL, lone surrogate or noncharacter in a file's text (fast when there is none)."""
    if not text or ("\x00" not in text and max(text) < "\ud800"):
        return None
    return FORBIDDEN_IN_FILES.search(text)


def describe_char(char: str) -> str:
    """'U+0007 (a control character)' and the like, for error messages."""
    code = ord(char)
    if code == 0:
        kind = "a NUL character"
    elif code < 0x20 or 0x7F <= code <= 0x9F:
        kind = "a control character"
    elif 0xD800 <= code <= 0xDFFF:
        kind = "a lone surrogate"
    else:
        kind = "a Unicode noncharacter"
    return f"U+{code:04X} ({kind})"


def decode_utf8(raw: bytes, label: str, problems: Problems) -> str | None:
    """A file's bytes as text: UTF-8, a byte-order mark dropped. Otherwise None, with a problem
    naming the file and, for a byte that is not UTF-8, its line (UTF-16 is named as such)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        problems.add(label, "is UTF-16 text, not UTF-8; save the file as UTF-8")
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.add(label, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8",
                     line=raw[: exc.start].count(b"\n") + 1)
        return None
