"""Output paths checked segment by segment before anything is written: no absolute paths,
no ``..`` or empty segments, no backslashes or characters Windows forbids, no reserved
device names (``con``, ``nul.html``, ...)."""

from __future__ import annotations

import re

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
