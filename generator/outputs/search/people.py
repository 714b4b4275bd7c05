"""The people of the search: who a query that names a person means (issue 32, "the person first").

``people_files`` writes ``search/people/<n>.json``: ``{family: [person, ...]}``, each person
filed under the family name (``people.family_key``'s, folded as the index folds:
``tokens.tokenize``) of each of their spellings, the files chosen by
``ids.key_file`` of its first ``KEY_CHARS`` letters. A person is
``[name, page path, first year, last year, main venues, refs]``: the name their page gives
(``AuthorRef.full_name``: a numbered namesake's with its number, "Jie Zhou 0001", the plain
name then among the other spellings, which the query spells), ``AuthorRef.path`` (below
``authors/``), the years of their papers, up to three venue series by papers ("ACL · EMNLP"),
and their papers' refs, each the difference from the
previous one; a seventh item lists their other spellings when there are any.

The page looks up the file of each word of a short query and shows a card for every person
whose name the query spells in full, in any order, "family, given" or with initials
("Y. Bengio"): the people read from the derived data (``SiteData.authors``, the people
with a page), never derived again here.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Mapping

from ...content.series import series_of
from ...derive.people import family_key
from ...derive.trends import series
from ...derive.views import SiteData
from .ids import key_file
from ...content.words import tokenize

PEOPLE_BYTES = 6_000  # about 2.5 kB gzip per file
KEY_CHARS = 3  # a family name's file is chosen by its first letters: typing "zho", "zhou" reads one file


def family_token(name: str) -> str:
    """The family name as the index folds words: the last word of ``people.family_key``'s
    family name (suffixes aside: "Martin Luther King Jr." -> "king", "Smith-Jones" -> "jones"),
    a word the page's query words (``nameWords``) can be."""
    words = tokenize(family_key(name)[0].replace("-", " "))
    return words[-1] if words else ""


def series_name(venue) -> str:
    """The series of a venue ref (a track's: its venue's): a known series' short name
    (``content.series``: "ACL" for acl-2022 and findings-acl-2022), else the venue's name
    without its year or edition (``derive.trends.series``: "ACL 2022" -> "ACL")."""
    base = venue.base or venue
    found = series_of(base.id)
    return found.series.short if found is not None else series(base.name)


def people_files(site: SiteData, ref_of: Mapping[str, int], files: dict[str, str]) -> int:
    """Adds the people files to ``files``; returns how many there are."""
    by_key: dict[str, list[list]] = {}
    for author in site.authors:
        refs = sorted(ref_of[p.slug] for p in author.papers if p.slug in ref_of)
        if not refs or not author.ref.path:
            continue
        years = [p.venue.year for p in author.papers]
        venues = Counter(series_name(p.venue) for p in author.papers)
        main = " · ".join(name for name, _ in sorted(venues.items(), key=lambda kv: (-kv[1], kv[0]))[:3])
        deltas = [refs[0]] + [b - a for a, b in zip(refs, refs[1:])]
        # The name their page gives: a numbered namesake's with its number ("Jie Zhou 0001"),
        # then spelled by the plain name among the others (the query never types the number).
        name = author.ref.full_name
        spellings = [author.ref.name, *author.other_names]
        entry: list = [name, author.ref.path, min(years), max(years), main, deltas]
        others = [n for n in dict.fromkeys(spellings) if n != name]
        if others:
            entry.append(others)
        for family in {family_token(n) for n in spellings} - {""}:
            by_key.setdefault(family, []).append(entry)
    texts = {key: json.dumps(entries, separators=(",", ":"), ensure_ascii=False) for key, entries in by_key.items()}
    count = max(1, -(-sum(len(k) + len(t) + 4 for k, t in texts.items()) // PEOPLE_BYTES))
    shards: list[list[str]] = [[] for _ in range(count)]
    for key in sorted(texts):
        shards[key_file(key[:KEY_CHARS], count)].append(json.dumps(key, ensure_ascii=False) + ":" + texts[key])
    for n, parts in enumerate(shards):
        files[f"search/people/{n}.json"] = "{" + ",".join(parts) + "}"
    return count
