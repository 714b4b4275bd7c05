"""No topic or trends page over ``PAGE_BOUND`` bytes at 100,000 papers.

What these pages hold grows with the catalog only up to fixed caps: at most
``topic_model.MAX_TOPICS`` topics on the topic map, its list and the trends page; share
charts over at most ``trends.SHARE_YEARS`` years; at most ``topic_map.MAX_DOTS`` papers on a
topic's map and ``pages.PAGE_SIZE`` in its list; a venue's mix of ``topics.MIX_SHOWN``. So
the worst case is built here from a small synthetic catalog (bench/synth/) pushed to each
cap: its venues spread over 32 years (1995-2026), then split once into ``MAX_TOPICS``
topics (the most topics a catalog of any size gets: the topic index and /trends/ at their
largest) and once into two (topics of hundreds of papers: a topic page with a full map
and a full list page).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench import synth
from generator.content.loader import load_catalog
from generator.derive import topic_model
from generator.derive.topic_map import MAX_DOTS
from generator.derive.topic_model import MAX_TOPICS
from generator.derive.views import derive
from generator.outputs.citations import CitationIndex
from generator.outputs.pages import PAGE_SIZE, plan_pages
from generator.outputs.render import make_environment, render_page, site_globals

from ..conftest import REPO

PAGE_BOUND = 300_000
PAPERS = 700

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("topic-sizes")
    content = synth.generate(PAPERS, root / "content", seed=0)
    for i, venue in enumerate(sorted((content / "venues").glob("*.md"))):
        text = venue.read_text(encoding="utf-8")
        venue.write_text(re.sub(r"(?m)^year: \d+$", f"year: {1995 + i % 32}", text), encoding="utf-8")
    return content


def rendered(content: Path, topics: int, monkeypatch, wanted) -> dict[str, int]:
    """The size of each page ``wanted(page)`` picks, with the catalog split into ``topics``."""
    monkeypatch.setattr(topic_model, "topic_count", lambda n: topics)
    site = derive(load_catalog(content))
    env = make_environment(REPO / "templates")
    globals_ = site_globals(site, CitationIndex(site))
    return {page.url: len(render_page(env, page, globals_).encode("utf-8"))
            for page in plan_pages(site) if wanted(page)}


def test_the_topic_index_and_trends_at_the_most_topics(catalog, monkeypatch):
    sizes = rendered(catalog, MAX_TOPICS, monkeypatch,
                     lambda p: p.template in ("topics.html", "trends.html", "venue.html", "paper.html"))
    assert max(sizes.values()) <= PAGE_BOUND, sorted(sizes.items(), key=lambda kv: -kv[1])[:3]
    assert sizes["topics/"] > 50_000 and sizes["trends/"] > 50_000  # all MAX_TOPICS topics are on them


def test_a_topic_page_with_a_full_map_and_a_full_list(catalog, monkeypatch):
    sizes = rendered(catalog, 2, monkeypatch, lambda p: p.template == "topic.html")
    # The larger topic has at least PAPERS / 2 > MAX_DOTS papers: a full map, and a list of
    # at least four pages (five or more pages in all).
    assert PAPERS // 2 > MAX_DOTS > PAGE_SIZE and len(sizes) >= 5
    assert max(sizes.values()) <= PAGE_BOUND, sizes
