"""BibTeX keys, unique in the catalog (``assign_keys``); also in ``docs/metadata.md``:

    first author's family name (BibTeX's own "Last" part, ASCII-folded) + the venue's year
    + the first significant word of the title (articles, prepositions and the like are
    skipped), all lower-case ASCII letters and digits: ``xue2024encoding``. Papers without
    (Latin-script) authors use ``anon``. When two papers of the catalog get the same key,
    the one that joined the catalog first (``added`` date, then slug) keeps it and the
    others get ``b``, ``c``, … appended, so a newly added paper never changes the key of
    a paper that was already there (as long as it carries a later ``added`` date).
"""

from __future__ import annotations

import datetime
import re
from typing import Iterable, Mapping, Sequence

from ...derive.views import PaperView
from .names import family_name
from .plain import key_letters

ANONYMOUS = "anon"  # key prefix for papers without (Latin-script) authors
UNTITLED = "paper"  # key suffix when the title has no usable word

KEY_STOPWORDS = frozenset(
    "a an the on of in for to with and or at by from via is are be do does can how what why when "
    "where which who whom into onto as its it this that these those towards toward we our your".split()
)


def key_title_word(title_plain: str) -> str:
    for word in title_plain.split():
        folded = key_letters(re.sub(r"['’]", "", word))
        if folded and folded not in KEY_STOPWORDS:
            return folded
    return UNTITLED


def key_author(authors: Sequence[str]) -> str:
    if not authors:
        return ANONYMOUS
    return key_letters(family_name(authors[0])) or ANONYMOUS


def base_key(view: PaperView) -> str:
    return f"{key_author(view.paper.authors)}{view.venue.year}{key_title_word(view.title_plain)}"


def _suffixes() -> Iterable[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    for c in letters[1:]:
        yield c
    n = 2
    while True:  # aa, ab, … after z
        for i in range(len(letters) ** n):
            s, k = "", i
            for _ in range(n):
                s = letters[k % 26] + s
                k //= 26
            yield s
        n += 1


def key_order(views: Iterable[PaperView]) -> list[str]:
    """The slugs in the order that keys are given out: the papers that joined first first."""
    return [v.slug for v in sorted(views, key=lambda v: (v.paper.added or datetime.date.min, v.slug))]


def assign_keys(views: Iterable[PaperView], base: Mapping[str, str] | None = None,
                order: Sequence[str] | None = None) -> dict[str, str]:
    """slug → BibTeX key, unique in the catalog (see the module docstring); ``base``: the
    papers' ``base_key``s, and ``order`` their ``key_order``, when known."""
    views = tuple(views)
    ordered = order if order is not None else key_order(views)
    wanted = base if base is not None else {v.slug: base_key(v) for v in views}
    taken: set[str] = set()
    keys: dict[str, str] = {}
    # Base keys first, so that a suffixed key never takes another paper's base key.
    firsts: dict[str, str] = {}
    for slug in ordered:
        firsts.setdefault(wanted[slug], slug)
    taken.update(firsts)
    for slug in ordered:
        base = wanted[slug]
        if firsts[base] == slug:
            keys[slug] = base
            continue
        for suffix in _suffixes():
            if base + suffix not in taken:
                keys[slug] = base + suffix
                taken.add(base + suffix)
                break
    return keys
