"""The conference-years of a synthetic archive: real series, their real years, sizes that grow.

``SERIES`` holds the conferences of ML, vision, language, speech, robotics, graphics, data
mining and AI with the years they were held (within 1995–2026) and rough accepted-paper
counts at a few years (interpolated log-linearly between them). ``candidates()`` lists
every conference-year, the Findings volumes of ACL/EMNLP/NAACL and some workshops
(OpenReview-hosted ICLR/ICML/NeurIPS workshops, the CVPR workshops volume), each with its
full proceedings names as bibliographic records give them (``VenueYear``).

``select(n, rng)`` picks the archive's conference-years: about 250 at 100,000 papers
(``250 × (n / 100,000)^0.6``: 63 at 10,000, 8 at 300), drawn with weights that favour
large and recent ones (as a real archive does) and the field's core series, and shares the
``n`` papers among them by size (each gets at least one).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

FIRST_YEAR, LAST_YEAR = 1995, 2026
VENUES_AT_100K = 250


def _years(first: int, last: int, step: int = 1, skip: tuple[int, ...] = ()) -> tuple[int, ...]:
    return tuple(y for y in range(first, last + 1, step) if y not in skip)


@dataclass(frozen=True)
class Series:
    key: str
    short: str
    field: str  # venue class: ml, theory, vision, language, speech, robotics, graphics, data, ai
    years: tuple[int, ...]
    sizes: tuple[tuple[int, int], ...]  # (year, accepted papers), interpolated between
    weight: float = 1.0  # how often an archive of the field covers it

    def size(self, year: int) -> float:
        points = self.sizes
        if year <= points[0][0]:
            return float(points[0][1])
        for (y0, s0), (y1, s1) in zip(points, points[1:]):
            if year <= y1:
                return s0 * (s1 / s0) ** ((year - y0) / (y1 - y0))
        return float(points[-1][1])


SERIES = (
    Series("neurips", "NeurIPS", "ml", _years(1987, 2025),
           ((1987, 90), (1995, 152), (2005, 207), (2010, 292), (2014, 411), (2016, 568), (2017, 679), (2018, 1011),
            (2019, 1428), (2020, 1900), (2021, 2334), (2022, 2672), (2023, 3540), (2024, 4494), (2025, 5290))),
    Series("icml", "ICML", "ml", _years(1995, 2025),
           ((1995, 70), (2000, 150), (2005, 134), (2010, 152), (2013, 283), (2015, 270), (2017, 434), (2018, 621),
            (2019, 773), (2020, 1088), (2021, 1184), (2022, 1235), (2023, 1827), (2024, 2610), (2025, 3260))),
    Series("iclr", "ICLR", "ml", _years(2013, 2026),
           ((2013, 25), (2015, 60), (2016, 80), (2017, 198), (2018, 337), (2019, 502), (2020, 687), (2021, 860),
            (2022, 1095), (2023, 1574), (2024, 2260), (2025, 3704), (2026, 5300))),
    Series("cvpr", "CVPR", "vision", _years(1996, 2025, skip=(2002,)),
           ((1996, 130), (2000, 220), (2005, 326), (2010, 462), (2013, 471), (2015, 602), (2017, 783), (2018, 979),
            (2019, 1294), (2020, 1467), (2021, 1660), (2022, 2064), (2023, 2359), (2024, 2716), (2025, 2878)), 1.3),
    Series("iccv", "ICCV", "vision", (1995, 1998, 1999) + _years(2001, 2025, 2),
           ((1995, 160), (2005, 250), (2011, 400), (2013, 454), (2015, 525), (2017, 621), (2019, 1075), (2021, 1617),
            (2023, 2160), (2025, 2700)), 1.3),
    Series("eccv", "ECCV", "vision", _years(1996, 2024, 2),
           ((1996, 120), (2006, 190), (2010, 325), (2014, 363), (2016, 415), (2018, 776), (2020, 1360), (2022, 1645),
            (2024, 2395)), 1.3),
    Series("wacv", "WACV", "vision", (2002, 2005, 2007, 2008, 2009) + _years(2011, 2026),
           ((2002, 50), (2010, 60), (2015, 100), (2018, 150), (2019, 200), (2020, 378), (2023, 639), (2024, 846),
            (2025, 930), (2026, 1000)), 0.7),
    Series("acl", "ACL", "language", _years(1995, 2025),
           ((1995, 60), (2000, 70), (2005, 77), (2010, 160), (2015, 318), (2018, 381), (2019, 660), (2020, 779),
            (2021, 710), (2022, 701), (2023, 1074), (2024, 865), (2025, 1700))),
    Series("emnlp", "EMNLP", "language", _years(1996, 2025),
           ((1996, 30), (2005, 90), (2010, 125), (2015, 312), (2018, 549), (2019, 683), (2020, 754), (2021, 847),
            (2022, 829), (2023, 1047), (2024, 1268), (2025, 1800))),
    Series("naacl", "NAACL", "language",
           (2000, 2001, 2003, 2004, 2006, 2007, 2009, 2010, 2012, 2013, 2015, 2016, 2018, 2019, 2021, 2022, 2024, 2025),
           ((2000, 40), (2010, 100), (2016, 182), (2018, 332), (2019, 423), (2021, 477), (2022, 442), (2024, 565),
            (2025, 700))),
    Series("aaai", "AAAI", "ai", _years(1996, 2000) + (2002,) + _years(2004, 2026, skip=(2009,)),
           ((1996, 180), (2000, 150), (2005, 150), (2010, 264), (2015, 539), (2018, 938), (2019, 1150), (2020, 1591),
            (2021, 1692), (2022, 1349), (2023, 1721), (2024, 2342), (2025, 3032), (2026, 4100))),
    Series("ijcai", "IJCAI", "ai", _years(1995, 2015, 2) + _years(2016, 2025),
           ((1995, 200), (2005, 330), (2011, 400), (2013, 413), (2015, 572), (2017, 660), (2019, 850), (2020, 592),
            (2022, 681), (2024, 791), (2025, 1000))),
    Series("kdd", "KDD", "data", _years(1995, 2025),
           ((1995, 40), (2000, 60), (2005, 110), (2010, 130), (2015, 230), (2019, 460), (2023, 500), (2024, 560),
            (2025, 600)), 0.7),
    Series("aistats", "AISTATS", "ml", _years(1995, 2005, 2) + (2007,) + _years(2009, 2025),
           ((1995, 40), (2005, 60), (2010, 125), (2015, 130), (2017, 168), (2019, 360), (2021, 455), (2023, 496),
            (2024, 546), (2025, 580))),
    Series("uai", "UAI", "ml", _years(1995, 2025),
           ((1995, 70), (2005, 80), (2010, 90), (2015, 100), (2019, 118), (2022, 230), (2024, 300), (2025, 300))),
    Series("colt", "COLT", "theory", _years(1995, 2025),
           ((1995, 40), (2005, 45), (2010, 40), (2015, 80), (2019, 118), (2021, 145), (2023, 165), (2025, 200))),
    Series("corl", "CoRL", "robotics", _years(2017, 2025),
           ((2017, 75), (2018, 110), (2019, 155), (2020, 165), (2022, 198), (2023, 199), (2024, 264), (2025, 270))),
    Series("rss", "RSS", "robotics", _years(2005, 2025),
           ((2005, 45), (2010, 40), (2015, 50), (2019, 85), (2020, 103), (2022, 80), (2023, 112), (2024, 134),
            (2025, 163))),
    Series("icra", "ICRA", "robotics", _years(1995, 2025),
           ((1995, 600), (2005, 850), (2010, 860), (2015, 1000), (2019, 1300), (2021, 1650), (2024, 1900),
            (2025, 1600)), 0.5),
    Series("iros", "IROS", "robotics", _years(1995, 2025),
           ((1995, 400), (2005, 700), (2010, 800), (2015, 950), (2019, 1120), (2022, 1200), (2024, 1400),
            (2025, 1500)), 0.4),
    Series("siggraph", "SIGGRAPH", "graphics", _years(1995, 2025),
           ((1995, 56), (2005, 98), (2010, 103), (2015, 118), (2019, 149), (2022, 230), (2024, 280), (2025, 300)), 0.5),
    Series("interspeech", "Interspeech", "speech", _years(2005, 2025),
           ((2005, 700), (2010, 700), (2015, 750), (2019, 1000), (2023, 1100), (2024, 1200), (2025, 1100)), 0.2),
    Series("icassp", "ICASSP", "speech", _years(1995, 2025),
           ((1995, 900), (2005, 1300), (2010, 1500), (2015, 1200), (2019, 1700), (2022, 1800), (2023, 2700),
            (2024, 2800), (2025, 3000)), 0.15),
)
BY_KEY = {s.key: s for s in SERIES}

WORKSHOPS = (  # (title, acronym, field): OpenReview-hosted workshops of ICLR, ICML and NeurIPS
    ("Reliable and Responsible Foundation Models", "R2-FM", "ml"),
    ("Generative Models for Decision Making", "GenAI4DM", "ml"),
    ("Machine Learning for Drug Discovery", "MLDD", "ml"),
    ("Mathematical and Empirical Understanding of Foundation Models", "ME-FoMo", "ml"),
    ("Practical Machine Learning for Developing Countries", "PML4DC", "ml"),
    ("Geometrical and Topological Representation Learning", "GTRL", "ml"),
    ("Self-Supervised Learning: Theory and Practice", "SSL", "ml"),
    ("Efficient Natural Language and Speech Processing", "ENLSP", "language"),
    ("Robot Learning", "RobotLearning", "robotics"),
    ("Causal Representation Learning", "CRL", "ml"),
    ("Deep Reinforcement Learning", "DeepRL", "ml"),
    ("Federated Learning", "FL", "ml"),
    ("Machine Learning and the Physical Sciences", "ML4PS", "ml"),
    ("Tackling Climate Change with Machine Learning", "CCAI", "ml"),
    ("Optimization for Machine Learning", "OPT", "theory"),
    ("Data-centric Machine Learning Research", "DMLR", "ml"),
    ("Secure and Trustworthy Large Language Models", "SeT-LLM", "language"),
    ("Synthetic Data for Computer Vision", "SynData4CV", "vision"),
)
WORKSHOP_YEARS = {"iclr": _years(2019, 2026), "icml": _years(2019, 2025), "neurips": _years(2019, 2025)}
WORKSHOPS_PER_YEAR = 3
FINDINGS = {"acl": _years(2021, 2025), "emnlp": _years(2020, 2025), "naacl": (2022, 2024, 2025)}
FINDINGS_SIZES = {"acl": ((2021, 457), (2022, 361), (2023, 902), (2024, 975), (2025, 1400)),
                  "emnlp": ((2020, 447), (2021, 424), (2022, 547), (2023, 1010), (2024, 1100), (2025, 1400)),
                  "naacl": ((2022, 209), (2024, 446), (2025, 500))}

_ORDINAL_WORDS = ("Zeroth First Second Third Fourth Fifth Sixth Seventh Eighth Ninth Tenth Eleventh Twelfth "
                  "Thirteenth Fourteenth Fifteenth Sixteenth Seventeenth Eighteenth Nineteenth").split()
_TENS = {20: "Twenty", 30: "Thirty", 40: "Forty"}
_TENS_TH = {20: "Twentieth", 30: "Thirtieth", 40: "Fortieth"}


def ordinal(n: int) -> str:
    """36 -> "36th"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def ordinal_words(n: int) -> str:
    """33 -> "Thirty-Third" (1 <= n < 50)."""
    if n < 20:
        return _ORDINAL_WORDS[n]
    tens, units = divmod(n, 10)
    return _TENS_TH[tens * 10] if not units else f"{_TENS[tens * 10]}-{_ORDINAL_WORDS[units]}"


def roman(n: int) -> str:
    out = ""
    for value, letters in ((40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += letters
            n -= value
    return out


@dataclass(frozen=True)
class VenueYear:
    """One conference-year (or Findings volume, or workshop) as bibliographic records name it."""

    series: str  # a key of SERIES
    year: int
    kind: str  # main, findings, workshop
    field: str  # venue class (synth_authors.FIELDS)
    name: str  # short: "NeurIPS 2019", "Findings of ACL 2023", "ICLR 2024 Workshop on Federated Learning"
    container: str  # CSL container-title / BibTeX booktitle (or journal)
    event: str | None = None  # CSL event-title, where a source gives one
    collection: str | None = None  # CSL collection-title: "Proceedings of Machine Learning Research"
    volume: str | None = None
    publisher: str | None = None
    csl_type: str = "paper-conference"  # article-journal for SIGGRAPH in TOG, chapter for LNCS
    acronym: str = ""  # a workshop's acronym (its OpenReview group)
    size: float = 0.0  # relative size (accepted papers at the real conference)

    @property
    def short(self) -> str:
        return BY_KEY[self.series].short

    @property
    def slug(self) -> str:
        """A file stem for this venue-year: ``neurips-2019``, ``findings-acl-2023``, ``iclr-2024-ws-fl``."""
        if self.kind == "findings":
            return f"findings-{self.series}-{self.year}"
        if self.kind == "workshop":
            return f"{self.series}-{self.year}-ws-{self.acronym.lower()}"
        return f"{self.series}-{self.year}"


def _pmlr(title: str, volume: int | str, year: int) -> dict:
    return {"container": title, "collection": "Proceedings of Machine Learning Research", "volume": str(volume),
            "publisher": "PMLR"}


def proceedings(series: str, year: int) -> dict:
    """The names a record of ``series`` in ``year`` gives its venue (``VenueYear`` fields)."""
    s = series
    if s == "neurips":
        return {"container": "Advances in Neural Information Processing Systems", "volume": str(year - 1987),
                "publisher": "Curran Associates, Inc." if year >= 2008 else "MIT Press",
                "event": f"{ordinal_words(year - 1986)} Conference on Neural Information Processing Systems "
                         f"({'NeurIPS' if year >= 2018 else 'NIPS'} {year})" if year - 1986 < 50 else None}
    if s == "icml":
        title = f"Proceedings of the {ordinal(year - 1983)} International Conference on Machine Learning"
        return _pmlr(title, PMLR_VOLUMES["icml"].get(year, ""), year) if year >= 2013 else {
            "container": title, "publisher": "ACM" if 2004 <= year <= 2009 else "Omnipress" if year >= 2010
            else "Morgan Kaufmann"}
    if s == "iclr":
        return {"container": f"The {ordinal_words(year - 2012)} International Conference on Learning Representations",
                "event": f"International Conference on Learning Representations (ICLR {year})"}
    if s in ("cvpr", "iccv", "wacv") and (year >= 2013 if s != "wacv" else year >= 2020):
        names = {"cvpr": "Conference on Computer Vision and Pattern Recognition (CVPR)",
                 "iccv": "International Conference on Computer Vision (ICCV)",
                 "wacv": "Winter Conference on Applications of Computer Vision (WACV)"}
        org = "IEEE/CVF" if year >= 2019 or s == "wacv" else "IEEE"
        return {"container": f"Proceedings of the {org} {names[s]}", "publisher": "IEEE"}
    if s in ("cvpr", "iccv", "wacv"):
        names = {"cvpr": "IEEE Conference on Computer Vision and Pattern Recognition",
                 "iccv": "IEEE International Conference on Computer Vision",
                 "wacv": "IEEE Winter Conference on Applications of Computer Vision"}
        return {"container": f"{year} {names[s]}", "publisher": "IEEE"}
    if s == "eccv":
        return {"container": f"Computer Vision – ECCV {year}", "collection": "Lecture Notes in Computer Science",
                "publisher": "Springer International Publishing" if year >= 2016 else "Springer",
                "event": f"{ordinal((year - 1990) // 2 + 1)} European Conference on Computer Vision",
                "csl_type": "chapter"}
    if s == "acl":
        return {"container": f"Proceedings of the {ordinal(year - 1962)} Annual Meeting of the Association for "
                             f"Computational Linguistics" + (" (Volume 1: Long Papers)" if year >= 2015 else ""),
                "publisher": "Association for Computational Linguistics", "event": f"ACL {year}"}
    if s == "emnlp":
        return {"container": f"Proceedings of the {year} Conference on Empirical Methods in Natural Language "
                             f"Processing", "publisher": "Association for Computational Linguistics",
                "event": f"EMNLP {year}"}
    if s == "naacl":
        return {"container": f"Proceedings of the {year} Conference of the North American Chapter of the Association "
                             f"for Computational Linguistics: Human Language Technologies",
                "publisher": "Association for Computational Linguistics", "event": f"NAACL {year}"}
    if s == "aaai":
        if year >= 2019:
            return {"container": "Proceedings of the AAAI Conference on Artificial Intelligence",
                    "volume": str(year - 1986), "publisher": "AAAI Press",
                    "event": f"{ordinal_words(year - 1986)} AAAI Conference on Artificial Intelligence"}
        return {"container": f"Proceedings of the {ordinal_words(year - 1986)} AAAI Conference on Artificial "
                             f"Intelligence", "publisher": "AAAI Press"}
    if s == "ijcai":
        edition = year - 1991 if year >= 2016 else (year - 1967) // 2
        return {"container": f"Proceedings of the {ordinal_words(edition)} International Joint Conference on "
                             f"Artificial Intelligence" + (f", IJCAI-{year % 100:02d}" if year >= 2016 else ""),
                "publisher": "International Joint Conferences on Artificial Intelligence Organization"
                if year >= 2017 else "AAAI Press"}
    if s == "kdd":
        return {"container": f"Proceedings of the {ordinal(year - 1994)} ACM SIGKDD International Conference on "
                             f"Knowledge Discovery and Data Mining" if year < 2021 else
                             f"Proceedings of the {ordinal(year - 1994)} ACM SIGKDD Conference on Knowledge Discovery "
                             f"and Data Mining", "publisher": "ACM" if year >= 1998 else "AAAI Press",
                "event": f"KDD '{year % 100:02d}"}
    if s == "aistats":
        title = f"Proceedings of the {ordinal(year - 1997)} International Conference on Artificial Intelligence " \
                f"and Statistics"
        return _pmlr(title, PMLR_VOLUMES["aistats"].get(year, ""), year)
    if s == "uai":
        title = f"Proceedings of the {ordinal_words(year - 1984)} Conference on Uncertainty in Artificial Intelligence"
        return _pmlr(title, PMLR_VOLUMES["uai"][year], year) if year >= 2019 else {
            "container": title, "publisher": "AUAI Press"}
    if s == "colt":
        title = f"Proceedings of the {ordinal_words(year - 1987)} Conference on Learning Theory"
        return _pmlr(title, PMLR_VOLUMES["colt"][year], year) if year >= 2011 else {
            "container": title, "publisher": "ACM" if year <= 2002 else "Springer" if year <= 2006 else "Omnipress"}
    if s == "corl":
        return _pmlr(f"Proceedings of the {ordinal(year - 2016)} Conference on Robot Learning",
                     PMLR_VOLUMES["corl"][year], year)
    if s == "rss":
        return {"container": f"Robotics: Science and Systems {roman(year - 2004)}",
                "event": f"Robotics: Science and Systems {year}"}
    if s == "icra":
        return {"container": f"{year} IEEE International Conference on Robotics and Automation (ICRA)",
                "publisher": "IEEE"}
    if s == "iros":
        return {"container": f"{year} IEEE/RSJ International Conference on Intelligent Robots and Systems (IROS)",
                "publisher": "IEEE"}
    if s == "icassp":
        return {"container": f"ICASSP {year} - {year} IEEE International Conference on Acoustics, Speech and Signal "
                             f"Processing (ICASSP)", "publisher": "IEEE"}
    if s == "interspeech":
        return {"container": f"Interspeech {year}", "publisher": "ISCA"}
    if s == "siggraph":
        if 2002 <= year <= 2021:
            return {"container": "ACM Transactions on Graphics", "volume": str(year - 1981), "publisher": "ACM",
                    "csl_type": "article-journal"}
        if year >= 2022:
            return {"container": f"Special Interest Group on Computer Graphics and Interactive Techniques Conference "
                                 f"Proceedings (SIGGRAPH '{year % 100:02d} Conference Proceedings)", "publisher": "ACM",
                    "event": f"SIGGRAPH '{year % 100:02d}"}
        return {"container": f"Proceedings of the {ordinal(year - 1973)} Annual Conference on Computer Graphics and "
                             f"Interactive Techniques", "publisher": "ACM"}
    raise KeyError(series)  # pragma: no cover


PMLR_VOLUMES = {
    "icml": {2013: 28, 2014: 32, 2015: 37, 2016: 48, 2017: 70, 2018: 80, 2019: 97, 2020: 119, 2021: 139, 2022: 162,
             2023: 202, 2024: 235, 2025: 267},
    "aistats": {1995: "r0", 1997: "r1", 1999: "r2", 2001: "r3", 2003: "r4", 2005: "r5", 2007: 2, 2009: 5, 2010: 9,
                2011: 15, 2012: 22, 2013: 31, 2014: 33, 2015: 38, 2016: 51, 2017: 54, 2018: 84, 2019: 89, 2020: 108,
                2021: 130, 2022: 151, 2023: 206, 2024: 238, 2025: 258},
    "uai": {2019: 115, 2020: 124, 2021: 161, 2022: 180, 2023: 216, 2024: 244, 2025: 286},
    "colt": {2011: 19, 2012: 23, 2013: 30, 2014: 35, 2015: 40, 2016: 49, 2017: 65, 2018: 75, 2019: 99, 2020: 125,
             2021: 134, 2022: 178, 2023: 195, 2024: 247, 2025: 291},
    "corl": {2017: 78, 2018: 87, 2019: 100, 2020: 155, 2021: 164, 2022: 205, 2023: 229, 2024: 270, 2025: 305},
}


def _venue(series: Series, year: int) -> VenueYear:
    names = proceedings(series.key, year)
    return VenueYear(series.key, year, "main", series.field, f"{series.short} {year}", names["container"],
                     names.get("event"), names.get("collection"), names.get("volume"), names.get("publisher"),
                     names.get("csl_type", "paper-conference"), size=series.size(year))


def candidates(rng: random.Random) -> list[VenueYear]:
    """Every conference-year, Findings volume and (some) workshop an archive may hold."""
    found: list[VenueYear] = []
    for series in SERIES:
        found += [_venue(series, y) for y in series.years if FIRST_YEAR <= y <= LAST_YEAR]
    for key, years in FINDINGS.items():
        short = BY_KEY[key].short
        sizes = Series(key, short, "language", years, FINDINGS_SIZES[key])
        for year in years:
            found.append(VenueYear(key, year, "findings", "language", f"Findings of {short} {year}",
                                   f"Findings of the Association for Computational Linguistics: {short} {year}",
                                   publisher="Association for Computational Linguistics", size=sizes.size(year)))
    for key, years in WORKSHOP_YEARS.items():
        short = BY_KEY[key].short
        for year in years:
            for title, acronym, field in rng.sample(WORKSHOPS, WORKSHOPS_PER_YEAR):
                name = f"{short} {year} Workshop on {title}"
                found.append(VenueYear(key, year, "workshop", field, name, name, acronym=acronym,
                                       size=float(rng.randint(25, 110))))
    for year in _years(2013, 2025):
        name = "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR) Workshops"
        found.append(VenueYear("cvpr", year, "workshop", "vision", f"CVPR {year} Workshops",
                               name if year >= 2019 else name.replace("IEEE/CVF", "IEEE"), publisher="IEEE",
                               acronym="W", size=BY_KEY["cvpr"].size(year) * 0.3))
    return found


def venue_count(n: int) -> int:
    return max(1, min(n, max(2, round(VENUES_AT_100K * (n / 100_000) ** 0.6))))


def select(n: int, rng: random.Random) -> list[tuple[VenueYear, int]]:
    """The archive's venue-years (oldest first) and how many of the ``n`` papers each holds."""
    pool = candidates(rng)
    count = min(len(pool), venue_count(n))
    keyed = []
    for venue in pool:
        weight = BY_KEY[venue.series].weight * venue.size ** 0.7 * (0.5 if venue.kind == "workshop" else 1.0)
        keyed.append((rng.random() ** (1.0 / weight), venue))  # weighted sampling without replacement
    keyed.sort(key=lambda kv: -kv[0])
    mains = {(v.series, v.year): v for v in pool if v.kind == "main"}
    chosen: list[VenueYear] = []
    taken: set[VenueYear] = set()
    for _, venue in keyed:  # a workshop comes with its conference (an archive of one holds the other)
        if len(chosen) >= count:
            break
        if venue in taken:
            continue
        parent = mains.get((venue.series, venue.year)) if venue.kind == "workshop" else None
        if parent is not None and parent not in taken:
            if len(chosen) + 2 > count:
                continue
            chosen.append(parent)
            taken.add(parent)
        chosen.append(venue)
        taken.add(venue)
    chosen.sort(key=lambda v: (v.year, v.series, v.kind, v.name))
    total = sum(v.size for v in chosen)
    exact = [max(0.0, (n - len(chosen)) * v.size / total) for v in chosen]
    counts = [1 + int(x) for x in exact]
    left = n - sum(counts)
    for i in sorted(range(len(chosen)), key=lambda i: -(exact[i] - int(exact[i])))[:left]:
        counts[i] += 1
    return list(zip(chosen, counts))

# The month each series meets (the ``issued`` month of its records).
MONTHS = {"neurips": 12, "icml": 7, "iclr": 5, "cvpr": 6, "iccv": 10, "eccv": 9, "wacv": 1, "acl": 7, "emnlp": 11,
          "naacl": 6, "aaai": 2, "ijcai": 8, "kdd": 8, "aistats": 4, "uai": 7, "colt": 7, "corl": 11, "rss": 7,
          "icra": 5, "iros": 10, "siggraph": 8, "interspeech": 9, "icassp": 4}
