"""Which capitals of a title a BibTeX entry braces (issue 36), as the ACL Anthology does:
``brace_capitals(word, initial=…)`` for one word, ``sentence_case(words)`` for the title;
``to_bibtex.latex_value(…, protect=True)`` applies them word by word."""

from __future__ import annotations

import re

# Words that stay lower case in a headline-case title (what tells it from sentence case).
_MINOR_WORDS = frozenset("a an the and but or nor for so yet as at by in of off on per to up via vs with from into onto "
                         "over than upon is are be its their our via without within versus".split())
_CAPITAL_RUN = re.compile(r"\\[A-Za-z]+|\\.|([^\W\d_a-z]+)")


def sentence_case(texts: list[str], plain: list[bool]) -> bool:
    """Whether a title is in sentence case: most of its words past the first that are neither
    minor words nor written with inner capitals start in lower case."""
    upper = lower = 0
    for text, ok in list(zip(texts, plain))[1:]:
        letters = "".join(ch for ch in text if ch.isalpha())
        if not ok or not letters or letters.casefold() in _MINOR_WORDS or any(ch.isupper() for ch in letters[1:]):
            continue
        if letters[0].isupper():
            upper += 1
        else:
            lower += 1
    return lower > upper


# Proper names a title in headline case writes with a capital that must stay (the ACL Anthology's
# truelist has many; these are the ones its titles use most): languages, peoples, places, sites.
PROPER_NAMES = frozenset("""I English Chinese Arabic French German Spanish Portuguese Italian Dutch Swedish Danish
Norwegian Finnish Russian Polish Czech Turkish Persian Hindi Urdu Bengali Tamil Telugu Kannada Malayalam Marathi
Gujarati Punjabi Nepali Sinhala Japanese Korean Vietnamese Thai Indonesian Malay Hebrew Greek Latin Swahili Yoruba
Hausa Amharic Zulu Basque Catalan Galician Welsh Irish Ukrainian Romanian Hungarian Bulgarian Croatian Serbian
Slovak Slovenian Estonian Latvian Lithuanian Icelandic Mongolian Tibetan Uyghur Kazakh Filipino Tagalog Cantonese
Mandarin Sanskrit Dravidian Indic Bantu African American European Asian Indian British Bible Quran Twitter Reddit
Wikipedia Wikidata Facebook Google YouTube Amazon Weibo Europe Africa Asia America India China Japan Arabia
Transformer Transformers Bayesian Markov Gaussian Euclidean Hebbian Boolean Monte Carlo""".split())
_SEGMENT = re.compile(r"([-(/\u2013\u2014])")


def brace_capitals(word: str, *, initial: bool) -> str:
    """``word`` (BibTeX text) with its capitals that must stay braced (see ``protected``), part
    by part (between hyphens, slashes, an opening bracket): every run of capitals of a part
    with a capital past its first character ("ResNet", "135M"); else the part's first capital
    when it names something: ``initial`` (a name in a sentence-case title, not a bracket's
    first word) or a known proper name (``PROPER_NAMES``)."""
    if not any(ch.isupper() for ch in word):
        return word
    pieces = _SEGMENT.split(word)
    out = []
    for i, piece in enumerate(pieces):
        if i % 2 or not piece:
            out.append(piece)
            continue
        bare = re.sub(r"\\[A-Za-z]+", "", piece)
        inner = any(ch.isupper() for ch in bare.lstrip("\"'‘“{")[1:])
        name = re.sub(r"[^\w]", "", bare)
        opens = i > 0 and pieces[i - 1] == "("
        if inner or (initial and not opens) or name in PROPER_NAMES:
            piece = _CAPITAL_RUN.sub(lambda m: "{" + m.group(1) + "}" if m.group(1) and
                                     any(c.isupper() for c in m.group(1)) else m.group(0), piece)
        out.append(piece)
    return "".join(out)
