"""RIS records of a paper (``ris_record``), for the page and the .ris files."""

from __future__ import annotations

from ...derive.views import PaperView
from .names import last_first
from .plain import one_line, text_as_shown


def ris_record(view: PaperView, url: str | None, key: str, location: str | None = None, *,
               full: bool, newline: str = "\n") -> str:
    """One RIS record (``TY  - CPAPER`` … ``ER  - ``); ``full`` adds keywords, abstract, links."""
    lines: list[tuple[str, str]] = [("TY", "CPAPER"), ("TI", text_as_shown(view.paper.title))]
    lines += [("AU", last_first(a)) for a in view.paper.authors]
    lines += [("T2", view.venue.full_name), ("PY", str(view.venue.year))]
    if location:
        lines.append(("CY", location))
    if url:
        lines.append(("UR", url))
    if view.pdf_url:  # the pdf link, else derived from the OpenReview or arXiv link
        lines.append(("L1", view.pdf_url))
    lines.append(("ID", key))
    if full:
        lines += [("KW", t.name) for t in view.tags]
        if view.abstract_plain:
            lines.append(("AB", view.abstract_plain))
        lines += [("UR", link.url) for link in view.links if link.url != url and link.kind != "pdf"]
    lines.append(("ER", ""))
    return "".join(f"{tag}  - {one_line(value)}{newline}" for tag, value in lines)
