"""Who the authors are: each name in the papers to its author's page slug, with what
``authors.toml`` says of the person (``content.people``) made ready to show.

Without ``authors.toml`` an author is a name up to accents, case and punctuation
(``content.slugs.author_key``); a person of the file also owns their aliases, and their page
is the slug of the name the file gives them. ``derive.views`` turns these into ``AuthorRef``s.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Collection, Mapping

from ..content.model import Paper, Person
from ..content.people import FILE, spelling_owners
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


def author_slugs(papers: tuple[Paper, ...], people: tuple[Person, ...]) -> tuple[dict[str, str], dict[str, Person]]:
    """name -> its author's page slug for every name in the papers (each name slugged once),
    and the people of authors.toml by their page slug. A name is its own author
    (``author_key(name)``) unless it is a spelling of a person of authors.toml."""
    owners = spelling_owners(people)
    by_slug = {author_key(person.name): person for person in people}
    keys: dict[str, str] = {}
    for paper in papers:
        for name in paper.authors:
            if name not in keys:
                key = author_key(name)
                person = owners.get(key)
                keys[name] = author_key(person.name) if person else key
    return keys, by_slug


def spellings_of(papers: tuple[Paper, ...], keys: Mapping[str, str]) -> dict[str, Counter[str]]:
    """How often each spelling of each author (by page slug) occurs in the papers, in order met."""
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for paper in papers:
        for name in paper.authors:
            spellings[keys[name]][name] += 1
    return spellings


def unmatched_people(people: Mapping[str, Person], authors: Collection[str]) -> tuple[str, ...]:
    """A note for each person of authors.toml whom no paper names (``authors``: the slugs of
    the papers' authors): a misspelling, or a paper that left."""
    return tuple(f"{FILE}:{person.line}: {person.name!r} is not an author of any paper, so no page shows "
                 "what the file says of them (check the spelling, or add an alias)"
                 for slug, person in people.items() if slug not in authors)


def family_key(name: str) -> tuple[str, str]:
    """(family name, whole name), accents folded, case ignored: how the index sorts. The family
    name is the last word, suffixes aside ("Martin Luther King Jr." -> "king")."""
    folded = ascii_lower(name)
    parts = folded.replace(",", " ").split()
    while len(parts) > 1 and parts[-1] in _SUFFIXES:
        parts.pop()
    return (parts[-1] if parts else "", " ".join(folded.split()))
