"""Who the authors are: each name in the papers to its author's page slug, with what
``authors.toml`` says of the person (``content.people``) made ready to show.

Without ``authors.toml`` an author is a name up to accents, case and punctuation
(``name_key``); a person of the file also owns their aliases, and their page is the slug of
the name the file gives them. ``derive.views`` turns these into ``AuthorRef``s.

``identify`` goes further (issue 36): spellings that differ by a middle initial or a given
name's initial ("Joshua Tenenbaum", "Joshua B. Tenenbaum", "J. Tenenbaum") are one person when
they share a co-author (``Merge``: the evidence, listed by ``papershelf check``), unless
``authors.toml`` says they are ``distinct``; a numbered person of the file ("Jie Zhou 0001")
takes the papers of the name that their rules pick. ``homonyms`` finds names whose papers
fall into separate co-author groups (two people, likely).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Collection, Iterable, Mapping

from ..content.model import Paper, Person
from ..content.people import FILE, paper_slug_of, person_slug, spelling_owners
from ..content.series import find_series, series_of
from ..content.slugs import author_key
from ..content.words import ascii_lower
from .urls import orcid_record

# Trailing words that are no family name ("Martin Luther King Jr.": King).
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "ph.d."})


@dataclass(frozen=True, slots=True)
class Profile:
    """What ``authors.toml`` says of a person, ready to show (``profile`` makes it)."""

    orcid: str | None  # "0000-0002-1825-0097"
    orcid_url: str | None  # its record, https://orcid.org/0000-0002-1825-0097
    homepage: str | None
    homepage_label: str | None  # the homepage without "https://" (and a final "/")
    affiliation: str | None

    @property
    def same_as(self) -> tuple[str, ...]:
        """The person's pages elsewhere (schema.org ``sameAs``): ORCID record, homepage."""
        return tuple(url for url in (self.orcid_url, self.homepage) if url)


def profile(person: Person) -> Profile:
    label = person.homepage.split("://", 1)[-1] if person.homepage else None
    if label and label.endswith("/") and not any(c in label for c in "?#"):
        label = label[:-1]
    return Profile(orcid=person.orcid, orcid_url=orcid_record(person.orcid) if person.orcid else None,
                   homepage=person.homepage, homepage_label=label, affiliation=person.affiliation)


PAGE_FOR_EVERYONE_UP_TO = 20_000  # papers: up to this, everyone has a page by default...
DEFAULT_MIN_PAPERS = 2  # ...above it, people with this many papers (site.toml can say otherwise)


def page_threshold(configured: int | None, papers: int) -> int:
    """The papers an author needs for a page: ``author_page_min_papers`` of site.toml, else 1
    up to ``PAGE_FOR_EVERYONE_UP_TO`` papers, else ``DEFAULT_MIN_PAPERS``."""
    if configured is not None:
        return configured
    return 1 if papers <= PAGE_FOR_EVERYONE_UP_TO else DEFAULT_MIN_PAPERS


def name_key(name: str) -> str:
    """Who a spelling is, up to accents, case, hyphens and punctuation (the page's slug). The
    one place that decides it here (the fold may change; callers do not)."""
    return author_key(name)


def _name_words(name: str) -> list[str]:
    """A name's words folded to lower-case ASCII (hyphenated given names are two words)."""
    return re.findall(r"[a-z0-9]+", ascii_lower(name))


@dataclass(frozen=True, slots=True)
class Merge:
    """Spellings taken to be one person: they differ only by a middle or given name's initial
    and share co-authors (``evidence``: their names, most shared first)."""

    name: str  # the spelling shown: the most frequent, ties to the fullest
    spellings: tuple[tuple[str, int], ...]  # each spelling merged, with its papers
    evidence: tuple[str, ...]

    def describe(self) -> str:
        spelled = ", ".join(f"{name!r} ({n} paper{'s' if n != 1 else ''})" for name, n in self.spellings)
        shown = ", ".join(self.evidence[:5]) + (f" and {len(self.evidence) - 5} more" if len(self.evidence) > 5 else "")
        return f"{spelled} are one person, {self.name!r}: co-authors in common: {shown}"


@dataclass(frozen=True)
class Authorship:
    """Who each author name of each paper is (``identify``)."""

    keys: Mapping[str, str]  # name -> its author's slug, for every name in the papers
    split: Mapping[tuple[str, str], str] = field(default_factory=dict)  # (paper slug, name) -> slug, by a split rule
    people: Mapping[str, Person] = field(default_factory=dict)  # people of authors.toml by their page's slug
    merges: tuple[Merge, ...] = ()

    def slug(self, paper: str, name: str) -> str:
        """The slug of the author ``name`` of the paper ``paper`` (a slug)."""
        return self.split.get((paper, name)) or self.keys[name]

    def slugs(self, paper: Paper) -> list[str]:
        return [self.split.get((paper.slug, name)) or self.keys[name] for name in paper.authors]


def identify(papers: tuple[Paper, ...], people: tuple[Person, ...]) -> Authorship:
    """Who each author of each paper is: ``author_slugs``, then the merges of spellings that
    share co-authors (``_merges``), then the split rules of numbered people."""
    keys, by_slug = author_slugs(papers, people)
    splits = _split_rules(people)
    split: dict[tuple[str, str], str] = {}
    if splits:
        for paper in papers:
            for name in paper.authors:
                rules = splits.get(name_key(name))
                if rules:
                    chosen = _chosen(paper, rules)
                    if chosen is not None:
                        split[(paper.slug, name)] = person_slug(chosen)
        by_slug.update({person_slug(p): p for p in people if p.number})
    distinct = {}
    for person in people:
        for other in person.distinct:
            distinct.setdefault(keys.get(person.name, name_key(person.name)), set()).add(keys.get(other, name_key(other)))
    unsplit = {name_key(p.name) for p in people if p.number}  # a split name is never merged
    renamed, merges = _merges(papers, keys, by_slug, distinct, unsplit)
    if renamed:
        keys = {name: renamed.get(slug, slug) for name, slug in keys.items()}
    return Authorship(keys=keys, split=split, people=by_slug, merges=merges)


def _split_rules(people: tuple[Person, ...]) -> dict[str, list[Person]]:
    """The numbered people of each split name, by the name's key, in file order."""
    rules: dict[str, list[Person]] = defaultdict(list)
    for person in people:
        if person.number:
            rules[name_key(person.name)].append(person)
    return rules


def _chosen(paper: Paper, rules: list[Person]) -> Person | None:
    """Which numbered person a paper of their name is: the first whose papers name it, else
    the first with a co-author on it, else the first of its venue; None: the plain name's."""
    for person in rules:
        if any(paper_slug_of(ref) == paper.slug for ref in person.papers):
            return person
    on_paper = {name_key(name) for name in paper.authors}
    for person in rules:
        if any(name_key(name) in on_paper for name in person.coauthors):
            return person
    for person in rules:
        if paper.venue in person.venues:
            return person
    return None


def _given_family(name: str) -> tuple[tuple[str, ...], str] | None:
    """(given names, family name) of a Latin-script name, words folded ("Joshua B. Tenenbaum" ->
    (("joshua", "b"), "tenenbaum")); None for a single word or a name of another script."""
    if name_key(name) != _plain_slug(name):
        return None
    words = _name_words(name)
    while len(words) > 1 and words[-1] in _SUFFIXES | {"2nd", "3rd"}:
        words.pop()
    if len(words) < 2 or not words[-1].isalpha():
        return None
    return tuple(words[:-1]), words[-1]


def _plain_slug(name: str) -> str:
    return "-".join(_name_words(name))


def _compatible_word(a: str, b: str) -> bool:
    """One given name written two ways: the same, or one its initial ("j" and "joshua")."""
    if a == b:
        return True
    return (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


def compatible(a: tuple[tuple[str, ...], str], b: tuple[tuple[str, ...], str]) -> bool:
    """Whether two parsed names may be one person's: the same family name, the first given
    names alike (``_compatible_word``), and middle names alike where both have them."""
    (given_a, family_a), (given_b, family_b) = a, b
    if family_a != family_b or not given_a or not given_b:
        return False
    if not _compatible_word(given_a[0], given_b[0]):
        return False
    middle_a, middle_b = given_a[1:], given_b[1:]
    return all(_compatible_word(x, y) for x, y in zip(middle_a, middle_b))


def _merges(papers: tuple[Paper, ...], keys: Mapping[str, str], people: Mapping[str, Person],
            distinct: Mapping[str, set[str]], unsplit: set[str]) -> tuple[dict[str, str], tuple[Merge, ...]]:
    """Authors (by slug) to merge: slug -> the merged person's slug, and each merge's evidence.

    Candidates share a family name and a given name's initial; a pair merges when their names
    are alike (``compatible``), they share a co-author and never sign one paper together; the
    pairs sharing most co-authors first, and never so that a group holds two names that are
    not alike ("J. Zhou" joins "Jie Zhou" or "Jian Zhou", not both) or two that ``distinct``
    keeps apart. Venues are no evidence: namesakes publish at the same conferences."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)  # slug -> spelling -> papers
    for paper in papers:
        for name in paper.authors:
            counts[keys[name]][name] += 1
    parsed: dict[str, tuple[tuple[str, ...], str]] = {}
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for slug, names in counts.items():
        if slug in unsplit:
            continue
        person = people.get(slug)
        shown = person.name if person else canonical(names)
        shape = _given_family(shown)
        if shape is None:
            continue
        parsed[slug] = shape
        groups[(shape[1], shape[0][0][0])].append(slug)
    candidates = {slug for group in groups.values() if len(group) > 1 for slug in group}
    if not candidates:
        return {}, ()
    coauthors: dict[str, Counter[str]] = defaultdict(Counter)
    together: set[tuple[str, str]] = set()
    for paper in papers:
        slugs = [keys[name] for name in paper.authors]
        mine = [s for s in slugs if s in candidates]
        for slug in mine:
            coauthors[slug].update(s for s in slugs if s != slug)
        for a, b in combinations(sorted(set(mine)), 2):
            together.add((a, b))
    pairs = []
    for group in groups.values():
        for a, b in combinations(sorted(group), 2):
            if (a, b) in together or b in distinct.get(a, ()) or a in distinct.get(b, ()):
                continue
            if not compatible(parsed[a], parsed[b]):
                continue
            shared = set(coauthors[a]) & set(coauthors[b])
            if shared:
                pairs.append((-len(shared), a, b, shared))
    pairs.sort(key=lambda pair: pair[:3])
    return _clusters(pairs, counts, parsed, coauthors, together, people, distinct)


def _clusters(pairs: list, counts: Mapping[str, Counter[str]], parsed: Mapping[str, tuple[tuple[str, ...], str]],
              coauthors: Mapping[str, Counter[str]], together: set[tuple[str, str]], people: Mapping[str, Person],
              distinct: Mapping[str, set[str]]) -> tuple[dict[str, str], tuple[Merge, ...]]:
    """The pairs (most shared co-authors first) joined into people where every two names of a
    person stay alike, apart and not ``distinct``; each person's slug and ``Merge``."""
    cluster: dict[str, list[str]] = {}
    evidence: dict[int, Counter[str]] = {}
    for _, a, b, shared in pairs:
        one, two = cluster.get(a, [a]), cluster.get(b, [b])
        if one is two:
            evidence[id(one)].update(shared)
            continue
        if not all(compatible(parsed[x], parsed[y]) and (min(x, y), max(x, y)) not in together
                   and y not in distinct.get(x, ()) and x not in distinct.get(y, ()) for x in one for y in two):
            continue
        joined = one + two
        for slug in joined:
            cluster[slug] = joined
        found = evidence.pop(id(one), Counter()) + evidence.pop(id(two), Counter())
        found.update({s: coauthors[a][s] + coauthors[b][s] for s in shared})
        evidence[id(joined)] = found
    renamed: dict[str, str] = {}
    merges: list[Merge] = []
    names_of = {slug: canonical(counts[slug]) for slug in counts}
    seen: set[int] = set()
    for slug in sorted(cluster):
        members = cluster[slug]
        if id(members) in seen:
            continue
        seen.add(id(members))
        spellings: Counter[str] = Counter()
        for member in members:
            spellings.update(counts[member])
        owner = next((m for m in members if m in people), None)
        shown = people[owner].name if owner else canonical(spellings)
        target = owner or next(m for m in members if shown in counts[m])
        for member in members:
            if member != target:
                renamed[member] = target
        merges.append(Merge(
            name=shown,
            spellings=tuple(sorted(spellings.items(), key=lambda kv: (-kv[1], kv[0]))),
            evidence=tuple(names_of.get(s, s) for s, _ in sorted(evidence[id(members)].items(),
                                                                   key=lambda kv: (-kv[1], kv[0]))),
        ))
    merges.sort(key=lambda m: family_key(m.name))
    return renamed, tuple(merges)


def canonical(spellings: Mapping[str, int]) -> str:
    """The spelling a person is shown by: the most frequent; ties to the longest (the fullest,
    "Joshua B. Tenenbaum" before "J. Tenenbaum"), then the first in alphabetical order."""
    return min(spellings.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))[0]


def homonyms(papers: tuple[Paper, ...], authorship: Authorship, min_side: int = 2,
             series: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Names whose papers fall into separate co-author groups (the co-author graph of the name's
    papers: two papers are in one group when they share a co-author), each of ``min_side``
    papers or more: two people of one name, maybe (``authors.toml`` splits them). Likeliest
    first: groups whose co-authors never wrote together elsewhere in the catalog either (one
    person's separate students often did), then groups at different venue series."""
    by_author: dict[str, list[int]] = defaultdict(list)
    slugs_of = [authorship.slugs(paper) for paper in papers]
    for i, slugs in enumerate(slugs_of):
        for slug in dict.fromkeys(slugs):
            by_author[slug].append(i)
    found = []
    for slug, mine in by_author.items():
        if len(mine) < 2 * min_side:
            continue
        parent: dict[str, str] = {}

        def root(x: str) -> str:
            while parent.get(x, x) != x:
                parent[x] = parent.get(parent[x], parent[x])
                x = parent[x]
            return x

        def join(x: str, y: str) -> None:
            rx, ry = root(x), root(y)
            if rx != ry:
                parent[max(rx, ry)] = min(rx, ry)

        first: dict[int, str] = {}
        for i in mine:
            others = [s for s in dict.fromkeys(slugs_of[i]) if s != slug]
            if not others:
                continue
            first[i] = others[0]
            for other in others[1:]:
                join(others[0], other)

        def big_sides() -> list[list[int]]:
            sides: dict[str, list[int]] = defaultdict(list)
            for i, start in first.items():
                sides[root(start)].append(i)
            return sorted((side for side in sides.values() if len(side) >= min_side), key=len, reverse=True)

        split = big_sides()
        if len(split) < 2:
            continue
        # co-authors who wrote a paper together without this author join too
        coauthors = {s for i in mine for s in slugs_of[i] if s != slug}
        for slug_other in coauthors:
            for j in by_author[slug_other]:
                if slug in slugs_of[j]:
                    continue
                for other in slugs_of[j]:
                    if other in coauthors and other != slug_other:
                        join(slug_other, other)
        found.append((len(big_sides()) >= 2, apart(papers, split, series or {}), slug, mine, split))
    return tuple(_homonym_note(slug, mine, big, slugs_of, papers, strong, far)
                 for strong, far, slug, mine, big in sorted(found, key=lambda f: (not f[0], not f[1], -len(f[4][1]), f[2])))


def apart(papers: tuple[Paper, ...], sides: list[list[int]], series: Mapping[str, str]) -> bool:
    """Whether the two largest co-author groups publish in different venue series (``series``:
    venue id -> series, else the id without its year): "Jie Zhou" at CVPR with Jiwen Lu, at ACL
    with Fandong Meng."""
    found = [{series.get(papers[i].venue) or re.sub(r"-?\d{4}$", "", papers[i].venue) for i in side}
             for side in sides[:2]]
    return not (found[0] & found[1])


def venue_series(venues: Mapping[str, Any]) -> dict[str, str]:
    """venue id -> its series (``content.series``: by id, else by name: an imported
    "Proceedings of the Thirty-Second AAAI Conference…" is AAAI), for ``homonyms``."""
    found = {}
    for vid, venue in venues.items():
        by_id = series_of(vid)
        by_name = by_id or find_series(f"{venue.name} {venue.full_name}")
        found[vid] = by_id.series.id if by_id else by_name[0].id if by_name else ""
    return found


def _homonym_note(slug: str, mine: list[int], sides: list[list[int]], slugs_of: list[list[str]],
                  papers: tuple[Paper, ...], strong: bool, far: bool) -> str:
    names = Counter(name for i in mine for name, s in zip(papers[i].authors, slugs_of[i]) if s == slug)
    shown = canonical(names)
    spelled = {s: name for i in mine for name, s in zip(papers[i].authors, slugs_of[i])}

    def side(papers_of: list[int]) -> str:
        top = Counter(s for i in papers_of for s in slugs_of[i] if s != slug).most_common(2)
        return f"{len(papers_of)} papers with " + " and ".join(spelled[s] for s, _ in top)

    parts = "; ".join(side(s) for s in sides[:3]) + (f"; and {len(sides) - 3} more groups" if len(sides) > 3 else "")
    where = (", whose co-authors never wrote together elsewhere" if strong else "") + (
        ", at different venues" if far else "")
    return (f"{shown!r} ({len(mine)} papers) may be {len(sides)} people: separate co-author groups{where} ({parts}); "
            f"if so, split the name in {FILE} ([\"{shown} 0001\"] with coauthors, venues or papers)")


def author_slugs(papers: tuple[Paper, ...], people: tuple[Person, ...]) -> tuple[dict[str, str], dict[str, Person]]:
    """name -> its author's page slug for every name in the papers (each name slugged once),
    and the people of authors.toml by their page slug. A name is its own author
    (``author_key(name)``) unless it is a spelling of a person of authors.toml."""
    owners = spelling_owners(people)
    by_slug = {name_key(person.name): person for person in people if not person.number}
    keys: dict[str, str] = {}
    for paper in papers:
        for name in paper.authors:
            if name not in keys:
                key = name_key(name)
                person = owners.get(key)
                keys[name] = name_key(person.name) if person else key
    return keys, by_slug


def people_report(papers: tuple[Paper, ...], people: tuple[Person, ...],
                  venues: Mapping[str, Any] | None = None) -> tuple[list[str], list[str]]:
    """What ``papershelf check`` says of people: each merge with its evidence, and each name
    that may be two people (``homonyms``)."""
    authorship = identify(papers, people)
    return ([m.describe() for m in authorship.merges],
            list(homonyms(papers, authorship, series=venue_series(venues or {}))))


def merge_note(merges: tuple[Merge, ...]) -> str | None:
    """The build summary's line on merged spellings, when any were."""
    if not merges:
        return None
    spellings = sum(len(m.spellings) for m in merges)
    return (f"{spellings:,} spellings of {len(merges):,} people merged: they differ by a middle or given name's "
            f"initial and share co-authors (`papershelf check` lists each with its evidence; {FILE} can keep "
            "two apart with distinct)")


def spellings_of(papers: tuple[Paper, ...], authorship: Authorship) -> dict[str, Counter[str]]:
    """How often each spelling of each author (by page slug) occurs in the papers, in order met."""
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for paper in papers:
        for name, slug in zip(paper.authors, authorship.slugs(paper)):
            spellings[slug][name] += 1
    return spellings


def shown_authors(spellings: Mapping[str, Counter[str]], people: Mapping[str, Person],
                  min_papers: int = 1) -> dict[str, tuple[str, Person | None, bool]]:
    """slug -> (name shown, person of authors.toml or None, whether they have a page): a person
    of authors.toml under their name there, anyone else under ``canonical`` spelling; a page
    with ``min_papers`` papers (a paper names a person once: their spellings count their papers)."""
    return {key: (people[key].name if key in people else canonical(names), people.get(key),
                  sum(names.values()) >= min_papers) for key, names in spellings.items()}


def unmatched_people(people: Mapping[str, Person], authors: Collection[str]) -> tuple[str, ...]:
    """A note for each person of authors.toml whom no paper names (``authors``: the slugs of
    the papers' authors): a misspelling, or a paper that left."""
    return tuple(f"{FILE}:{person.line}: {person.name!r} is not an author of any paper, so no page shows "
                 "what the file says of them (check the spelling, or add an alias)" if not person.number else
                 f"{FILE}:{person.line}: no paper of {person.name!r} is {person.name + ' ' + person.number!r}'s "
                 "by the papers, coauthors and venues given, so they have no page"
                 for slug, person in people.items() if slug not in authors)


def family_key(name: str) -> tuple[str, str]:
    """(family name, whole name), accents folded, case ignored: how the index sorts. The family
    name is the last word, suffixes aside ("Martin Luther King Jr." -> "king")."""
    folded = ascii_lower(name)
    parts = folded.replace(",", " ").split()
    while len(parts) > 1 and parts[-1] in _SUFFIXES:
        parts.pop()
    return (parts[-1] if parts else "", " ".join(folded.split()))
