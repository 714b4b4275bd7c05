"""The document-term matrix of the papers' texts (``derive.terms``): tokens, ids in order of
first appearance whatever the pieces read in parallel, exact row lengths, sparse rows."""

from __future__ import annotations

import math
import random
import re

import numpy as np

from generator.content.words import ascii_lower
from generator.derive import terms
from generator.derive.related import inputs_digest
from generator.parallel import jobs_chosen

from .test_related import tagged_corpus

_REGEX = re.compile(r"[a-z0-9]+|[^\sa-z0-9-]")  # the tokenizer's definition, as a regex


def regex_sequence(text: str) -> list[str | None]:
    return [terms.stem_of(token) for token in _REGEX.findall(ascii_lower(text))]


def test_tokens_are_the_words_and_the_marks_between_them():
    assert terms.sequence("Über-networks, (2024) a GNN.") == ["uber", "network", None, None, None, None, None, "gnn", None]
    rng = random.Random(0)
    alphabet = [chr(c) for c in range(0, 260)] + ["\u2013", "\u3000", "\ufb01", "\x85", "é"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 25)))
        assert terms.sequence(text) == regex_sequence(text), repr(text)


def test_a_papers_terms_abstract_words_then_phrases_then_new_title_terms():
    found = terms.paper_terms("Exposure bias in diffusion", "Diffusion models: exposure bias. Exposure bias twice.")
    assert found == {"diffus": 1 + 2, "model": 1, "exposur": 2 + 2, "bia": 2 + 2, "twice": 1,
                     "exposur bia": 2 + 2}
    assert list(found) == ["diffus", "model", "exposur", "bia", "twice", "exposur bia"]
    # A title phrase the abstract says once is a term (from the title), a new title word too.
    assert terms.paper_terms("Graph models", "Graph models once.") == {"graph": 3, "model": 3, "graph model": 2}


def test_ids_follow_first_appearance_however_many_pieces(monkeypatch):
    texts = tagged_corpus(120, seed=2)[0]
    with jobs_chosen(1):
        one = terms.count_terms(texts)
    monkeypatch.setattr(terms, "CHUNKS_PER_JOB", 7)
    with jobs_chosen(3):
        many = terms.count_terms(texts, jobs=3)
    assert one.vocabulary == many.vocabulary
    for a, b in zip((one.counts.indptr, one.counts.indices, one.counts.values),
                    (many.counts.indptr, many.counts.indices, many.counts.values)):
        assert np.array_equal(a, b)
    seen: dict[str, int] = {}
    for i, (title, abstract) in enumerate(texts):
        expected = terms.paper_terms(title, abstract)
        for term in expected:
            seen.setdefault(term, len(seen))
        row = one.counts.row(i)
        assert row == {seen[t]: c for t, c in expected.items()}
    assert one.vocabulary == list(seen)
    assert one.document_frequencies()[seen["common0"]] == sum("common0" in terms.paper_terms(*t) for t in texts)


def test_labels_follow_the_texts_ids_and_count_once():
    names, rows = terms.labels([["b", "a", "b"], [], ["c", "a"]], first_id=10)
    assert names == ["b", "a", "c"]
    assert [rows.row(i) for i in range(3)] == [{10: 1, 11: 1}, {}, {12: 1, 11: 1}]


def test_rows_select_and_stack():
    left = terms.Rows(np.array([0, 2, 2, 3]), np.array([0, 1, 2]), np.array([1.0, 2.0, 3.0]))
    right = terms.Rows(np.array([0, 1, 1, 3]), np.array([7, 8, 9]), np.array([4.0, 5.0, 6.0]))
    both = terms.hstack(left, right)
    assert [both.row(i) for i in range(3)] == [{0: 1.0, 1: 2.0, 7: 4.0}, {}, {2: 3.0, 8: 5.0, 9: 6.0}]
    kept = both.select(both.values > 2.5)
    assert [kept.row(i) for i in range(3)] == [{7: 4.0}, {}, {2: 3.0, 8: 5.0, 9: 6.0}]
    assert list(kept.row_ids()) == [0, 2, 2, 2]


def test_row_lengths_are_correctly_rounded():
    rng = random.Random(3)
    lengths = [rng.randrange(0, 40) for _ in range(300)]
    values = np.array([rng.random() * 10 ** rng.randrange(-8, 3) for _ in range(sum(lengths))])
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    rows = terms.Rows(indptr, np.zeros(len(values), dtype=np.int32), values)
    norms = terms.row_norms(rows, chunk=17)
    for i in range(len(lengths)):
        part = values[indptr[i]:indptr[i + 1]].tolist()
        assert norms[i] == math.sqrt(math.fsum(v * v for v in part))


def test_the_cache_digest_sees_every_text_and_tag():
    texts, tags = tagged_corpus(20, seed=1)
    base = inputs_digest(texts, tags)
    assert inputs_digest(list(texts), [list(t) for t in tags]) == base
    assert inputs_digest(texts, None) != base
    changed = list(texts)
    changed[3] = (changed[3][0], changed[3][1] + " ")
    assert inputs_digest(changed, tags) != base
    moved = [list(t) for t in tags]
    moved[0], moved[1] = moved[0] + moved[1], []
    assert inputs_digest(texts, moved) != base
