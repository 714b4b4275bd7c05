"""Slugs: the ids that become file names and URL segments.

A slug is lower-case ASCII letters and digits in runs joined by single hyphens. That
rules out "..", slashes, absolute paths, dot files and Windows' reserved device names
by construction, so no id from content can write outside the output folder.
"""

from __future__ import annotations

import functools
import hashlib
import re

from .words import ascii_fold

SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_LENGTH = 80
RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))})

def is_valid_slug(value: str) -> bool:
    return (
        isinstance(value, str)
        and len(value) <= MAX_LENGTH
        and bool(SLUG_RE.match(value))
        and value not in RESERVED
    )


def slugify(text: str, max_length: int = MAX_LENGTH, *, avoid_reserved: bool = True) -> str:
    """ASCII slug of ``text`` (``words.ascii_fold``): LaTeX and punctuation dropped, cut at a word.

    Returns "" when nothing usable is left (callers supply a fallback). A reserved name
    ("con") gets "-1" appended unless ``avoid_reserved`` is False.
    """
    text = re.sub(r"\\[a-zA-Z]+", " ", text)  # LaTeX commands: \mathcal, \emph
    text = ascii_fold(text).lower()
    words = re.findall(r"[a-z0-9]+", text)
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > max_length:
            break
        slug = candidate
    if not slug and words:
        slug = words[0][:max_length]
    if avoid_reserved and slug in RESERVED:
        slug = f"{slug}-1"
    return slug


@functools.lru_cache(maxsize=1 << 17)  # names recur across papers, and each is keyed by every stage
def author_key(name: str) -> str:
    """Identity of an author across papers, and their page's slug: the slug of the name.

    "José García" and "Jose Garcia" are taken to be one person; two different people
    with the same name cannot be told apart from names alone. Names with no Latin letters
    ("张伟") and names whose slug is reserved ("Con", whose "con-1" would be the page of
    "Con 1") get a stable digest instead.
    """
    slug = slugify(name, avoid_reserved=False)
    if slug and slug not in RESERVED:
        if not name.isascii() and not all(map(_latin_or_not_a_letter, name)):
            # "Wei Zhang 张伟" and "Wei Zhang 章伟" are two people: the slug alone drops what tells them apart
            return f"{slug}-{hashlib.sha1(name.encode('utf-8')).hexdigest()[:6]}"
        return slug
    return "author-" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:10]


def _latin_or_not_a_letter(char: str) -> bool:
    """False for a letter slugify drops (Greek, CJK, Cyrillic...)."""
    return not char.isalpha() or ascii_fold(char) != ""
