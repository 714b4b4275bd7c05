"""Topics found in the catalog, beside the curated tags: what the topic pages, the topic
map and each paper's page show.

The papers' titles and abstracts alone decide the topics (``topic_terms`` → ``topic_model``
→ ``topic_names``; ``topic_map`` places them), so the whole computation is one value of
the build cache keyed by the texts: an edit of authors, venue, tags or links reuses it.
Topics are numbered by size (most papers first, then by name) and each has a stable id,
the URL segment of its first keyword ("graph-neural-networks"; a second keyword, then a
number, tells apart two topics that would share one): the same texts give the same ids.

``site_topics`` turns that value into views: each topic's papers (in the catalog's title
order), venues, papers per year (``charts``), nearest topics (by the cosine of their
centroids), and its map of papers; each paper's topic; each venue's mix of topics.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping, NamedTuple, Sequence

from ..cache import cached_call
from .charts import YearBars, year_bars
from .numeric import np
from .topic_map import DOT_RADIUS, DOTS_HEIGHT, DOTS_WIDTH, MAP_HEIGHT, MAP_WIDTH, Placed, paper_dots, topic_layout
from .topic_model import fit
from .topic_names import name_topics, slug
from .topic_terms import corpus
from .urls import topic_page

NEAREST = 4  # nearest topics named on a topic's page
MIX_SHOWN = 8  # topics in a venue's mix (the rest summed up)


@dataclass(frozen=True, slots=True)
class TopicRef:
    id: str
    name: str

    @property
    def url(self) -> str:
        return topic_page(self.id)


@dataclass(frozen=True, slots=True)
class Dot:
    """A paper on its topic's map."""

    x: int
    y: int
    paper: object  # PaperView (typed loosely: views import this module)


@dataclass(frozen=True, slots=True)
class TopicCount:
    """A topic and how many of a list's papers it holds; ``bar``: 0..100 (steps of 5)."""

    ref: TopicRef
    count: int
    bar: int
    share: str  # "23%"


@dataclass(frozen=True, slots=True)
class TopicView:
    ref: TopicRef
    number: int  # 1 = the largest
    keywords: tuple[str, ...]
    papers: tuple  # PaperView, by title
    venue_counts: tuple  # views.Count of VenueRef, most papers first
    years: YearBars | None
    nearest: tuple[TopicRef, ...]
    place: Placed
    dots: tuple[Dot, ...]
    bar: int  # 0..100: its size against the largest topic's (steps of 5)
    dots_width: int = DOTS_WIDTH
    dots_height: int = DOTS_HEIGHT
    dot_radius: int = DOT_RADIUS


@dataclass(frozen=True, slots=True)
class TopicIndex:
    """What the topic index shows: the topics, largest first, and the map's box."""

    topics: tuple[TopicView, ...]
    map_width: int = MAP_WIDTH
    map_height: int = MAP_HEIGHT


@dataclass(frozen=True, slots=True)
class TopicData:
    index: TopicIndex
    by_paper: Mapping[str, TopicRef] = field(default_factory=dict)  # slug -> its topic
    by_venue: Mapping[str, tuple[TopicCount, ...]] = field(default_factory=dict)  # venue id -> mix

    @property
    def topics(self) -> tuple[TopicView, ...]:
        return self.index.topics

    def of(self, slug: str) -> TopicRef | None:
        return self.by_paper.get(slug)

    def mix(self, venue_id: str) -> tuple[TopicCount, ...]:
        return self.by_venue.get(venue_id, ())


class Found(NamedTuple):
    """The topic model's result as plain values (what the build cache keeps)."""

    labels: tuple[int, ...]  # each paper's topic (by size order)
    ids: tuple[str, ...]
    names: tuple[str, ...]
    keywords: tuple[tuple[str, ...], ...]
    places: tuple[Placed, ...]
    dots: tuple[tuple[tuple[int, int, int], ...], ...]  # per topic: (paper index, x, y)
    nearest: tuple[tuple[int, ...], ...]


def find_topics(texts: Sequence[tuple[str, str]]) -> Found | None:
    """The topics of papers with these (title, abstract) texts; None when there are none."""
    terms = corpus(texts)
    model = fit(terms)
    if model is None:
        return None
    k = len(model.centroids)
    naming = name_topics(terms, model.labels, k)
    sizes = np.bincount(model.labels, minlength=k)
    names = [naming.name(c) for c in range(k)]
    order = sorted((c for c in range(k) if sizes[c]), key=lambda c: (-int(sizes[c]), names[c], c))
    rank = {c: i for i, c in enumerate(order)}
    centroids = model.centroids[order]
    keywords = tuple(naming.keywords[c] for c in order)
    ids = _ids([naming.keywords[c] for c in order])
    places = topic_layout(centroids, sizes[order].astype(np.float64), _map_labels(keywords, [names[c] for c in order]))
    labels = tuple(rank[int(c)] for c in model.labels)
    members = [np.nonzero(model.labels == c)[0] for c in order]
    dots = []
    for i, found in enumerate(members):
        shown, xy = paper_dots(model.points[found], centroids[i])
        dots.append(tuple((int(found[j]), x, y) for j, (x, y) in zip(shown, xy)))
    similar = centroids @ centroids.T
    np.fill_diagonal(similar, -np.inf)
    nearest = tuple(tuple(int(j) for j in np.argsort(-row, kind="stable")[:NEAREST] if np.isfinite(row[j]))
                    for row in similar)
    return Found(labels, ids, tuple(names[c] for c in order), keywords, places, tuple(dots), nearest)


def _map_labels(keywords: tuple[tuple[str, ...], ...], names: list[str]) -> list[str]:
    """Each topic's label on the map: its first keyword, or its name where another topic has
    the same first keyword (four circles labelled "image" tell nothing apart)."""
    firsts = [kw[0].lower() if kw else name for kw, name in zip(keywords, names)]
    shared = Counter(firsts)
    return [kw[0] if kw and shared[first] == 1 else name for kw, name, first in zip(keywords, names, firsts)]


def _ids(keywords: list[tuple[str, ...]]) -> tuple[str, ...]:
    """A URL segment per topic: its first keyword's; then with its second; then numbered."""
    ids: list[str] = []
    taken: set[str] = set()
    for words in keywords:
        choice = slug(words[0]) if words else "topic"
        if choice in taken and len(words) > 1:
            choice = slug(f"{words[0]} {words[1]}")
        base, n = choice, 2
        while choice in taken:
            choice, n = f"{base}-{n}", n + 1
        taken.add(choice)
        ids.append(choice)
    return tuple(ids)


def site_topics(papers: Sequence, venue_years: Mapping[str, int], count) -> TopicData | None:
    """The topics of ``papers`` (``PaperView``s, in catalog order) as views; ``count`` makes
    the venue counts (``counts.ref_counts``, passed in by views)."""
    texts = [(p.title_plain, p.abstract_plain) for p in papers]
    found = cached_call("topics", lambda: find_topics(texts), (texts,))
    if found is None:
        return None
    refs = tuple(TopicRef(i, name) for i, name in zip(found.ids, found.names))
    members: list[list] = [[] for _ in refs]
    for paper, label in zip(papers, found.labels):
        members[label].append(paper)
    years = sorted(venue_years.values())
    span = list(range(years[0], years[-1] + 1)) if years else []
    largest = max((len(m) for m in members), default=0)
    topics = []
    for i, ref in enumerate(refs):
        mine = members[i]
        per_year = Counter(p.venue.year for p in mine)
        topics.append(TopicView(
            ref=ref, number=i + 1, keywords=found.keywords[i], papers=tuple(mine),
            venue_counts=count(p.venue.base or p.venue for p in mine),  # a track counts as its venue
            years=year_bars(span, [per_year.get(y, 0) for y in span]) if len(span) > 1 else None,
            nearest=tuple(refs[j] for j in found.nearest[i]),
            place=found.places[i],
            dots=tuple(Dot(x, y, papers[j]) for j, x, y in found.dots[i]),
            bar=_bar(len(mine), largest),
        ))
    by_paper = {p.slug: refs[label] for p, label in zip(papers, found.labels)}
    by_venue: dict[str, Counter] = {}
    for p, label in zip(papers, found.labels):
        by_venue.setdefault(p.venue.id, Counter())[label] += 1
    return TopicData(TopicIndex(tuple(topics)), by_paper, {v: _mix(c, refs) for v, c in by_venue.items()})


def _mix(counts: Counter, refs: tuple[TopicRef, ...]) -> tuple[TopicCount, ...]:
    """A venue's topics, most papers first (then topic order), the first ``MIX_SHOWN``."""
    total = sum(counts.values())
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:MIX_SHOWN]
    top = ranked[0][1] if ranked else 0
    return tuple(TopicCount(refs[label], n, _bar(n, top), f"{round(100 * n / total)}%") for label, n in ranked)


def _bar(count: int, largest: int) -> int:
    """``count`` as a percentage of ``largest``, rounded up to a multiple of 5 (0 only for 0)."""
    if count <= 0 or largest <= 0:
        return 0
    return min(100, -(-count * 100 // (largest * 5)) * 5)
