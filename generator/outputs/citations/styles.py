"""Formatted references to paste into a paper (``format_reference``): APA, Chicago
(author-date) and ACL, each as plain text and as HTML (the container title in italics).

Each style is its CSL style (citation-style-language/styles, CC BY-SA 3.0) as citeproc-js,
the CSL processor of Zotero and Mendeley, renders a conference paper: ``apa.csl`` (APA 7th
edition), ``chicago-author-date.csl`` (Chicago 18th edition, author-date),
``association-for-computational-linguistics.csl`` (the ACL Anthology's). They are written out
here for the one kind of item a catalog holds (authors, title, proceedings, year, URL, place)
because a general CSL processor in Python (citeproc-py) took 4–40 ms per paper and style;
``tests/outputs/test_citation_styles.py`` checks these functions against citeproc-js's output
for the same items (``tests/outputs/citation_styles_reference.json``). The rules:

========  ==========================================  ==========================  ============
          authors                                     title                       et al.
========  ==========================================  ==========================  ============
APA       Family, I. I., …, & Family, I.              as written                  21+: 19, …, last
Chicago   Family, Given, Given Family, and Given …    “Headline Style.”           7+: 3, et al.
ACL       Given Family, …, and Given Family           as written                  20+: 19, et al.
========  ==========================================  ==========================  ============

A paper without authors starts with its title (APA, Chicago) or its year (ACL). Titles are
the plain text the page shows (math as linear text, no LaTeX), with typographic quotes. The
URL is the paper's own (its best link), not the catalog page: a reference names the work.
One difference from citeproc-js on purpose: no period after a closing ellipsis ("science…."),
which every provisional paper's title (its first words) would get.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Sequence

from markupsafe import Markup, escape

from ...derive.views import PaperView
from .links import best_link
from .names import name_parts
from .plain import one_line, text_as_shown
from .style_text import CLOSING, closed, initials, quoted_inside_quotes, smart_quotes, spaced_initials, title_case


@dataclass(frozen=True, slots=True)
class Name:
    """An author as CSL sees one: ``family`` (with no ``given``: a one-part name, shown as is)."""

    family: str
    given: str = ""
    particle: str = ""  # "van", "de la": a non-dropping particle, kept before the family name
    suffix: str = ""  # "Jr.", "III"


@dataclass(frozen=True, slots=True)
class Reference:
    """What a formatted reference is made of."""

    title: str  # plain text
    authors: tuple[Name, ...]
    container: str  # the proceedings: the venue's full name
    year: str
    url: str | None = None
    place: str | None = None


@dataclass(frozen=True, slots=True)
class FormattedCitation:
    """One style's reference: ``text`` to paste anywhere, ``html`` for the page (``text``
    with the container title in ``<i>``)."""

    id: str  # "apa": for element ids
    name: str  # "APA": for headings and buttons
    hint: str  # "7th edition": which form of the style
    text: str
    html: Markup


@functools.lru_cache(maxsize=1 << 16)
def author_name(author: str) -> Name:
    """An author as the BibTeX export reads the name (``names.name_parts``): "Ludwig van
    Beethoven" → given "Ludwig", particle "van", family "Beethoven"; "Martin Luther King
    Jr." → suffix "Jr."; one word (or a name BibTeX cannot read) → family only."""
    parts = name_parts(author)
    if parts is None:
        return Name(one_line(author))

    def text(words: Sequence[str]) -> str:
        return " ".join(words).replace("{", "").replace("}", "")

    return Name(family=text(parts.last), given=text(parts.first), particle=text(parts.von),
                suffix=text(parts.jr))


def _typographic(name: Name) -> Name:
    """A name with typographic apostrophes ("O’Neil"), as every style prints it."""
    if "'" not in name.family + name.given + name.particle:
        return name
    return Name(smart_quotes(name.family), smart_quotes(name.given), smart_quotes(name.particle), name.suffix)


def reference_for(view: PaperView, place: str | None = None) -> Reference:
    """The reference of a paper: its title as the page shows it, authors, venue, best link
    and ``place``, where the venue took place."""
    venue = view.venue
    return Reference(
        title=text_as_shown(view.paper.title),
        authors=tuple(author_name(a) for a in view.paper.authors),
        container=one_line(venue.full_name),
        year=str(venue.year),
        url=best_link(view),
        place=one_line(place) if place else None,
    )


# --------------------------------------------------------------------------- output


class _Out:
    """Text runs, some in italics, written out as plain text and as HTML."""

    __slots__ = ("runs",)

    def __init__(self) -> None:
        self.runs: list[tuple[str, bool]] = []

    def add(self, text: str, italic: bool = False) -> _Out:
        if text:
            self.runs.append((text, italic))
        return self

    def result(self, style_id: str, name: str, hint: str) -> FormattedCitation:
        text = "".join(t for t, _ in self.runs)
        html = "".join(f"<i>{escape(t)}</i>" if italic else str(escape(t)) for t, italic in self.runs)
        return FormattedCitation(style_id, name, hint, text, Markup(html))


def _container(out: _Out, container: str) -> None:
    """The container title in italics and its closing period outside them."""
    out.add(container, italic=True)
    if not container.endswith(CLOSING):
        out.add(".")


def _join(names: Sequence[str], last: str, comma_before_last: bool) -> str:
    """``a, b, last c``: ``last`` is the word before the last name ("and", "&")."""
    if len(names) == 1:
        return names[0]
    head = ", ".join(names[:-1])
    return f"{head}{',' if comma_before_last else ''} {last} {names[-1]}"


def _given_family(name: Name) -> str:
    """"Ludwig van Beethoven", "Martin Luther King Jr."."""
    return " ".join(p for p in (name.given, name.particle, name.family, name.suffix) if p)


# --------------------------------------------------------------------------- APA


def _apa_name(name: Name) -> str:
    if not name.given:
        return " ".join(p for p in (name.particle, name.family) if p)
    family = " ".join(p for p in (name.particle, name.family) if p)
    return ", ".join(p for p in (family, initials(name.given), name.suffix) if p)


def _apa_authors(authors: Sequence[Name]) -> str:
    names = [_apa_name(_typographic(a)) for a in authors]
    if len(names) >= 21:  # the first 19, an ellipsis, the last
        return ", ".join(names[:19]) + ", … " + names[-1]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + ", & " + names[-1]


def apa(ref: Reference) -> FormattedCitation:
    """APA 7th edition: ``Zhuang, Y., & Chen, X. (2024). Title. *Proceedings*. URL``."""
    out = _Out()
    title = smart_quotes(ref.title)
    if ref.authors:
        out.add(closed(_apa_authors(ref.authors))).add(f" ({ref.year}). ").add(closed(title)).add(" ")
    else:
        out.add(closed(title)).add(f" ({ref.year}). ")
    _container(out, ref.container)
    if ref.url:
        out.add(" " + ref.url)
    return out.result("apa", "APA", "7th edition")


# --------------------------------------------------------------------------- Chicago


def _chicago_first(name: Name) -> str:
    """The first author, inverted: "Beethoven, Ludwig van", "King, Martin Luther, Jr."."""
    if not name.given and not name.particle:
        return name.family
    given = " ".join(p for p in (spaced_initials(name.given), name.particle) if p)
    return ", ".join(p for p in (name.family, given, name.suffix) if p)


def _chicago_authors(authors: Sequence[Name]) -> str:
    authors = [_typographic(a) for a in authors]
    names = [_chicago_first(authors[0])] + [
        _given_family(Name(a.family, spaced_initials(a.given), a.particle, a.suffix)) for a in authors[1:]]
    if len(names) >= 7:  # the first three, et al.
        return ", ".join(names[:3]) + ", et al."
    return _join(names, "and", comma_before_last=True)


def chicago(ref: Reference) -> FormattedCitation:
    """Chicago author-date: ``Zhuang, Yubo, and Xiaohui Chen. 2024. “Title.” *Proceedings*. URL.``"""
    out = _Out()
    title = "\u201c" + closed(quoted_inside_quotes(smart_quotes(title_case(ref.title)))) + "\u201d"
    if ref.authors:
        out.add(closed(_chicago_authors(ref.authors))).add(f" {ref.year}. ").add(title).add(" ")
    else:
        out.add(title).add(f" {ref.year}. ")
    _container(out, ref.container)
    if ref.url:
        out.add(" " + closed(ref.url))
    return out.result("chicago", "Chicago", "author-date")


# --------------------------------------------------------------------------- ACL


def _acl_authors(authors: Sequence[Name]) -> str:
    names = [_given_family(_typographic(a)) for a in authors]
    if len(names) >= 20:  # the first 19, et al.
        return ", ".join(names[:19]) + ", et al."
    return _join(names, "and", comma_before_last=len(names) > 2)


def acl(ref: Reference) -> FormattedCitation:
    """ACL: ``Yubo Zhuang and Xiaohui Chen. 2024. Title. In *Proceedings*, Place.``"""
    out = _Out()
    if ref.authors:
        out.add(closed(_acl_authors(ref.authors)) + " ")
    out.add(f"{ref.year}. ").add(closed(smart_quotes(ref.title))).add(" In ")
    if ref.place:
        out.add(ref.container, italic=True).add(", " + closed(ref.place))
    else:
        _container(out, ref.container)
    return out.result("acl", "ACL", "ACL Anthology")


# The styles a paper page offers, in this order.
STYLES: tuple[Callable[[Reference], FormattedCitation], ...] = (apa, chicago, acl)


def format_reference(ref: Reference) -> tuple[FormattedCitation, ...]:
    """The reference in every style of ``STYLES``."""
    return tuple(style(ref) for style in STYLES)
