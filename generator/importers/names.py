"""Author names cleaned on import, the same way by every importer (``NameCleaner.clean``):

* **lists split**: one "name" that is several people ("Ipek Oztas, Duygu Ceylan, Aysegul
  Dundar", "X and Y", "Doe, J.; Roe, R.") becomes those people (``content.names.split_list``,
  with care for "Jr.", "III" and names written "Family, Given");
* **"Family, Given"** turned round: "Lovelace, Ada" → "Ada Lovelace";
* **footnote marks** (``*``, ``†``, ``‡``, ``§``, ``¶``, ``⋆``…) and **affiliation digits**
  ("Jane Doe1,2", "Jane Doe¹", "Doe1,2, Jane"; LaTeX superscripts: ``Doe$^{1,2}$``,
  ``$^\\dagger$``, ``\\textsuperscript{*}``) dropped;
* **LaTeX** decoded (``{\\"o}`` → ö, ``\\c{c}`` → ç: the site's own LaTeX-to-text);
* **ALL-CAPS** words cased ("YANN LECUN" → "Yann Lecun", "MCDONALD" → "McDonald", "O'BRIEN"
  → "O'Brien", particles "VAN DER" → "van der"); a word with any lower-case letter ("LeCun")
  is never touched;
* **a name listed twice** in one paper (the same author page: accents, case and punctuation
  aside) kept once.

Each repair is counted by kind (``NameCleaner.counts``, for the import's summary); what
cannot be repaired safely (a list that cannot be split: "Doe, Jane, Roe, Rick") is kept as
written and reported with its file and record (``NameCleaner.unrepaired``) — the build
warns about it too (``content.names.looks_like_list``).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field

from ..content.names import ambiguous, given_first, split_list
from ..content.model import Person
from ..content.slugs import author_key
from ..text import plain_text
from .common import clean_line

SPLIT, ORDER, MARKS, DIGITS, LATEX, CAPS, TWICE = (
    "lists split", "'Family, Given' turned round", "footnote marks dropped", "affiliation digits dropped",
    "LaTeX decoded", "ALL-CAPS names cased", "names listed twice")
KINDS = (SPLIT, ORDER, MARKS, DIGITS, LATEX, CAPS, TWICE)
UNREPAIRED_SHOWN = 100  # names listed in a summary; the rest are counted

_MARKS = re.compile(r"[*†‡§¶⋆∗✝✉♠♣♥♦#]+|\$\^?\{?[*†‡§¶\\a-z]*\}?\$")
_DIGITS = re.compile(r"(?<=[^\W\d_.])\s*(?:[0-9]{1,2}(?:\s*,\s*[0-9]{1,2})*|[¹²³⁴⁵⁶⁷⁸⁹⁰,]+)\s*$")
# Affiliation digits glued to a word before a comma: "Doe1,2, Jane" (BibTeX's "Family, Given").
_GLUED_DIGITS = re.compile(r"(?<=[^\W\d_]{2})(?:[0-9]{1,2}(?:,[0-9]{1,2})*|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)(?=\s*,\s*[^\W\d_])")
# A superscript in LaTeX: "Doe$^{1,2}$", "Doe$^\dagger$", "Doe\textsuperscript{*}": a mark, not part of the name.
_SUPERSCRIPT = re.compile(r"\$\s*\^\s*(?:\{[^{}$]*\}|\\?[^\s{}$]+)\s*\$|\\textsuperscript\s*\{[^{}]*\}")
_CAPS_WORD = re.compile(r"[^\W\d_]{2,}(?:['’-][^\W\d_]+)*")
_PARTICLES = frozenset("van von der den de del della di da du dos das le la ten ter bin ibn al el".split())
_ROMAN = frozenset({"II", "III", "IV", "VI", "VII", "VIII"})


def _case_word(word: str, first: bool) -> str:
    """An ALL-CAPS word cased: "LECUN" → "Lecun", "MCDONALD" → "McDonald", "O'BRIEN" →
    "O'Brien", "JEAN-PIERRE" → "Jean-Pierre"; a particle not first in the name in lower case."""
    if word in _ROMAN:
        return word
    lower = word.lower()
    if not first and lower in _PARTICLES:
        return lower
    parts = re.split(r"(['’-])", lower)
    cased = "".join(p if p in "'’-" else p[:1].upper() + p[1:] for p in parts)
    if len(cased) > 3 and cased.startswith("Mc"):
        cased = "Mc" + cased[2].upper() + cased[3:]
    return cased


def _uncap(name: str) -> str:
    """``name`` with each word written in capitals only cased (see ``_case_word``)."""
    words = list(_CAPS_WORD.finditer(name))
    if not any(m.group().isupper() for m in words):
        return name
    out, done = [], 0
    for i, match in enumerate(words):
        word = match.group()
        if word.isupper():
            out += [name[done:match.start()], _case_word(word, first=i == 0)]
            done = match.end()
    return "".join(out) + name[done:]


@functools.lru_cache(maxsize=1 << 16)
def _repair_one(raw: str) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """(the names ``raw`` is, the repairs made, whether it is a list that could not be split)."""
    done: list[str] = []
    name = clean_line(raw)
    if "^" in name or "textsuperscript" in name:
        for mark in _SUPERSCRIPT.findall(name):
            done.append(DIGITS if any(ch.isdigit() for ch in mark) else MARKS)
        name = clean_line(_SUPERSCRIPT.sub(" ", name)).strip(" ,")
    if "\\" in name or "{" in name:
        decoded = clean_line(plain_text(name))
        if decoded != name:
            done.append(LATEX)
            name = decoded
    unmarked = _MARKS.sub("", name)
    if unmarked != name:
        done.append(MARKS)
        name = " ".join(unmarked.split()).strip(" ,")
    undigited = _GLUED_DIGITS.sub("", _DIGITS.sub("", name))
    if undigited != name and undigited.strip():
        done.append(DIGITS)
        name = undigited.strip(" ,")
    parts = split_list(name)
    if parts is not None:
        done.append(SPLIT)
    else:
        parts = [name]
    names = []
    for part in parts:
        undigited = _DIGITS.sub("", part)
        if undigited != part and undigited.strip():
            done.append(DIGITS)
            part = undigited.strip(" ,")
        turned = given_first(part)
        if turned != part:
            done.append(ORDER)
        cased = _uncap(turned)
        if cased != turned:
            done.append(CAPS)
        if cased:
            names.append(cased)
    return tuple(names), tuple(dict.fromkeys(done)), parts == [name] and ambiguous(name)


@dataclass
class NameCleaner:
    """Cleans the author lists of one import and counts what it did (see the module docstring)."""

    counts: Counter = field(default_factory=Counter)  # kind -> names repaired so
    unrepaired: list[str] = field(default_factory=list)  # "<where>: author 'X' …"
    owners: dict[str, Person] = field(default_factory=dict)  # authors.toml's spellings: one person each

    def clean(self, names: list[str] | tuple[str, ...], where: str) -> list[str]:
        """The paper's authors, repaired; ``where`` names its file and record."""
        authors: list[str] = []
        keys: set[str] = set()
        for raw in names:
            cleaned, done, stuck = _repair_one(raw)
            self.counts.update(done)
            if stuck:
                self.unrepaired.append(f"{where}: author {raw!r} looks like several names but cannot be split "
                                       f"safely; kept as it is — split it by hand")
            for name in cleaned:
                key = author_key(name)
                owner = self.owners.get(key)
                key = f"person {owner.name}" if owner is not None else key
                if key in keys:
                    self.counts[TWICE] += 1
                    continue
                keys.add(key)
                authors.append(name)
        return authors

    def summary_lines(self) -> list[str]:
        """The report's lines: repairs by kind, then what was left as it is."""
        lines = []
        if self.counts:
            total = sum(self.counts.values())
            lines.append(f"Author names repaired ({total:,}): "
                         + ", ".join(f"{kind} {self.counts[kind]:,}" for kind in KINDS if self.counts[kind]) + ".")
        if self.unrepaired:
            lines.append(f"Author names left as they are ({len(self.unrepaired):,}):")
            lines.extend(f"  - {line}" for line in self.unrepaired[:UNREPAIRED_SHOWN])
            if len(self.unrepaired) > UNREPAIRED_SHOWN:
                lines.append(f"  - … and {len(self.unrepaired) - UNREPAIRED_SHOWN:,} more")
        return lines

