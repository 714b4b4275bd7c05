"""The date a paper is given where a date is needed (feeds, sitemaps): ``paper_date``."""

from __future__ import annotations

import datetime

from ...derive.views import PaperView


def paper_date(view: PaperView) -> datetime.date:
    """The date feeds and sitemaps give a paper: ``added``, else 1 January of the venue's year."""
    return view.paper.added or datetime.date(view.venue.year, 1, 1)
