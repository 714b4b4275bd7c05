"""Words split at a line end by PDF extraction ("explic- itly"), joined again on import.

Abstracts copied out of PDFs keep the hyphen of a word broken across two lines, followed
by a space or a line break: "explic- itly", "con- sists". ``Vocabulary.join`` puts such a
word back together when the catalog says which word it is:

* the **vocabulary** is the words of the texts being imported and of the catalog's papers
  (``add``): a word is known when it, or another form of it (the same Porter stem, segment
  by segment: "streamline" is known from "streamlining"), occurs there. No word list is
  shipped: the catalog's own words are the words its abstracts use, hyphenated compounds
  included ("self-supervised"), and a word no paper uses is left as it is;
* "explic- itly" becomes **"explicitly"** when that is a known word and is used at least as
  often as "explic-itly";
* it becomes **"self-supervised"** (the hyphen was the word's own, the line break fell
  after it) when the hyphenated form is the known one, or the more frequent one; the same
  for longer compounds: "state-of- the-art" is "state-of-the-art" when that is known;
* anything else is **kept** as written: "low- and high-fitness samples" (a suspended
  hyphen: "lowand" and "low-and" are not words), and every break whose word the catalog
  does not know.

Only a letter, a hyphen and then white space with at most one line break are looked at
(not "Hugging Face - one", not a blank line), both fragments of two letters or more, the
second in lower case, outside ``$…$`` math. ``join`` returns the text and what it changed,
for the importers' reports (``joined_lines``).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

from lunr.stemmer import PorterStemmer

from .common import paper_files

# A compound ending in "fragment-", white space holding at most one line break, then a
# lower-case fragment and the rest of its compound.
_BREAK = re.compile(
    r"(?<![\w-])((?:[A-Za-z]+-)*[A-Za-z]{2,})-([ \t]*\n?[ \t]*)(?<=\s)([a-z]{2,}(?:-[A-Za-z]+)*)(?![\w-])"
)
_HINT = re.compile(r"[A-Za-z]-\s")  # cheap first look: most texts have no break at all
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.DOTALL)
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")  # of lower-cased text: words and hyphenated compounds
_PREFIX = 3  # words are grouped by their first letters: another form of a word starts as it does

_stemmer = PorterStemmer()


class Joined(NamedTuple):
    """One broken word and what it became."""

    before: str  # "explic- itly" (white space as one space)
    after: str  # "explicitly", or "self-supervised"

    def __str__(self) -> str:
        return f"{self.before} → {self.after}"


class Vocabulary:
    """The words of some texts, with how often each is used; ``join`` mends broken words.

    Texts are counted when a word is first looked up, so that an import with no broken
    word never reads them: ``add`` takes a text or a function that returns texts (the
    catalog's paper files, read only then).
    """

    def __init__(self, *texts: str):
        self._pending: list[str | Callable[[], Iterable[str]]] = list(texts)
        self._counts: Counter[str] = Counter()
        self._groups: dict[str, list[str]] | None = None  # prefix -> words, made when first needed
        self._stems: dict[str, str] = {}

    def add(self, text: str | Callable[[], Iterable[str]]) -> None:
        """Count the words of ``text`` (any case; hyphenated compounds as one word)."""
        if text:
            self._pending.append(text)

    def uses(self, word: str) -> int:
        """How often the vocabulary uses ``word`` or another form of it (the same stems)."""
        word = word.lower()
        if self._pending or self._groups is None:
            for item in self._pending:
                for text in ([item] if isinstance(item, str) else item()):
                    self._counts.update(_WORD.findall(text.lower()))
            self._pending = []
            groups: dict[str, list[str]] = {}
            for known in self._counts:
                groups.setdefault(known[:_PREFIX], []).append(known)
            self._groups = groups
        key = self._key(word)
        return sum(self._counts[known] for known in self._groups.get(word[:_PREFIX], ()) if self._key(known) == key)

    def _key(self, word: str) -> str:
        key = self._stems.get(word)
        if key is None:
            key = self._stems[word] = "-".join(_stemmer.stem(part) for part in word.split("-"))
        return key

    def join(self, text: str) -> tuple[str, list[Joined]]:
        """``text`` with its broken words mended (see the module docstring), and the changes."""
        if not _HINT.search(text):
            return text, []
        math = [m.span() for m in _MATH.finditer(text)] if "$" in text else []
        changes: list[Joined] = []

        def mend(match: re.Match) -> str:
            start = match.start()
            if any(a <= start < b for a, b in math):
                return match.group(0)
            left, right = match.group(1), match.group(3)
            joined, hyphenated = left + right, f"{left}-{right}"
            as_one, with_hyphen = self.uses(joined), self.uses(hyphenated)
            if as_one > with_hyphen:
                after = joined
            elif with_hyphen:
                after = hyphenated
            else:
                return match.group(0)
            changes.append(Joined(f"{left}- {right}", after))
            return after

        return _BREAK.sub(mend, text), changes


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
    """For ``Vocabulary.add``: the titles and abstracts of the paper files in ``papers_dir``
    (read when the vocabulary is first needed)."""

    def texts() -> Iterator[str]:
        for _, fm in paper_files(papers_dir):
            title = fm.data.get("title")
            if isinstance(title, str):
                yield title
            yield fm.body

    return texts
