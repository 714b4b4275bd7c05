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

Merge and split rules (``RULE_FIELDS``; ``derive.people`` applies them):

* ``distinct = ["William Cohen"]``: spellings that are someone else, never merged with this
  person by the build's own merging (spellings differing by a middle or given name's initial
  that share a co-author are otherwise one person);
* a table named with a number, dblp's convention (``["Jie Zhou 0001"]``), is one of several
  people of that name: ``papers`` (paper slugs), ``coauthors`` (names) and ``venues`` (venue
  ids) say which papers are theirs; the other papers of the name stay with the plain name.

Whether each person is an author of some paper is for ``derive`` to tell (a note, not an
error: removing a paper must not break the build), except for a person with a rule: a rule
naming an unknown person, paper or venue is an error (``check_rules``, file and line).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from ..errors import ContentError, Problems
from . import schema
from .frontmatter import type_name
from .model import Person
from .slugs import author_key
from .taxonomy import SectionLines, load_toml

FILE = "authors.toml"
NUMBERED = re.compile(r"^(?P<name>.*\S)\s+(?P<number>\d{4})$")  # "Jie Zhou 0001"


def _slug_list(value: Any) -> tuple[str, ...]:
    """Paper slugs or venue ids: a list of text, each once."""
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, list):
        raise schema.Invalid(f"expected a list of ids, found {type_name(value)}")
    items = [schema.line_text(item) for item in value]
    return tuple(dict.fromkeys(items))


RULE_FIELDS = schema.PERSON_FIELDS + (
    schema.Field("distinct", schema.alias_list, default=(), doc="Spellings that are someone else: never merged."),
    schema.Field("papers", _slug_list, default=(), doc="A numbered person's papers (slugs)."),
    schema.Field("coauthors", schema.alias_list, default=(), doc="A numbered person's co-authors."),
    schema.Field("venues", _slug_list, default=(), doc="A numbered person's venues (ids)."),
)
SPLIT_FIELDS = ("papers", "coauthors", "venues")


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
            value, RULE_FIELDS, file=file_label, problems=problems, prefix=f"{field}.",
            line_of=lambda key, table=raw_name, at=header: lines.key(table, key) or at)
        rule_lines = tuple((key, lines.key(raw_name, key) or header)
                           for key in ("distinct", *SPLIT_FIELDS) if key in value)
        numbered = NUMBERED.match(name)
        if numbered:
            if ok and not any(clean[key] for key in SPLIT_FIELDS):
                problems.add(file_label, f"{name!r} is one of several people named {numbered['name']!r} (dblp's "
                             "numbering): say which papers are theirs with papers, coauthors or venues",
                             line=header, field=field)
                ok = False
            if ok and (clean["aliases"] or clean["distinct"]):
                problems.add(file_label, "a numbered person takes the spellings of their name: aliases and "
                             "distinct belong in the table of the name itself", line=header, field=field)
                ok = False
            key = author_key(name)
            if key in owners:
                problems.add(file_label, _claimed(name, True, owners[key]), line=header, field=field)
                ok = False
            owners[key] = (name, header, True)
            if ok:
                people.append(Person(name=numbered["name"], number=numbered["number"], orcid=clean["orcid"],
                                     homepage=clean["homepage"], affiliation=clean["affiliation"], line=header,
                                     papers=clean["papers"], coauthors=clean["coauthors"], venues=clean["venues"],
                                     rule_lines=rule_lines))
            continue
        if ok and any(clean[key] for key in SPLIT_FIELDS):
            problems.add(file_label, f"papers, coauthors and venues split a name into numbered people: name the "
                         f"table {name + ' 0001'!r} (and the namesake {name + ' 0002'!r})", line=header, field=field)
            ok = False
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
                                 affiliation=clean["affiliation"], aliases=tuple(aliases), line=header,
                                 distinct=clean["distinct"], rule_lines=rule_lines))
    if problems:
        raise ContentError(problems.items)
    return tuple(people)


def person_slug(person: Person) -> str:
    """The slug of a person's page: their name's, with the number of a numbered person."""
    return author_key(f"{person.name} {person.number}" if person.number else person.name)


def spelling_owners(people: tuple[Person, ...]) -> dict[str, Person]:
    """The person each spelling belongs to, by author key (``slugs.author_key``); numbered
    people own no spelling (their rules pick their papers: ``derive.people``)."""
    owners: dict[str, Person] = {}
    for person in people:
        if person.number:
            continue
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


def paper_slug_of(ref: str) -> str:
    """A paper named in a rule: its slug, also as "papers/<slug>.md" or "<venue>/<slug>"."""
    return ref.rsplit("/", 1)[-1].removesuffix(".md")


def check_rules(people: tuple[Person, ...], papers: Iterable[Any], venues: Mapping[str, Any],
                problems: Problems, file_label: str = FILE) -> None:
    """Errors (file, line, field) for each merge or split rule naming an unknown person, paper or
    venue: a rule that matches nothing would silently do nothing, or the wrong thing."""
    papers = tuple(papers)
    authors = {author_key(name) for paper in papers for name in paper.authors}
    by_slug = {paper.slug: paper for paper in papers}
    for person in people:
        if not (person.number or person.distinct):
            continue
        line_of = dict(person.rule_lines)
        field = _quoted(f"{person.name} {person.number}" if person.number else person.name)
        key = author_key(person.name)
        if key not in authors:
            problems.add(file_label, f"{person.name!r} is not an author of any paper, so its rule applies to "
                         "nothing (check the spelling)", line=person.line, field=field)
            continue
        for other in person.distinct:
            if author_key(other) == key:
                problems.add(file_label, f"{other!r} differs from {person.name!r} only in accents, case or "
                             "punctuation: always one author (a numbered table splits a name)",
                             line=line_of.get("distinct"), field=f"{field}.distinct")
            elif author_key(other) not in authors:
                problems.add(file_label, f"{other!r} is not an author of any paper (check the spelling)",
                             line=line_of.get("distinct"), field=f"{field}.distinct")
        for name in person.coauthors:
            if author_key(name) not in authors:
                problems.add(file_label, f"{name!r} is not an author of any paper (check the spelling)",
                             line=line_of.get("coauthors"), field=f"{field}.coauthors")
        for slug in person.papers:
            paper = by_slug.get(paper_slug_of(slug))
            if paper is None:
                problems.add(file_label, f"no paper {slug!r} (papers are named by their file's name, "
                             "papers/<slug>.md)", line=line_of.get("papers"), field=f"{field}.papers")
            elif key not in {author_key(name) for name in paper.authors}:
                problems.add(file_label, f"{person.name!r} is not an author of the paper {slug!r}",
                             line=line_of.get("papers"), field=f"{field}.papers")
        for venue in person.venues:
            if venue not in venues:
                problems.add(file_label, f"unknown venue {venue!r} (venues are named by their id, "
                             "venues/<id>.md)", line=line_of.get("venues"), field=f"{field}.venues")


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
