"""Landing pages, DOIs and preprints of synthetic papers, on the real hosts in their real shapes.

``LinkMaker.links(venue, number, family, title)`` gives a paper's ``Links``: the landing
page and DOI its venue's publisher has for that year, e.g.

* PMLR: ``https://proceedings.mlr.press/v48/smith16.html``; from v70 ``…/v97/smith19a.html``
  (ICML 2013+, AISTATS incl. the reissued ``r0``–``r5``, COLT 2011+, UAI 2019+, CoRL);
* CVF Open Access: ``https://openaccess.thecvf.com/content_cvpr_2016/html/He_Deep_…_CVPR_2016_paper.html``,
  ``content_CVPR_2019/…``, from 2021 ``content/CVPR2021/html/…`` (CVPR/ICCV 2013+, WACV 2020+,
  ECCV 2018, the CVPR workshops);
* NeurIPS: ``https://proceedings.neurips.cc/paper/2019/hash/<32 hex>-Abstract.html``, from
  2022 ``…/paper_files/paper/2022/hash/<hex>-Abstract-Conference.html``;
* ACL Anthology: ``https://aclanthology.org/P19-1001/`` (old ids: P = ACL, D = EMNLP,
  N = NAACL), from 2020 ``https://aclanthology.org/2022.acl-long.1/``, Findings
  ``2023.findings-emnlp.12``; DOIs ``10.18653/v1/…`` (``10.3115/v1/…`` in 2014–2015); a
  few old records on ``www.aclweb.org/anthology/…``;
* OpenReview ``https://openreview.net/forum?id=<id>`` (ICLR 2017+, NeurIPS 2025, workshops);
* IJCAI ``https://www.ijcai.org/proceedings/2022/530`` + DOI ``10.24963/ijcai.2022/530``
  (older ``…/Proceedings/15/Papers/123.pdf``); RSS ``https://www.roboticsproceedings.org/rss15/p01.html``;
* IEEE Xplore ``https://ieeexplore.ieee.org/document/8793123`` + DOI
  ``10.1109/ICRA.2019.8793123`` (ICRA, IROS, ICASSP, CVPR/ICCV/WACV before CVF);
* AAAI: ``https://ojs.aaai.org/index.php/AAAI/article/view/<n>`` (2019+, DOI
  ``10.1609/aaai.v38i16.29721``), the OCS (2008–2018) and library (before) pages;
* ACM DL DOIs ``https://doi.org/10.1145/3292500.3330701`` (KDD, SIGGRAPH/TOG, ICML 2004–2009);
  Springer ``10.1007/978-3-030-58452-8_1`` (ECCV); ISCA archive + ``10.21437/Interspeech.2019-1234``;
* arXiv ``https://arxiv.org/abs/1906.01234`` (old UAI papers, ICLR 2013–2016), ids by
  year (``cs/9901001``, ``0704.0001``, ``1412.1234``, ``1906.01234``).

Besides the landing page a paper may have an arXiv preprint (more often in later years), an
OpenReview forum and code on GitHub. Everything is deterministic for the maker's ``rng``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass

from generator.content.words import ascii_fold

from .venues import MONTHS, PMLR_VOLUMES, VenueYear, roman

_OPENREVIEW_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_IEEE_DOC = ((1995, 525_000), (2000, 844_000), (2005, 1_570_000), (2010, 5_509_000), (2015, 7_139_000),
             (2019, 8_793_000), (2020, 9_196_000), (2022, 9_811_000), (2024, 10_610_000), (2025, 11_000_000))
_IEEE_CODES = {  # DOI codes of IEEE conferences that number their editions (…/ICRA40945.2020.9196642)
    "icra": {2020: "ICRA40945", 2021: "ICRA48506", 2022: "ICRA46639", 2023: "ICRA48891", 2024: "ICRA57147",
             2025: "ICRA55743"},
    "iros": {2019: "IROS40897", 2020: "IROS45743", 2021: "IROS51168", 2022: "IROS47612", 2023: "IROS55552",
             2024: "IROS58592", 2025: "IROS60139"},
    "icassp": {2020: "ICASSP40776", 2021: "ICASSP39728", 2022: "ICASSP43922", 2023: "ICASSP49357",
               2024: "ICASSP48485", 2025: "ICASSP49660"},
}
_ACM_PROCEEDINGS = {  # ACM DL proceedings ids (the first half of a paper's DOI)
    ("kdd", 2014): 2623330, ("kdd", 2015): 2783258, ("kdd", 2016): 2939672, ("kdd", 2017): 3097983,
    ("kdd", 2018): 3219819, ("kdd", 2019): 3292500, ("kdd", 2020): 3394486, ("kdd", 2021): 3447548,
    ("kdd", 2022): 3534678, ("kdd", 2023): 3580305, ("kdd", 2024): 3637528, ("kdd", 2025): 3711896,
    ("icml", 2004): 1015330, ("icml", 2005): 1102351, ("icml", 2006): 1143844, ("icml", 2007): 1273496,
    ("icml", 2008): 1390156, ("icml", 2009): 1553374, ("siggraph", 2022): 3528233, ("siggraph", 2023): 3588432,
    ("siggraph", 2024): 3641519, ("siggraph", 2025): 3721238, ("siggraph", 2019): 3306346,
}
_AAAI_OJS = {2019: 3800, 2020: 5200, 2021: 16_000, 2022: 19_800, 2023: 25_000, 2024: 27_700, 2025: 32_000,
             2026: 36_000}
_ACL_LETTER = {"acl": "P", "emnlp": "D", "naacl": "N"}
_ARXIV_MONTHLY = ((2007, 4_500), (2010, 6_000), (2014, 8_500), (2015, 9_000), (2018, 12_500), (2020, 16_000),
                  (2023, 20_000), (2025, 24_000))  # submissions a month


@dataclass(frozen=True)
class Links:
    url: str | None = None  # the landing page (CSL ``URL``, BibTeX ``url``)
    doi: str | None = None
    arxiv: str | None = None  # the preprint's arXiv id
    openreview: str | None = None  # an OpenReview forum id, where the venue is there
    code: str | None = None


def _interpolate(points: tuple[tuple[int, int], ...], year: int) -> int:
    if year <= points[0][0]:
        return points[0][1]
    for (y0, v0), (y1, v1) in zip(points, points[1:]):
        if year <= y1:
            return int(v0 + (v1 - v0) * (year - y0) / (y1 - y0))
    return points[-1][1]


def file_words(text: str) -> str:
    """A title or name as CVF writes it in file names: ASCII words joined by underscores."""
    text = re.sub(r"\$[^$]*\$", " ", ascii_fold(text))
    return "_".join(re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*", text))


def id_base(family: str) -> str:
    """A family name as PMLR and ISCA ids use it: ``Müller-Lee`` -> ``mullerlee``."""
    return re.sub(r"[^a-z]", "", ascii_fold(family).lower()) or "anon"


class LinkMaker:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.numbers: Counter[str] = Counter()  # papers so far per venue: their number in it
        self.ids: Counter[tuple[str, str]] = Counter()  # PMLR/ISCA id bases used per venue
        self.used: set[str] = set()

    def _unique(self, make) -> str:
        while True:
            value = make()
            if value not in self.used:
                self.used.add(value)
                return value

    def arxiv_id(self, year: int, month: int = 12) -> str:
        """A new arXiv id of a preprint of a paper of ``year`` (its conference in ``month``): posted
        in the months before (a third in the year before), a few after; numbered within that
        month's submissions (about 9,000 a month in 2015, 24,000 in 2025)."""
        rng = self.rng
        if rng.random() < 0.35:
            posted, month = max(1995, year - 1), rng.randint(1, 12)
        else:
            posted, month = year, rng.randint(1, min(12, month + (2 if rng.random() < 0.2 else 0)))
        if posted < 2007 or (posted == 2007 and month < 4):
            return self._unique(lambda: f"cs/{posted % 100:02d}{month:02d}{rng.randint(1, 999):03d}")
        digits = 5 if posted >= 2015 else 4
        monthly = min(10 ** digits - 1, _interpolate(_ARXIV_MONTHLY, posted))
        return self._unique(lambda: f"{posted % 100:02d}{month:02d}.{rng.randint(1, monthly):0{digits}d}")

    def openreview_id(self, year: int) -> str:
        rng = self.rng
        length = 9 if year <= 2018 else 10
        return self._unique(lambda: "".join(rng.choice(_OPENREVIEW_CHARS) for _ in range(length)))

    def _hex(self) -> str:
        return self._unique(lambda: f"{self.rng.getrandbits(128):032x}")

    # ----------------------------------------------------------------------- hosts

    def _pmlr(self, venue: VenueYear, family: str, given: str) -> str:
        volume = PMLR_VOLUMES[venue.series][venue.year]
        base = id_base(family)
        key = (venue.slug, base)
        self.ids[key] += 1
        seen = self.ids[key]
        yy = f"{venue.year % 100:02d}"
        if isinstance(volume, int) and volume >= 70:
            ident = f"{base}{yy}{chr(ord('a') + min(seen - 1, 25))}"
        elif seen == 1:
            ident = f"{base}{yy}"
        else:  # before v70 a second author of that name took their initial: wangf16
            initial = (id_base(given)[:1] or "x")
            ident = f"{base}{initial}{yy}" + ("" if seen == 2 else chr(ord("a") + seen - 3))
        prefix = volume if isinstance(volume, str) else f"v{volume}"
        return f"https://proceedings.mlr.press/{prefix}/{ident}.html"

    def _cvf(self, venue: VenueYear, family: str, title: str) -> str:
        conf, year = venue.short, venue.year
        stem = f"{file_words(family) or 'Anon'}_{file_words(title)}"
        if venue.kind == "workshop":
            if year <= 2018:
                folder = f"content_cvpr_{year}_workshops/w{self.rng.randint(1, 40)}"
                return f"https://openaccess.thecvf.com/{folder}/html/{stem}_CVPR_{year}_paper.html"
            folder = f"content_CVPRW_{year}" if year <= 2020 else f"content/CVPR{year}W/{self._workshop_folder()}"
            return f"https://openaccess.thecvf.com/{folder}/html/{stem}_CVPRW_{year}_paper.html"
        if year <= 2018 and conf != "WACV" and conf != "ECCV":
            folder = f"content_{conf.lower()}_{year}"
        elif year <= 2020:
            folder = f"content_{conf}_{year}"
        else:
            folder = f"content/{conf}{year}"
        return f"https://openaccess.thecvf.com/{folder}/html/{stem}_{conf}_{year}_paper.html"

    def _workshop_folder(self) -> str:
        return self.rng.choice(("CVPRW", "LXCV", "EarthVision", "NTIRE", "AICity", "WAD", "CLVision", "MULA",
                                "ABAW", "FGVC"))

    def _ieee(self, venue: VenueYear, number: int) -> tuple[str, str]:
        series, year = venue.series, venue.year
        doc = _interpolate(_IEEE_DOC, year) + (hash_series(series) % 40) * 2_000 + number * 3 \
            + self.rng.randint(0, 2)
        code = _IEEE_CODES.get(series, {}).get(year)
        if code is None:
            code = {"icra": "ROBOT" if year <= 2010 else "ICRA", "iros": "IROS", "icassp": "ICASSP",
                    "cvpr": "CVPR", "iccv": "ICCV", "wacv": "WACV"}[series]
        url = f"https://ieeexplore.ieee.org/document/{doc}"
        if self.rng.random() < 0.1:
            url = f"https://ieeexplore.ieee.org/abstract/document/{doc}/"  # as Zotero saves some
        return url, f"10.1109/{code}.{year}.{doc}"

    def _acl(self, venue: VenueYear, number: int) -> tuple[str, str | None]:
        year, series = venue.year, venue.series
        if venue.kind == "findings":
            ident = f"{year}.findings-{series}.{number}"
        elif year >= 2020:
            volume = {"acl": "acl-main" if year == 2020 else "acl-long", "emnlp": "emnlp-main",
                      "naacl": "naacl-main" if year <= 2022 else "naacl-long"}[series]
            if volume.endswith("-long") and self.rng.random() < 0.2:
                volume = volume.replace("-long", "-short")
            ident = f"{year}.{volume}.{number}"
        else:
            letter = _ACL_LETTER[series] if year >= 2000 or series == "acl" else "W"
            short = self.rng.random() < 0.2 and series != "emnlp"
            ident = f"{letter}{year % 100:02d}-{2 if short else 1}{number:03d}" if number < 1000 else \
                f"{letter}{year % 100:02d}-{number + 1000}"
        url = f"https://aclanthology.org/{ident}/"
        if year < 2020 and self.rng.random() < 0.15:
            url = f"https://www.aclweb.org/anthology/{ident}"  # the Anthology's old address
        doi = f"10.18653/v1/{ident}" if year >= 2016 else f"10.3115/v1/{ident}" if year >= 2014 else None
        return url, doi

    def _acm(self, venue: VenueYear, number: int) -> str:
        proceedings = _ACM_PROCEEDINGS.get((venue.series, venue.year))
        if proceedings is None:
            proceedings = 1_000_000 + (venue.year - 1995) * 100_000 + hash_series(venue.series) % 50_000
        if proceedings < 3_000_000:
            paper = proceedings + number * 2 + self.rng.randint(0, 1)
        else:
            paper = proceedings + 30_000 + number * 7 + self.rng.randint(0, 6)
        return f"10.1145/{proceedings}.{paper}"

    def landing(self, venue: VenueYear, number: int, family: str, given: str, title: str
                ) -> tuple[str | None, str | None, str | None]:
        """(landing URL, DOI, OpenReview forum id) of the ``number``-th paper of ``venue``."""
        s, year, rng = venue.series, venue.year, self.rng
        if venue.kind == "workshop" and s != "cvpr":
            forum = self.openreview_id(year)
            return f"https://openreview.net/forum?id={forum}", None, forum
        if venue.kind == "workshop" or (s in ("cvpr", "iccv") and year >= 2013) or (s == "wacv" and year >= 2020) \
                or (s == "eccv" and year == 2018):
            url = self._cvf(venue, family, title)
            if s == "eccv":
                return url, self._springer(venue, number), None
            return url, None, None
        if s in ("cvpr", "iccv", "wacv", "icra", "iros", "icassp"):
            url, doi = self._ieee(venue, number)
            return url, doi, None
        if s == "neurips":
            if year >= 2025:
                forum = self.openreview_id(year)
                return f"https://openreview.net/forum?id={forum}", None, forum
            shape = "paper_files/paper/{y}/hash/{h}-Abstract-Conference.html" if year >= 2022 \
                else "paper/{y}/hash/{h}-Abstract.html"
            return "https://proceedings.neurips.cc/" + shape.format(y=year, h=self._hex()), None, None
        if s == "iclr":
            if year <= 2016:
                return f"https://arxiv.org/abs/{self.arxiv_id(year, 5)}", None, None
            forum = self.openreview_id(year)
            return f"https://openreview.net/forum?id={forum}", None, forum
        if s in ("icml", "aistats", "colt", "uai", "corl") and year in PMLR_VOLUMES[s]:
            return self._pmlr(venue, family, given), None, None
        if s == "icml":
            if 2004 <= year <= 2009:
                doi = self._acm(venue, number)
                return f"https://dl.acm.org/doi/{doi}", doi, None
            if year == 2011:
                return f"http://www.icml-2011.org/papers/{number}_icmlpaper.pdf", None, None
            if year >= 2010:
                path = "2012/papers" if year == 2012 else "Conferences/2010/papers"
                return f"https://icml.cc/{path}/{number}.pdf", None, None
            return None, None, None
        if s == "uai":
            if year >= 2014:
                return f"https://www.auai.org/uai{year}/proceedings/papers/{number}.pdf", None, None
            reissued = self._unique(lambda: f"13{rng.randint(1, 4):02d}.{rng.randint(1, 7_000):04d}")
            return f"https://arxiv.org/abs/{reissued}", None, None  # UAI's old papers, put on arXiv in 2013
        if s == "colt":
            if year <= 2002:
                doi = self._acm(venue, number)
                return f"https://dl.acm.org/doi/{doi}", doi, None
            if year <= 2006:
                return None, self._springer(venue, number), None
            return None, None, None
        if s in ("acl", "emnlp", "naacl"):
            url, doi = self._acl(venue, number)
            return url, doi, None
        if s == "eccv":
            doi = self._springer(venue, number)
            if year >= 2020:
                return f"https://www.ecva.net/papers/eccv_{year}/papers_ECCV/html/{number}_ECCV_{year}_paper.php", \
                    doi, None
            return f"https://link.springer.com/chapter/{doi}", doi, None
        if s == "ijcai":
            if year >= 2017:
                return f"https://www.ijcai.org/proceedings/{year}/{number}", f"10.24963/ijcai.{year}/{number}", None
            return f"https://www.ijcai.org/Proceedings/{year % 100:02d}/Papers/{number:03d}.pdf", None, None
        if s == "rss":
            url = f"https://www.roboticsproceedings.org/rss{year - 2004:02d}/p{number:02d}.html"
            doi = f"10.15607/RSS.{year}.{roman(year - 2004)}.{number:03d}" if year >= 2015 else None
            return url, doi, None
        if s == "aaai":
            if year >= 2019:
                ident = _AAAI_OJS[year] + number + rng.randint(0, 1) * 0
                vol = year - 1986
                issue = 1 + (number * 16) // 2500
                doi = f"10.1609/aaai.v33i01.3301{number * 8 + 1:04d}" if year == 2019 else \
                    f"10.1609/aaai.v{vol}i{issue:02d}.{ident}"
                return f"https://ojs.aaai.org/index.php/AAAI/article/view/{ident}", doi, None
            if year >= 2008:
                return f"https://www.aaai.org/ocs/index.php/AAAI/AAAI{year % 100:02d}/paper/view/{number + 1000}", \
                    None, None
            return f"https://www.aaai.org/Library/AAAI/{year}/aaai{year % 100:02d}-{number:03d}.php", None, None
        if s == "kdd":
            if year <= 1997:
                return f"https://www.aaai.org/Library/KDD/{year}/kdd{year % 100:02d}-{number:03d}.php", None, None
            doi = self._acm(venue, number)
            return f"https://dl.acm.org/doi/{doi}", doi, None
        if s == "siggraph":
            doi = self._acm(venue, number)
            return f"https://dl.acm.org/doi/{doi}", doi, None
        if s == "interspeech":
            base = id_base(family)
            self.ids[(venue.slug, base)] += 1
            seen = self.ids[(venue.slug, base)]
            suffix = "" if seen == 1 else chr(ord("a") + seen - 1)
            url = f"https://www.isca-archive.org/interspeech_{year}/{base}{year % 100:02d}{suffix}_interspeech.html"
            doi = f"10.21437/Interspeech.{year}-{number + rng.randint(0, 3) * 0}" if year >= 2016 else None
            return url, doi, None
        return None, None, None

    def _springer(self, venue: VenueYear, number: int) -> str:
        volume = 58_000 + (venue.year - 2000) * 1_700 + (number // 45) * 13 if venue.year >= 2000 \
            else 3_540_000 + venue.year * 7
        return f"10.1007/978-3-{'030' if venue.year >= 2018 else '540' if venue.year < 2010 else '319'}-" \
               f"{volume % 100_000:05d}-{volume % 10}_{number % 45 + 1}"

    def links(self, venue: VenueYear, family: str, given: str, title: str) -> Links:
        """A paper's links (its number in the venue is counted here)."""
        self.numbers[venue.slug] += 1
        number = self.numbers[venue.slug]
        url, doi, forum = self.landing(venue, number, family, given, title)
        rng, year = self.rng, venue.year
        preprint = 0.65 if year >= 2018 else 0.4 if year >= 2012 else 0.15 if year >= 2007 else 0.05
        arxiv = url.rsplit("/", 1)[1] if url and url.startswith("https://arxiv.org/abs/") else \
            self.arxiv_id(year, MONTHS.get(venue.series, 6)) if rng.random() < preprint else None
        code_share = 0.35 if year >= 2018 else 0.15 if year >= 2012 else 0.02
        code = f"https://github.com/{id_base(family)}{rng.randint(1, 99)}/{file_words(title).split('_')[0].lower()}" \
            if rng.random() < code_share else None
        return Links(url, doi, arxiv, forum, code)


def hash_series(series: str) -> int:
    """A stable small number per series (``hash()`` of a str varies between processes)."""
    return sum(ord(c) * 31 ** i for i, c in enumerate(series)) % 1_000_003
