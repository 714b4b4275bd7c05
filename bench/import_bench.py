"""Time one ``papershelf import`` of N synthetic records in one form, and its peak memory.

Usage::

    python -m bench.import_bench csl 100000 [--seed 0] [--keep /tmp/x] [--profile out.pstats]
    python -m bench.import_bench bibtex|openreview|arxiv N ...

The records are made here, deterministically (``make_records``), and written in the chosen
form, one input file per conference-year (arXiv: feeds of 1,000 entries) — the shape of a
field's archive: real series over many years, ~3.9 authors a paper drawn with a heavy head,
landing pages on the series' real hosts, and messy records (glued author lists, footnote
marks, LaTeX accents, ALL-CAPS names, ``(cid:173)`` debris, words split at a line end,
names listed twice, empty abstracts, papers given twice at two venues). Writing them is not
timed. The import then runs as a user runs it, ``papershelf import FORM FILES --content
DIR`` into a fresh ``papershelf new`` catalog, in a child process: the script reports its
wall time and peak RSS (``ru_maxrss`` of the children, so every process it starts counts),
and the summary's counts. It compares nothing but the import with itself (run it before
and after a change). ``--profile`` runs the import under cProfile instead (slower).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import escape

REPO = Path(__file__).resolve().parents[1]
PAPERSHELF = [sys.executable, "-m", "generator.cli"]

# (acronym, container title of year y, landing page of paper k in year y, first year, papers a year)
SERIES = [
    ("NeurIPS", "Advances in Neural Information Processing Systems {vol}", "neurips", 1987, 900),
    ("ICML", "Proceedings of the {ord} International Conference on Machine Learning", "pmlr", 2004, 700),
    ("ICLR", "International Conference on Learning Representations", "openreview", 2013, 600),
    ("CVPR", "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)", "cvf", 2000,
     800),
    ("ICCV", "Proceedings of the IEEE/CVF International Conference on Computer Vision (ICCV)", "cvf", 2001, 500),
    ("ACL", "Proceedings of the {ord} Annual Meeting of the Association for Computational Linguistics", "acl", 2000,
     500),
    ("EMNLP", "Proceedings of the {year} Conference on Empirical Methods in Natural Language Processing", "acl",
     2003, 500),
    ("AAAI", "Proceedings of the AAAI Conference on Artificial Intelligence", "aaai", 2005, 700),
    ("IJCAI", "Proceedings of the Thirty-First International Joint Conference on Artificial Intelligence", "ijcai",
     2005, 400),
    ("KDD", "Proceedings of the ACM SIGKDD International Conference on Knowledge Discovery and Data Mining", "acm",
     2005, 250),
    ("AISTATS", "Proceedings of The {ord} International Conference on Artificial Intelligence and Statistics",
     "pmlr", 2007, 250),
    ("RSS", "Robotics: Science and Systems", "rss", 2005, 90),
    ("ICRA", "IEEE International Conference on Robotics and Automation (ICRA)", "ieee", 2005, 900),
    ("Interspeech", "Proc. Interspeech {year}", "isca", 2005, 500),
]
TOPIC_WORDS = (
    "reinforcement learning policy gradient graph neural network transformer attention diffusion model "
    "language model speech recognition image segmentation object detection robot manipulation optimization "
    "convex stochastic gradient generalization bound kernel causal inference federated learning privacy "
    "adversarial robustness contrastive self-supervised representation benchmark dataset translation "
    "retrieval question answering planning control bayesian variational inference sampling estimator"
).split()
GIVEN = ("Wei Jun Yuan Anna Maria José Zoë Sören Łukasz Yann Ian Yoshua Geoffrey Fei-Fei Andrew Pieter Sergey "
         "Chelsea Percy Jia Kaiming Ross Piotr Christopher Jürgen Bernhard Michael David Emily Sarah Li Ming Xin "
         "Hao Priya Arjun Ahmed Fatima Olga Ivan Hiroshi Yuki Min-jun Seo-yeon").split()
FAMILY = ("Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Luo Gao Müller Schmidt "
          "García Martínez Smith Johnson Brown Jones Miller Davis Kumar Singh Sharma Patel Kim Lee Park Choi "
          "Tanaka Suzuki Ivanov Petrov Rossi Bianchi Dubois Lefebvre O'Brien McDonald LeCun").split()


def _pool(rng: random.Random, size: int) -> list[str]:
    names = set()
    while len(names) < size:
        middle = f" {rng.choice('ABCDEFGHJKLMNPRSTW')}." if rng.random() < 0.2 else ""
        names.add(f"{rng.choice(GIVEN)}{middle} {rng.choice(FAMILY)}")
        if len(names) % 7 == 0:
            names.add(f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}-{rng.choice(FAMILY)}")
    return sorted(names)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _landing(host: str, acronym: str, year: int, k: int, rng: random.Random) -> str:
    token = f"{rng.getrandbits(64):016x}"
    if host == "neurips":
        return f"https://proceedings.neurips.cc/paper/{year}/hash/{token}{token}-Abstract.html"
    if host == "pmlr":
        return f"https://proceedings.mlr.press/v{max(1, year - 1900)}/a{k}{year % 100}a.html"
    if host == "openreview":
        return f"https://openreview.net/forum?id={token[:10]}"
    if host == "cvf":
        return (f"https://openaccess.thecvf.com/content/{acronym}{year}/html/Author_Title_{k}_{acronym}_{year}"
                f"_paper.html")
    if host == "acl":
        return f"https://aclanthology.org/{year}.{acronym.lower()}-long.{k}/"
    if host == "ijcai":
        return f"https://www.ijcai.org/proceedings/{year}/{k}"
    if host == "rss":
        return f"https://www.roboticsproceedings.org/rss{year - 2004:02d}/p{k:02d}.html"
    if host == "isca":
        return f"https://www.isca-archive.org/interspeech_{year}/smith{year % 100}_interspeech.html"
    if host == "acm":
        return f"https://doi.org/10.1145/{3534678 + k}.{year}"
    if host == "ieee":
        return f"https://ieeexplore.ieee.org/document/{9000000 + k * 7 + year}"
    return f"https://ojs.aaai.org/index.php/AAAI/article/view/{20000 + k}"


def _abstract(rng: random.Random, words: list[str]) -> str:
    sentences = []
    for _ in range(rng.randint(5, 10)):
        n = rng.randint(10, 24)
        sentence = " ".join(rng.choice(TOPIC_WORDS) if rng.random() < 0.3 else rng.choice(words) for _ in range(n))
        sentences.append(sentence[0].upper() + sentence[1:] + ".")
    text = " ".join(sentences)
    if rng.random() < 0.2:
        text = text.replace(" optimization", " optimiza- tion", 1)
    if rng.random() < 0.02:
        text = text.replace(" representation", " improve(cid:173) ment representation", 1)
    if rng.random() < 0.1:
        text += " We prove a bound of $O(\\sqrt{T \\log n})$ for this setting."
    return text


def _messy(name: str, rng: random.Random) -> list[str]:
    """What a source may make of one author (usually the name itself)."""
    r = rng.random()
    if r < 0.01:
        return [name.upper()]
    if r < 0.02:
        return [name + rng.choice(["*", "†", "1,2", "‡"])]
    if r < 0.025:
        return [name.replace("ö", '{\\"o}').replace("é", "{\\'e}").replace("ü", '{\\"u}')]
    return [name]


def make_records(n: int, seed: int = 0) -> list[dict]:
    """``n`` records (plain dicts: the facts every form is written from), deterministically."""
    rng = random.Random(seed)
    words = [("".join(rng.choice("aeioubcdfglmnprstv") for _ in range(rng.randint(3, 11)))) for _ in range(20000)]
    weights = list(itertools.accumulate(1 / (i + 2.7) ** 1.1 for i in range(len(words))))
    vocab = rng.choices(words, cum_weights=weights, k=200000)
    pool = _pool(rng, max(200, int(n * 0.37)))
    head = list(itertools.accumulate(1 / (i + 1) ** 0.9 for i in range(len(pool))))  # cumulative: fast draws
    venues = [(a, c, h, y, per) for a, c, h, first, per in SERIES for y in range(first, 2026)]
    total = sum(v[4] for v in venues)
    records: list[dict] = []
    for acronym, container, host, year, per in venues:
        count = max(1, round(n * per / total))
        for k in range(1, count + 1):
            if len(records) >= n:
                break
            authors: list[str] = []
            for name in rng.choices(pool, cum_weights=head, k=max(1, min(15, int(rng.expovariate(1 / 3.9)) + 1))):
                authors.extend(_messy(name, rng))
            if rng.random() < 0.01 and len(authors) >= 3:
                authors = [", ".join(authors[:3])] + authors[3:]
            if rng.random() < 0.005 and authors:
                authors.append(authors[0])
            title_words = [rng.choice(TOPIC_WORDS + vocab[:3000]) for _ in range(rng.randint(4, 12))]
            title = " ".join(title_words).capitalize() + f" {k}"
            vol = year - 1987
            records.append({
                "id": f"{acronym.lower()}{year}-{k}", "title": title, "authors": authors,
                "abstract": "" if rng.random() < 0.01 else _abstract(rng, vocab),
                "container": container.format(vol=vol, ord=_ordinal(year - 1983), year=year),
                "acronym": acronym, "year": year, "url": _landing(host, acronym, year, k, rng),
            })
    for i in range(0, len(records), 97):  # a paper given again at another venue (a workshop, next year)
        j = (i * 7919) % len(records)
        if j != i and records[j]["abstract"] and records[i]["abstract"]:
            records[i]["abstract"] = records[j]["abstract"]
    return records


# --------------------------------------------------------------------------- the four forms


def _groups(records: list[dict]) -> dict[str, list[dict]]:
    groups: dict[str, list[dict]] = {}
    for record in records:
        groups.setdefault(f"{record['acronym'].lower()}-{record['year']}", []).append(record)
    return groups


def _split_name(name: str) -> dict:
    given, _, family = name.rpartition(" ")
    return {"given": given, "family": family} if given else {"literal": name}


def write_csl(records: list[dict], folder: Path) -> list[Path]:
    files = []
    for key, group in _groups(records).items():
        items = [{"id": r["id"], "type": "paper-conference", "title": r["title"],
                  "author": [_split_name(a) for a in r["authors"]], "abstract": r["abstract"],
                  "container-title": r["container"], "event-title": r["container"],
                  "issued": {"date-parts": [[r["year"]]]}, "URL": r["url"]} for r in group]
        path = folder / f"{key}.json"
        path.write_text(json.dumps(items, ensure_ascii=False, indent=1), encoding="utf-8")
        files.append(path)
    return files


def _bib(text: str) -> str:
    return text.replace("{", "").replace("}", "").replace("%", "\\%").replace("&", "\\&")


def write_bibtex(records: list[dict], folder: Path) -> list[Path]:
    files = []
    for key, group in _groups(records).items():
        entries = []
        for r in group:
            authors = " and ".join(a.replace("{", "").replace("}", "") for a in r["authors"])
            entries.append(f"@inproceedings{{{r['id']},\n  title = {{{_bib(r['title'])}}},\n"
                           f"  author = {{{authors}}},\n  booktitle = {{{_bib(r['container'])}}},\n"
                           f"  year = {{{r['year']}}},\n  url = {{{r['url']}}},\n"
                           f"  abstract = {{{_bib(r['abstract'])}}}\n}}\n")
        path = folder / f"{key}.bib"
        path.write_text("\n".join(entries), encoding="utf-8")
        files.append(path)
    return files


def write_openreview(records: list[dict], folder: Path) -> list[Path]:
    files = []
    for key, group in _groups(records).items():
        acronym, year = group[0]["acronym"], group[0]["year"]
        notes = [{"id": f"n{r['id'].replace('-', '')}", "forum": f"n{r['id'].replace('-', '')}",
                  "content": {"title": {"value": r["title"]}, "authors": {"value": r["authors"]},
                              "abstract": {"value": r["abstract"]},
                              "venue": {"value": f"{acronym} {year} poster"},
                              "venueid": {"value": f"{acronym}.cc/{year}/Conference"},
                              "html": {"value": r["url"]}}} for r in group]
        path = folder / f"{key}.json"
        path.write_text(json.dumps({"notes": notes, "count": len(notes)}, ensure_ascii=False), encoding="utf-8")
        files.append(path)
    return files


def write_arxiv(records: list[dict], folder: Path) -> list[Path]:
    files = []
    for start in range(0, len(records), 1000):
        entries = []
        for i, r in enumerate(records[start:start + 1000], start):
            ident = f"{r['year'] % 100:02d}{(i % 12) + 1:02d}.{i:05d}"
            authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in r["authors"])
            entries.append(f"<entry><id>http://arxiv.org/abs/{ident}v1</id>"
                           f"<published>{r['year']}-03-01T00:00:00Z</published>"
                           f"<title>{escape(r['title'])}</title><summary>{escape(r['abstract'])}</summary>{authors}"
                           f"<arxiv:journal_ref>{escape(r['acronym'])} {r['year']}</arxiv:journal_ref></entry>")
        path = folder / f"feed-{start // 1000:04d}.xml"
        path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
                        'xmlns:arxiv="http://arxiv.org/schemas/atom">' + "".join(entries) + "</feed>\n",
                        encoding="utf-8")
        files.append(path)
    return files


WRITERS = {"csl": write_csl, "bibtex": write_bibtex, "openreview": write_openreview, "arxiv": write_arxiv}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("form", choices=sorted(WRITERS))
    parser.add_argument("n", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", type=Path, default=None, help="Keep the inputs and catalog in this folder.")
    parser.add_argument("--profile", type=Path, default=None, help="Write a cProfile of the import here.")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="import-bench-")) if args.keep is None else args.keep
    if args.keep is not None:
        shutil.rmtree(work, ignore_errors=True)
    inputs, catalog = work / "inputs", work / "catalog"
    inputs.mkdir(parents=True)
    records = make_records(args.n, args.seed)
    files = WRITERS[args.form](records, inputs)
    del records
    subprocess.run([*PAPERSHELF, "new", str(catalog)], check=True, cwd=REPO, stdout=subprocess.DEVNULL)
    command = [*PAPERSHELF, "import", args.form, *map(str, files), "--content", str(catalog / "content")]
    if args.profile is not None:
        command = [sys.executable, "-m", "cProfile", "-o", str(args.profile), "-m", "generator.cli", *command[3:]]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    lines = (done.stdout or done.stderr).splitlines()
    print("\n".join(line[:300] for line in lines if not line.startswith("  - ")))
    print(f"import {args.form}: {args.n:,} records in {len(files)} files: {wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"peak RSS {max(after.ru_maxrss, before.ru_maxrss) / 1024:.0f} MB, exit status {done.returncode}")
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
