"""Session notes in the search (issue 34): the notes of each session are searched as part of
the documents of the papers it discussed (their abstract field), so a query that only the
notes answer finds those papers; the result then names the session (static/js/search.js reads
the paper page's "Sessions" list). Kept apart from the index's own code: one text per paper."""

from __future__ import annotations

from ...derive.views import SiteData


def session_notes(site: SiteData) -> dict[str, str]:
    """Each discussed paper's slug -> the plain text of its sessions' titles and notes."""
    if site.sessions is None:
        return {}
    found: dict[str, list[str]] = {}
    for view in site.sessions.sessions:
        text = f"{view.title_plain} {view.notes_plain}".strip()
        for paper in view.papers:
            found.setdefault(paper.slug, []).append(text)
    return {slug: "\n".join(texts) for slug, texts in found.items()}


def session_links(site: SiteData) -> dict[str, list[list[str]]]:
    """Each discussed paper's slug -> its sessions as [page path, date label, until], for its
    search record: a result says "Discussed: <date>" (or "To be discussed", by the visitor's
    clock against ``until``, the instant the session stops being upcoming) without fetching
    the paper's page."""
    if site.sessions is None:
        return {}
    return {slug: [[view.url, view.date_label, view.until] for view in views] for slug, views in site.sessions.of_paper.items()}
