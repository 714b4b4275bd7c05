"""Names of the people of a synthetic archive, as a field's real author lists have them.

``draw_names(count, rng)`` gives ``count`` names that are distinct authors for the build
(distinct ``author_key``: names that differ only in accents, case or punctuation are one
author), drawn from a mixture of naming traditions roughly as they occur in ML, vision,
language and robotics papers: many Chinese names in pinyin (one or two syllables, a few
hyphenated, a few written family name first: "Wang Yuan" beside "Yuan Wang"), Indian,
Korean, Japanese, Vietnamese, Iranian, Turkish, Arabic, Hebrew, African names, European
and American names with middle initials, accents (José, Müller, Łukasz, Nguyễn), particles
(van der Berg) and apostrophes (O'Brien); a few in their own script (张伟, Дмитрий Иванов).

Given and family names are drawn with a heavy head (Zipf over each list's order), so, as
in reality, many people share a family name or a given name ("Jun Fan", "Jun Wang",
"Yi Fan"), which is what makes search for a full name hard. Namesakes (two people with one
name) are made by ``authors``, which may give one name to two people. The name lists are
data, in ``data/names.toml``; the mixture of traditions and the rates of variants are set here.
"""

from __future__ import annotations

import bisect
import itertools
import random
import tomllib
from dataclasses import dataclass
from importlib import resources

from generator.content.slugs import author_key


@dataclass(frozen=True)
class Name:
    given: str  # "" when the name is one field (``literal``)
    family: str
    literal: str = ""  # a name written as one field (another script): CSL's ``literal``

    @property
    def full(self) -> str:
        return self.literal or f"{self.given} {self.family}".strip()


_DATA = tomllib.loads(resources.files(__package__).joinpath("data", "names.toml").read_text(encoding="utf-8"))
_LISTS = {name: tuple(names) for name, names in _DATA["lists"].items()}
CN_SYLLABLES = _LISTS["cn_syllables"]
CN_FAMILY = _LISTS["cn_family"]
KR_FIRST = _LISTS["kr_first"]
KR_SECOND = _LISTS["kr_second"]
KR_FAMILY = _LISTS["kr_family"]
JP_FIRST = _LISTS["jp_first"]
JP_SECOND = _LISTS["jp_second"]
JP_FAMILY = _LISTS["jp_family"]
IN_GIVEN = _LISTS["in_given"]
IN_FAMILY = _LISTS["in_family"]
VN_GIVEN = _LISTS["vn_given"]
VN_MIDDLE = _LISTS["vn_middle"]
VN_FAMILY = _LISTS["vn_family"]
EN_GIVEN = _LISTS["en_given"]
EN_FAMILY = _LISTS["en_family"]
ME_GIVEN = _LISTS["me_given"]
ME_FAMILY = _LISTS["me_family"]
CJK_FAMILY = _LISTS["cjk_family"]
CJK_GIVEN = _LISTS["cjk_given"]
EU = {country: (tuple(names["given"]), tuple(names["family"]))  # country -> (given names, family names)
      for country, names in _DATA["european"].items()}
OTHER_SCRIPTS = tuple((tuple(s["family"]), tuple(s["given"]), s["separator"]) for s in _DATA["other_scripts"])
MIDDLE_INITIALS = tuple(f"{c}." for c in "ABCDEFGHJKLMNPRSTW")

# (tradition, share of names) — roughly the authors of ML/CV/NLP/robotics venues.
MIXTURE = (("chinese", 0.37), ("english", 0.17), ("european-german", 0.035), ("european-french", 0.025),
           ("european-iberian", 0.025), ("european-italian", 0.02), ("european-nordic-dutch", 0.02),
           ("european-slavic", 0.025), ("indian", 0.10), ("korean", 0.06), ("japanese", 0.035),
           ("middle-east-africa", 0.055), ("vietnamese", 0.015), ("script", 0.004))
CHINESE_TWO_SYLLABLES = 0.7
CHINESE_HYPHENATED = 0.05  # "Xiao-Hui Li"
CHINESE_FAMILY_FIRST = 0.03  # written "Wang Yuan"
MIDDLE_INITIAL_RATE = {"english": 0.22, "indian": 0.05, "middle-east-africa": 0.05,
                       **{f"european-{country}": 0.08 for country in EU}}
RETRIES_BEFORE_INITIAL = 3  # a name taken this often is drawn again with a middle initial (or less common)
ZIPF_EXPONENT = 0.9  # popularity of the n-th entry of each list ~ 1 / n^0.9


class _Zipf:
    """Weighted choice from a list by a heavy-headed popularity of its order."""

    def __init__(self, items: tuple[str, ...], exponent: float = ZIPF_EXPONENT):
        self.items = items
        self.cum = list(itertools.accumulate(1.0 / (i + 1) ** exponent for i in range(len(items))))

    def __call__(self, rng: random.Random) -> str:
        return self.items[bisect.bisect(self.cum, rng.random() * self.cum[-1])]


_CN_SYL, _CN_FAM = _Zipf(CN_SYLLABLES), _Zipf(CN_FAMILY, 1.0)
_KR = (_Zipf(KR_FIRST, 0.6), _Zipf(KR_SECOND, 0.6), _Zipf(KR_FAMILY, 1.1))
_JP = (_Zipf(JP_FIRST, 0.6), _Zipf(JP_SECOND, 0.6), _Zipf(JP_FAMILY, 0.7))
_VN = (_Zipf(VN_GIVEN, 0.6), _Zipf(VN_MIDDLE, 0.6), _Zipf(VN_FAMILY, 1.2))
_POOLS = {
    "english": (_Zipf(EN_GIVEN, 0.6), _Zipf(EN_FAMILY, 0.6)),
    **{f"european-{country}": (_Zipf(given, 0.5), _Zipf(family, 0.5)) for country, (given, family) in EU.items()},
    "indian": (_Zipf(IN_GIVEN, 0.7), _Zipf(IN_FAMILY, 0.8)),
    "middle-east-africa": (_Zipf(ME_GIVEN, 0.5), _Zipf(ME_FAMILY, 0.5)),
}
_MIX_CUM = list(itertools.accumulate(share for _, share in MIXTURE))


def _tradition(rng: random.Random) -> str:
    return MIXTURE[bisect.bisect(_MIX_CUM, rng.random() * _MIX_CUM[-1])][0]


def draw_name(rng: random.Random, tradition: str | None = None, retry: int = 0) -> Name:
    """One name of ``tradition`` (drawn when None); not checked for distinctness. A ``retry``
    (the name drawn before was taken) flattens the popularity of the lists, and from
    ``RETRIES_BEFORE_INITIAL`` on adds a middle initial where the tradition writes them."""
    tradition = tradition or _tradition(rng)
    exponent = 1.0 if retry == 0 else 0.0  # a retry: every entry as likely

    def pick(z: _Zipf) -> str:
        return z(rng) if exponent else rng.choice(z.items)

    if tradition == "chinese":
        first = pick(_CN_SYL)
        if rng.random() < CHINESE_TWO_SYLLABLES or retry:
            second = pick(_CN_SYL).lower()
            given = f"{first}-{second}" if rng.random() < CHINESE_HYPHENATED else first + second
        else:
            given = first
        family = pick(_CN_FAM)
        if rng.random() < CHINESE_FAMILY_FIRST:
            given, family = family, given
        return Name(given, family)
    if tradition == "script":
        if rng.random() < 0.5:
            given = "".join(rng.choice(CJK_GIVEN) for _ in range(1 + (rng.random() < 0.6)))
            return Name("", "", rng.choice(CJK_FAMILY) + given)
        families, givens, space = rng.choice(OTHER_SCRIPTS)
        if space:
            return Name("", "", f"{rng.choice(givens)}{space}{rng.choice(families)}")
        return Name("", "", rng.choice(families) + rng.choice(givens))
    if tradition == "korean":
        first, second, family = (pick(z) for z in _KR)
        style = rng.random()
        given = f"{first}-{second}" if style < 0.45 else first + second if style < 0.85 else f"{first} {second.title()}"
        return Name(given, family)
    if tradition == "japanese":
        first, second, family = (pick(z) for z in _JP)
        return Name(first + second, family)
    if tradition == "vietnamese":
        given, middle, family = (pick(z) for z in _VN)
        return Name(f"{middle} {given}" if rng.random() < 0.4 or retry else given, family)
    given_of, family_of = _POOLS[tradition]
    given, family = pick(given_of), pick(family_of)
    initial_rate = 1.0 if retry >= RETRIES_BEFORE_INITIAL else MIDDLE_INITIAL_RATE.get(tradition, 0.0)
    if rng.random() < initial_rate:
        given = f"{given} {rng.choice(MIDDLE_INITIALS)}"
    return Name(given, family)


def draw_names(count: int, rng: random.Random) -> list[Name]:
    """``count`` names of distinct authors (distinct ``author_key``): a name already taken is
    drawn again in the same tradition (``draw_name``'s ``retry``), so that small pools
    (Vietnamese family names) keep their share."""
    names: list[Name] = []
    keys: set[str] = set()
    seen: set[str] = set()
    for _ in range(count):
        tradition = _tradition(rng)
        for retry in range(1000):
            name = draw_name(rng, tradition, retry)
            text = name.full
            if text in seen:
                continue
            seen.add(text)
            key = author_key(text)
            if key not in keys:
                keys.add(key)
                names.append(name)
                break
        else:  # pragma: no cover - the pools hold millions of names
            raise RuntimeError(f"the {tradition} name pool is exhausted")
    return names
