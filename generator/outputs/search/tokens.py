"""Text into words: fold each character, then split, the same way for the index and queries.

``fold`` lowers, decomposes and maps each character (``CHAR_MAP``: Greek letters spelled
out, letters that decomposition leaves alone, apostrophe and hyphen variants, invisible
characters dropped); ``tokenize`` splits folded text into words and adds the compounds of
hyphenated ones. Text is never handed to Lunr's own tokenizer or trimmer: lunr.py and
lunr.js differ there (the tokenizer's separators, the trimmer's idea of a word character).
The page tokenizes queries exactly as this module tokenizes documents, with the table
``build_search`` writes to ``meta.json`` (``static/js/search-engine.js``);
``tests/outputs/test_search_parity.py`` runs the two sides on the same inputs.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Sequence

from lunr.stop_word_filter import WORDS as LUNR_STOP_WORDS

MAX_TOKEN = 40  # longer tokens are dropped (nobody types them; hostile input)

STOP_WORDS = frozenset(LUNR_STOP_WORDS)

GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa", "ϰ": "kappa",
    "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "ο": "omicron", "π": "pi", "ϖ": "pi",
    "ρ": "rho", "ϱ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi",
    "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
}
# Letters that Unicode decomposition leaves alone, spelled the way people type them.
LETTERS = {
    "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ł": "l", "œ": "oe", "æ": "ae", "ß": "ss",
    "þ": "th", "ŧ": "t", "ƒ": "f", "ĸ": "k", "ŋ": "n", "ȷ": "j",
}
# Apostrophes join the letters around them (O'Brien -> obrien, model's -> models);
# these hyphens chain words (K-means -> k, means, kmeans).
APOSTROPHES = {"’": "'", "‘": "'", "ʼ": "'", "ʻ": "'"}
HYPHENS = {"‐": "-", "‑": "-"}
# Invisible characters inside words (soft hyphens and zero-width spaces from PDFs and web
# pages): dropped, so "gra\u00adph" is "graph".
INVISIBLE = {"\u00ad": "", "\u200b": "", "\u200c": "", "\u200d": "", "\u2060": "", "\ufeff": ""}
CHAR_MAP: dict[str, str] = {**GREEK, **LETTERS, **APOSTROPHES, **HYPHENS, **INVISIBLE}

# German spellings of umlauts, added to author names only (Müller is also found as Mueller).
UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}

# Chinese and Japanese are written without spaces: each ideograph or kana is a word of its
# own (a query for 学習 then finds 深層学習による…), as lunr's own CJK support does not exist.
# (々〆〇, hiragana and katakana without their punctuation ゠ and ・, ideographs up to
# Extension I: explicit ranges, so Python and JavaScript agree whatever their Unicode version)
CJK = ("\u3005-\u3007\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\u3400-\u4dbf"
       "\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ee5f\U00030000-\U000323af")
CJK_CHAR = re.compile(f"[{CJK}]")
_PART = rf"[{CJK}]|[^\W_{CJK}]+(?:'+[^\W_{CJK}]+)*"
CHAIN_RE = re.compile(rf"(?:{_PART})(?:[-_]+(?:{_PART}))*")
JOINER_RE = re.compile(r"[-_]+")


def fold_char(char: str) -> str:
    """One character folded: lower case, compatibility decomposition, marks dropped, mapped."""
    text = unicodedata.normalize("NFKD", char.lower())
    text = "".join(c for c in text if not unicodedata.category(c).startswith("M")).lower()
    return "".join(CHAR_MAP.get(c, c) for c in text)


class _FoldTable(dict):
    """``str.translate`` table that folds each character on first sight (then cached)."""

    def __missing__(self, code: int) -> str:
        value = fold_char(chr(code))
        self[code] = value
        return value


_FOLD = _FoldTable({code: chr(code).lower() for code in range(128)})


def fold(text: str) -> str:
    """'José K-Means’ α' -> "jose k-means' alpha": the text the tokenizer splits."""
    return text.translate(_FOLD)


def tokenize(text: str) -> list[str]:
    """Words of ``text`` as the index and the query see them (before stop words and stems).

    Folded text is split into runs of letters and digits; apostrophes inside a run are
    dropped; words joined by hyphens or underscores also give their compounds (each
    adjacent pair and the whole chain): ``$K$-means`` (plain text "K-means") -> ``k``,
    ``means``, ``kmeans``. Tokens longer than ``MAX_TOKEN`` characters are dropped.
    """
    tokens: list[str] = []
    for chain in CHAIN_RE.findall(fold(text)):
        if "'" in chain:
            chain = chain.replace("'", "")
        if "-" in chain or "_" in chain:
            parts = JOINER_RE.split(chain)
            tokens.extend(parts)
            tokens.extend(compounds(parts))
        else:
            tokens.append(chain)
    return [t for t in tokens if len(t) <= MAX_TOKEN]


def compounds(parts: Sequence[str]) -> list[str]:
    if len(parts) < 2:
        return []
    found = [parts[i] + parts[i + 1] for i in range(len(parts) - 1)]
    if len(parts) > 2:
        found.append("".join(parts))
    return found
