"""Papers given twice: the one normalised key of a title, of an abstract and of an author
list, and the rule that tells an exact duplicate (an error) from a suspected one (a warning).

The keys are shared by the loader and every importer, so that what an import takes for the
same paper is what the build does:

* ``title_key``: case, accents (``words.fold``: "Straße" is "Strasse", "α" "alpha"),
  punctuation, spacing, Markdown emphasis and math delimiters do not count ("Café *Nets*" is
  "Cafe Nets"); "+", "#" and "*" do ("C++ for ML" is not "C for ML", nor "A* Search" "A Search").
* ``abstract_key``: the same folding, word by word; "" for a short body ("TBD", "See the
  PDF."), which may repeat.
* ``authors_key``: the authors' page keys (``slugs.author_key``), in order.

``DuplicateCheck`` sees the papers one at a time (``check``) and says, for each, what it
repeats:

* **exact** (an error): the same title, venue and authors as a paper seen before, and not
  another abstract (the same, or one of them has none) — one file too many; the import
  skips such a record;
* **suspected** (a warning naming both files; the pages say nothing): the same abstract; or
  the same title and authors at another venue (a workshop paper and its conference
  version); the same title at the same venue by other authors, or by the same authors with
  another abstract. Both are real
  publications often enough (and old proceedings sometimes give two papers one abstract)
  that refusing them would stop a large catalog from building at all.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Sequence

from .slugs import author_key
from .words import fold

MIN_DUPLICATE_ABSTRACT_WORDS = 20  # shorter bodies ("TBD", "See the PDF.") may repeat

# Markdown emphasis: a run of "*" before a word and the same run after one, in pairs.
_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,3})(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_NOT_KEY = re.compile(r"[^\w+#*]+|_+")
_ASCII_PUNCTUATION = str.maketrans({c: " " for c in map(chr, range(128)) if not (c.isalnum() or c in "+#*")})


def title_key(title: str) -> str:
    """The key under which two titles are the same title (see the module docstring)."""
    folded = fold(_EMPHASIS.sub(r"\2", title))
    return _NOT_KEY.sub("", folded) or " ".join(folded.split())


def abstract_key(abstract: str) -> str:
    """The key under which two abstracts are the same; "" for a short one (see the module docstring)."""
    return _abstract_key(fold(abstract))


def _abstract_key(folded: str) -> str:
    folded = folded.translate(_ASCII_PUNCTUATION)  # most of it, fast; the regex does the rest
    words = (folded if folded.isascii() else _NOT_KEY.sub(" ", folded)).split()
    return " ".join(words) if len(words) >= MIN_DUPLICATE_ABSTRACT_WORDS else ""


def _digest(text: str) -> bytes:
    """A short stand-in for a long key (the check keeps one per paper: 100,000 abstracts)."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest() if text else b""




def authors_key(authors: Sequence[str]) -> tuple[str, ...]:
    """The author list as page keys: spellings of one author page are one author."""
    return tuple(author_key(name) for name in authors)


@dataclass(frozen=True, slots=True)
class PaperKeys:
    """What ``DuplicateCheck`` compares of a paper: computed once (``paper_keys``), it can be
    checked again without folding the abstract again (the preview checks an edited paper
    against every other: ``content.loader.PaperChecks``)."""

    title: str  # title_key
    venue: str
    authors: tuple[str, ...]  # authors_key
    body: bytes  # the whole folded abstract's digest (b"" for none)
    abstract: bytes  # abstract_key's digest (b"" for a short one)


def paper_keys(title: str, venue: str, authors: Sequence[str], abstract: str) -> PaperKeys:
    folded = fold(abstract)
    return PaperKeys(title_key(title), venue, authors_key(authors), _digest(" ".join(folded.split())),
                     _digest(_abstract_key(folded)))


class KeyIndex:
    """Items (papers) by the keys ``DuplicateCheck`` compares of them: a paper's check can only
    find it repeats those that share its title key or its abstract (``sharing``)."""

    def __init__(self) -> None:
        self._titles: dict[str, list] = {}
        self._abstracts: dict[bytes, list] = {}

    def add(self, item, keys: PaperKeys) -> None:
        self._titles.setdefault(keys.title, []).append(item)
        if keys.abstract:
            self._abstracts.setdefault(keys.abstract, []).append(item)

    def sharing(self, keys: PaperKeys) -> list:
        """The items a paper of ``keys`` can repeat (an item may be named twice)."""
        return self._titles.get(keys.title, []) + (self._abstracts.get(keys.abstract, []) if keys.abstract else [])


@dataclass(frozen=True)
class Repeat:
    """What a paper repeats of one seen before: ``exact`` or not, why, and the other's label."""

    exact: bool
    reason: str  # "same title, venue and authors", "same abstract", …
    other: str  # the label of the paper seen first (a file, or an input record)

    def message(self) -> str:
        if self.exact:
            return f"the same paper ({self.reason}) is already in {self.other}"
        return f"likely the same paper as {self.other} ({self.reason}); is this the same paper twice?"


@dataclass
class DuplicateCheck:
    """Papers seen so far, by title, abstract and authors (see the module docstring)."""

    _exact: dict[tuple, tuple[str, bytes]] = field(default_factory=dict)  # (title, venue, authors) -> (label, body)
    _titles: dict[tuple, list[tuple[str, str]]] = field(default_factory=dict)  # (title, authors) -> [(venue, label)]
    _venue_titles: dict[tuple[str, str], str] = field(default_factory=dict)
    _abstracts: dict[bytes, str] = field(default_factory=dict)

    def check(self, label: str, title: str, venue: str, authors: Sequence[str], abstract: str) -> list[Repeat]:
        """What the paper ``label`` repeats (an exact repeat alone, or the suspected ones),
        and it is remembered: the first of several is never the one reported."""
        return self.check_keys(label, paper_keys(title, venue, authors, abstract))

    def check_keys(self, label: str, keys: PaperKeys) -> list[Repeat]:
        """``check`` of a paper whose keys are known (``paper_keys``)."""
        tkey, venue, akey, body = keys.title, keys.venue, keys.authors, keys.body
        exact = (tkey, venue, akey)
        found: list[Repeat] = []
        if exact in self._exact:
            other, other_body = self._exact[exact]
            if not body or not other_body or body == other_body:
                return [Repeat(True, "same title, venue and authors", other)]
            found.append(Repeat(False, "same title, venue and authors, another abstract", other))
        else:
            self._exact[exact] = (label, body)
        same_title = self._titles.setdefault((tkey, akey), [])
        other = next((other for v, other in same_title if v != venue), None)
        if other is not None:
            found.append(Repeat(False, "same title and authors at another venue", other))
        same_title.append((venue, label))
        other = self._venue_titles.setdefault((tkey, venue), label)
        if other != label and not found:
            found.append(Repeat(False, "same title and venue, other authors", other))
        key = keys.abstract
        if key:
            other = self._abstracts.setdefault(key, label)
            if other != label and all(r.other != other for r in found):
                found.append(Repeat(False, "same abstract", other))
        return found
