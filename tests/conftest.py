"""Shared fixtures: small content folders written per test, and paths to the real catalog."""

from __future__ import annotations

import textwrap
from pathlib import Path

import os

import pytest
from hypothesis import settings

# CI runs the property tests on a fixed seed so a landing never depends on luck; local runs
# keep exploring new examples.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO.parent / "shared" / "seeds"

TAGS_TOML = """\
[graph-learning]
name = "Graph learning"
description = "Learning on graphs."
phrases = ["graph neural network", "graph"]

[optimization]
name = "Optimization"
description = "Algorithms that minimise things."
phrases = ["gradient descent", "convergence"]

[machine-learning]
name = "Machine learning"
description = "Everything else."
phrases = []
fallback = true
"""

VENUE_MD = """\
---
name: "TEST 2024"
full_name: "Test Conference on Learning 2024"
year: 2024
url: "https://example.org/test-2024"
---
A venue for tests.
"""


def paper_md(title: str = "A Paper on Graphs", *, authors=("Ada Lovelace", "Alan Turing"), venue="test-2024",
             tags=("graph-learning",), body="We study graph neural networks.", extra: str = "") -> str:
    lines = ["---", f"title: {title!r}" if "'" not in title else f'title: "{title}"']
    lines.append("authors: [" + ", ".join(f'"{a}"' for a in authors) + "]")
    lines.append(f"venue: {venue}")
    lines.append("tags: [" + ", ".join(tags) + "]")
    if extra:
        lines.append(textwrap.dedent(extra).strip())
    lines += ["---", "", body, ""]
    return "\n".join(lines)


def bibtex_balanced(value: str) -> bool:
    """Braces balance the way BibTeX counts them: every brace counts, escaped or not."""
    depth = 0
    for char in value:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


class ContentDir:
    """A throwaway content folder: ``add_paper`` and friends write files into it."""

    def __init__(self, root: Path):
        self.root = root
        (root / "papers").mkdir(parents=True)
        (root / "venues").mkdir()
        (root / "site.toml").write_text('title = "Test shelf"\ndescription = "For tests."\n', encoding="utf-8")
        (root / "tags.toml").write_text(TAGS_TOML, encoding="utf-8")
        (root / "venues" / "test-2024.md").write_text(VENUE_MD, encoding="utf-8")

    def add_paper(self, slug: str, text: str | None = None, **kwargs) -> Path:
        path = self.root / "papers" / f"{slug}.md"
        path.write_text(text if text is not None else paper_md(**kwargs), encoding="utf-8")
        return path

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path


@pytest.fixture
def content(tmp_path: Path) -> ContentDir:
    c = ContentDir(tmp_path / "content")
    c.add_paper("a-paper-on-graphs")
    c.add_paper("fast-convergence", title="Fast Convergence of Gradient Descent", authors=("Alan Turing",),
                tags=("optimization",), body="Gradient descent converges at rate $O(1/t)$.")
    return c
