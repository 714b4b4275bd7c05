"""Counting refs for the pages' breakdowns (a venue's tags, an author's co-authors): most
papers first, then by name."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True, slots=True)
class Count:
    """A thing and how many papers it has (tag breakdowns, co-authors)."""

    item: object  # a TagRef, AuthorRef or VenueRef of ``views``
    count: int


def count_items(items: Iterable) -> tuple[Count, ...]:
    """How often each item occurs: most first, then by name (ties: first met).

    The same as sorting ``Counter(items)``, but tallied by identity first: refs are frozen
    dataclasses, whose generated ``__hash__`` is Python code, and lists repeat the same ref
    objects, so each distinct object is hashed once instead of once per occurrence. Equal
    but distinct objects are then merged into the first one met, as ``Counter`` does.
    """
    items = list(items)
    tally = Counter(map(id, items))
    first = dict(zip(map(id, items), items))  # the list keeps every object (and so its id) alive
    counter: dict = {}
    for key, n in tally.items():
        item = first[key]
        counter[item] = counter.get(item, 0) + n
    return tuple(Count(item, n) for item, n in sorted(counter.items(), key=_order))


def ref_counts(refs: Iterable, exclude: object = None) -> tuple[Count, ...]:
    """``count_items`` of refs made by ``derive`` (``exclude``, if given, left out).

    ``derive`` makes one ref per tag, venue and author (refs of different ones are never equal):
    counted by identity, the same result as ``count_items`` without a Python ``__hash__`` per item.
    """
    refs = list(refs)
    tally = Counter(map(id, refs))
    if exclude is not None:
        tally.pop(id(exclude), None)
    ref_of = dict(zip(map(id, refs), refs))  # the list keeps every ref (and so its id) alive
    counted = [(ref_of[key], n) for key, n in tally.items()]
    return tuple(Count(ref, n) for ref, n in sorted(counted, key=_order))


def _order(entry: tuple) -> tuple[int, str]:
    item, n = entry
    return (-n, item.name.casefold())
