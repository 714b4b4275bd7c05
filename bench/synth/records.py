"""The archive's records in the forms the importers read, as real sources write them.

One file per conference-year (``<venue slug>.<ext>``; split into pages where the real
service pages its answers), each record as the archive's ``Paper`` has it (its defects
included), written with the form's own random stream:

* ``csl``: CSL-JSON as Zotero exports it (a list of items, tab-indented): ``id``,
  ``type`` (``paper-conference``; ``chapter`` for LNCS, ``article-journal`` for TOG),
  ``title``, ``author`` (``{given, family}`` or ``{literal}``), ``container-title``,
  ``event-title`` / ``collection-title`` / ``volume`` / ``publisher`` where the venue has
  them, ``issued`` (``date-parts``), ``URL``, ``DOI``, ``abstract`` (some Crossref-sourced
  abstracts in JATS ``<jats:p>``), ``genre`` (oral/spotlight/poster where known).
* ``bibtex``: ``@inproceedings`` (``@article`` in a journal) with ``title``, ``author``
  ("Given Family and …", as the record lists them), ``booktitle``/``journal``, ``year``,
  ``series``, ``volume``, ``publisher``, ``url``, ``doi``, ``eprint``/``archiveprefix``,
  ``abstract``; ``%``, ``&``, ``#``, ``_`` escaped outside math.
* ``openreview``: API v2 notes (every content value wrapped in ``{"value": …}``) in
  ``{"notes": [...], "count": N}`` pages of at most 1,000 notes (``count`` is the query's
  total, as the API answers). Venues on OpenReview (ICLR 2017+, NeurIPS 2021+, ICML 2023+,
  CoRL 2021+, workshops) have their groups (``ICLR.cc/2024/Conference``, venue strings
  such as "ICLR 2024 poster"); the others are written as OpenReview's DBLP imports
  (``venueid`` ``dblp.org/conf/CVPR/2019``, ``venue`` "CVPR 2019", ``html`` the landing page).
* ``arxiv``: arXiv API Atom feeds of at most 2,000 entries: ``id`` (``…/abs/<id>v<k>``; papers
  without a preprint get an id of their year), ``published``/``updated``, ``title`` and
  ``summary`` wrapped as arXiv wraps them, ``author/name``, ``arxiv:doi``, an
  ``arxiv:journal_ref`` ("CVPR 2019", the proceedings' name and pages…) or an
  ``arxiv:comment`` ("Accepted at ICLR 2024 (oral)"), or neither (``arxiv_no_venue``),
  categories by field.
"""

from __future__ import annotations

import datetime
import json
import random
import re
import textwrap
from pathlib import Path
from typing import Iterator
from xml.sax.saxutils import escape, quoteattr

from . import fields as synth_fields
from .archive import Archive, Paper
from .links import LinkMaker, id_base
from .mess import full
from .venues import MONTHS, VenueYear

FORMS = ("csl", "bibtex", "openreview", "arxiv")
EXTENSIONS = {"csl": "json", "bibtex": "bib", "openreview": "json", "arxiv": "xml"}
OPENREVIEW_PAGE = 1000
ARXIV_PAGE = 2000
ARXIV_NO_VENUE = 0.15  # arXiv entries that name no venue (neither journal_ref nor comment)
CROSSREF_PREFIXES = ("10.1145/", "10.1007/", "10.1109/")


def _rng(archive: Archive, form: str) -> random.Random:
    return random.Random(f"papershelf-synth:{archive.seed}:{archive.n}:records:{form}")


def records_of(archive: Archive, content: bool = False) -> Iterator[tuple[VenueYear, list[Paper]]]:
    """Each venue's papers as records: a duplicated record twice; with ``content``, the records
    a content folder is made from today (no duplicates, no copied abstracts)."""
    papers = archive.papers
    start = 0
    while start < len(papers):
        venue = papers[start].venue
        end = start
        while end < len(papers) and papers[end].venue == venue:
            end += 1
        chosen: list[Paper] = []
        for paper in papers[start:end]:
            if content:
                chosen.append(paper.original or paper)
            else:
                chosen.append(paper)
                if paper.duplicate:
                    chosen.append(paper)
        yield venue, chosen
        start = end


_MATH = re.compile(r"(\$[^$]*\$)")
_COMMAND = re.compile(r"\\(?:url|emph|textbf|textit|texttt)\{([^{}]*)\}")
_CITE = re.compile(r"\\cite[pt]?\{([^{}]*)\}")
_MD_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")
_MD_STAR = re.compile(r"(?<![\w*\\])\*([^*\n]+?)\*(?![\w*])")
_MD_UNDERSCORE = re.compile(r"(?<![\w\\])_([^_\n]+?)_(?!\w)")
_MARKUP = re.compile(r"[\\*_\[]")
_ESCAPED = re.compile(r"\\([%&#_$])")
_BIB_SPECIAL = re.compile(r"(?<!\\)([%&#_])")
_URL = re.compile(r"\\url\{([^{}]*)\}")


def _outside_math(text: str, change) -> str:
    parts = _MATH.split(text)
    return "".join(part if i % 2 else change(part) for i, part in enumerate(parts))


def plain_text(text: str) -> str:
    """Content text (Markdown and LaTeX, as the seeds write it) as a CSL record's plain text:
    ``\\url{x}``, ``\\emph{x}``, ``*x*`` -> x, ``[t](u)`` -> "t (u)", ``\\%`` -> %; ``$…$`` math kept."""
    if not _MARKUP.search(text):
        return text
    def change(part: str) -> str:
        part = _MD_LINK.sub(r"\1 (\2)", _CITE.sub(r"[\1]", _COMMAND.sub(r"\1", part)))
        return _ESCAPED.sub(r"\1", _MD_UNDERSCORE.sub(r"\1", _MD_STAR.sub(r"\1", part)))
    return _outside_math(text, change)


def latex_text(text: str) -> str:
    """Content text as BibTeX and arXiv write it: Markdown emphasis and links as LaTeX, and
    ``%``, ``&``, ``#``, ``_`` escaped outside ``$…$`` math."""
    def change(part: str) -> str:
        part = _MD_LINK.sub(r"\1 (\\url{\2})", part)
        part = _MD_UNDERSCORE.sub(r"\\emph{\1}", _MD_STAR.sub(r"\\emph{\1}", part))
        part = _BIB_SPECIAL.sub(r"\\\1", part)
        return _URL.sub(lambda m: "\\url{" + _ESCAPED.sub(r"\1", m.group(1)) + "}", part)  # URLs as typed
    return _outside_math(text, change)


def item_id(paper: Paper, copy: int = 0) -> str:
    """A Zotero-like item id, unique per record (a duplicated record's copy has its own)."""
    x = (paper.index * 2654435761 + copy * 40503 + 12345) % 32 ** 8
    letters = "".join("23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"[(x >> (5 * i)) % 32] for i in range(8))
    return f"http://zotero.org/users/local/sYnTh3t1/items/{letters}"


# --------------------------------------------------------------------------- CSL-JSON


def csl_item(paper: Paper, rng: random.Random, copy: int = 0, jats_rate: float = 0.0) -> dict:
    venue = paper.venue
    item: dict = {"id": item_id(paper, copy), "type": venue.csl_type, "title": plain_text(paper.title),
                  "author": [{"literal": lit} if lit else {"given": given, "family": family}
                             for given, family, lit in paper.entries],
                  "container-title": venue.container}
    if venue.event:
        item["event-title"] = venue.event
    if venue.collection:
        item["collection-title"] = venue.collection
    if venue.volume:
        item["volume"] = venue.volume
    if venue.publisher:
        item["publisher"] = venue.publisher
    item["issued"] = {"date-parts": [[venue.year, MONTHS.get(venue.series, 6)]]}
    if paper.links.url:
        item["URL"] = paper.links.url
    if paper.links.doi:
        item["DOI"] = paper.links.doi
    if paper.abstract:
        abstract = plain_text(paper.abstract)
        if paper.links.doi and paper.links.doi.startswith(CROSSREF_PREFIXES) and rng.random() < jats_rate:
            abstract = f"<jats:p>{escape(abstract)}</jats:p>"
        item["abstract"] = abstract
    if paper.presentation:
        item["genre"] = paper.presentation
    item["language"] = "en"
    return item


def write_csl(archive: Archive, folder: Path, content: bool = False) -> list[Path]:
    rng = _rng(archive, "csl")
    jats = archive.params.mess.jats_abstract
    files = []
    for venue, papers in records_of(archive, content):
        items, seen = [], set()
        for paper in papers:
            items.append(csl_item(paper, rng, copy=int(paper.index in seen), jats_rate=jats))
            seen.add(paper.index)
        path = folder / f"{venue.slug}.json"
        path.write_text(json.dumps(items, ensure_ascii=False, indent="\t") + "\n", encoding="utf-8")
        files.append(path)
    return files


# --------------------------------------------------------------------------- BibTeX

def bib_entry(paper: Paper, key: str) -> str:
    venue = paper.venue
    journal = venue.csl_type == "article-journal"
    fields = [("title", latex_text(paper.title)),
              ("author", " and ".join(full(e) for e in paper.entries)),
              ("journal" if journal else "booktitle", latex_text(venue.container)),
              ("year", str(venue.year))]
    if venue.collection:
        fields.append(("series", venue.collection))
    if venue.volume:
        fields.append(("volume", venue.volume))
    if venue.publisher:
        fields.append(("publisher", latex_text(venue.publisher)))
    if paper.links.url:
        fields.append(("url", paper.links.url))
    if paper.links.doi:
        fields.append(("doi", paper.links.doi))
    if paper.links.arxiv:
        fields += [("eprint", paper.links.arxiv), ("archiveprefix", "arXiv")]
    if paper.abstract:
        fields.append(("abstract", latex_text(paper.abstract)))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{'article' if journal else 'inproceedings'}{{{key},\n{body}\n}}\n"


def write_bibtex(archive: Archive, folder: Path, content: bool = False) -> list[Path]:
    files = []
    for venue, papers in records_of(archive, content):
        used: dict[str, int] = {}
        entries = []
        for paper in papers:
            _, family, literal = paper.entries[0] if paper.entries else ("", "", "")
            family = family or (literal.split(",")[0].split() or ["anon"])[-1]
            word = next((w for w in re.findall(r"[A-Za-z]+", paper.title) if len(w) > 3), "paper").lower()
            base = f"{id_base(family)}{venue.year}{word}"
            used[base] = used.get(base, 0) + 1
            key = base if used[base] == 1 else f"{base}{chr(ord('a') + used[base] - 2)}"
            entries.append(bib_entry(paper, key))
        path = folder / f"{venue.slug}.bib"
        path.write_text("\n".join(entries), encoding="utf-8")
        files.append(path)
    return files


def _write_pages(path: Path, items: list, size: int, render) -> list[Path]:
    """``items`` in pages of at most ``size`` as a service answers: one file ``path``, or
    ``<stem>-<offset>.<ext>`` per page; ``render(page, offset)`` makes a page's text."""
    pages = [items[i:i + size] for i in range(0, len(items), size)] or [[]]
    files = []
    for k, page in enumerate(pages):
        target = path if len(pages) == 1 else path.with_name(f"{path.stem}-{k * size:05d}{path.suffix}")
        target.write_text(render(page, k * size), encoding="utf-8")
        files.append(target)
    return files


# --------------------------------------------------------------------------- OpenReview


def _ms(year: int, month: int, day: int, rng: random.Random) -> int:
    moment = datetime.datetime(year, month, day, tzinfo=datetime.timezone.utc)
    return int(moment.timestamp() * 1000) + rng.randint(0, 86_399_999)


def on_openreview(venue: VenueYear) -> bool:
    s, year = venue.series, venue.year
    return (venue.kind == "workshop" and s != "cvpr") or venue.kind == "main" and (
        (s == "iclr" and year >= 2017) or (s == "neurips" and year >= 2021) or (s == "icml" and year >= 2023)
        or (s == "corl" and year >= 2021))


def _venue_string(venue: VenueYear, presentation: str | None, rng: random.Random) -> tuple[str, str]:
    """(venue, venueid) of an accepted note."""
    short, year = venue.short, venue.year
    if venue.kind == "workshop" and venue.series != "cvpr":
        group = f"{short}.cc/{year}/Workshop/{venue.acronym}"
        return f"{short} {year} Workshop {venue.acronym}" + rng.choice((" Poster", " Oral", "")), group
    if on_openreview(venue):
        group = f"{'robot-learning.org' if short == 'CoRL' else short + '.cc'}/{year}/Conference"
        word = presentation or "poster"
        if short in ("ICML", "CoRL"):
            word = word.capitalize()
        return f"{short} {year} {word}", group
    shown = f"{short} (Findings) {year}" if venue.kind == "findings" else \
        f"{short} Workshops {year}" if venue.kind == "workshop" else f"{short} {year}"
    return shown, f"dblp.org/conf/{short.upper()}/{year}"


_PROFILE_SEPARATORS = re.compile(r"[^\w-]+")  # an OpenReview profile id: "~Søren_Dijkstra1"
FIELD_KEYWORDS = {"ml": "machine learning", "theory": "learning theory", "vision": "computer vision",
                  "language": "natural language processing", "speech": "speech processing", "robotics": "robotics",
                  "graphics": "computer graphics", "data": "data mining", "ai": "artificial intelligence"}


def keywords(paper: Paper, rng: random.Random) -> list[str]:
    """Free-text keywords as authors give them: the title's topic words, and the field."""
    topic = re.split(r": | (?:for|with|via|in|on|under|from|by|through|without|beyond) ", paper.title)
    words = [t.strip().lower() for t in topic if t.strip() and "$" not in t][:2]
    return list(dict.fromkeys(words + [FIELD_KEYWORDS.get(paper.field, "machine learning")]))[:rng.randint(1, 3)]


def openreview_note(paper: Paper, forum: str, number: int, rng: random.Random) -> dict:
    venue = paper.venue
    names = [full(e) for e in paper.entries]
    shown, venueid = _venue_string(venue, paper.presentation, rng)
    native = on_openreview(venue)
    content: dict = {"title": {"value": paper.title}, "authors": {"value": names}}
    if native:
        content["authorids"] = {"value": [f"~{_PROFILE_SEPARATORS.sub('_', n).strip('_')}1" for n in names]}
    else:
        content["authorids"] = {"value": [f"https://dblp.org/search/pid/api?q=author:{n.replace(' ', '_')}:"
                                          for n in names]}
    if paper.abstract:
        content["abstract"] = {"value": paper.abstract}
    content["venue"] = {"value": shown}
    content["venueid"] = {"value": venueid}
    if native:
        content["pdf"] = {"value": f"/pdf/{rng.getrandbits(160):040x}.pdf"}
        content["keywords"] = {"value": keywords(paper, rng)}
        if paper.links.code:
            content["code"] = {"value": paper.links.code}
    elif paper.links.url or paper.links.doi:
        content["html"] = {"value": paper.links.url or f"https://doi.org/{paper.links.doi}"}
    group = venueid
    month = MONTHS.get(venue.series, 6)
    note = {"content": content, "id": forum, "forum": forum, "number": number,
            "cdate": _ms(venue.year - 1 if month < 9 else venue.year, 9 if month < 9 else 3, 28, rng),
            "pdate": _ms(venue.year, month, 1, rng)}
    note["mdate"] = note["pdate"] + rng.randint(0, 10**9)
    if native:
        note.update({"invitations": [f"{group}/-/Submission", f"{group}/-/Post_Submission",
                                     f"{group}/Submission{number}/-/Camera_Ready_Revision"],
                     "domain": group, "signatures": [f"{group}/Submission{number}/Authors"],
                     "readers": ["everyone"], "writers": [group, f"{group}/Submission{number}/Authors"]})
    else:
        note.update({"invitations": ["DBLP.org/-/Record"], "domain": "DBLP.org", "signatures": ["DBLP.org"],
                     "readers": ["everyone"], "writers": ["DBLP.org"]})
    return note


def _id_maker(archive: Archive, form: str, taken: str) -> tuple[random.Random, LinkMaker]:
    """The form's random stream, and a maker of new ids that avoids the archive's ids ``taken``."""
    rng = _rng(archive, form)
    ids = LinkMaker(rng)
    ids.used.update(value for p in archive.papers if (value := getattr(p.links, taken)))
    return rng, ids


def write_openreview(archive: Archive, folder: Path, content: bool = False) -> list[Path]:
    rng, ids = _id_maker(archive, "openreview", "openreview")
    files: list[Path] = []
    for venue, papers in records_of(archive, content):
        notes, seen = [], set()
        for number, paper in enumerate(papers, 1):
            first = paper.index not in seen  # a record written twice is two notes
            seen.add(paper.index)
            forum = paper.links.openreview if paper.links.openreview and first else ids.openreview_id(venue.year)
            notes.append(openreview_note(paper, forum, number, rng))
        files += _write_pages(folder / f"{venue.slug}.json", notes, OPENREVIEW_PAGE, lambda page, start: json.dumps(
            {"notes": page, "count": len(notes)}, ensure_ascii=False, indent=1) + "\n")
    return files


# --------------------------------------------------------------------------- arXiv Atom

ATOM_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?search_query%3D{query}%26id_list%3D%26start%3D{start}%26max_results%3D{page}" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: search_query={query}&amp;id_list=&amp;start={start}&amp;max_results={page}</title>
  <id>http://arxiv.org/api/{feed_id}</id>
  <updated>{updated}</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{total}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{start}</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{page}</opensearch:itemsPerPage>
"""
_NS = 'xmlns:arxiv="http://arxiv.org/schemas/atom"'


def _posted(arxiv_id: str, rng: random.Random) -> datetime.datetime:
    digits = re.search(r"(\d\d)(\d\d)[.\d]", arxiv_id.split("/")[-1])
    yy, mm = int(digits.group(1)), int(digits.group(2))
    year = 1900 + yy if yy >= 90 else 2000 + yy
    return datetime.datetime(year, max(1, min(12, mm)), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59),
                             rng.randint(0, 59))


def _venue_hint(paper: Paper, rng: random.Random) -> tuple[str | None, str | None]:
    """(journal_ref, comment) of an arXiv entry."""
    venue = paper.venue
    u = rng.random()
    pages = f"{rng.randint(1, 12000)}-{rng.randint(1, 12000)}"
    if u < ARXIV_NO_VENUE:
        return None, rng.choice((None, f"{rng.randint(8, 40)} pages, {rng.randint(2, 12)} figures"))
    if u < ARXIV_NO_VENUE + 0.45:
        return rng.choice((venue.name, f"{venue.container}, {venue.year}, pp. {pages}",
                           f"In: {venue.name}")), None
    shown = f" ({paper.presentation})" if paper.presentation and paper.presentation != "poster" else ""
    return None, rng.choice((f"Accepted at {venue.name}{shown}", f"Published as a conference paper at {venue.name}",
                             f"To appear in {venue.name}. {rng.randint(8, 30)} pages",
                             f"{venue.name}{shown}. Code: {paper.links.code}" if paper.links.code else
                             f"{venue.name} camera-ready version"))


def arxiv_entry(paper: Paper, arxiv_id: str, rng: random.Random) -> str:
    posted = _posted(arxiv_id, rng)
    updated = posted + datetime.timedelta(days=rng.randint(0, 400))
    version = rng.randint(1, 3)
    title = "\n  ".join(textwrap.wrap(escape(latex_text(paper.title)), 78)) or escape(paper.title)
    summary = "\n".join(textwrap.wrap(escape(latex_text(paper.abstract)), 79, initial_indent="  ")) + "\n"
    lines = ["  <entry>", f"    <id>http://arxiv.org/abs/{arxiv_id}v{version}</id>",
             f"    <updated>{updated:%Y-%m-%dT%H:%M:%SZ}</updated>",
             f"    <published>{posted:%Y-%m-%dT%H:%M:%SZ}</published>",
             f"    <title>{title}</title>", f"    <summary>{summary}</summary>"]
    for entry in paper.entries:
        lines.append(f"    <author>\n      <name>{escape(full(entry))}</name>\n    </author>")
    journal_ref, comment = _venue_hint(paper, rng)
    if paper.links.doi:
        lines.append(f"    <arxiv:doi {_NS}>{escape(paper.links.doi)}</arxiv:doi>")
        lines.append(f'    <link title="doi" href={quoteattr("http://dx.doi.org/" + paper.links.doi)} rel="related"/>')
    if comment:
        lines.append(f"    <arxiv:comment {_NS}>{escape(comment)}</arxiv:comment>")
    if journal_ref:
        lines.append(f"    <arxiv:journal_ref {_NS}>{escape(journal_ref)}</arxiv:journal_ref>")
    lines.append(f'    <link href="http://arxiv.org/abs/{arxiv_id}v{version}" rel="alternate" type="text/html"/>')
    lines.append(f'    <link title="pdf" href="http://arxiv.org/pdf/{arxiv_id}v{version}" rel="related" '
                 f'type="application/pdf"/>')
    categories = synth_fields.ARXIV_CATEGORIES.get(paper.field, ("cs.LG",))
    chosen = categories[:rng.randint(1, len(categories))]
    lines.append(f'    <arxiv:primary_category {_NS} term="{chosen[0]}" scheme="http://arxiv.org/schemas/atom"/>')
    lines += [f'    <category term="{c}" scheme="http://arxiv.org/schemas/atom"/>' for c in chosen]
    lines.append("  </entry>")
    return "\n".join(lines) + "\n"


def write_arxiv(archive: Archive, folder: Path, content: bool = False) -> list[Path]:
    rng, ids = _id_maker(archive, "arxiv", "arxiv")
    files: list[Path] = []
    for venue, papers in records_of(archive, content):
        entries, made = [], {}
        for paper in papers:  # a record written twice is the same entry twice (two feeds merged)
            if paper.index not in made:
                made[paper.index] = paper.links.arxiv or ids.arxiv_id(venue.year, MONTHS.get(venue.series, 6))
            arxiv_id = made[paper.index]
            entries.append(arxiv_entry(paper, arxiv_id, rng))
        files += _write_pages(folder / f"{venue.slug}.xml", entries, ARXIV_PAGE, lambda page, start: ATOM_HEAD.format(
            query=f"all:{venue.slug}", start=start, page=ARXIV_PAGE, feed_id=f"{rng.getrandbits(120):030x}",
            total=len(entries), updated=f"{venue.year + 1}-01-01T00:00:00-05:00") + "".join(page) + "</feed>\n")
    return files


WRITERS = {"csl": write_csl, "bibtex": write_bibtex, "openreview": write_openreview, "arxiv": write_arxiv}


def write_form(archive: Archive, form: str, folder: Path, content: bool = False) -> list[Path]:
    """Write the archive's records in ``form`` into ``folder`` (created); the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    return WRITERS[form](archive, folder, content)
