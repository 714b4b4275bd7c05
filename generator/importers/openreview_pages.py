"""OpenReview's API answers in pages of 1,000 notes: a file holding fewer notes than its
query found (its ``count``) is one page of several. Each such page is remembered as a
warning (``PageShortfall``); an import given every page of a query warns of none of them
(``pages_complete``), one still short gets one warning naming its files."""

from __future__ import annotations


class PageShortfall(str):
    """The warning of a response holding fewer notes than its ``count`` (the query's total:
    the API answers in pages of 1,000). It remembers the page (file, notes held, count, the
    query's venueid) so that an import given every page of a query warns of none of them
    (``pages_complete``)."""

    file: str
    held: int
    count: int
    query: str | None

    @classmethod
    def of(cls, file: str, held: int, count: int, notes: list) -> "PageShortfall":
        warning = cls(f"{file}: holds {held:,} of the {count:,} notes its query found (count); fetch the others "
                      f"(offset=) and import those files too")
        warning.file, warning.held, warning.count, warning.query = file, held, count, _query_of(notes)
        return warning


def _query_of(notes: list) -> str | None:
    """What the pages of one query share: the venueid of their first note, if any."""
    for note in notes[:1]:
        content = note.get("content") if isinstance(note, dict) else None
        value = content.get("venueid") if isinstance(content, dict) else None
        value = value.get("value") if isinstance(value, dict) else value
        return value if isinstance(value, str) else None
    return None


def pages_complete(warnings: list[str]) -> list[str]:
    """``warnings`` less those of pages whose query's other pages were given too: the pages of
    one query (same count, same venueid) that together hold all its notes. A query still short
    gets one warning naming its files."""
    groups: dict[tuple[int, str | None], list[PageShortfall]] = {}
    for warning in warnings:
        if isinstance(warning, PageShortfall):
            groups.setdefault((warning.count, warning.query), []).append(warning)
    kept: list[str] = []
    for warning in warnings:
        if not isinstance(warning, PageShortfall):
            kept.append(warning)
            continue
        pages = groups[(warning.count, warning.query)]
        if warning is not pages[0] or sum(page.held for page in pages) >= warning.count:
            continue
        if len(pages) == 1:
            kept.append(str(warning))
        else:
            kept.append(f"{', '.join(page.file for page in pages)}: hold {sum(page.held for page in pages):,} of the "
                        f"{warning.count:,} notes their query found (count); fetch the others (offset=) and import "
                        f"those files too")
    return kept
