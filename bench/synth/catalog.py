"""Synthetic archives for benchmarks: a field's conference papers, 1995–2026, as real records have them.

Usage::

    python -m bench.synth 10000 /tmp/cat10k                     # a content folder (catalog)
    python -m bench.synth 10000 /tmp/cat10k --via csl           # ... through `papershelf import csl`
    python -m bench.synth 100000 /tmp/rec100k --records-only --form csl     # records to import
    python -m bench.synth 100000 /tmp/rec100k --records-only --form all     # csl, bibtex, openreview, arxiv
    python -m bench.synth 20000 --stats                         # the archive's statistics (JSON)

Options: ``--seed S`` (default 0); ``--clean`` (no record defects); ``--duplicates`` (the
content folder keeps the records that repeat another paper's abstract, which today's build
refuses); ``--suggest-tags`` (tags by the importer's suggestions, slow). Same ``n``, seed and
options -> byte-identical files. ``OUT`` is replaced only when it is a previous synthetic
folder (it holds the marker file ``.papershelf-synth``), never someone's folder.

**The archive** (``archive.build_archive``): about 250 conference-years at 100,000
papers (``venues``: NeurIPS, ICML, ICLR, CVPR, ICCV, ECCV, WACV, ACL, EMNLP, NAACL and
their Findings, AAAI, IJCAI, KDD, AISTATS, UAI, COLT, CoRL, RSS, ICRA, IROS, SIGGRAPH,
Interspeech, ICASSP and some workshops, in their real years, sizes growing over time);
authorship with a real archive's statistics and labs (``authors``, ``names``:
3.9 authors a paper, 1.44 distinct authors a paper, 61 % of them with one paper, the most
prolific with ~270 at 100,000; namesakes); abstracts from the real seed sentences with
coined words and each field's phrase bank, titles, tags that follow the text
(``text``, ``fields``); landing pages and DOIs on the real hosts in their real
shapes (``links``); record defects at real rates (``mess``).

**The records** (``write_records``; ``records``): one file per conference-year in each
form: CSL-JSON (as Zotero exports it), BibTeX, OpenReview API v2 notes, arXiv API Atom
feeds, plus ``stats.json`` (``archive.measure``).

**The content folder** (``generate``, used by ``bench/run.py`` and the tests): what
``papershelf import csl`` makes of the CSL records, by the importer itself: the records are
written as CSL files and read by its CSL reader, then ``records.import_records`` plans and
writes every file (venues by series, names cleaned, debris repaired, broken words joined,
duplicates skipped or kept as the import does), with one difference: each paper's tags are
the ones its text votes for, given to the import as keywords, instead of the importer's
suggestions (``suggest_tags`` for those). ``via="csl"`` (``--via csl``) runs ``import_csl``
as the command does (a one-tag taxonomy during the import, the voted tags put in after;
slower): the same bytes. Either way the folder holds what the build accepts without a
warning: records whose abstract repeats another paper's are written with their own
abstract, and a record given twice once (``duplicates=True`` writes every record as the
sources have it: the importer skips the exact duplicates and keeps, with a warning, the
papers that share an abstract).
``write_seed_files`` writes the same papers as seed files (``bench/run.py``'s import
benchmark of ``import_seeds``).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import shutil
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

from generator.content.taxonomy import read_taxonomy
from generator.errors import Problems
from generator.importers.csl import CSL, import_csl, read_csl, records_from_csl
from generator.importers.records import Record, RecordsReport, doi_url, import_files

from . import records as synth_records
from .archive import Archive, Paper, Params, build_archive, measure
from .mess import MessParams, full
from .text import MAX_RANK, SYLLABLES, TAGS_TOML, load_corpus, pseudo_word  # noqa: F401

MARKER = ".papershelf-synth"
SOURCES = sorted(p for p in HERE.rglob("*") if p.is_file() and p.suffix in {".py", ".json", ".toml", ".txt"})  # bench/run.py's cache key
FORMS = synth_records.FORMS
PLACEHOLDER_TAG = "synth-placeholder"
PLACEHOLDER_TAXONOMY = f"""\
# One tag, so that the importer's tag suggestion is instant; replaced after the import.
[{PLACEHOLDER_TAG}]
name = "Placeholder"
description = "Replaced by bench/synth/ after the import."
phrases = []
fallback = true
"""


# --------------------------------------------------------------------------- folders


def _make_folder(out: Path, fill) -> Path:
    """Make ``out`` by ``fill(work)`` in a folder beside it, then rename it into place; an
    existing ``out`` is replaced only when it holds the marker of a synthetic folder."""
    out = Path(out).resolve()
    if out.exists() and not (out / MARKER).is_file():
        raise FileExistsError(f"{out} exists and is not a synthetic folder (no {MARKER}); not replacing it")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.synth-", dir=out.parent))
    try:
        result = fill(work)
        if out.exists():
            shutil.rmtree(out)
        result.rename(out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def _site_toml(n: int, seed: int) -> str:
    return (
        "# A synthetic catalog written by python -m bench.synth (deterministic for its size and seed).\n"
        f'title = "Synthetic catalog: {n} papers (seed {seed})"\n'
        f'description = "A synthetic archive of {n} conference papers, 1995–2026, for benchmarks."\n'
        'base_url = "/"\n'
        'language = "en"\n'
        'owner = "Papershelf benchmarks"\n'
    )


# --------------------------------------------------------------------------- the content folder


def _voted_records(path: Path, problems: Problems, report: RecordsReport, *,
                   tags: dict[str, tuple[str, ...]]) -> list[Record]:
    """The records of one CSL file as ``import csl`` reads them, each with its paper's voted
    tags as keywords (so that the import takes them instead of suggesting some)."""
    loaded = read_csl(path, problems)
    if loaded is None:
        return []
    data, lines = loaded
    records = records_from_csl(data, str(path), problems, report.warnings, lines=lines, skipped=report.skipped)
    return [dataclasses.replace(record, keywords=", ".join(tags[record.key])) for record in records]


def write_content(archive: Archive, content: Path, *, duplicates: bool = False,
                  taxonomy: dict | None = None) -> RecordsReport:
    """Write the archive's papers and venues into ``content`` (see the module docstring) by
    the importer itself: its CSL records, read as ``import csl`` reads them, through
    ``import_records``, with the voted tags (``taxonomy``: suggested from it instead). A
    content folder without ``tags.toml`` gets the taxonomy of the votes. Returns the report."""
    content.mkdir(parents=True, exist_ok=True)
    if not (content / "tags.toml").exists():
        shutil.copyfile(TAGS_TOML, content / "tags.toml")
    with tempfile.TemporaryDirectory(prefix=f".{content.name}.csl-", dir=content.parent) as folder:
        files = synth_records.write_form(archive, "csl", Path(folder), content=not duplicates)
        if taxonomy is not None:
            return import_csl(files, content)
        tags = {synth_records.item_id(p, copy): tuple(p.tags) for p in archive.papers for copy in (0, 1)}
        return import_files(files, content, CSL, functools.partial(_voted_records, tags=tags))


def _import_csl(archive: Archive, content: Path, work: Path, *, duplicates: bool, suggest: bool) -> None:
    """``papershelf import csl`` of the archive's CSL records into ``content`` (the command
    itself); the voted tags put in after."""
    files = synth_records.write_form(archive, "csl", work / "csl", content=not duplicates)
    if not suggest:
        (content / "tags.toml").write_text(PLACEHOLDER_TAXONOMY, encoding="utf-8")
    report = import_csl(files, content)
    if suggest:
        return
    by_id = {synth_records.item_id(p, copy): p for p in archive.papers for copy in (0, 1)}
    placeholder = f"tags:\n- {PLACEHOLDER_TAG}\n"
    for result in report.papers:
        path = content / "papers" / f"{result.slug}.md"
        text = path.read_text(encoding="utf-8")
        end = text.find("\n---\n", 3) + 1  # just after the front matter's last line
        if not end or text[:end].count(placeholder) != 1:
            raise RuntimeError(f"{path}: the importer no longer writes tags as {placeholder!r}")
        tags = "tags:\n" + "".join(f"- {tag}\n" for tag in by_id[result.key].tags)
        path.write_text(text[:end].replace(placeholder, tags) + text[end:], encoding="utf-8")
    shutil.copyfile(TAGS_TOML, content / "tags.toml")


def generate(n: int, out: Path, seed: int = 0, *, suggest_tags: bool = False, via: str = "direct",
             duplicates: bool = False, params: Params | None = None) -> Path:
    """Write a content folder of ``n`` synthetic papers to ``out`` and return ``out``.

    Deterministic: the same ``n``, ``seed`` and options give byte-identical files.
    ``via``: "direct" (the importer's helpers, fast) or "csl" (``import_csl`` itself).
    ``suggest_tags``: tags suggested from the taxonomy (about 30 ms a paper) instead of voted.
    """
    if via not in ("direct", "csl"):
        raise ValueError(f"via must be 'direct' or 'csl', not {via!r}")
    archive = build_archive(n, seed, params)

    def fill(work: Path) -> Path:
        content = work / "content"
        content.mkdir()
        (content / "site.toml").write_text(_site_toml(n, seed), encoding="utf-8")
        if via == "csl":
            if suggest_tags:
                shutil.copyfile(TAGS_TOML, content / "tags.toml")
            _import_csl(archive, content, work, duplicates=duplicates, suggest=suggest_tags)
        else:
            shutil.copyfile(TAGS_TOML, content / "tags.toml")
            taxonomy = read_taxonomy(TAGS_TOML, "tags.toml") if suggest_tags else None
            write_content(archive, content, duplicates=duplicates, taxonomy=taxonomy)
        (content / MARKER).write_text(f"python -m bench.synth n={n} seed={seed} via={via} suggest_tags={suggest_tags} "
                                      f"duplicates={duplicates}\n", encoding="utf-8")
        return content

    return _make_folder(out, fill)


# --------------------------------------------------------------------------- records and seed files


def write_records(n: int, out: Path, seed: int = 0, *, forms: tuple[str, ...] = FORMS,
                  params: Params | None = None) -> Path:
    """Write the records of ``n`` synthetic papers in ``forms`` to ``out/<form>/``, with the
    archive's statistics in ``out/stats.json``; return ``out``."""
    unknown = [f for f in forms if f not in FORMS]
    if unknown:
        raise ValueError(f"unknown record forms {unknown}; known: {', '.join(FORMS)}")
    archive = build_archive(n, seed, params)

    def fill(work: Path) -> Path:
        folder = work / "records"
        for form in forms:
            synth_records.write_form(archive, form, folder / form)
        (folder / "stats.json").write_text(json.dumps(measure(archive), indent=1, ensure_ascii=False) + "\n",
                                           encoding="utf-8")
        (folder / MARKER).write_text(f"python -m bench.synth n={n} seed={seed} records={','.join(forms)}\n",
                                     encoding="utf-8")
        return folder

    return _make_folder(out, fill)


def _seed_header(paper: Paper) -> str:
    venue = paper.venue
    if venue.kind == "findings":
        return f"Findings {venue.short} {venue.year} Papers"
    if venue.kind == "workshop":
        if venue.series == "cvpr":
            return f"CVPR Workshops {venue.year} Papers"
        return f"{venue.short} Workshop {venue.acronym} {venue.year} Papers"
    return f"{venue.short} {venue.year} Papers"


def write_seed_files(n: int, seed: int, folder: Path, params: Params | None = None
                     ) -> tuple[list[Path], dict[tuple[str, int], Paper]]:
    """The archive as seed files (``<stem>.txt`` + ``metadata/<stem>.json``, as ``../shared/seeds``):
    one file per conference-year, the abstracts as written (none empty, none repeated).

    Returns the seed files and the papers by (seed file name, 1-based index).
    """
    archive = build_archive(n, seed, params)
    metadata_dir = folder / "metadata"
    metadata_dir.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    papers: dict[tuple[str, int], Paper] = {}
    for v, (venue, batch) in enumerate(synth_records.records_of(archive, content=True)):
        stem = f"{v:03d}_{venue.slug}"
        records = []
        header = _seed_header(batch[0])
        for index, paper in enumerate(batch, 1):
            papers[(f"{stem}.txt", index)] = paper
            urls = {"venue_page": paper.links.url or (doi_url(paper.links.doi) if paper.links.doi else None),
                    "openreview": f"https://openreview.net/forum?id={paper.links.openreview}"
                    if paper.links.openreview else None,
                    "arxiv": f"https://arxiv.org/abs/{paper.links.arxiv}" if paper.links.arxiv else None,
                    "code": paper.links.code}
            records.append({"seed": f"{stem}.txt", "index": index,
                            "first_words": " ".join(paper.clean_abstract.split()[:6]), "title": paper.title,
                            "authors": [full(e) for e in paper.entries], "venue": header.removesuffix(" Papers"),
                            "presentation": paper.presentation, "urls": urls})
        path = folder / f"{stem}.txt"
        path.write_text(header + "\n\n" + "\n\n".join(p.clean_abstract for p in batch) + "\n",
                        encoding="utf-8")
        (metadata_dir / f"{stem}.json").write_text(json.dumps(records, ensure_ascii=False, indent=1) + "\n",
                                                   encoding="utf-8")
        files.append(path)
    return files, papers


# --------------------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a synthetic archive: a content folder, or its records.")
    parser.add_argument("n", type=int, help="number of papers")
    parser.add_argument("out", type=Path, nargs="?", help="folder to write (replaced if it is a synthetic one)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--records-only", action="store_true", help="write the records (see --form), no catalog")
    parser.add_argument("--form", action="append", choices=(*FORMS, "all"),
                        help="record form (repeatable; default csl; 'all' for every form)")
    parser.add_argument("--via", choices=("direct", "csl"), default="direct",
                        help="make the content folder directly (default) or with `import csl`")
    parser.add_argument("--duplicates", action="store_true",
                        help="keep the records that repeat another's abstract in the content folder")
    parser.add_argument("--clean", action="store_true", help="no record defects (and complete links)")
    parser.add_argument("--suggest-tags", action="store_true",
                        help="let the importer suggest tags from the taxonomy (about 30 ms per paper)")
    parser.add_argument("--stats", action="store_true", help="print the archive's statistics (JSON)")
    args = parser.parse_args(argv)
    if args.n < 1:
        parser.error("n must be at least 1")
    params = Params(mess=MessParams.clean()) if args.clean else Params()
    started = time.perf_counter()
    if args.out is None:
        if not args.stats:
            parser.error("give OUT, or --stats")
    elif args.records_only:
        forms = FORMS if "all" in (args.form or ()) else tuple(dict.fromkeys(args.form or ["csl"]))
        path = write_records(args.n, args.out, args.seed, forms=forms, params=params)
        print(f"Wrote the records of {args.n} papers ({', '.join(forms)}) to {path} in "
              f"{time.perf_counter() - started:.1f}s")
    else:
        path = generate(args.n, args.out, args.seed, suggest_tags=args.suggest_tags, via=args.via,
                        duplicates=args.duplicates, params=params)
        print(f"Wrote {args.n} papers to {path} in {time.perf_counter() - started:.1f}s")
    if args.stats:
        print(json.dumps(measure(build_archive(args.n, args.seed, params)), indent=1, ensure_ascii=False))
    return 0

