"""Import and build agree (issue 24): hostile and messy records, the same in every format
(CSL-JSON, BibTeX, OpenReview, arXiv, seeds), imported into a catalog that has neither
venues/ nor papers/ yet; whatever the import wrote, the build accepts and builds at once —
warning, never stopping, about what is only suspect (a paper given at two venues, a name it
could not split) — no page shows "(cid:", and importing again changes nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from click.testing import CliRunner

from generator.build import build
from generator.cli import main
from generator.content.loader import load_catalog
from generator.content.names import looks_like_list
from generator.importers.arxiv import import_arxiv
from generator.importers.bibtex import import_bibtex
from generator.importers.common import CREATED, UNCHANGED
from generator.importers.csl import import_csl
from generator.importers.openreview import import_openreview
from generator.importers.seeds import import_seeds
from generator.options import BuildOptions

WORDS = ("We study graph neural networks under sparsity and show that message passing recovers the support "
         "with few samples, improve(cid:173) ment included, and that the e(cid:14)cient estimator is optimal for "
         "every one of the benchmarks we tried in this paper.")
SAME = ("A method for learning representations of graphs that scales to millions of nodes while keeping the "
        "accuracy of full-batch training on every benchmark we tried, presented twice.")

# (title, authors as the source writes them, abstract, container, year, landing URL)
RECORDS = [
    ("Graph Sparsity: A Study", ["Ipek Oztas, Duygu Ceylan, Aysegul Dundar", "YANN LECUN", "Jane Doe1,2"],
     WORDS, "Advances in Neural Information Processing Systems 32", 2019,
     "https://proceedings.neurips.cc/paper/2019/hash/0123456789abcdef0123456789abcdef-Abstract.html"),
    ("Scalable Graph Representations", ["Kurt G\\\"{o}del", "Alan Turing*", "Alan Turing"], SAME,
     "ICML 2019 Workshop on Graph Representation Learning", 2019, "https://example.org/workshop/paper7"),
    ("Scalable Graph Representations", ["Kurt Gödel", "Alan Turing"], SAME,
     "Proceedings of the 36th International Conference on Machine Learning", 2019,
     "https://proceedings.mlr.press/v97/godel19a.html"),
    ("yes", ["Doe, Jane, Roe, Rick"], "", "Findings of the Association for Computational Linguistics: EMNLP 2020",
     2020, "https://aclanthology.org/2020.findings-emnlp.1/"),
    ("On $\\theta$: # not a comment, 'quoted' & <script>alert(1)</script>", ["Ada Lovelace†", "Grace Hopper‡"],
     "Short.", "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)", 2022,
     "https://openaccess.thecvf.com/content/CVPR2022/html/X_On_Theta_CVPR_2022_paper.html"),
]


def _seeds(folder: Path) -> list[Path]:
    """One seed file per venue, and its metadata (titles, authors, links)."""
    files = []
    for n, (title, authors, abstract, container, year, url) in enumerate(RECORDS):
        stem = f"s{n}"
        short = {2019: "NeurIPS", 2020: "EMNLP", 2022: "CVPR"}[year] if n != 1 else "GRL"
        text = abstract or f"An abstract of its own for seed {n}, long enough to stand alone."
        (folder / f"{stem}.txt").write_text(f"{short} {year} Papers\n\n{text}\n", encoding="utf-8")
        meta = folder / "metadata"
        meta.mkdir(exist_ok=True)
        (meta / f"{stem}.json").write_text(json.dumps([{
            "seed": f"{stem}.txt", "index": 1, "first_words": " ".join(text.split()[:5]), "title": title,
            "authors": [a.replace('\\"{o}', "ö") for a in authors], "venue": f"{short} {year}",
            "presentation": None, "urls": {"venue_page": url}}]), encoding="utf-8")
        files.append(folder / f"{stem}.txt")
    return files


def _csl(folder: Path) -> list[Path]:
    items = [{"id": f"r{n}", "type": "paper-conference", "title": t, "abstract": a,
              "author": [{"literal": name} for name in authors], "container-title": c,
              "issued": {"date-parts": [[y]]}, "URL": u} for n, (t, authors, a, c, y, u) in enumerate(RECORDS)]
    path = folder / "items.json"
    path.write_text(json.dumps(items, ensure_ascii=False, indent=1), encoding="utf-8")
    return [path]


def _bibtex(folder: Path) -> list[Path]:
    def field(text: str) -> str:
        return text.replace("&", "\\&").replace("# ", "").replace("%", "\\%")  # bibtexparser misreads "\\#"

    entries = [f"@inproceedings{{r{n},\n  title = {{{field(t)}}},\n  author = {{{' and '.join(authors)}}},\n"
               f"  booktitle = {{{c}}},\n  year = {y},\n  url = {{{u}}},\n  abstract = {{{field(a)}}}\n}}\n"
               for n, (t, authors, a, c, y, u) in enumerate(RECORDS)]
    path = folder / "items.bib"
    path.write_text("\n".join(entries), encoding="utf-8")
    return [path]


def _openreview(folder: Path) -> list[Path]:
    notes = [{"id": f"note{n}xyz", "forum": f"note{n}xyz",
              "content": {"title": {"value": t}, "authors": {"value": [a.replace('\\"{o}', "ö") for a in authors]},
                          "abstract": {"value": a}, "venue": {"value": f"{c} {y}"}, "html": {"value": u}}}
             for n, (t, authors, a, c, y, u) in enumerate(RECORDS)]
    path = folder / "notes.json"
    path.write_text(json.dumps({"notes": notes, "count": len(notes)}, ensure_ascii=False), encoding="utf-8")
    return [path]


def _arxiv(folder: Path) -> list[Path]:
    entries = "".join(
        f"<entry><id>http://arxiv.org/abs/2001.0000{n}v1</id><published>{y}-01-02T00:00:00Z</published>"
        f"<title>{escape(t)}</title><summary>{escape(a)}</summary>"
        + "".join(f"<author><name>{escape(name)}</name></author>" for name in authors)
        + f"<arxiv:journal_ref>{escape(c)} {y}</arxiv:journal_ref></entry>"
        for n, (t, authors, a, c, y, u) in enumerate(RECORDS))
    path = folder / "feed.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
                    f'xmlns:arxiv="http://arxiv.org/schemas/atom">{entries}</feed>\n', encoding="utf-8")
    return [path]


FORMATS = {
    "csl": (_csl, lambda files, content: import_csl(files, content)),
    "bibtex": (_bibtex, lambda files, content: import_bibtex(files, content)),
    "openreview": (_openreview, lambda files, content: import_openreview(files, content)),
    "arxiv": (_arxiv, lambda files, content: import_arxiv(files, content)),
    "seeds": (_seeds, lambda files, content: import_seeds(files, content, files[0].parent / "metadata")),
}


@pytest.fixture
def bare(empty):
    """A catalog with site.toml and tags.toml only: no venues/, no papers/."""
    shutil.rmtree(empty.root / "venues")
    shutil.rmtree(empty.root / "papers", ignore_errors=True)
    return empty.root


@pytest.mark.parametrize("form", sorted(FORMATS))
def test_messy_records_import_and_the_catalog_builds(form, bare, tmp_path):
    write, run = FORMATS[form]
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    files = write(inputs)
    report = run(files, bare)
    assert set(report.statuses.values()) == {CREATED}
    assert (bare / "venues").is_dir() and (bare / "papers").is_dir()

    catalog = load_catalog(bare)  # whatever the import wrote, the build accepts
    assert len(catalog.papers) == len(report.papers) >= 4
    for paper in catalog.papers:
        assert "(cid:" not in paper.title + paper.abstract
        assert all(name == name.strip() and "*" not in name and "†" not in name for name in paper.authors)
        assert len(set(paper.authors)) == len(paper.authors)
    names = {name for paper in catalog.papers for name in paper.authors}
    assert {"Ipek Oztas", "Duygu Ceylan", "Yann Lecun", "Jane Doe", "Alan Turing", "Ada Lovelace"} <= names
    assert [name for name in names if looks_like_list(name)] == ["Doe, Jane, Roe, Rick"]  # reported, not guessed
    summary = report.summary()
    assert "Author names repaired" in summary and "Author names left as they are (1):" in summary
    if form != "seeds":  # a seed file's header names its venue
        assert "soft hyphens joined" in summary
        assert "neurips-2019" in catalog.venues and "icml-2019" in catalog.venues
        assert catalog.venues["neurips-2019"].full_name == "Advances in Neural Information Processing Systems 32"
    # Only what is suspect is said, and the site builds anyway.
    assert any("Doe, Jane, Roe, Rick" in w and "looks like several names" in w for w in catalog.warnings)
    if form in ("csl", "bibtex", "openreview"):
        assert "Likely duplicates kept (1;" in summary
        assert any("likely the same paper as" in w and "same title and authors at another venue" in w
                   for w in catalog.warnings)
    site = tmp_path / "site"
    build(BuildOptions(content=bare, output=site))
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "(cid:" not in text and "<script>alert" not in text, page

    again = run(files, bare)  # and an import is idempotent
    assert set(again.statuses.values()) == {UNCHANGED}


def test_the_command_line_creates_the_folders_and_prints_the_counts(bare, tmp_path):
    files = _csl(tmp_path)
    result = CliRunner().invoke(main, ["import", "csl", str(files[0]), "--content", str(bare)])
    assert result.exit_code == 0, result.output
    assert "Imported 5 papers from 1 CSL-JSON file: 5 created" in result.output
    assert "Venues created: neurips-2019" in result.output
    assert "PDF debris repaired in 1 texts: 1 soft hyphens joined, 1 ligatures restored" in result.output
    assert "Papers with a PDF: 4 (" in result.output
    check = CliRunner().invoke(main, ["check", "--content", str(bare)])
    assert check.exit_code == 0 and "OK: 5 papers" in check.output
