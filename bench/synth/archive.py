"""A synthetic archive in memory (``build_archive``) and its measured statistics (``measure``).

``build_archive(n, seed, params)`` makes ``n`` papers, deterministic for ``(n, seed, params)``:
the conference-years (``venues``), who wrote each paper (``authors``, names from
``names``), the text and tags (``text``; a paper's field is its venue's, or at
general venues its lab's), the links (``links``) and the record defects
(``mess``). Each part draws from its own random stream, so turning one defect off
leaves the rest of the archive as it was.

A ``Paper`` holds its record as a source has it (``entries``, ``abstract``, ``links``: what
the record forms write) and the truth behind it (``names``, ``people``, ``clean_abstract``;
``original`` for a record whose abstract was copied from another paper), which is what the
content folder is written from when it must build today.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlsplit

from generator.content.slugs import author_key
from generator.content.taxonomy import read_taxonomy
from generator.importers import tags as tags_module

from . import authors as synth_authors
from . import names as synth_names
from . import text as synth_text
from . import venues as synth_venues
from .links import LinkMaker, Links
from .mess import Entry, MessParams, Messer, full
from .venues import VenueYear


@dataclass(frozen=True)
class Params:
    authorship: synth_authors.AuthorshipParams = field(default_factory=synth_authors.AuthorshipParams)
    mess: MessParams = field(default_factory=MessParams)


@dataclass
class Paper:
    index: int
    venue: VenueYear
    title: str
    abstract: str  # as the record has it (may be empty or carry PDF debris)
    entries: tuple[Entry, ...]  # the authors as the record lists them
    names: tuple[str, ...]  # the authors' names (truth)
    people: tuple[int, ...]  # the authors (truth; namesakes are two people with one name)
    clean_abstract: str  # the abstract as written, without defects
    tags: tuple[str, ...]
    field: str
    presentation: str | None
    links: Links  # what the record gives
    duplicate: bool = False  # the record is written twice
    original: "Paper | None" = None  # before its abstract (and title, authors) were copied from another paper


@dataclass
class Archive:
    n: int
    seed: int
    params: Params
    venues: list[tuple[VenueYear, int]]
    papers: list[Paper]
    person_name: list[str]
    labs: int
    mess: Counter[str]  # defects placed, by kind


def _streams(n: int, seed: int) -> dict[str, random.Random]:
    return {name: random.Random(f"papershelf-synth:{seed}:{n}:{name}")
            for name in ("venues", "names", "authors", "text", "links", "mess", "twins")}


def text_field(venue_field: str, lab_field: str) -> str:
    """What a paper is about: its venue's field, or at ML/AI venues its lab's."""
    return lab_field if venue_field in synth_authors.GENERAL else venue_field


def presentation(venue: VenueYear, rng: random.Random) -> str | None:
    """oral/spotlight/poster where the venue's source gives one (OpenReview and CVF years)."""
    s, year = venue.series, venue.year
    known = (s == "iclr" and year >= 2017) or (s == "neurips" and year >= 2021) or (s == "icml" and year >= 2023) \
        or (s == "corl" and year >= 2021) or (s in ("cvpr", "iccv") and year >= 2019 and venue.kind == "main")
    if not known:
        return None
    u = rng.random()
    return "oral" if u < 0.05 else "spotlight" if u < 0.17 else "poster"


def _stochastic_count(rate: float, n: int, rng: random.Random) -> int:
    expected = rate * n
    return int(expected) + (rng.random() < expected - int(expected))


def build_authorship(n: int, seed: int = 0, params: Params | None = None,
                     rng: dict[str, random.Random] | None = None):
    """The archive without its text: (venues with their paper counts, each paper's venue, who
    wrote each paper, each person's ``Name``) — the same as ``build_archive``'s."""
    params = params or Params()
    rng = rng or _streams(n, seed)
    venues = synth_venues.select(n, rng["venues"])
    slots = [venue for venue, count in venues for _ in range(count)]
    counts = synth_authors.paper_counts(n, params.authorship)
    names = synth_names.draw_names(len(counts), rng["names"])
    authorship = synth_authors.assign([(v.year, v.field) for v in slots], counts, rng["authors"], params.authorship)
    return venues, slots, authorship, [names[i] for i in authorship.person_name]


def build_archive(n: int, seed: int = 0, params: Params | None = None, *,
                  corpus: synth_text.Corpus | None = None, tags_toml: Path = synth_text.TAGS_TOML) -> Archive:
    if n < 1:
        raise ValueError("n must be at least 1")
    params = params or Params()
    rng = _streams(n, seed)
    venues, slots, authorship, person_name = build_authorship(n, seed, params, rng)

    taxonomy = read_taxonomy(tags_toml, "tags.toml")
    order = {tag: i for i, tag in enumerate(taxonomy)}
    fallback = tags_module.fallback_tag(taxonomy)
    maker = synth_text.TextMaker(rng["text"], corpus or synth_text.cached_corpus(), synth_text.field_banks(tags_toml))
    links = LinkMaker(rng["links"])
    messer = Messer(rng["mess"], params.mess, [len(a) for a in authorship.authors])
    mp = params.mess
    papers: list[Paper] = []
    for j, venue in enumerate(slots):
        people = tuple(authorship.authors[j])
        clean = [person_name[p] for p in people]
        topic_field = text_field(venue.field, authorship.lab_field[j])
        subtopic = maker.subtopic(topic_field)
        votes: Counter[str] = Counter()
        abstract = maker.abstract(topic_field, subtopic, votes)
        title = maker.title(topic_field, subtopic, votes)
        tags = synth_text.vote_tags(votes, order) or (fallback,)
        first = clean[0] if clean else synth_names.Name("", "")
        true_links = links.links(venue, first.family or first.literal, first.given, title)
        shown = presentation(venue, rng["links"])
        entries = messer.authors([(nm.given, nm.family, nm.literal) for nm in clean])
        record_abstract = messer.abstract(abstract)
        papers.append(Paper(j, venue, title, record_abstract, entries, tuple(nm.full for nm in clean), people,
                            abstract, tags, topic_field, shown, _record_links(true_links, rng["mess"], mp, messer)))
    _place_copies(papers, rng["twins"], mp, messer)
    return Archive(n, seed, params, venues, papers, [nm.full for nm in person_name], authorship.labs, messer.counts)


def _record_links(links: Links, rng: random.Random, mp: MessParams, messer: Messer) -> Links:
    """The links a record gives: some lack the landing page or the DOI, a few have neither."""
    url, doi = links.url, links.doi
    if (url or doi) and rng.random() < mp.missing_links:
        messer.counts["missing_links"] += 1
        return replace(links, url=None, doi=None)
    if url and doi:
        u = rng.random()
        if u < mp.doi_only:
            messer.counts["doi_only"] += 1
            url = None
        elif u < mp.doi_only + mp.url_only:
            messer.counts["url_only"] += 1
            doi = None
    return replace(links, url=url, doi=doi)


def _place_copies(papers: list[Paper], rng: random.Random, mp: MessParams, messer: Messer) -> None:
    """Records that repeat another's abstract, and records written twice."""
    n = len(papers)
    workshops = [p for p in papers if p.venue.kind == "workshop"]
    mains: dict[int, list[Paper]] = {}
    for p in papers:
        if p.venue.kind == "main":
            mains.setdefault(p.venue.year, []).append(p)
    candidates = [w for w in workshops if mains.get(w.venue.year)]
    for twin in rng.sample(candidates, min(len(candidates), _stochastic_count(mp.workshop_twin, n, rng))):
        source = rng.choice(mains[twin.venue.year])
        original = replace(twin)
        title = source.title if rng.random() < 0.7 else f"{source.title.split(': ', 1)[-1]} (Workshop Version)"
        twin.title, twin.abstract, twin.clean_abstract = title, source.abstract, source.clean_abstract
        twin.entries, twin.names, twin.people = source.entries, source.names, source.people
        twin.original = original
        messer.counts["workshop_twin"] += 1
    old = [p for p in papers[1:] if p.venue.year <= 2005 and papers[p.index - 1].venue == p.venue]
    for paper in rng.sample(old, min(len(old), _stochastic_count(mp.shared_abstract, n, rng))):
        if paper.original is None:
            paper.original = replace(paper)
            source = papers[paper.index - 1]
            paper.abstract, paper.clean_abstract = source.abstract, source.clean_abstract
            messer.counts["shared_abstract"] += 1
    for paper in rng.sample(papers, min(n, _stochastic_count(mp.exact_duplicate, n, rng))):
        paper.duplicate = True
        messer.counts["exact_duplicate"] += 1


# --------------------------------------------------------------------------- statistics


def _authorship(lists: list[list[str]]) -> dict:
    papers_of = Counter(k for names in lists for k in names)
    n = len(lists)
    values = sorted(papers_of.values())
    return {"slots_per_paper": round(sum(values) / n, 3), "distinct_per_paper": round(len(values) / n, 3),
            "authors": len(values), "single_share": round(sum(1 for v in values if v == 1) / len(values), 3),
            "max_papers": values[-1], "top5": values[-5:][::-1]}


def measure(archive: Archive) -> dict:
    """The archive's statistics: authorship (true names, and names as the records write them),
    venues, defect rates as placed, links by host."""
    papers = archive.papers
    n = len(papers)
    truth = _authorship([[author_key(name) for name in p.names] for p in papers])
    written = _authorship([list(dict.fromkeys(author_key(full(e)) for e in p.entries)) for p in papers])
    entries = sum(len(p.entries) for p in papers)
    c = archive.mess
    hosts: Counter[str] = Counter()
    for p in papers:
        hosts[urlsplit(p.links.url).netloc if p.links.url else "(no URL)"] += 1
    with_doi = sum(1 for p in papers if p.links.doi)
    names_of_people = Counter(archive.person_name)
    return {
        "papers": n, "records": n + sum(p.duplicate for p in papers),
        "venue_years": len(archive.venues), "years": [archive.venues[0][0].year, archive.venues[-1][0].year],
        "venue_kinds": dict(Counter(v.kind for v, _ in archive.venues)),
        "papers_by_field": dict(sorted(Counter(p.venue.field for p in papers).items())),
        "largest_venue": max(count for _, count in archive.venues),
        "authorship": truth, "authorship_as_written": written, "labs": archive.labs,
        "people": len(archive.person_name), "namesakes": sum(1 for v in names_of_people.values() if v > 1),
        "mess": {
            "glued_list": round(c["glued_list"] / entries, 5), "and_pair": round(c["and_pair"] / entries, 5),
            "semicolon_pair": round(c["semicolon_pair"] / entries, 5),
            "family_given": round(c["family_given"] / entries, 5), "footnote": round(c["footnote"] / entries, 5),
            "all_caps": round(c["all_caps"] / entries, 5), "latex_accent_entries": c["latex_accent"],
            "accent_dropped_entries": c["accent_dropped"], "name_twice": round(c["name_twice"] / n, 5),
            "cid_soft_hyphen": round(c["cid_soft_hyphen"] / n, 5), "cid_other": round(c["cid_other"] / n, 5),
            "line_break_hyphen": round(c["line_break_hyphen"] / n, 5),
            "empty_abstract": round(c["empty_abstract"] / n, 5), "workshop_twin": c["workshop_twin"],
            "shared_abstract": c["shared_abstract"], "exact_duplicate": c["exact_duplicate"],
            "missing_links": round(c["missing_links"] / n, 5), "doi_only": round(c["doi_only"] / n, 5),
            "url_only": round(c["url_only"] / n, 5),
            "titles_with_math": sum(1 for p in papers if "$" in p.title),
            "titles_not_ascii": sum(1 for p in papers if not p.title.isascii()),
        },
        "links": {"with_doi": with_doi, "with_arxiv": sum(1 for p in papers if p.links.arxiv),
                  "with_code": sum(1 for p in papers if p.links.code),
                  "hosts": dict(hosts.most_common())},
    }

