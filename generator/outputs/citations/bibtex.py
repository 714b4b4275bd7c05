"""BibTeX entries: the fields of a paper's entry (``bibtex_fields``) and their text
(``write_bibtex``). Values are written by ``text.bibtex.to_bibtex.latex_value``; also in
``docs/metadata.md``:

    Titles, abstracts and the venue name are written as LaTeX: math (``$…$``, ``$$…$$``,
    ``\\(…\\)``) is kept as it is, text-mode LaTeX commands too; bare special characters
    are escaped (``& % # _ $`` → ``\\&`` …, ``^ < >`` → ``\\textasciicircum{}`` …,
    ``~`` unless it is a tie); braces are balanced the way BibTeX counts them (an
    unmatched brace becomes ``\\textbraceleft{}``/``\\textbraceright{}``). In titles,
    every word with a capital letter and every formula is protected in braces, runs of
    such words in one group (``{Encoding Unitig}-level {Assembly Graphs}``), so a
    bibliography style prints the title exactly as published. Non-ASCII text is written
    as UTF-8 (biber, and bibtex with ``\\usepackage[utf8]{inputenc}``, read it).
"""

from __future__ import annotations

import re
from typing import Sequence

from ...content.model import LINK_KINDS
from ...derive.views import PaperView
from ...text.bibtex.to_bibtex import latex_value
from ...text.tokens import clean_text
from .links import arxiv_id
from .names import bib_name

ENTRY_TYPE = "inproceedings"

# Link kinds written as their own BibTeX field in the full .bib files (``openreview =
# {…}``), so that importing an export gives every link back under its kind. arXiv links
# of the form https://arxiv.org/abs/<id> are written as ``eprint`` + ``archiveprefix``.
LINK_FIELDS = LINK_KINDS


_DOI_URL = re.compile(r"^https?://(?:dx\.)?doi\.org/", re.IGNORECASE)


def bib_url(url: str) -> str:
    """A URL as a .bib value: characters that would unbalance braces are percent-encoded."""
    return clean_text(url).replace("\\", "%5C").replace("{", "%7B").replace("}", "%7D").strip()


# ``keywords`` is a list separated by commas: biblatex splits it at every comma (biber's
# ``xsvsep``, braces or not), Zotero's BibTeX import at every comma or semicolon, JabRef at
# its keyword separator (a comma by default). A tag name holding one is therefore written
# with " / " in its place ("Robustness / security & safety"): one keyword in all three, and
# the importer (``importers.records.tags_from_keywords``) knows the tag by it.
_KEYWORD_SEPARATORS = re.compile(r"\s*[,;]\s*")


def bibtex_keyword(tag_name: str) -> str:
    """A tag name as one keyword of the ``keywords`` field: no comma or semicolon in it."""
    return " / ".join(part for part in _KEYWORD_SEPARATORS.split(tag_name.strip()) if part)


# The fields of the entry shown on a paper page (what one pastes into a paper); the .bib
# files have every field.
CITE_FIELDS = frozenset({"title", "author", "editor", "booktitle", "month", "year", "address", "publisher", "url",
                         "doi", "pages", "eprint", "archiveprefix"})
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December")


def bibtex_fields(view: PaperView, url: str | None, location: str | None = None) -> list[tuple[str, str]]:
    """(field, value) pairs of a paper's full entry, values already in BibTeX form.

    ``url``: the ``url`` field (the paper's page, or its best external link). Besides
    the citation fields (``CITE_FIELDS``), every link under its kind, the presentation,
    the tag names as keywords and the abstract.
    """
    paper = view.paper
    venue = view.venue
    fields: list[tuple[str, str]] = [("title", latex_value(paper.title, protect=True))]
    if paper.authors:
        fields.append(("author", " and ".join(bib_name(a) for a in paper.authors)))
    if paper.editors:
        fields.append(("editor", " and ".join(bib_name(a) for a in paper.editors)))
    fields.append(("booktitle", latex_value(venue.full_name)))  # the track's proceedings (derive.views)
    if paper.month:
        fields.append(("month", MONTH_NAMES[paper.month - 1]))
    fields.append(("year", str(venue.year)))
    if paper.address or location:
        fields.append(("address", latex_value(paper.address or location)))
    if paper.publisher:
        fields.append(("publisher", latex_value(paper.publisher)))
    links = {link.kind: link.url for link in view.links}
    if url:
        fields.append(("url", bib_url(url)))
    if "doi" in links:  # bare, as BibTeX styles expect it (they make the doi.org link themselves)
        fields.append(("doi", bib_url(_DOI_URL.sub("", links["doi"]))))
    if paper.pages:
        fields.append(("pages", paper.pages.replace("–", "--")))
    eprint = arxiv_id(links["arxiv"]) if "arxiv" in links else None
    if eprint:
        fields.append(("eprint", eprint))
        fields.append(("archiveprefix", "arXiv"))
    for kind in LINK_FIELDS:
        if kind in links and not (kind == "arxiv" and eprint) and kind != "doi":
            fields.append((kind, bib_url(links[kind])))
    if view.presentation:
        fields.append(("presentation", view.presentation))
    if view.tags:
        fields.append(("keywords", latex_value(", ".join(bibtex_keyword(t.name) for t in view.tags))))
    if paper.abstract.strip():
        fields.append(("abstract", latex_value(paper.abstract.strip(), one_line_spaces=False)))
    return fields


def write_bibtex(entries: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """BibTeX text of ``(key, fields)`` entries, exactly as bibtexparser writes them with
    every value in braces, fields indented by two spaces and one newline between entries
    (``write_bibtex_with_bibtexparser`` in ``tests/outputs/test_citations.py``, which
    compares the two).

    Written here because going through bibtexparser's library, middleware and writer
    objects took a third of the time of a large catalog's exports.
    """
    keys = [key for key, _ in entries]
    if len(set(keys)) != len(keys):  # (bibtexparser's library refuses them too)
        raise ValueError(f"duplicate BibTeX keys: {sorted({k for k in keys if keys.count(k) > 1})}")
    return "\n".join(
        f"@{ENTRY_TYPE}{{{key},\n" + ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        + ("\n}\n" if fields else "}\n")
        for key, fields in entries
    )

