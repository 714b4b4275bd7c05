"""Words split at a line end by PDF extraction ("explic- itly"), joined again on import.

Abstracts copied out of PDFs keep the hyphen of a word broken across two lines, followed
by a space or a line break: "explic- itly", "con- sists". ``Vocabulary.join_all`` puts such
words back together when the catalog says which word it is:

* the **vocabulary** is the words of the texts being imported (titles and abstracts) and,
  for a word those never use, of the catalog's paper files (read only then). A word is
  known when it, or another form of it (the same Porter stem, segment by segment:
  "streamline" is known from "streamlining"), occurs there. No word list is shipped: a
  catalog's words are the words its abstracts use, hyphenated compounds included
  ("self-supervised"), and a word no paper uses is left as it is;
* "explic- itly" becomes **"explicitly"** when that is a known word and is used more often
  than "explic-itly";
* it becomes **"self-supervised"** (the hyphen was the word's own, the line break fell
  after it) when the hyphenated form is known and used at least as often; the same for
  longer compounds: "state-of- the-art" is "state-of-the-art" when that is known;
* anything else is **kept** as written: "low- and high-fitness samples" (a hyphen before
  a conjunction is suspended, never a line break: not even looked up), and every break
  whose word the catalog does not know.

Only letters, a hyphen, then white space with at most one line break and a lower-case
letter are looked at (not "Hugging Face - one", not a blank line), both fragments of two
letters or more, outside ``$…$`` math. Counting is cheap: only the words that begin as a
broken word does are counted (one fast scan of the texts per three-letter beginning), and
texts with no break at all cost a substring test. ``join_all`` returns each text and what it changed,
for the importers' reports (``joined_lines``).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple, Sequence

from ..content.loader import MAX_FILE_BYTES
from ..content.words import stem
from .common import Unreadable, read_limited

# A compound ending in "fragment-", white space holding at most one line break, then a
# lower-case fragment and the rest of its compound.
_BREAK = re.compile(
    r"(?<![\w-])((?:[A-Za-z]+-)*[A-Za-z]{2,})-([ \t]*\n?[ \t]*)(?<=\s)([a-z]{2,}(?:-[A-Za-z]+)*)(?![\w-])"
)
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.DOTALL)
_PREFIX = 3  # the letters another form of a word shares with it (what a scan looks for)
_SCANS = 12  # up to this many prefixes, one fast scan each; more: one slower scan for all
# "low- and high-fitness": a hyphen before a conjunction is suspended, never a line break.
_CONJUNCTIONS = frozenset({"and", "or", "nor", "to", "vs", "versus", "but"})


class Joined(NamedTuple):
    """One broken word and what it became."""

    before: str  # "explic- itly" (white space as one space)
    after: str  # "explicitly", or "self-supervised"

    def __str__(self) -> str:
        return f"{self.before} → {self.after}"


class _Break(NamedTuple):
    start: int
    end: int
    left: str  # "explic", "state-of"
    right: str  # "itly", "the-art"

    @property
    def forms(self) -> tuple[str, str]:
        """The word it may be: joined ("explicitly") and hyphenated ("explic-itly")."""
        return self.left + self.right, f"{self.left}-{self.right}"


class _Words:
    """Some texts, counted on demand: the words (hyphenated compounds as one, in lower case)
    that begin with given prefixes, with how often each is used."""

    def __init__(self, texts: Iterable[str] | Callable[[], Iterable[str]]):
        self._source = texts
        self._text: str | None = None  # all the texts, made when first needed
        self._counts: dict[str, Counter[str]] = {}  # prefix -> word -> uses

    def count(self, prefixes: set[str]) -> None:
        """Count the words that begin with any of ``prefixes`` (lower case) and are not counted yet."""
        new = sorted(prefixes - self._counts.keys())
        if not new:
            return
        if self._text is None:
            self._text = "\n".join(self._source() if callable(self._source) else self._source)
        for prefix in new:
            self._counts[prefix] = Counter()
        if len(new) <= _SCANS:
            # A pattern that starts with a literal is searched for fast: one per prefix and case.
            words = [word for prefix in new for start in (prefix, prefix[0].upper() + prefix[1:])
                     for word in re.findall(re.escape(start) + rf"(?<![A-Za-z-]{re.escape(start)})[a-z]*(?:-[a-z]+)*",
                                            self._text)]
        else:
            words = re.findall(r"(?<![a-z-])(?:" + "|".join(map(re.escape, new)) + r")[a-z]*(?:-[a-z]+)*",
                               self._text.lower())
        for word in words:
            self._counts[word[:_PREFIX].lower()][word.lower()] += 1

    def uses(self, word: str, key: Callable[[str], str]) -> int:
        """How often ``word`` (lower case, its prefix counted) or another form of it is used."""
        wanted = key(word)
        return sum(n for known, n in self._counts[word[:_PREFIX]].items() if key(known) == wanted)


class Vocabulary:
    """The words that decide how a broken word is mended: those of ``texts`` (the import)
    and, for a word they never use, of ``fallback`` (a function returning the catalog's
    texts, called at most once, and only then)."""

    def __init__(self, texts: Iterable[str] = (), fallback: Callable[[], Iterable[str]] | None = None):
        self._tiers = [_Words([t for t in texts if t])]
        if fallback is not None:
            self._tiers.append(_Words(fallback))
        self._stems: dict[str, str] = {}

    def _key(self, word: str) -> str:
        key = self._stems.get(word)
        if key is None:
            key = self._stems[word] = "-".join(stem(part) for part in word.split("-"))
        return key

    def join(self, text: str) -> tuple[str, list[Joined]]:
        """``join_all`` of one text."""
        return self.join_all([text])[0]

    def join_all(self, texts: Sequence[str]) -> list[tuple[str, list[Joined]]]:
        """Each text with its broken words mended (see the module docstring), and the changes."""
        found = [_breaks(text) for text in texts]
        pairs = {b.forms for breaks in found for b in breaks}  # (joined, hyphenated)
        decided: dict[tuple[str, str], str] = {}  # -> the mended word; a pair left out is kept as written
        for tier in self._tiers:
            undecided = pairs - decided.keys()
            if not undecided:
                break
            tier.count({word.lower()[:_PREFIX] for pair in undecided for word in pair})
            for joined, hyphenated in undecided:
                as_one = tier.uses(joined.lower(), self._key)
                with_hyphen = tier.uses(hyphenated.lower(), self._key)
                if as_one > with_hyphen:
                    decided[(joined, hyphenated)] = joined
                elif with_hyphen:
                    decided[(joined, hyphenated)] = hyphenated
        result = []
        for text, breaks in zip(texts, found):
            changes: list[Joined] = []
            parts: list[str] = []
            done = 0
            for b in breaks:
                after = decided.get(b.forms)
                if after is not None:
                    parts += [text[done:b.start], after]
                    done = b.end
                    changes.append(Joined(f"{b.left}- {b.right}", after))
            result.append((("".join(parts) + text[done:]) if changes else text, changes))
        return result


def _breaks(text: str) -> list[_Break]:
    """The candidate breaks of ``text``, outside math."""
    if "- " not in text and "-\n" not in text and "-\t" not in text:  # the usual case, found fast
        return []
    math = [m.span() for m in _MATH.finditer(text)] if "$" in text else []
    return [_Break(m.start(), m.end(), m.group(1), m.group(3)) for m in _BREAK.finditer(text)
            if m.group(3) not in _CONJUNCTIONS and not any(a <= m.start() < b for a, b in math)]


def joined_lines(joined: list[tuple[str, list[Joined]]]) -> list[str]:
    """Report lines for the words joined in each file: ``[(file, changes), ...]``."""
    found = [(where, changes) for where, changes in joined if changes]
    if not found:
        return []
    total = sum(len(changes) for _, changes in found)
    lines = [f"Joined {total} word{'s' if total != 1 else ''} split at a line end in the source:"]
    lines.extend(f"  - {where}: {', '.join(map(str, changes))}" for where, changes in found)
    return lines


def catalog_texts(papers_dir: Path) -> Callable[[], Iterator[str]]:
    """For ``Vocabulary``'s fallback: the text of the paper files in ``papers_dir`` (as
    written: front matter and abstract; not parsed, which would cost far more than it helps)."""

    def texts() -> Iterator[str]:
        if not papers_dir.is_dir():
            return
        for path in papers_dir.glob("*.md"):
            try:
                yield read_limited(path, MAX_FILE_BYTES).decode("utf-8", "replace")
            except (OSError, Unreadable):
                continue

    return texts
