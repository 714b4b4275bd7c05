"""Text as letters and words, one way for everything that compares text: the folds, the
tokenizer and the stemmer.

* ``ascii_fold``: ``text`` in ASCII, case kept: accents dropped, the Latin letters that
  Unicode does not decompose spelled out (``LETTERS``: ß ss, ł l, ø o...), every other
  character gone. Slugs, author keys and the words of terms and topics.
* ``ascii_lower``: the same, lower-cased: how names and phrases are compared (series,
  taxonomy, tags, the authors' index, topic slugs).
* ``fold``: the words' fold: lower case, marks dropped, ``CHAR_MAP`` (the same letters,
  Greek letters spelled out, apostrophe and hyphen variants, invisible characters dropped),
  letters of other scripts kept. Search (the page folds queries with the same table, from
  ``meta.json``) and duplicate titles and abstracts.
* ``tokenize`` splits folded text into words; ``stem`` is a word's Porter stem as lunr.js
  2.3.9 makes it (``search-engine.js`` stems queries in the browser; lunr.py's stemmer
  differs: "deploy" -> "deploi").

On a Latin letter the three folds agree (``tests/content/test_words.py``), so "Straße" is
``strasse`` in a slug, a topic's words and a search alike.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Sequence

MAX_TOKEN = 40  # longer tokens are dropped (nobody types them; hostile input)

# Latin letters that Unicode decomposition leaves alone, spelled the way people type them.
LETTERS = {
    "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ł": "l", "œ": "oe", "æ": "ae", "ß": "ss",
    "þ": "th", "ŧ": "t", "ƒ": "f", "ĸ": "k", "ŋ": "n", "ȷ": "j",
}
# ...and their capitals ("Ł" -> "L", "Æ" -> "Ae", "ẞ" -> "Ss"), for the folds that keep case.
_CAPITALS = {c: LETTERS[c.lower()].capitalize() for c in map(chr, range(0x80, 0x2000))
             if c.lower() in LETTERS and c not in LETTERS}
_TO_ASCII = str.maketrans({**LETTERS, **_CAPITALS})

GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa", "ϰ": "kappa",
    "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "ο": "omicron", "π": "pi", "ϖ": "pi",
    "ρ": "rho", "ϱ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi",
    "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
}
# Apostrophes join the letters around them (O'Brien -> obrien, model's -> models);
# these hyphens chain words (K-means -> k, means, kmeans).
APOSTROPHES = {"’": "'", "‘": "'", "ʼ": "'", "ʻ": "'"}
HYPHENS = {"‐": "-", "‑": "-"}
# Invisible characters inside words (soft hyphens and zero-width spaces from PDFs and web
# pages): dropped, so "gra\u00adph" is "graph".
INVISIBLE = {"\u00ad": "", "\u200b": "", "\u200c": "", "\u200d": "", "\u2060": "", "\ufeff": ""}
CHAR_MAP: dict[str, str] = {**GREEK, **LETTERS, **APOSTROPHES, **HYPHENS, **INVISIBLE}

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


def ascii_fold(text: str) -> str:
    """'Jan Łukasiewicz, Straße α' -> "Jan Lukasiewicz, Strasse ": case kept, ASCII only."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKD", text).translate(_TO_ASCII).encode("ascii", "ignore").decode("ascii")


def ascii_lower(text: str) -> str:
    """'Ole Ødegaard' -> "ole odegaard": ``ascii_fold`` in lower case."""
    return ascii_fold(text).lower()


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
    """'José K-Means’ α Straße' -> "jose k-means' alpha strasse": the text the tokenizer splits."""
    return text.lower() if text.isascii() else text.translate(_FOLD)


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


# The stemmer: lunr.js 2.3.9's ``lunr.stemmer`` (Porter), statement by statement, so the
# words the page stems match the terms written at build time (its regexes are ASCII-safe
# for the words it is given here); tests/outputs/test_search_parity.py compares the two.
_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "bli": "ble",
    "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate",
    "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous",
    "aliti": "al", "iviti": "ive", "biliti": "ble", "logi": "log",
}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
_c = "[^aeiou]"
_v = "[aeiouy]"
_C = _c + "[^aeiouy]*"
_V = _v + "[aeiou]*"
_RE_MGR0 = re.compile("^(" + _C + ")?" + _V + _C)
_RE_MEQ1 = re.compile("^(" + _C + ")?" + _V + _C + "(" + _V + ")?$")
_RE_MGR1 = re.compile("^(" + _C + ")?" + _V + _C + _V + _C)
_RE_S_V = re.compile("^(" + _C + ")?" + _v)
_RE_1A = re.compile(r"^(.+?)(ss|i)es$")
_RE2_1A = re.compile(r"^(.+?)([^s])s$")
_RE_1B = re.compile(r"^(.+?)eed$")
_RE2_1B = re.compile(r"^(.+?)(ed|ing)$")
_RE_1B_2 = re.compile(r".$")
_RE2_1B_2 = re.compile(r"(at|bl|iz)$")
_RE3_1B_2 = re.compile(r"([^aeiouylsz])\1$")
_RE4_1B_2 = re.compile("^" + _C + _v + "[^aeiouwxy]$")
_RE_1C = re.compile(r"^(.+?[^aeiou])y$")
_RE_2 = re.compile(r"^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism"
                   r"|iveness|fulness|ousness|aliti|iviti|biliti|logi)$")
_RE_3 = re.compile(r"^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$")
_RE_4 = re.compile(r"^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$")
_RE2_4 = re.compile(r"^(.+?)(s|t)(ion)$")
_RE_5 = re.compile(r"^(.+?)e$")
_RE_5_1 = re.compile(r"ll$")
_RE3_5 = re.compile("^" + _C + _v + "[^aeiouwxy]$")
_ASCII_WORD = re.compile(r"^[a-z0-9]+$")


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """A word's Porter stem (a word of lower-case ASCII letters and digits; any other as it is)."""
    return porter(word) if _ASCII_WORD.match(word) else word


def porter(w: str) -> str:
    """lunr.js's ``porterStemmer``, statement by statement."""
    if len(w) < 3:
        return w
    firstch = w[0]
    if firstch == "y":
        w = "Y" + w[1:]
    # Step 1a
    if _RE_1A.search(w):
        w = _RE_1A.sub(r"\1\2", w, count=1)
    elif _RE2_1A.search(w):
        w = _RE2_1A.sub(r"\1\2", w, count=1)
    # Step 1b
    fp = _RE_1B.search(w)
    if fp:
        if _RE_MGR0.search(fp.group(1)):
            w = _RE_1B_2.sub("", w, count=1)
    else:
        fp = _RE2_1B.search(w)
        if fp:
            stem = fp.group(1)
            if _RE_S_V.search(stem):
                w = stem
                if _RE2_1B_2.search(w):
                    w = w + "e"
                elif _RE3_1B_2.search(w):
                    w = _RE_1B_2.sub("", w, count=1)
                elif _RE4_1B_2.search(w):
                    w = w + "e"
    # Step 1c
    fp = _RE_1C.search(w)
    if fp:
        w = fp.group(1) + "i"
    # Step 2
    fp = _RE_2.search(w)
    if fp and _RE_MGR0.search(fp.group(1)):
        w = fp.group(1) + _STEP2[fp.group(2)]
    # Step 3
    fp = _RE_3.search(w)
    if fp and _RE_MGR0.search(fp.group(1)):
        w = fp.group(1) + _STEP3[fp.group(2)]
    # Step 4
    fp = _RE_4.search(w)
    if fp:
        if _RE_MGR1.search(fp.group(1)):
            w = fp.group(1)
    else:
        fp = _RE2_4.search(w)
        if fp:
            stem = fp.group(1) + fp.group(2)
            if _RE_MGR1.search(stem):
                w = stem
    # Step 5
    fp = _RE_5.search(w)
    if fp:
        stem = fp.group(1)
        if _RE_MGR1.search(stem) or (_RE_MEQ1.search(stem) and not _RE3_5.search(stem)):
            w = stem
    if _RE_5_1.search(w) and _RE_MGR1.search(w):
        w = _RE_1B_2.sub("", w, count=1)
    if firstch == "y":
        w = "y" + w[1:]
    return w
