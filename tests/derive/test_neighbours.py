"""The block search of ``derive.neighbours`` takes shortcuts (most rows decided from the
others the text counts ``FLOOR`` times or more; a tag's postings counted by label set);
each must give exactly the plain pruned search of ``test_related.pruned_reference``."""

from __future__ import annotations

import pytest

from generator.derive import neighbours, related

from .test_related import pruned_reference, tagged_corpus


@pytest.mark.parametrize("floor", [1, 2, 4, 1000])
def test_every_shortcut_gives_the_plain_pruned_search(monkeypatch, floor):
    monkeypatch.setattr(neighbours, "FLOOR", floor)  # 1000: every row takes the long way
    monkeypatch.setattr(related, "EXACT_UP_TO", 50)
    monkeypatch.setattr(related, "POSTINGS_CAP", 20)
    monkeypatch.setattr(related, "QUERY_TERMS", 12)
    monkeypatch.setattr(related, "RESCORE", 6)
    texts, tags = tagged_corpus(300, seed=7)
    assert related.related_indices(texts, tags=tags) == pruned_reference(texts, tags=tags)


def test_blocks_of_any_size_give_the_same_lists(monkeypatch):
    texts, tags = tagged_corpus(150, seed=8)
    monkeypatch.setattr(related, "EXACT_UP_TO", 50)
    expected = related.related_indices(texts, tags=tags)
    for block in (1, 7, 150):
        monkeypatch.setattr(neighbours, "MAX_BLOCK", block)
        assert related.related_indices(texts, tags=tags) == expected


def test_papers_with_nothing_in_common_or_no_text():
    texts = [("Graph networks", "graphs"), ("", ""), ("Graph learning", "graphs"), ("Robots", "")]
    assert related.related_indices(texts) == [(2,), (), (0,), ()]
    assert related.related_indices(texts, tags=[[], ["x"], [], ["x"]]) == [(2,), (3,), (0,), (1,)]
