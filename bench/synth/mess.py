"""The defects of real bibliographic records, at the rates a real archive showed (``MessParams``).

Measured on a real archive of 94,348 papers (CSL-JSON from public accepted-paper lists):
4,525 of ~368,000 author entries were whole author lists in one name (1.2 %), 137 were
"X and Y", 1,586 abstracts carried ``(cid:173)`` PDF debris (1.7 %), ~2 % had no abstract,
27 papers shared an abstract with another paper. Rates the archive did not count are
guesses of the same order. Every rate is a parameter; ``MessParams.clean()`` has none.

Author entries are ``(given, family, literal)`` tuples (``literal`` set: one field, as CSL's
``literal``); the defects of an author list (``mess_authors``):

* a whole list in one entry ("Ipek Oztas, Duygu Ceylan, Aysegul Dundar"; sometimes
  "…, B and C"), "X and Y", "X; Y";
* "Family, Given" in one field; footnote marks (``*``, ``†``, ``‡``, ``§``, ``¹``,
  affiliation digits "Jane Doe1,2"); LaTeX accents (``G{\\"o}del``, ``Jos{\\'e}``); ALL CAPS;
  accents dropped ("Jose Garcia" for "José García": the same author for the build);
* one author listed twice in a paper (sometimes once in capitals).

The defects of an abstract (``mess_abstract``): ``(cid:173)`` soft hyphens left by PDF
extraction inside words ("improve(cid:173) ment"), other ``(cid:N)`` codes (ligatures:
"de(cid:12)ne"), words split at a line end ("explic- itly"), no abstract at all. The
defects between records (same abstract at a workshop and a conference in one year, two old
papers given one abstract, a record written twice) are placed by ``synth.build_archive``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, fields, replace

from generator.content.words import ascii_fold

Entry = tuple[str, str, str]  # (given, family, literal)


@dataclass(frozen=True)
class MessParams:
    glued_list: float = 0.012  # share of author entries that are a whole list in one name
    and_pair: float = 0.0004  # ... that are "X and Y"
    semicolon_pair: float = 0.0002  # ... that are "X; Y"
    family_given: float = 0.003  # ... written "Family, Given" in one field
    footnote: float = 0.004  # ... with a footnote mark or affiliation digits
    all_caps: float = 0.002  # ... in capitals
    latex_accent: float = 0.05  # share of the entries of accented names with the accents in LaTeX
    accent_dropped: float = 0.1  # share of the entries of accented names written without accents
    name_twice: float = 0.001  # papers that list one author twice
    cid_soft_hyphen: float = 0.017  # abstracts with "(cid:173)" inside words
    cid_other: float = 0.003  # abstracts with other "(cid:N)" codes
    line_break_hyphen: float = 0.03  # abstracts with words split at a line end ("explic- itly")
    empty_abstract: float = 0.02  # records without an abstract
    workshop_twin: float = 0.0003  # papers whose abstract is also a workshop paper's the same year
    shared_abstract: float = 0.0001  # old papers (to 2005) given the abstract of the paper before them
    exact_duplicate: float = 0.0002  # records written twice in their file
    missing_links: float = 0.02  # records with neither landing page nor DOI (beyond hosts that give none)
    doi_only: float = 0.15  # records with a DOI that lack the landing URL
    url_only: float = 0.3  # records with a landing URL that lack the DOI
    jats_abstract: float = 0.3  # Crossref-sourced abstracts (ACM, Springer, IEEE DOIs) in JATS <jats:p>

    @classmethod
    def clean(cls) -> "MessParams":
        """No defects at all (links complete)."""
        return cls(**{f.name: 0.0 for f in fields(cls)})

    def scaled(self, factor: float) -> "MessParams":
        """Every rate times ``factor`` (at most 1): more defects for tests at small sizes."""
        return replace(self, **{f.name: min(1.0, getattr(self, f.name) * factor) for f in fields(self)})


MAX_GLUED = 8  # names in one glued entry at most (~150 characters; OpenReview refuses names over 300)
FOOTNOTES = ("*", "*", "†", "‡", "§", "¹", "1", "2", "1,2", "1,3", " 1", "*1")
LATEX_ACCENTS = {
    "á": "{\\'a}", "é": "{\\'e}", "í": "{\\'\\i}", "ó": "{\\'o}", "ú": "{\\'u}", "ý": "{\\'y}", "Á": "{\\'A}",
    "É": "{\\'E}", "à": "{\\`a}", "è": "{\\`e}", "ò": "{\\`o}", "ä": '{\\"a}', "ë": '{\\"e}', "ï": '{\\"\\i}',
    "ö": '{\\"o}', "ü": '{\\"u}', "Ö": '{\\"O}', "Ü": '{\\"U}', "â": "{\\^a}", "ê": "{\\^e}", "î": "{\\^\\i}",
    "ô": "{\\^o}", "û": "{\\^u}", "ã": "{\\~a}", "õ": "{\\~o}", "ñ": "{\\~n}", "ç": "{\\c{c}}", "ş": "{\\c{s}}",
    "Ş": "{\\c{S}}", "ğ": "{\\u{g}}", "ı": "{\\i}", "ł": "{\\l}", "Ł": "{\\L}", "ø": "{\\o}", "Ø": "{\\O}",
    "å": "{\\aa}", "Å": "{\\AA}", "ß": "{\\ss}", "č": "{\\v{c}}", "ř": "{\\v{r}}", "š": "{\\v{s}}", "ž": "{\\v{z}}",
    "Č": "{\\v{C}}", "ě": "{\\v{e}}", "ń": "{\\'n}", "ś": "{\\'s}", "ć": "{\\'c}", "ő": "{\\H{o}}",
}
LIGATURES = (("fi", "(cid:12)"), ("fl", "(cid:13)"), ("ff", "(cid:11)"))
_LONG_WORD = re.compile(r"(?<![\w$\\{])([a-z]{8,})(?![\w$}])")


def full(entry: Entry) -> str:
    given, family, literal = entry
    return literal or f"{given} {family}".strip()


def _latex(text: str) -> str:
    return "".join(LATEX_ACCENTS.get(ch, ch) for ch in text)


class Messer:
    """Applies ``MessParams`` with its own random stream (``rng``)."""

    def __init__(self, rng: random.Random, params: MessParams, sizes: list[int]):
        self.rng = rng
        self.p = params
        self.counts: Counter[str] = Counter()  # defects placed, by kind (``MessParams`` names)
        # A paper's list glued into one entry removes (its authors - 1) entries (about 0.9 of that on
        # average: some glue only the tail): the per-paper chance that makes glued entries
        # ``glued_list`` of all entries.
        slots = sum(sizes)
        multi = [k for k in sizes if k >= 2] or [2]
        mean_multi = sum(multi) / len(multi)
        self.glue_paper = min(1.0, params.glued_list * slots / (len(multi) * (1 + params.glued_list * 0.9 *
                                                                                  (mean_multi - 1))))
        self.and_paper = min(1.0, params.and_pair * slots / len(multi))
        self.semicolon_paper = min(1.0, params.semicolon_pair * slots / len(multi))

    def entry(self, given: str, family: str, literal: str = "") -> Entry:
        """One author as a record writes them: most as they are, some with a defect."""
        rng, p = self.rng, self.p
        if literal:
            return ("", "", literal)
        if not (given + family).isascii():
            u = rng.random()
            if u < p.latex_accent:
                given, family = _latex(given), _latex(family)
                self.counts["latex_accent"] += 1
            elif u < p.latex_accent + p.accent_dropped:
                given, family = ascii_fold(given) or given, ascii_fold(family) or family
                self.counts["accent_dropped"] += 1
        u = rng.random()
        if u < p.family_given:
            self.counts["family_given"] += 1
            return ("", "", f"{family}, {given}")
        u -= p.family_given
        if u < p.footnote:
            self.counts["footnote"] += 1
            return (given, family + rng.choice(FOOTNOTES), "")
        u -= p.footnote
        if u < p.all_caps:
            self.counts["all_caps"] += 1
            return (given.upper(), family.upper(), "")
        return (given, family, "")

    def authors(self, names: list[tuple[str, str, str]]) -> tuple[Entry, ...]:
        """A paper's author list (clean ``(given, family, literal)`` names) as its record has it."""
        rng, p = self.rng, self.p
        entries = [self.entry(*name) for name in names]
        if len(entries) >= 2:
            u = rng.random()
            if u < self.glue_paper:
                # The whole list (a few glue only its tail); at most MAX_GLUED names, as real glued lists are
                # those of short author lists (a long one glues a run of its names).
                start = 0 if rng.random() < 0.8 else rng.randrange(len(entries) - 1)
                if len(entries) - start > MAX_GLUED:
                    start = rng.randrange(len(entries) - 1)
                end = min(len(entries), start + MAX_GLUED)
                glued = [full(e) for e in entries[start:end]]
                text = ", ".join(glued) if rng.random() < 0.8 or len(glued) < 3 else \
                    ", ".join(glued[:-1]) + " and " + glued[-1]
                entries[start:end] = [("", "", text)]
                self.counts["glued_list"] += 1
            elif u < self.glue_paper + self.and_paper + self.semicolon_paper:
                i = rng.randrange(len(entries) - 1)
                joiner = " and " if u < self.glue_paper + self.and_paper else "; "
                entries[i:i + 2] = [("", "", full(entries[i]) + joiner + full(entries[i + 1]))]
                self.counts["and_pair" if joiner == " and " else "semicolon_pair"] += 1
        if rng.random() < p.name_twice and entries:
            twice = rng.choice(entries)
            if rng.random() < 0.3 and not twice[2]:
                twice = (twice[0].upper(), twice[1].upper(), "")
            entries.insert(rng.randrange(len(entries) + 1), twice)
            self.counts["name_twice"] += 1
        return tuple(entries)

    def abstract(self, text: str) -> str:
        """An abstract as its record has it (maybe empty, maybe with PDF debris)."""
        rng, p = self.rng, self.p
        if rng.random() < p.empty_abstract:
            self.counts["empty_abstract"] += 1
            return ""
        for kind, rate in (("cid_soft_hyphen", p.cid_soft_hyphen), ("cid_other", p.cid_other),
                           ("line_break_hyphen", p.line_break_hyphen)):
            if rng.random() < rate:
                changed = self._ligature(text) if kind == "cid_other" else \
                    self._split_words(text, "(cid:173) " if kind == "cid_soft_hyphen" else "- ", rng.randint(1, 3))
                if changed != text:
                    self.counts[kind] += 1
                    text = changed
        return text

    def _split_words(self, text: str, joint: str, count: int) -> str:
        words = list(_LONG_WORD.finditer(text))
        if not words:
            return text
        chosen = sorted(self.rng.sample(words, min(count, len(words))), key=lambda m: -m.start())
        for match in chosen:
            word = match.group(1)
            cut = self.rng.randint(3, len(word) - 3)
            text = text[:match.start()] + word[:cut] + joint + word[cut:] + text[match.end():]
        return text

    def _ligature(self, text: str) -> str:
        for pair, code in LIGATURES:
            if pair in text:
                return text.replace(pair, code, self.rng.randint(1, 3))
        words = list(_LONG_WORD.finditer(text))
        if not words:
            return text
        match = self.rng.choice(words)
        return text[:match.start()] + f"(cid:{self.rng.choice((2, 3, 48, 0))})" + text[match.start():]
