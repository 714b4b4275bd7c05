"""What a paper's links say: the best one to cite (``best_link``) and its arXiv id (``arxiv_id``)."""

from __future__ import annotations

import re

from ...derive.views import PaperView

# Where a paper's URL comes from when the site has no absolute base URL: the first of
# these links that the paper has.
BEST_LINK_ORDER = ("venue_page", "openreview", "doi", "arxiv", "pdf", "project", "code")

_ARXIV_ABS = re.compile(r"^https://arxiv\.org/abs/(?P<id>(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)$")


def best_link(view: PaperView) -> str | None:
    links = {link.kind: link.url for link in view.links}
    return next((links[kind] for kind in BEST_LINK_ORDER if kind in links), None)


def arxiv_id(url: str) -> str | None:
    """The arXiv identifier of a canonical ``https://arxiv.org/abs/<id>`` link, else None."""
    match = _ARXIV_ABS.match(url)
    return match.group("id") if match else None
