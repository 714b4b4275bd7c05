"""Stemming: a port of lunr.js 2.3.9's ``lunr.stemmer`` (Porter), for ASCII words only.

The index is stemmed here, not by Lunr: lunr.py's stemmer turns "key", "deploy", "play"
into "kei", "deploi", "plai", lunr.js's does not. ``porter`` follows lunr.js statement by
statement, so the words the page stems match the terms written at build time;
``tests/outputs/test_search_parity.py`` compares the two over ~100,000 words.
"""

from __future__ import annotations

import functools
import re

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


def porter(w: str) -> str:
    """lunr.js's ``porterStemmer``, statement by statement (its regexes are ASCII-safe here)."""
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


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The index term of a token: Porter stem for ASCII letters and digits, else the token."""
    return porter(word) if _ASCII_WORD.match(word) else word
