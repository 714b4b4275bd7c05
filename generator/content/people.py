"""The people catalog: ``content/authors.toml`` (optional) read and validated into ``Person``s.

``authors.toml`` holds one table per person, named by the name their author page shows::

    ["Ada Example"]
    orcid = "0000-0002-1825-0097"          # or "https://orcid.org/0000-0002-1825-0097"
    homepage = "https://example.org/ada"
    affiliation = "University of Examples"
    aliases = ["A. Example", "Ada B. Example"]

* Every field is optional; ``aliases`` are other spellings of the name as papers give it.
  The name and its aliases are one author: one page, shown under the table's name.
* Names match as author names do (``slugs.author_key``): accents, case and punctuation
  aside, so "Ada Exämple" needs no alias.
* A spelling (a name or an alias) may belong to one person only; a second is an error
  naming both, as are unknown fields, an ORCID iD that is malformed or fails its check
  digit, and a homepage that is not an http(s) URL (``schema.PERSON_FIELDS``).

Whether each person is an author of some paper is for ``derive`` to tell (a note, not an
error: removing a paper must not break the build).
"""

from __future__ import annotations

from typing import Any

from ..errors import ContentError, Problems
from . import schema
from .frontmatter import type_name
from .model import Person
from .slugs import author_key
from .taxonomy import SectionLines, load_toml

FILE = "authors.toml"


def parse_people(text: str, file_label: str = FILE) -> tuple[Person, ...]:
    """The people of ``authors.toml`` in file order; a ``ContentError`` lists every problem."""
    text = text.removeprefix("\ufeff")
    data = load_toml(text, file_label)
    lines = SectionLines(text)
    problems = Problems()
    people: list[Person] = []
    owners: dict[str, tuple[str, int | None, bool]] = {}  # author key -> (name, line, as the name?) of its person
    for raw_name, value in data.items():
        header = lines.header(raw_name) or lines.top_level_key(raw_name)
        field = _quoted(raw_name)
        if not isinstance(value, dict):
            problems.add(file_label, f"expected a table [{field}] of the person's orcid, homepage, affiliation "
                                     f"and aliases, found {type_name(value)}", line=header, field=field)
            continue
        try:
            name = schema.line_text(raw_name)
        except schema.Invalid as exc:
            problems.add(file_label, f"the table's name is the person's name: {exc}", line=header, field=field)
            continue
        clean, ok = schema.check_fields(
            value, schema.PERSON_FIELDS, file=file_label, problems=problems, prefix=f"{field}.",
            line_of=lambda key, table=raw_name, at=header: lines.key(table, key) or at)
        spellings = [(name, header, field)]
        spellings += [(alias, lines.key(raw_name, "aliases") or header, f"{field}.aliases")
                      for alias in clean.get("aliases", ())]
        own: set[str] = set()
        aliases: list[str] = []
        for spelling, line, where in spellings:
            key = author_key(spelling)
            if key in own:
                continue  # the same author as a spelling before it: nothing to map
            other = owners.get(key)
            if other is not None:
                problems.add(file_label, _claimed(spelling, spelling is name, other), line=line, field=where)
                ok = False
                continue
            owners[key] = (name, header, spelling is name)
            own.add(key)
            if spelling is not name:
                aliases.append(spelling)
        if ok:
            people.append(Person(name=name, orcid=clean["orcid"], homepage=clean["homepage"],
                                 affiliation=clean["affiliation"], aliases=tuple(aliases), line=header))
    if problems:
        raise ContentError(problems.items)
    return tuple(people)


def spelling_owners(people: tuple[Person, ...]) -> dict[str, Person]:
    """The person each spelling belongs to, by author key (``slugs.author_key``)."""
    owners: dict[str, Person] = {}
    for person in people:
        for spelling in (person.name, *person.aliases):
            owners.setdefault(author_key(spelling), person)
    return owners


def same_person_twice(authors: tuple[str, ...], owners: dict[str, Person]) -> str | None:
    """Why a paper's author list names one person of ``authors.toml`` twice (by two of their
    spellings), or None."""
    seen: dict[str, str] = {}
    for name in authors:
        person = owners.get(author_key(name))
        if person is None:
            continue
        if person.name in seen:
            return (f"{seen[person.name]!r} and {name!r} are one person in {FILE} ({person.name!r}, line "
                    f"{person.line}): list them once, or remove the alias if they are two people")
        seen[person.name] = name
    return None


def _claimed(spelling: str, is_name: bool, other: tuple[str, int | None, bool]) -> str:
    owner, line, by_name = other
    where = f" (line {line})" if line else ""
    if is_name and by_name:
        return (f"{spelling!r} is the same author as {owner!r}{where}: names that differ only in accents, "
                "case or punctuation are one author; describe them in one table")
    what = "the name" if by_name else "an alias"
    return f"{spelling!r} is already {what} of {owner!r}{where}: a spelling can name one person only"


def _quoted(name: Any) -> str:
    """A table name as TOML writes it in a key path: ``"Ada Example"``."""
    return '"' + str(name).replace("\\", "\\\\").replace('"', '\\"') + '"'
