"""Time the derive stage and the related lists of a catalog, and the recall of the lists.

    .venv/bin/python -m bench.derive_bench --content /tmp/cat100k            # load, derive, related
    .venv/bin/python -m bench.derive_bench --papers 10000 --recall 150       # + recall of the exact top 5
    .venv/bin/python -m bench.derive_bench --content /tmp/cat10k --cprofile derive --jobs 1

``--papers N`` takes the synthetic catalog of bench/run.py's cache (``bench/out/catalog-N-seed0``,
made if missing); ``--content`` any content folder. Times are wall seconds; the related
lists are computed twice: once inside ``derive`` (as a build does, no build cache) and once
alone (``related_indices`` on the views' texts and tags), with the peak RSS of this process
and of the workers it forked (``RUSAGE_CHILDREN``: the largest child). ``--recall K``
samples K papers (seeded) and counts how many of each one's exact top 5 (every other paper
scored by ``related.cosine``) the lists found.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import resource
import sys
import time
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent

from generator.content.loader import load_catalog
from generator.derive import related
from generator.derive.views import derive
from generator.parallel import jobs_chosen


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * resource.getpagesize() / 2**20


def peaks_mb() -> tuple[float, float]:
    """Peak RSS of this process and of the largest waited-for child, MiB."""
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)


def exact_top(weights, doc: int, k: int) -> list[int]:
    """The exact top ``k`` of ``doc`` as ``related`` defines it (``round(cosine, 9)``, ties by
    position): every paper's dot product with it by numpy, then the best (within a margin
    far above numpy's rounding) rescored by the defining ``cosine``."""
    rows = weights.rows
    mine = rows.row(doc)
    dense = np.zeros(weights.n_terms)
    dense[list(mine)] = list(mine.values())
    approx = np.bincount(rows.row_ids(), weights=dense[rows.indices] * rows.values, minlength=rows.n_rows)
    approx[doc] = 0.0
    if not (approx > 0).any():
        return []
    bar = np.sort(approx)[-k] - 1e-9 if (approx > 0).sum() >= k else 0.0
    scored = []
    for other in np.nonzero((approx >= bar) & (approx > 0))[0].tolist():
        score = round(related.cosine(mine, rows.row(other)), 9)
        if score > 0:
            scored.append((-score, other))
    scored.sort()
    return [other for _, other in scored[:k]]


def recall(texts, tags, lists, sample: int, seed: int = 0) -> tuple[float, int]:
    """Share of the sampled papers' exact top-5 entries found in ``lists``, and the sample size."""
    weights = related._weights(texts, tags, singletons=False)
    rng = random.Random(seed)
    docs = rng.sample(range(len(texts)), min(sample, len(texts)))
    found = total = 0
    for doc in docs:
        truth = exact_top(weights, doc, related.RELATED_COUNT)
        found += len(set(truth) & set(lists[doc]))
        total += len(truth)
    return (found / total if total else 1.0), len(docs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--papers", type=int, help="a synthetic catalog of this many papers (bench/run.py's cache)")
    source.add_argument("--content", type=Path, help="a content folder")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: one per core)")
    parser.add_argument("--recall", type=int, default=0, metavar="K", help="sample K papers for recall")
    parser.add_argument("--cprofile", choices=("derive", "related"), help="profile one step (one process)")
    parser.add_argument("--skip-derive", action="store_true", help="time the related lists alone")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument("--save-lists", type=Path, help="write the related lists here (JSON, by paper index)")
    args = parser.parse_args(argv)
    if args.papers:
        from bench.harness.catalogs import cached_catalog  # noqa: PLC0415
        content = cached_catalog(args.papers, 0)
    else:
        content = args.content
    figures: dict[str, float] = {}
    with jobs_chosen(args.jobs):
        started = time.perf_counter()
        catalog = load_catalog(content)
        figures["papers"] = len(catalog.papers)
        figures["load_s"] = time.perf_counter() - started
        figures["rss_after_load_mb"] = rss_mb()
        profiler = cProfile.Profile() if args.cprofile else None
        if not args.skip_derive or args.cprofile == "derive":
            started = time.perf_counter()
            if args.cprofile == "derive":
                profiler.enable()
            site = derive(catalog)
            if args.cprofile == "derive":
                profiler.disable()
            figures["derive_s"] = time.perf_counter() - started
            figures["rss_after_derive_mb"] = rss_mb()
            views = site.papers
        else:
            site = derive_views_only(catalog)
            views = site
        texts = [(v.title_plain, v.abstract_plain) for v in views]
        tags = [v.paper.tags for v in views]
        before = rss_mb()
        started = time.perf_counter()
        if args.cprofile == "related":
            profiler.enable()
        lists = related.related_indices(texts, tags=tags)
        if args.cprofile == "related":
            profiler.disable()
        figures["related_s"] = time.perf_counter() - started
        figures["related_rss_growth_mb"] = rss_mb() - before
    figures["peak_rss_mb"], figures["peak_child_rss_mb"] = peaks_mb()
    if args.save_lists:
        args.save_lists.write_text(json.dumps([list(found) for found in lists]) + "\n", encoding="utf-8")
    if args.recall:
        started = time.perf_counter()
        figures["recall"], figures["recall_sample"] = recall(texts, tags, lists, args.recall)
        figures["recall_s"] = time.perf_counter() - started
    for key, value in figures.items():
        print(f"{key:>24}: {value:,.3f}" if isinstance(value, float) else f"{key:>24}: {value:,}")
    if profiler is not None:
        text = io.StringIO()
        for order in ("tottime", "cumulative"):
            pstats.Stats(profiler, stream=text).sort_stats(order).print_stats(35)
        out = BENCH / "out" / f"derive-{args.cprofile}-{len(texts)}.txt"
        out.parent.mkdir(exist_ok=True)
        out.write_text(text.getvalue(), encoding="utf-8")
        print(f"(profile: {out})")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


def derive_views_only(catalog):
    """The paper views alone, as ``derive`` makes them (for ``--skip-derive``)."""
    from generator.derive import views as views_module  # noqa: PLC0415
    from generator.derive.people import author_slugs, spellings_of  # noqa: PLC0415

    venue_refs = {v.id: views_module.VenueRef(v.id, v.name, v.full_name, v.year) for v in catalog.venues.values()}
    tag_refs = {t.id: views_module._tag_ref(t) for t in catalog.tags.values()}
    keys, people = author_slugs(catalog.papers, catalog.people)
    author_refs = views_module.refs_of_authors(spellings_of(catalog.papers, keys), people)
    return views_module._paper_views(catalog, venue_refs, tag_refs, author_refs, keys)[0]


if __name__ == "__main__":
    sys.exit(main())
