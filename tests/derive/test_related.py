"""Related papers: TF-IDF cosine over title and abstract, pruned, deterministic."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections import Counter
from operator import mul

from generator.derive import related
from generator.derive.related import cosine, related_indices, terms, vectors

from ..conftest import REPO


def exact(texts, k=related.RELATED_COUNT):
    """Brute force: every pair's full cosine (what the pruned search approximates)."""
    vecs = vectors(texts)
    out = []
    for i, v in enumerate(vecs):
        scored = sorted((-round(cosine(v, u), 9), j) for j, u in enumerate(vecs) if j != i)
        out.append(tuple(j for s, j in scored[:k] if s < 0))
    return out


def test_terms_fold_stem_and_drop_stop_words():
    assert terms("We propose Networks for the Über-networks, 2024 and a b") == ["network", "uber", "network"]
    assert terms("") == []
    assert terms("Graph neural networks") == terms("graph NEURAL network")


def test_vectors_are_unit_length():
    vecs = vectors([("Graph networks", "Message passing on graphs."), ("Sparse attention", "Transformers.")])
    for v in vecs:
        assert abs(sum(w * w for w in v.values()) - 1.0) < 1e-9


def test_the_most_similar_texts_come_first():
    texts = [
        ("Graph neural networks for molecules", "Message passing over molecular graphs predicts properties."),
        ("Diffusion models for images", "Denoising diffusion generates images from noise."),
        ("Molecular property prediction with graph networks", "Graph message passing for molecules."),
        ("Image generation with diffusion", "A diffusion model denoises images."),
        ("Reinforcement learning for robots", "Policies control robot arms."),
    ]
    result = related_indices(texts, k=2)
    assert result[0][0] == 2 and result[2][0] == 0
    assert result[1][0] == 3 and result[3][0] == 1
    assert all(i not in found for i, found in enumerate(result))
    # Nothing in common with anything: no related papers rather than random ones.
    assert result[4] == ()


def test_edge_cases():
    assert related_indices([]) == []
    assert related_indices([("Only one", "paper here.")]) == [()]
    assert related_indices([("Same words", "graph learning"), ("Same words", "graph learning")], k=0) == [(), ()]
    same = related_indices([("A study", "graph learning"), ("B study", "graph learning"), ("C", "robots")])
    assert same[0] == (1,) and same[1] == (0,) and same[2] == ()


def test_ties_are_broken_by_position():
    texts = [("Graph learning", "")] + [("Graph learning", "")] * 7
    assert related_indices(texts, k=3)[0] == (1, 2, 3)
    assert related_indices(texts, k=3)[5] == (0, 1, 2)


def corpus(n: int, seed: int = 0) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    topics = [[f"t{t}w{i}" for i in range(30)] for t in range(12)]
    common = [f"common{i}" for i in range(200)]
    texts = []
    for _ in range(n):
        topic = rng.choice(topics)
        words = [rng.choice(topic) for _ in range(25)] + [rng.choice(common) for _ in range(40)]
        words += [f"rare{rng.randrange(10 * n)}" for _ in range(5)]
        texts.append((" ".join(rng.sample(topic, 4)), " ".join(words)))
    return texts


def test_small_catalogs_get_the_exact_answer():
    texts = corpus(300)
    assert related_indices(texts) == exact(texts)


def test_pruning_keeps_nearly_every_true_neighbour(monkeypatch):
    """With a tiny postings cap the pruning must bite; the exact rescoring keeps the order right."""
    monkeypatch.setattr(related, "POSTINGS_CAP", 20)
    monkeypatch.setattr(related, "QUERY_TERMS", 12)
    texts = corpus(600, seed=1)
    pruned, truth = related_indices(texts), exact(texts)
    found = sum(len(set(p) & set(t)) for p, t in zip(pruned, truth))
    assert found / sum(len(t) for t in truth) > 0.8
    vecs = vectors(texts)
    for i, found_i in enumerate(pruned):  # whatever was found is in descending cosine order
        scores = [round(cosine(vecs[i], vecs[j]), 9) for j in found_i]
        assert scores == sorted(scores, reverse=True)


def test_the_committed_catalog_matches_brute_force(bundled_views):
    site = bundled_views()
    texts = [(p.title_plain, p.abstract_plain) for p in site.papers]
    assert related_indices(texts) == exact(texts)
    assert all(len(site.related[p.slug]) == 5 for p in site.papers)


def test_deterministic_across_hash_seeds():
    code = ("import sys; sys.path.insert(0, %r); from tests.derive.test_related import corpus; "
            "from generator.derive.related import related_indices; print(related_indices(corpus(200, 3)))") % str(REPO)
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={"PYTHONHASHSEED": seed}, cwd=REPO).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1


def pruned_reference(texts, k=related.RELATED_COUNT):
    """The pruned search written plainly: list postings in impact order, candidates counted
    with a Counter, every shortlisted pair scored by the defining sum (in the iteration order
    of the frozenset intersection, computed on the turn of the paper that met the pair first).
    ``related_indices`` computes the same thing faster and must agree exactly."""
    n = len(texts)
    if n < 2 or k <= 0:
        return [() for _ in range(n)]
    vecs = vectors(texts)
    keys = [frozenset(v) for v in vecs]
    df = Counter(itertools.chain.from_iterable(keys))
    exact_mode = n <= related.EXACT_UP_TO
    max_df = n if exact_mode else max(int(related.MAX_DF_SHARE * n), related.MIN_DF_CAP)
    cap = n if exact_mode else related.POSTINGS_CAP
    impact = {}
    for doc, vec in enumerate(vecs):
        for term, weight in vec.items():
            if 2 <= df[term] <= max_df:
                impact.setdefault(term, []).append((-weight, doc))
    postings = {term: [doc for _, doc in sorted(entries)[:cap]] for term, entries in impact.items()}
    query_terms, rescore = (len(df), n) if exact_mode else (related.QUERY_TERMS, related.RESCORE)
    scores, result = {}, []
    for doc, vec in enumerate(vecs):
        query = sorted(((w, t) for t, w in vec.items() if t in postings), key=lambda wt: (-wt[0], wt[1]))[:query_terms]
        if not query:
            result.append(())
            continue
        lists = []
        for weight, term in query:
            lists.extend([postings[term]] * (1 + int(related.LEVELS * weight / query[0][0] - 1e-9)))
        counted = Counter(itertools.chain.from_iterable(lists))
        counted.pop(doc, None)
        if len(counted) > rescore:
            threshold = sorted(counted.values(), reverse=True)[rescore - 1]
            shortlist = [other for other, c in counted.items() if c >= threshold]
        else:
            shortlist = list(counted)
        scored = []
        for other in shortlist:
            score = scores.pop((other, doc), None) if other < doc else None
            if score is None:
                common = keys[doc] & keys[other]
                score = round(sum(map(mul, map(vec.__getitem__, common), map(vecs[other].__getitem__, common))), 9)
                if other > doc:
                    scores[(doc, other)] = score
            if score > 0.0:
                scored.append((-score, other))
        scored.sort()
        result.append(tuple(other for _, other in scored[:k]))
    return result


def test_bit_set_search_matches_the_plain_pruned_search(monkeypatch):
    monkeypatch.setattr(related, "EXACT_UP_TO", 100)
    monkeypatch.setattr(related, "POSTINGS_CAP", 25)
    monkeypatch.setattr(related, "QUERY_TERMS", 10)
    monkeypatch.setattr(related, "RESCORE", 8)
    for seed, levels in ((1, 3), (2, 2), (3, 5)):
        monkeypatch.setattr(related, "LEVELS", levels)
        texts = corpus(700, seed=seed)
        assert related_indices(texts) == pruned_reference(texts)
    texts = corpus(150, seed=3)  # exact mode
    monkeypatch.setattr(related, "EXACT_UP_TO", 500)
    assert related_indices(texts) == pruned_reference(texts)


def test_fast_scores_fall_back_to_the_defining_sum(monkeypatch):
    """Forcing every score through the defining sum, or none, changes nothing here."""
    texts = corpus(400, seed=4)
    expected = related_indices(texts)
    monkeypatch.setattr(related._Scorer, "SLACK", 1.0)  # every interval straddles a midpoint
    assert related_indices(texts) == expected
    monkeypatch.setattr(related._Scorer, "SLACK", 0.0)
    assert related_indices(texts) == expected


def test_radix_select_keeps_everything_tied_with_the_kth():
    rng = random.Random(5)
    for _ in range(200):
        counts = [rng.choice([0, 0, 1, 2, 3, 5, 8]) for _ in range(rng.randrange(1, 60))]
        slices = []
        for doc, c in enumerate(counts):
            for i in range(c.bit_length()):
                if c >> i & 1:
                    related._add(slices, 1 << doc, i)
        candidates = sum(1 << d for d, c in enumerate(counts) if c)
        present = [c for c in counts if c]
        k = rng.randrange(1, 10)
        if len(present) <= k:
            continue
        threshold = sorted(present, reverse=True)[k - 1]
        got = related._members(related._at_least_kth(slices, candidates, k))
        assert sorted(got) == [d for d, c in enumerate(counts) if c and c >= threshold]
