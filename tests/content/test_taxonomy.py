"""Tests for generator.content.taxonomy: reading and validating tags.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import ContentError
from generator.content.model import Tag
from generator.content.slugs import is_valid_slug
from generator.content.taxonomy import Taxonomy, read_taxonomy
from generator.importers.tags import normalize_text

ROOT = Path(__file__).resolve().parents[2]
REAL_TAGS = ROOT / "content" / "tags.toml"
FIXTURE_TAGS = Path(__file__).parent.parent / "fixtures" / "seeds" / "tags.toml"

GOOD = """\
[reinforcement-learning]
name = "Reinforcement learning"
description = "Agents that learn to act from reward."
phrases = ["reinforcement learning", "rl"]

[machine-learning]
name = "Other ML"
description = "Everything else."
phrases = []
fallback = true
"""


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "tags.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path, label: str = "tags.toml"):
    with pytest.raises(ContentError) as info:
        read_taxonomy(path, label)
    return info.value.problems


# --------------------------------------------------------------------------- reading


def test_reads_tags_in_file_order_with_fallback(tmp_path):
    tags = read_taxonomy(write(tmp_path, GOOD))
    assert list(tags) == ["reinforcement-learning", "machine-learning"]
    assert isinstance(tags, Taxonomy) and isinstance(tags, dict)
    assert tags.fallback == "machine-learning"
    rl = tags["reinforcement-learning"]
    assert rl == Tag("reinforcement-learning", "Reinforcement learning", "Agents that learn to act from reward.",
                     ("reinforcement learning", "rl"))
    assert tags["machine-learning"].phrases == ()


def test_accepts_bom_and_crlf(tmp_path):
    tags = read_taxonomy(write(tmp_path, ("\ufeff" + GOOD.replace("\n", "\r\n")).encode("utf-8")))
    assert list(tags) == ["reinforcement-learning", "machine-learning"]


def test_phrases_are_lower_cased_and_deduplicated(tmp_path):
    text = GOOD.replace('["reinforcement learning", "rl"]', '["Reinforcement  Learning", "reinforcement learning"]')
    tags = read_taxonomy(write(tmp_path, text))
    assert tags["reinforcement-learning"].phrases == ("reinforcement learning",)


def test_toml_syntax_error_names_file_and_line(tmp_path):
    text = GOOD.replace('name = "Other ML"', 'name = "Other ML')
    [problem] = problems_of(write(tmp_path, text), "content/tags.toml")
    assert problem.file == "content/tags.toml"
    assert problem.line == 7
    assert "invalid TOML" in problem.message
    assert "(at line" not in problem.message
    assert str(problem).startswith("content/tags.toml:7: invalid TOML")


def test_duplicate_table_is_a_syntax_error_with_line(tmp_path):
    text = GOOD + '\n[reinforcement-learning]\nname = "Again"\n'
    [problem] = problems_of(write(tmp_path, text))
    assert problem.line == 12


def test_every_problem_is_reported_once_with_line_and_field(tmp_path):
    text = """\
[Reinforcement_Learning]
name = "RL"
description = "x"
phrases = ["rl"]

[graph-learning]
description = 42
phrases = "graphs"

[optimization]
name = ""
description = "Minimising."
phrases = ["sgd", "", 3]
colour = "red"

[machine-learning]
name = "Other"
description = "Else."
phrases = []
fallback = "yes"
"""
    problems = problems_of(write(tmp_path, text))
    found = {(p.line, p.field) for p in problems}
    assert (1, "tags.Reinforcement_Learning") in found  # bad id at its header line
    assert (6, "tags.graph-learning.name") in found  # missing: reported at the header
    assert (7, "tags.graph-learning.description") in found
    assert (8, "tags.graph-learning.phrases") in found
    assert (11, "tags.optimization.name") in found
    assert sum(1 for p in problems if p.field == "tags.optimization.phrases") == 2  # "" and 3
    assert (14, "tags.optimization.colour") in found
    assert (20, "tags.machine-learning.fallback") in found
    assert all(p.file == "tags.toml" for p in problems)
    empty = next(p for p in problems if p.field == "tags.optimization.phrases" and "empty" in p.message)
    assert empty.line == 13


def test_missing_phrases_is_an_error(tmp_path):
    text = GOOD.replace('phrases = ["reinforcement learning", "rl"]\n', "")
    [problem] = problems_of(write(tmp_path, text))
    assert problem.field == "tags.reinforcement-learning.phrases"
    assert problem.line == 1
    assert "missing" in problem.message


def test_phrase_without_letters_is_refused(tmp_path):
    text = GOOD.replace('"rl"]', '"--"]')
    [problem] = problems_of(write(tmp_path, text))
    assert problem.field == "tags.reinforcement-learning.phrases"
    assert "no letters or digits" in problem.message


def test_top_level_value_that_is_not_a_table(tmp_path):
    [problem] = problems_of(write(tmp_path, 'title = "x"\n' + GOOD))
    assert problem.field == "tags.title"
    assert problem.line == 1


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (GOOD.replace("fallback = true\n", ""), "no fallback tag"),
        (GOOD.replace('phrases = ["reinforcement learning", "rl"]', 'phrases = []\nfallback = true'),
         "only one tag may have fallback"),
        ("", "no tags defined"),
    ],
)
def test_exactly_one_fallback(tmp_path, text, needle):
    problems = problems_of(write(tmp_path, text))
    assert any(needle in p.message for p in problems)


def test_second_fallback_names_its_line(tmp_path):
    text = GOOD.replace('phrases = ["reinforcement learning", "rl"]', 'phrases = []\nfallback = true')
    [problem] = problems_of(write(tmp_path, text))
    assert problem.field == "tags.machine-learning.fallback"
    assert problem.line == 11


def test_non_utf8_and_missing_file(tmp_path):
    [problem] = problems_of(write(tmp_path, GOOD.encode("utf-8") + b"# caf\xe9\n"))
    assert "not UTF-8" in problem.message and problem.line == 11
    [problem] = problems_of(tmp_path / "nope.toml", "content/tags.toml")
    assert problem.file == "content/tags.toml" and "not found" in problem.message


def test_real_taxonomy_is_valid():
    tags = read_taxonomy(REAL_TAGS)
    assert len(tags) >= 10
    assert all(is_valid_slug(t) for t in tags)
    assert tags.fallback == "machine-learning"
    for tag in tags.values():
        assert tag.name and tag.description
        assert tag.id == tags.fallback or len(tag.phrases) >= 5
        assert all(p == p.lower() and normalize_text(p) for p in tag.phrases)


def test_fixture_taxonomy_is_valid():
    tags = read_taxonomy(FIXTURE_TAGS)
    assert tags.fallback == "machine-learning"
