"""Who wrote which paper: authorship with a real archive's statistics and lab structure.

The targets (``AuthorshipParams``; defaults measured on a real 94,348-paper archive of ML,
vision, language and robotics conferences) are met by construction:

* **How many papers each author has** (``paper_counts``): ``distinct_per_paper × n``
  authors (distinct names, as the build counts them), ``single_share`` of them with one
  paper, the rest with 2 or more from a discrete Lomax (Pareto II) law whose two
  parameters are fitted so that the mean gives ``authors_per_paper × n`` author slots in
  all and the most prolific author of a ``reference_papers``-paper archive has
  ``max_papers`` (smaller archives have a smaller maximum, as a slice of a field does).
  The counts are the law's quantiles, so the statistics hold at any size, not just on
  average.
* **How many authors each paper has** (``authors_per_paper``): a negative binomial whose
  mean grows with the year (about 2.6 in 1995, 5 in 2025), plus a few large
  collaborations, adjusted by ±1 here and there so the slots add up exactly.
* **Namesakes**: a name with four or more papers is, with ``namesake_rate``, two people
  (two labs) who share it, as "Wei Wang" is many people.
* **Labs** (``assign``): the most prolific people head labs; a head is on nearly all of
  the lab's papers (``own_share`` of theirs; the rest they co-author elsewhere as
  collaborators). Each lab has a field and a span of years; its papers are matched to
  paper slots of venues of its field (and general ML/AI venues), close in year. The other
  people join labs by capacity (students with one paper, postdocs with a handful, a
  prolific person across several labs), each active over a window of the lab's papers in
  time order. Author order: students first, collaborators, the head last (mostly).
"""

from __future__ import annotations

import bisect
import functools
import math
import random
from dataclasses import dataclass

FIELDS = ("ml", "theory", "vision", "language", "speech", "robotics", "graphics", "data", "ai")
GENERAL = ("ml", "ai")  # venue classes that take papers of every field


@dataclass(frozen=True)
class AuthorshipParams:
    authors_per_paper: float = 3.9  # author slots a paper (mean)
    distinct_per_paper: float = 1.44  # distinct authors (names) per paper
    single_share: float = 0.61  # share of authors with exactly one paper
    max_papers: int = 270  # papers of the most prolific author ...
    reference_papers: int = 100_000  # ... in an archive of this many papers
    namesake_rate: float = 0.06  # names with 4+ papers that are two people
    own_share: float = 0.8  # share of a lab head's papers that are their lab's
    head_last: float = 0.85  # lab papers with the head as last author


# --------------------------------------------------------------------------- the counts


def _tail(nt: int, gamma: float, sigma: float) -> list[int]:
    """The ``nt`` quantiles (k >= 2) of the discrete Lomax law, largest first."""
    return [2 + int(sigma * (((i + 0.5) / nt) ** (-1.0 / gamma) - 1.0)) for i in range(nt)]


@functools.lru_cache(maxsize=16)
def fit_tail(params: AuthorshipParams) -> tuple[float, float]:
    """(gamma, sigma) of the Lomax tail: the mean and the maximum at ``reference_papers``."""
    n = params.reference_papers
    people = round(params.distinct_per_paper * n)
    nt = people - round(people * params.single_share)
    target = params.authors_per_paper * n - (people - nt)
    u = 0.5 / nt

    def sigma_for(gamma: float) -> float:
        return (params.max_papers - 2) / (u ** (-1.0 / gamma) - 1.0)

    def papers_in_tail(gamma: float, sigma: float) -> float:
        # The quantiles with k >= 2 + j are about nt (1 + j/sigma)^-gamma, up to the maximum.
        return nt * (2 + sum((1 + j / sigma) ** -gamma for j in range(1, params.max_papers - 1)))

    lo, hi = 1.01, 50.0  # the mean grows with gamma (sigma following the maximum)
    for _ in range(60):
        gamma = (lo + hi) / 2
        if papers_in_tail(gamma, sigma_for(gamma)) > target:
            hi = gamma
        else:
            lo = gamma
    gamma = (lo + hi) / 2
    return gamma, sigma_for(gamma)


def paper_counts(n: int, params: AuthorshipParams) -> list[int]:
    """Papers of each distinct author of an ``n``-paper archive, largest first."""
    people = max(1, round(params.distinct_per_paper * n))
    singles = round(people * params.single_share)
    gamma, sigma = fit_tail(params)
    tail = [min(k, n) for k in _tail(people - singles, gamma, sigma)] if people > singles else []
    return tail + [1] * singles


def _poisson(rng: random.Random, lam: float) -> int:
    if lam > 30:
        return max(0, round(rng.gauss(lam, math.sqrt(lam))))
    limit, k, p = math.exp(-lam), 0, rng.random()
    while p > limit:
        k += 1
        p *= rng.random()
    return k


def authors_per_paper(years: list[int], total: int, rng: random.Random) -> list[int]:
    """Authors of each paper (by its year), adding up to exactly ``total``."""
    n = len(years)
    age = [(min(max(y, 1995), 2025) - 1995) / 30 for y in years]  # 0 in 1995, 1 in 2025
    solo = [0.16 - 0.12 * a for a in age]  # single-author papers: 16 % in 1995, 4 % in 2025
    raw_mean = [2.6 + 2.4 * a for a in age]
    # The mean of 2 + X (papers with co-authors) is scaled so that the expected total is ``total``.
    with_coauthors = sum(1 - s for s in solo)
    scale = (total - sum(solo) - 2 * with_coauthors) / max(1e-9, sum((m - 2) * (1 - s) for m, s in
                                                                    zip(raw_mean, solo)))
    shape = 4.0
    counts = []
    for m, s in zip(raw_mean, solo):
        if rng.random() < 0.003:
            counts.append(rng.randint(15, 60))  # a large collaboration
            continue
        if rng.random() < s:
            counts.append(1)
            continue
        mu = max(0.05, (m - 2) * scale)
        counts.append(2 + _poisson(rng, rng.gammavariate(shape, mu / shape)))
    diff = total - sum(counts)
    while diff:
        i = rng.randrange(n)
        if diff > 0:
            counts[i] += 1
            diff -= 1
        elif counts[i] > 1:
            counts[i] -= 1
            diff += 1
    return counts


# --------------------------------------------------------------------------- weighted choice


class _Fenwick:
    """Weights that change, and a draw proportional to them (O(log n) each)."""

    def __init__(self, weights: list[int]):
        self.n = len(weights)
        self.tree = [0] * (self.n + 1)
        self.total = 0
        for i, w in enumerate(weights):
            self.add(i, w)
        self.top = 1 << max(0, self.n.bit_length() - 1)

    def add(self, i: int, delta: int) -> None:
        self.total += delta
        i += 1
        while i <= self.n:
            self.tree[i] += delta
            i += i & -i

    def find(self, value: int) -> int:
        """The index whose cumulative range holds ``value`` (0 <= value < total)."""
        pos, step = 0, self.top
        while step:
            nxt = pos + step
            if nxt <= self.n and self.tree[nxt] <= value:
                pos = nxt
                value -= self.tree[nxt]
            step >>= 1
        return pos


# --------------------------------------------------------------------------- labs


@dataclass
class Authorship:
    person_name: list[int]  # person -> index of their name (namesakes share one)
    authors: list[list[int]]  # paper -> its authors (persons), in order
    lab_field: list[str]  # paper -> the field of the lab that wrote it
    labs: int  # how many labs


def _field_weights(supply: dict[str, int]) -> dict[str, float]:
    """Lab fields in proportions that make the labs' venue choices meet the venues' papers."""
    weights = {f: float(supply.get(f, 0)) + (0.0 if f in GENERAL else 1.0) for f in FIELDS}
    for _ in range(30):
        demand = dict.fromkeys(FIELDS, 0.0)
        for field, weight in weights.items():
            for venue_class, p in _venue_mix(field):
                demand[venue_class] += weight * p
        for field in FIELDS:
            if demand[field] > 0:
                weights[field] *= (supply.get(field, 0) / demand[field]) ** 0.7
    return weights


def _venue_mix(field: str) -> tuple[tuple[str, float], ...]:
    """Where a lab of ``field`` publishes: (venue class, share)."""
    if field == "ml":
        return (("ml", 0.85), ("ai", 0.15))
    if field == "ai":
        return (("ai", 0.75), ("ml", 0.25))
    if field == "theory":
        return (("theory", 0.5), ("ml", 0.5))
    return ((field, 0.62), ("ml", 0.25), ("ai", 0.13))


def assign(papers: list[tuple[int, str]], counts: list[int], rng: random.Random,
           params: AuthorshipParams) -> Authorship:
    """Authors of each paper, given each paper's (year, venue class) and the papers of each
    distinct name (``paper_counts``; names are indexes into ``counts``)."""
    n = len(papers)
    # Names -> people: a few prolific names are two people (namesakes).
    person_name: list[int] = []
    person_count: list[int] = []
    for name, k in enumerate(counts):
        if k >= 4 and rng.random() < params.namesake_rate:
            first = max(2, min(k - 1, round(k * rng.uniform(0.5, 0.85))))
            person_name += [name, name]
            person_count += [first, k - first]
        else:
            person_name.append(name)
            person_count.append(k)
    people = len(person_count)
    order = sorted(range(people), key=lambda p: (-person_count[p], rng.random()))

    # Heads of labs, most prolific first, until their own papers cover the archive.
    heads: list[int] = []
    lab_papers: list[int] = []
    covered = 0
    for p in order:
        if covered >= n:
            break
        own = max(1, min(person_count[p], round(person_count[p] * params.own_share), n - covered))
        heads.append(p)
        lab_papers.append(own)
        covered += own
    if covered < n:  # a tiny archive: the heads write more of their own
        lab_papers[0] += n - covered
        person_count[heads[0]] = max(person_count[heads[0]], lab_papers[0])
    labs = len(heads)
    is_head = set(heads)

    # Each lab's field and years; its papers are tickets matched to paper slots.
    supply: dict[str, int] = {}
    years_by_class: dict[str, list[int]] = {}
    for year, venue_class in papers:
        supply[venue_class] = supply.get(venue_class, 0) + 1
        years_by_class.setdefault(venue_class, []).append(year)
    for values in years_by_class.values():
        values.sort()
    weights = _field_weights(supply)
    fields = [f for f in FIELDS if weights[f] > 0]
    cum = [0.0]
    for f in fields:
        cum.append(cum[-1] + weights[f])
    all_years = sorted(y for y, _ in papers)
    lab_field: list[str] = []
    lab_anchor: list[int] = []
    lab_span: list[float] = []
    tickets: list[tuple[str, float, float, int]] = []  # (venue class, year, tie-break, lab)
    for lab, m in enumerate(lab_papers):
        field = fields[min(len(fields) - 1, bisect.bisect(cum, rng.random() * cum[-1]) - 1)]
        lab_field.append(field)
        mix = _venue_mix(field)
        primary = years_by_class.get(mix[0][0]) or all_years
        anchor = primary[rng.randrange(len(primary))]
        span = min(25.0, 3.0 + person_count[heads[lab]] / 6.0 + rng.uniform(0, 4))
        lab_anchor.append(anchor)
        lab_span.append(span)
        for _ in range(m):
            u, venue_class = rng.random(), mix[-1][0]
            for c, share in mix:
                if u < share:
                    venue_class = c
                    break
                u -= share
            tickets.append((venue_class, anchor + rng.uniform(-span / 2, span / 2), rng.random(), lab))
    # Tickets of classes with too many move to classes with too few (keeping their year).
    by_class: dict[str, list[int]] = {}
    for i, t in enumerate(tickets):
        by_class.setdefault(t[0], []).append(i)
    surplus: list[int] = []
    for venue_class, members in sorted(by_class.items()):
        extra = len(members) - supply.get(venue_class, 0)
        if extra > 0:
            rng.shuffle(members)
            surplus += members[:extra]
            by_class[venue_class] = members[extra:]
    rng.shuffle(surplus)
    for venue_class in sorted(supply):
        members = by_class.setdefault(venue_class, [])
        while len(members) < supply[venue_class]:
            members.append(surplus.pop())
    lab_of = [0] * n
    slots_by_class: dict[str, list[int]] = {}
    for j, (year, venue_class) in enumerate(papers):
        slots_by_class.setdefault(venue_class, []).append(j)
    for venue_class, slots in slots_by_class.items():
        slots.sort(key=lambda j: (papers[j][0], rng.random()))
        ranked = sorted(by_class[venue_class], key=lambda i: (tickets[i][1], tickets[i][2]))
        for j, i in zip(slots, ranked):
            lab_of[j] = tickets[i][3]
    paper_lab_field = [lab_field[lab_of[j]] for j in range(n)]

    # Slots: the head on each of their lab's papers; holes for collaborators (heads' other papers).
    sizes = authors_per_paper([y for y, _ in papers], sum(person_count), rng)
    authors: list[list[int]] = [[heads[lab_of[j]]] for j in range(n)]
    spare = [(heads[lab], person_count[heads[lab]] - m) for lab, m in enumerate(lab_papers)]
    pool = [p for p, s in spare for _ in range(max(0, s))]
    open_papers = [j for j in range(n) if sizes[j] > 1]
    rng.shuffle(open_papers)
    collab_holes = [0] * n
    placed = 0
    for _ in range(2):  # a paper takes a second collaborator only when every paper has one
        for j in open_papers:
            if placed < len(pool) and collab_holes[j] < sizes[j] - 1:
                collab_holes[j] += 1
                placed += 1
    capacity = [max(0, sizes[j] - 1 - collab_holes[j]) for j in range(n)]
    lab_members_capacity = [0] * labs
    papers_of_lab: list[list[int]] = [[] for _ in range(labs)]
    for j in range(n):
        papers_of_lab[lab_of[j]].append(j)
        lab_members_capacity[lab_of[j]] += capacity[j]
    for lab_list in papers_of_lab:
        lab_list.sort(key=lambda j: (papers[j][0], j))

    # Members join labs by remaining capacity; each is active over a window of the lab's papers.
    tree = _Fenwick(lab_members_capacity)
    entries: list[list[tuple[float, int]]] = [[] for _ in range(labs)]
    person_lab = {head: lab for lab, head in enumerate(heads)}
    leftovers: list[int] = []
    for p in order:
        if p in is_head:
            continue
        k = person_count[p]
        while k > 0:
            if tree.total <= 0:
                leftovers += [p] * k
                break
            lab = tree.find(rng.randrange(tree.total))
            person_lab[p] = lab
            m = len(papers_of_lab[lab])
            take = min(k, lab_members_capacity[lab], m)
            lab_members_capacity[lab] -= take
            tree.add(lab, -take)
            width = min(float(m), max(float(take), take * rng.uniform(1.2, 2.5)))
            start = rng.uniform(0, m - width)
            step = width / take
            entries[lab].extend((start + (i + rng.random()) * step, p) for i in range(take))
            k -= take
    for lab in range(labs):
        queue = sorted(entries[lab])
        carry: list[int] = []
        pos = 0
        for j in papers_of_lab[lab]:
            room = capacity[j]
            listed = authors[j]
            kept: list[int] = []
            for p in carry:
                if room and p not in listed:
                    listed.append(p)
                    room -= 1
                else:
                    kept.append(p)
            carry = kept
            while room and pos < len(queue):
                p = queue[pos][1]
                pos += 1
                if p in listed:
                    carry.append(p)
                else:
                    listed.append(p)
                    room -= 1
            capacity[j] = room
        leftovers += carry + [p for _, p in queue[pos:]]
    # Collaborators and what did not fit: into the remaining holes, near in field and year.
    leftovers += pool
    holes = [j for j in range(n) for _ in range(capacity[j] + collab_holes[j])]
    holes.sort(key=lambda j: (paper_lab_field[j], papers[j][0], rng.random()))

    def near(p: int) -> tuple[str, float, float]:  # a year in the window of the person's lab
        lab = person_lab.get(p)
        if lab is None:
            return ("~", 0.0, rng.random())
        return (lab_field[lab], lab_anchor[lab] + rng.uniform(-lab_span[lab] / 2, lab_span[lab] / 2), 0.0)

    leftovers.sort(key=near)
    free: list[int] = []
    unplaced: list[int] = []
    for j, p in zip(holes, leftovers):
        if p in authors[j]:
            unplaced.append(p)
            free.append(j)
        else:
            authors[j].append(p)
    free += holes[len(leftovers):]
    unplaced += leftovers[len(holes):]
    for p in unplaced:
        tries = [rng.randrange(len(free)) for _ in range(min(len(free), 30))]
        i = next((i for i in tries if p not in authors[free[i]]), None)
        if i is None:
            i = next((i for i, j in enumerate(free) if p not in authors[j]), None)
        if i is not None:
            authors[free[i]].append(p)
            free[i] = free[-1]
            free.pop()
        else:  # every free slot is on a paper that already lists them: one paper more for them
            j = next((j for j in rng.sample(range(n), n) if p not in authors[j]), None)
            if j is not None:
                authors[j].append(p)

    # Namesakes (two people, one name) on one paper: one of them trades places with an author elsewhere.
    for j in range(n):
        names = [person_name[p] for p in authors[j]]
        if len(set(names)) == len(names):
            continue
        seen: set[int] = set()
        for i, p in enumerate(authors[j]):
            if person_name[p] not in seen:
                seen.add(person_name[p])
                continue
            for _ in range(1000):
                j2 = rng.randrange(n)
                others = {person_name[q] for q in authors[j2]}
                i2 = rng.randrange(1, len(authors[j2])) if len(authors[j2]) > 1 else 0
                q = authors[j2][i2]
                if j2 != j and person_name[p] not in others and person_name[q] not in seen:
                    authors[j][i], authors[j2][i2] = q, p
                    seen.add(person_name[q])
                    break

    # Order: students first (fewest papers), then the others, the head last (mostly).
    for j in range(n):
        listed = authors[j]
        head = listed[0]
        rest = sorted(listed[1:], key=lambda p: (person_count[p] + rng.random() * 3, p))
        if rng.random() < params.head_last:
            authors[j] = rest + [head]
        else:
            rest.insert(rng.randrange(len(rest) + 1), head)
            authors[j] = rest
    return Authorship(person_name, authors, paper_lab_field, labs)
