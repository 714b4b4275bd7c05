"""Related papers: TF-IDF cosine over title, abstract (words and phrases) and tags, pruned, deterministic."""

from __future__ import annotations

import itertools
import math
import random
import subprocess
import sys
from collections import Counter

import numpy
import pytest

from generator.derive import neighbours, related
from generator.derive.related import cosine, phrases, related_indices, terms, vectors

from ..conftest import REPO


def exact(texts, k=related.RELATED_COUNT, tags=None):
    """Brute force: every pair's full score (what the pruned search approximates)."""
    vecs = vectors(texts, tags)
    out = []
    for i, v in enumerate(vecs):
        scored = sorted((-round(cosine(v, u), 9), j) for j, u in enumerate(vecs) if j != i)
        out.append(tuple(j for s, j in scored[:k] if s < 0))
    return out


def test_terms_fold_stem_and_drop_stop_words():
    assert terms("We propose Networks for the Über-networks, 2024 and a b") == ["network", "uber", "network"]
    assert terms("") == []
    assert terms("Graph neural networks") == terms("graph NEURAL network")


def test_phrases_are_neighbouring_terms_with_nothing_between():
    assert phrases("Elucidating the Exposure Bias in Diffusion Models") == ["exposur bia", "diffus model"]
    # A hyphen joins as a space does; punctuation, stop words and numbers end a phrase.
    assert phrases("self-supervised learning, graph (neural) networks with 3 layers") == [
        "self supervis", "supervis learn"]
    assert phrases("") == [] and phrases("bias") == []


def test_vectors_are_unit_length_and_tags_take_their_share():
    texts = [("Graph networks", "Message passing on graphs."), ("Sparse attention", "Transformers.")]
    for v in vectors(texts):
        assert abs(sum(w * w for w in v.values()) - 1.0) < 1e-9
    tagged = vectors(texts, [["graphs"], ["attention", "graphs"]])
    first_tag = related._vectors(texts, [["graphs"], ["attention", "graphs"]], singletons=True).first_tag
    for v in tagged:
        text = sum(w * w for t, w in v.items() if t < first_tag)
        tags = sum(w * w for t, w in v.items() if t >= first_tag)
        assert abs(text - (1 - related.TAG_SHARE)) < 1e-9 and abs(tags - related.TAG_SHARE) < 1e-9


def test_the_score_is_the_text_cosine_and_the_tag_cosine_in_their_shares():
    texts = [("Graph networks", "Message passing on graphs and molecules."),
             ("Graph attention", "Attention on graphs."), ("Robots", "Arms that grasp.")]
    tags = [["graphs", "chemistry"], ["graphs"], ["robotics"]]
    by_text, scored = vectors(texts), vectors(texts, tags)
    text_cos = cosine(by_text[0], by_text[1])
    # {graphs, chemistry} vs {graphs}, IDF-weighted: log(4/2) and log(4/1) over 3 papers.
    graphs, chemistry = math.log(4 / 2), math.log(4 / 1)
    tag_cos = graphs / (graphs ** 2 + chemistry ** 2) ** 0.5
    assert abs(cosine(scored[0], scored[1]) - ((1 - related.TAG_SHARE) * text_cos + related.TAG_SHARE * tag_cos)) < 1e-12
    # Only a tag in common: related, a little.
    assert related_indices([("Alpha", "one two"), ("Beta", "three four")], tags=[["t"], ["t"]]) == [(1,), (0,)]


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


def test_a_shared_phrase_counts_more_than_its_words_apart():
    texts = [
        ("Exposure bias in diffusion models", "The exposure bias of sampling, and how to remove exposure bias."),
        ("Measuring exposure bias", "Exposure bias appears when sampling drifts from training."),
        ("Bias under exposure", "A bias in data, and exposure to it, when sampling drifts from training."),
    ]
    assert related_indices(texts)[0][0] == 1


def test_a_word_repeated_all_through_two_papers_does_not_outweigh_several_shared_words(monkeypatch):
    texts = [
        ("Exposure bias in diffusion models", "Bias here, bias there: a bias measure, a bias fix, less bias. "
                                              "A diffusion sampler drifts."),
        ("Data bias in classifiers", "Bias in data, bias in labels, bias of subgroups, a bias audit, less bias."),
        ("Faster diffusion sampling", "A diffusion sampler for images."),
        ("Robots", "Arms that grasp cups."), ("Proteins", "Folding chains of amino acids."), ("Graphs", "Nodes and edges."),
    ]
    assert related_indices(texts)[0] == (2, 1)
    # With the usual 1 + log(tf), "bias" said five times in both would make the data-bias paper first.
    monkeypatch.setattr(related._Saturated, "__missing__", lambda self, c: self.setdefault(c, 1.0 + math.log(c)))
    assert related_indices(texts)[0] == (1, 2)


def test_a_shared_tag_decides_between_texts_alike():
    texts = [("Graph learning", "graphs and nodes"), ("Graph models", "graphs and edges"),
             ("Graph methods", "graphs and edges")]
    assert related_indices(texts)[0] == (1, 2)  # a tie in text: by position
    assert related_indices(texts, tags=[["chemistry"], ["vision"], ["chemistry"]])[0] == (2, 1)
    # A tag list with a tag twice counts it once.
    assert related_indices(texts, tags=[["chemistry"], ["vision"], ["chemistry", "chemistry"]])[0] == (2, 1)


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
    return tagged_corpus(n, seed)[0]


def tagged_corpus(n: int, seed: int = 0) -> tuple[list[tuple[str, str]], list[list[str]]]:
    """Synthetic papers on 12 topics (topic words, common words, rare words; some phrases
    repeat within a paper), each tagged with its topic and sometimes another tag."""
    rng = random.Random(seed)
    topics = [[f"t{t}w{i}" for i in range(30)] for t in range(12)]
    common = [f"common{i}" for i in range(200)]
    texts, tags = [], []
    for _ in range(n):
        t = rng.randrange(len(topics))
        topic = topics[t]
        words = [rng.choice(topic) for _ in range(25)] + [rng.choice(common) for _ in range(40)]
        words += [f"rare{rng.randrange(10 * n)}" for _ in range(5)]
        rng.shuffle(words)
        phrase = " ".join(rng.sample(topic, 2))
        texts.append((" ".join(rng.sample(topic, 4)), f"{phrase}. " + ", ".join(words) + f". {phrase}."))
        tags.append([f"topic{t}"] + ([f"extra{rng.randrange(5)}"] if rng.random() < 0.5 else []))
    return texts, tags


def test_small_catalogs_get_the_exact_answer():
    texts, tags = tagged_corpus(300)
    assert related_indices(texts) == exact(texts)
    assert related_indices(texts, tags=tags) == exact(texts, tags=tags)


def test_pruning_keeps_nearly_every_true_neighbour(monkeypatch):
    """With a tiny postings cap the pruning must bite; the exact rescoring keeps the order right."""
    monkeypatch.setattr(related, "POSTINGS_CAP", 20)
    monkeypatch.setattr(related, "QUERY_TERMS", 12)
    texts, tags = tagged_corpus(600, seed=1)
    pruned, truth = related_indices(texts, tags=tags), exact(texts, tags=tags)
    found = sum(len(set(p) & set(t)) for p, t in zip(pruned, truth))
    assert found / sum(len(t) for t in truth) > 0.8
    vecs = vectors(texts, tags)
    for i, found_i in enumerate(pruned):  # whatever was found is in descending cosine order
        scores = [round(cosine(vecs[i], vecs[j]), 9) for j in found_i]
        assert scores == sorted(scores, reverse=True)


def test_the_committed_catalog_matches_brute_force(bundled_views):
    site = bundled_views()
    texts = [(p.title_plain, p.abstract_plain) for p in site.papers]
    tags = [p.paper.tags for p in site.papers]
    assert related_indices(texts) == exact(texts)
    assert related_indices(texts, tags=tags) == exact(texts, tags=tags)
    assert all(len(site.related[p.slug]) == 5 for p in site.papers)


def test_deterministic_across_hash_seeds():
    code = ("import sys; sys.path.insert(0, %r); from tests.derive.test_related import tagged_corpus; "
            "from generator.derive.related import related_indices; texts, tags = tagged_corpus(200, 3); "
            "print(related_indices(texts), related_indices(texts, tags=tags))") % str(REPO)
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={"PYTHONHASHSEED": seed}, cwd=REPO).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1


def pruned_reference(texts, k=related.RELATED_COUNT, tags=None):
    """The pruned search written plainly: list postings in impact order (a tag's: all its
    papers), candidates counted with a Counter, every shortlisted pair scored by the defining
    sum (``round(cosine, 9)``). ``related_indices`` computes the same thing faster and must
    agree exactly."""
    n = len(texts)
    if n < 2 or k <= 0:
        return [() for _ in range(n)]
    vecs = vectors(texts, tags)
    first_tag = related._vectors(texts, tags, singletons=True).first_tag
    df = Counter(itertools.chain.from_iterable(vecs))
    exact_mode = n <= related.EXACT_UP_TO
    max_df = n if exact_mode else max(int(related.MAX_DF_SHARE * n), related.MIN_DF_CAP)
    cap = n if exact_mode else related.POSTINGS_CAP
    impact = {}
    for doc, vec in enumerate(vecs):
        for term, weight in vec.items():
            if 2 <= df[term] and (df[term] <= max_df or term >= first_tag):
                impact.setdefault(term, []).append((-weight, doc))
    postings = {term: [doc for _, doc in sorted(entries)[:cap if term < first_tag else None]]
                for term, entries in impact.items()}
    query_terms, rescore = (len(df), n) if exact_mode else (related.QUERY_TERMS, related.RESCORE)
    result = []
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
        scored = sorted((-score, other) for other in shortlist if (score := round(cosine(vec, vecs[other]), 9)) > 0)
        result.append(tuple(other for _, other in scored[:k]))
    return result


@pytest.mark.slow
def test_bit_set_search_matches_the_plain_pruned_search(monkeypatch):
    monkeypatch.setattr(related, "EXACT_UP_TO", 100)
    monkeypatch.setattr(related, "POSTINGS_CAP", 25)
    monkeypatch.setattr(related, "QUERY_TERMS", 10)
    monkeypatch.setattr(related, "RESCORE", 8)
    for seed, levels in ((1, 3), (2, 2), (3, 5)):
        monkeypatch.setattr(related, "LEVELS", levels)
        texts, tags = tagged_corpus(700, seed=seed)
        assert related_indices(texts) == pruned_reference(texts)
        assert related_indices(texts, tags=tags) == pruned_reference(texts, tags=tags)
    texts, tags = tagged_corpus(150, seed=3)  # exact mode
    monkeypatch.setattr(related, "EXACT_UP_TO", 500)
    assert related_indices(texts, tags=tags) == pruned_reference(texts, tags=tags)


def test_fast_scores_fall_back_to_the_defining_sum(monkeypatch):
    """Forcing every score through the defining sum, or none, changes nothing here."""
    texts, tags = tagged_corpus(400, seed=4)
    expected = related_indices(texts, tags=tags)
    monkeypatch.setattr(related._Scorer, "SLACK", 1.0)  # every interval straddles a midpoint
    assert related_indices(texts, tags=tags) == expected
    monkeypatch.setattr(related._Scorer, "SLACK", 0.0)
    assert related_indices(texts, tags=tags) == expected


def test_the_threshold_keeps_everything_tied_with_the_kth():
    """(The bit-set radix select this replaced was tested the same way.)"""
    rng = random.Random(5)
    for _ in range(200):
        counts = [rng.choice([0, 0, 1, 2, 3, 5, 8]) for _ in range(rng.randrange(1, 60))]
        histogram = numpy.bincount(counts, minlength=9)[None, :]
        candidates = sum(1 << d for d, c in enumerate(counts) if c)
        present = [c for c in counts if c]
        k = rng.randrange(1, 10)
        need = int(neighbours.thresholds(histogram, k)[0])
        got = [d for d in range(len(counts)) if candidates >> d & 1 and counts[d] >= need]
        if len(present) <= k:  # every paper that counts at all
            assert got == [d for d, c in enumerate(counts) if c]
            continue
        threshold = sorted(present, reverse=True)[k - 1]
        assert sorted(got) == [d for d, c in enumerate(counts) if c and c >= threshold]


def test_turns_on_every_core_give_what_one_process_gives(monkeypatch):
    """The papers' turns run in forked workers for a large catalog (each with its own cache
    of scores for later turns): the lists are exactly those of one process, pruned or exact."""
    from generator.parallel import jobs_chosen

    monkeypatch.setattr(related, "PARALLEL_FROM", 2)
    monkeypatch.setattr(related, "EXACT_UP_TO", 100)
    monkeypatch.setattr(related, "POSTINGS_CAP", 25)
    texts, tags = tagged_corpus(400, seed=5)
    with jobs_chosen(1):
        serial = related_indices(texts, tags=tags)
    with jobs_chosen(2):
        assert related_indices(texts, tags=tags) == serial
        assert related_indices(texts[:90], tags=tags[:90]) == exact(texts[:90], tags=tags[:90])
