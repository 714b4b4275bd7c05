"""The RIS record of a paper (``ris_record``), shown on its page (which saves it as a .ris file)."""

from __future__ import annotations

from ...content.citation_fields import doi_of
from ...derive.views import PaperView
from .names import last_first
from .plain import one_line, text_as_shown


def ris_record(view: PaperView, url: str | None, key: str, location: str | None = None) -> str:
    """One RIS record (``TY  - CPAPER`` … ``ER  - ``): the citation fields, no abstract.
    Lines end with "\n" on the page; static/js/cite.js saves the file with CRLF, as RIS wants."""
    lines: list[tuple[str, str]] = [("TY", "CPAPER"), ("TI", text_as_shown(view.paper.title))]
    paper = view.paper
    lines += [("AU", last_first(a)) for a in paper.authors]
    lines += [("A2", last_first(a)) for a in paper.editors]
    lines += [("T2", view.venue.full_name), ("PY", str(view.venue.year))]  # the track's proceedings
    if paper.month:
        lines.append(("DA", f"{view.venue.year}/{paper.month:02d}//"))
    if paper.pages:
        first, _, last = paper.pages.partition("–")
        lines.append(("SP", first))
        if last:
            lines.append(("EP", last))
    if paper.address or location:
        lines.append(("CY", paper.address or location))
    if paper.publisher:
        lines.append(("PB", paper.publisher))
    doi = next((link.url for link in view.links if link.kind == "doi"), None)
    if doi:
        lines.append(("DO", doi_of(doi) or doi))
    if url:
        lines.append(("UR", url))
    if view.pdf_url:  # the pdf link, else derived from the OpenReview or arXiv link
        lines.append(("L1", view.pdf_url))
    lines.append(("ID", key))
    lines.append(("ER", ""))
    return "".join(f"{tag}  - {one_line(value)}\n" for tag, value in lines)
