"""bench/synth/: synthetic archives are deterministic, shaped like a field's real one, and
every form of them reads (records) or builds (content folder).

(No timings here: performance is measured by bench/run.py and the figures in bench/synth/'s
report.)
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import pytest

from bench import run, synth
from bench.harness.hugo import convert_to_hugo
from bench.synth import archive as synth_archive
from bench.synth import authors as synth_authors
from bench.synth import links as synth_links
from bench.synth import mess as synth_mess
from bench.synth import names as synth_names
from bench.synth import records as synth_records
from bench.synth import text as synth_text
from bench.synth import venues as synth_venues
from generator.content.loader import load_catalog
from generator.content.slugs import author_key
from generator.content.taxonomy import read_taxonomy
from generator.errors import Problems

from .sitecheck import files_of

REPO = Path(__file__).resolve().parents[1]


def _tree(root: Path) -> dict[str, bytes]:
    return files_of(root, manifest=True)


@pytest.fixture(scope="module")
def catalog_dir(tmp_path_factory) -> Path:
    return synth.generate(300, tmp_path_factory.mktemp("synth") / "content", seed=0)


@pytest.fixture(scope="module")
def catalog(catalog_dir):
    return load_catalog(catalog_dir)


# Defects ten times as often as in a real archive, so that a small archive has enough of each
# (the links as often as in a real one).
MESSY = synth_archive.Params(mess=dataclasses.replace(synth_mess.MessParams().scaled(10), missing_links=0.05,
                                                      doi_only=0.15, url_only=0.3, jats_abstract=0.3))


@pytest.fixture(scope="module")
def messy_archive():
    return synth_archive.build_archive(1500, 4, MESSY)


@pytest.fixture(scope="module")
def records_dir(tmp_path_factory) -> Path:
    return synth.write_records(400, tmp_path_factory.mktemp("records") / "out", seed=2, params=MESSY)


@pytest.fixture(scope="module")
def authorship_20k():
    return synth_archive.build_authorship(20_000, 0)


# --------------------------------------------------------------------------- determinism


def test_same_size_and_seed_give_identical_files(tmp_path, catalog_dir):
    again = synth.generate(300, tmp_path / "again", seed=0)
    assert _tree(again) == _tree(catalog_dir)


@pytest.mark.slow
def test_identical_across_processes_with_different_hash_seeds(tmp_path):
    trees = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"hash{hash_seed}"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        script = ("from bench import synth; "
                  f"synth.write_records(60, {str(out)!r}, forms=synth.FORMS); "
                  f"synth.generate(60, {str(out / 'content')!r})")
        subprocess.run([sys.executable, "-c", script], check=True, env=env, cwd=REPO, capture_output=True, timeout=300)
        trees.append(_tree(out))
    assert trees[0] == trees[1]
    assert {name.split("/")[0] for name in trees[0]} >= {"csl", "bibtex", "openreview", "arxiv", "content"}


def test_records_are_identical_for_the_same_size_and_seed(tmp_path, records_dir):
    again = synth.write_records(400, tmp_path / "again", seed=2, params=MESSY)
    assert _tree(again) == _tree(records_dir)


def test_another_seed_gives_another_catalog(tmp_path, catalog_dir):
    other = synth.generate(300, tmp_path / "other", seed=1)
    first, second = _tree(catalog_dir), _tree(other)
    assert first["tags.toml"] == second["tags.toml"]
    papers = lambda tree: {v for k, v in tree.items() if k.startswith("papers/")}  # noqa: E731
    assert not papers(first) & papers(second)


# --------------------------------------------------------------------------- the content folder


def test_writes_a_complete_content_folder_that_builds(catalog_dir, catalog):
    assert (catalog_dir / "site.toml").is_file()
    assert (catalog_dir / "tags.toml").read_bytes() == (REPO / "content" / "tags.toml").read_bytes()
    assert len(list((catalog_dir / "papers").glob("*.md"))) == 300 == len(catalog.papers)
    assert len(catalog.venues) >= 2
    assert "300 papers" in catalog.site.title
    # Nothing but the content itself (and the marker) is left in the folder.
    assert sorted(p.name for p in catalog_dir.iterdir()) == sorted(
        [".papershelf-synth", "papers", "site.toml", "tags.toml", "venues"])
    assert not list(catalog_dir.parent.glob(".*synth-*"))  # the work folder is removed
    check = subprocess.run([str(Path(sys.executable).parent / "papershelf"), "check", "--content", str(catalog_dir)],
                           capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_content_folder_is_what_import_csl_writes(tmp_path):
    """The direct writer and a real `papershelf import csl` of the CSL records give the same
    bytes (with defects ten times as often, so that every kind is in the records)."""
    direct = synth.generate(160, tmp_path / "direct", seed=5, params=MESSY)
    imported = synth.generate(160, tmp_path / "imported", seed=5, params=MESSY, via="csl")
    first, second = _tree(direct), _tree(imported)
    first.pop(".papershelf-synth"), second.pop(".papershelf-synth")
    assert first == second
    load_catalog(imported)


def _without_tags(text: bytes) -> bytes:
    return re.sub(rb"\ntags:\n(?:- [^\n]*\n)*", b"\n", text, count=1)


def test_the_content_folder_is_what_the_import_command_writes_but_the_tags(tmp_path):
    """`papershelf import csl` of the archive's CSL records, run as a user runs it (into a
    `papershelf new` catalog, with its taxonomy's suggestions), writes the same venue files,
    and the same paper files but for the tags: the synthetic folder has the tags the text
    votes for."""
    archive = synth_archive.build_archive(160, 5, MESSY)
    direct = synth.generate(160, tmp_path / "direct", seed=5, params=MESSY)
    files = synth_records.write_form(archive, "csl", tmp_path / "csl", content=True)
    papershelf = str(Path(sys.executable).parent / "papershelf")
    subprocess.run([papershelf, "new", str(tmp_path / "cat")], check=True, capture_output=True, timeout=120)
    content = tmp_path / "cat" / "content"
    for path in (content / "papers").glob("*.md"):
        path.unlink()  # the example paper
    for path in (content / "venues").glob("*.md"):
        path.unlink()
    done = subprocess.run([papershelf, "import", "csl", *map(str, files), "--content", str(content)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    ours, theirs = _tree(direct), _tree(content)
    assert sorted(k for k in ours if k.startswith(("papers/", "venues/"))) == \
        sorted(k for k in theirs if k.startswith(("papers/", "venues/")))
    for name, text in ours.items():
        if name.startswith("venues/"):
            assert text == theirs[name], name
        elif name.startswith("papers/"):
            assert _without_tags(text) == _without_tags(theirs[name]), name
    # The tags are the voted ones, in the order of the votes.
    voted = {tuple(p.tags) for p in archive.papers}
    for paper in load_catalog(direct).papers:
        assert paper.tags in voted


def test_papers_look_like_real_papers(catalog):
    taxonomy = read_taxonomy(REPO / "content" / "tags.toml", "tags.toml")
    titles = [p.title for p in catalog.papers]
    assert len({t.casefold() for t in titles}) == len(titles)
    for paper in catalog.papers:
        assert paper.tags and all(tag in taxonomy for tag in paper.tags) and len(paper.tags) <= 4
        assert paper.venue in catalog.venues
        assert not paper.provisional and paper.authors
        assert len({author_key(a) for a in paper.authors}) == len(paper.authors)
    counts = Counter(len(p.authors) for p in catalog.papers)
    assert min(counts) == 1 and max(counts) >= 9  # the whole range is used
    assert sum(1 for p in catalog.papers if "$" in p.abstract) >= 10  # LaTeX math kept in some abstracts
    assert len(Counter(t for p in catalog.papers for t in p.tags)) >= 10  # spread over the taxonomy
    links = Counter(link.kind for p in catalog.papers for link in p.links)
    assert links["venue_page"] > 150 and links["openreview"] > 0


def test_venues_are_conference_years_of_real_series(catalog):
    names = {v.name for v in catalog.venues.values()}
    assert len({v.year for v in catalog.venues.values()}) >= 3
    known = ("NeurIPS", "ICML", "ICLR", "CVPR", "ICCV", "ECCV", "ACL", "EMNLP", "NAACL", "AAAI", "IJCAI", "KDD",
             "AISTATS", "UAI", "COLT", "CoRL", "RSS", "ICRA", "IROS", "WACV", "SIGGRAPH", "Interspeech", "ICASSP",
             "Robotics", "Transactions on Graphics", "Computer Graphics", "Computer Vision", "Findings", "Workshop")
    assert all(any(k in name for k in known) for name in names), names


def test_keeping_the_repeated_abstracts_on_request(tmp_path):
    params = synth_archive.Params(mess=synth_mess.MessParams(exact_duplicate=0.0, shared_abstract=0.0,
                                                             workshop_twin=0.3))
    archive = synth_archive.build_archive(1500, 4, params)
    twins = [p for p in archive.papers if p.original is not None]
    assert twins and all(p.venue.kind == "workshop" for p in twins)
    out = tmp_path / "dup"
    synth.write_content(archive, out, duplicates=True)
    bodies = Counter(p.read_text(encoding="utf-8").split("\n---\n", 1)[1] for p in (out / "papers").glob("*.md"))
    repeated = sum(v for body, v in bodies.items() if v > 1 and body.strip())
    assert repeated >= len([t for t in twins if t.abstract]) + 1


def test_seed_files_import_as_every_paper(tmp_path):
    from generator.importers.seeds import import_seeds

    files, papers = synth.write_seed_files(250, 0, tmp_path / "seeds")
    content = tmp_path / "content"
    content.mkdir()
    shutil.copyfile(REPO / "content" / "tags.toml", content / "tags.toml")
    report = import_seeds(files, content, tmp_path / "seeds" / "metadata")
    assert report.count("created") == 250 == len(papers)


# --------------------------------------------------------------------------- authorship


def test_authorship_has_a_real_archives_statistics(authorship_20k):
    venues, slots, authorship, person_name = authorship_20k
    n = len(slots)
    lists = [[person_name[p].full for p in people] for people in authorship.authors]  # (distinct authors)
    assert all(len(set(names)) == len(names) for names in lists)  # no name twice in a paper
    papers_of = Counter(name for names in lists for name in names)
    assert abs(sum(papers_of.values()) / n - 3.9) < 0.05
    assert abs(len(papers_of) / n - 1.44) < 0.01
    assert abs(sum(1 for v in papers_of.values() if v == 1) / len(papers_of) - 0.61) < 0.01
    assert 120 <= max(papers_of.values()) <= 230  # a 20,000-paper slice of the field
    assert synth_authors.paper_counts(100_000, synth_authors.AuthorshipParams())[0] == 270
    assert sum(1 for people in authorship.authors if len(people) == 1) / n < 0.15
    # Namesakes: some names are two people.
    assert len(person_name) > len({id(name) for name in person_name})


def test_co_authors_publish_together_in_labs(authorship_20k):
    venues, slots, authorship, person_name = authorship_20k
    pairs = Counter(pair for people in authorship.authors for pair in combinations(sorted(people), 2))
    assert sum(1 for v in pairs.values() if v >= 2) / len(pairs) > 0.06  # ~0.002 if drawn at random
    papers_of = Counter(p for people in authorship.authors for p in people)
    several = [people for people in authorship.authors if len(people) >= 3]
    assert statistics.median(papers_of[people[0]] for people in several) * 3 < \
        statistics.median(papers_of[people[-1]] for people in several)  # students first, the head last
    years: dict[int, list[int]] = defaultdict(list)
    for j, people in enumerate(authorship.authors):
        for p in people:
            years[p].append(slots[j].year)
    spans = [max(v) - min(v) for v in years.values() if len(v) >= 5]
    assert statistics.median(spans) <= 8  # careers in a lab, not papers drawn from all years


def test_names_collide_as_real_names_do():
    names = synth_names.draw_names(20_000, __import__("random").Random(4))
    texts = [n.full for n in names]
    assert len({author_key(t) for t in texts}) == len(texts)  # distinct authors for the build
    full = set(texts)
    reversed_pairs = sum(1 for n in names if n.given and f"{n.family} {n.given}" in full)
    assert reversed_pairs >= 5  # "Wang Yuan" and "Yuan Wang"
    given = Counter(n.given for n in names if n.given)
    family = Counter(n.family for n in names if n.family)
    assert max(given.values()) >= 40 and max(family.values()) >= 300  # shared given and family names
    assert sum(1 for t in texts if not t.isascii()) > 0.04 * len(texts)  # accents, other scripts
    assert any(n.literal for n in names) and any(re.search(r" [A-Z]\. ", t) for t in texts)


# --------------------------------------------------------------------------- venues and links


def test_venue_years_follow_the_real_series():
    selected = synth_venues.select(100_000, __import__("random").Random(0))
    assert len(selected) == 250 and sum(c for _, c in selected) == 100_000
    assert min(v.year for v, _ in selected) >= 1995 and max(v.year for v, _ in selected) <= 2026
    kinds = Counter(v.kind for v, _ in selected)
    assert kinds["workshop"] and kinds["findings"]
    for venue, _ in selected:
        series = synth_venues.BY_KEY[venue.series]
        if venue.kind == "main":
            assert venue.year in series.years
    assert all(y % 2 for y in synth_venues.BY_KEY["iccv"].years if y > 2000)
    assert all(y % 2 == 0 for y in synth_venues.BY_KEY["eccv"].years)
    assert min(synth_venues.BY_KEY["corl"].years) == 2017 and min(synth_venues.BY_KEY["iclr"].years) == 2013
    neurips = synth_venues.BY_KEY["neurips"]
    assert neurips.size(1995) < neurips.size(2015) < neurips.size(2024)
    assert synth_venues.venue_count(10_000) < 100 and synth_venues.venue_count(300) < 15
    names = synth_venues.proceedings
    assert names("icml", 2019)["container"] == "Proceedings of the 36th International Conference on Machine Learning"
    assert names("neurips", 2019)["container"] == "Advances in Neural Information Processing Systems"
    assert names("rss", 2019)["container"] == "Robotics: Science and Systems XV"
    assert names("aaai", 2024)["volume"] == "38"


LINK_SHAPES = {
    ("icml", 2016): r"https://proceedings\.mlr\.press/v48/[a-z]+16[a-z]?\.html",
    ("icml", 2019): r"https://proceedings\.mlr\.press/v97/[a-z]+19[a-z]\.html",
    ("aistats", 2005): r"https://proceedings\.mlr\.press/r5/[a-z]+05[a-z]?\.html",
    ("cvpr", 2016): r"https://openaccess\.thecvf\.com/content_cvpr_2016/html/[A-Z][\w-]*_CVPR_2016_paper\.html",
    ("cvpr", 2019): r"https://openaccess\.thecvf\.com/content_CVPR_2019/html/[A-Z][\w-]*_CVPR_2019_paper\.html",
    ("iccv", 2023): r"https://openaccess\.thecvf\.com/content/ICCV2023/html/[A-Z][\w-]*_ICCV_2023_paper\.html",
    ("neurips", 2019): r"https://proceedings\.neurips\.cc/paper/2019/hash/[0-9a-f]{32}-Abstract\.html",
    ("neurips", 2022): r"https://proceedings\.neurips\.cc/paper_files/paper/2022/hash/[0-9a-f]{32}"
                       r"-Abstract-Conference\.html",
    ("acl", 2019): r"https://(aclanthology\.org/P19-[12]\d{3}/|www\.aclweb\.org/anthology/P19-[12]\d{3})",
    ("acl", 2022): r"https://aclanthology\.org/2022\.acl-(long|short)\.\d+/",
    ("emnlp", 2018): r"https://(aclanthology\.org/D18-1\d{3}/|www\.aclweb\.org/anthology/D18-1\d{3})",
    ("iclr", 2024): r"https://openreview\.net/forum\?id=[A-Za-z0-9]{10}",
    ("ijcai", 2022): r"https://www\.ijcai\.org/proceedings/2022/\d+",
    ("rss", 2019): r"https://www\.roboticsproceedings\.org/rss15/p\d\d\.html",
    ("icra", 2019): r"https://ieeexplore\.ieee\.org/(abstract/)?document/\d{7,8}/?",
    ("aaai", 2024): r"https://ojs\.aaai\.org/index\.php/AAAI/article/view/\d+",
    ("kdd", 2019): r"https://dl\.acm\.org/doi/10\.1145/3292500\.\d{7}",
    ("interspeech", 2019): r"https://www\.isca-archive\.org/interspeech_2019/[a-z]+19[a-z]?_interspeech\.html",
    ("uai", 2005): r"https://arxiv\.org/abs/130[1-4]\.\d{4}",
}
DOI_SHAPES = {
    ("icra", 2019): r"10\.1109/ICRA\.2019\.\d{7}", ("icra", 2021): r"10\.1109/ICRA48506\.2021\.\d{7}",
    ("acl", 2019): r"10\.18653/v1/P19-\d{4}", ("ijcai", 2022): r"10\.24963/ijcai\.2022/\d+",
    ("kdd", 2019): r"10\.1145/3292500\.\d{7}", ("rss", 2019): r"10\.15607/RSS\.2019\.XV\.\d{3}",
    ("eccv", 2020): r"10\.1007/978-3-030-\d{5}-\d_\d+", ("aaai", 2024): r"10\.1609/aaai\.v38i\d\d\.\d+",
}


@pytest.mark.parametrize("series,year", sorted(LINK_SHAPES))
def test_landing_pages_have_their_hosts_real_shapes(series, year):
    venue = synth_venues._venue(synth_venues.BY_KEY[series], year)
    maker = synth_links.LinkMaker(__import__("random").Random(1))
    for i in range(40):
        links = maker.links(venue, "Müller-Lee" if i % 3 else "Wang", "Jörg", "Deep $k$-Means: A Study of Things")
        assert re.fullmatch(LINK_SHAPES[series, year], links.url), links.url
        if (series, year) in DOI_SHAPES:
            assert re.fullmatch(DOI_SHAPES[series, year], links.doi), links.doi
        if links.arxiv:
            assert re.fullmatch(r"\d{4}\.\d{4,5}|cs/\d{7}", links.arxiv)


def test_pmlr_ids_count_namesakes_as_the_volumes_do():
    maker = synth_links.LinkMaker(__import__("random").Random(0))
    old = synth_venues._venue(synth_venues.BY_KEY["icml"], 2016)
    new = synth_venues._venue(synth_venues.BY_KEY["icml"], 2019)
    assert [maker.links(old, "Wang", "Fei", "T").url.rsplit("/", 1)[1] for _ in range(3)] == \
        ["wang16.html", "wangf16.html", "wangf16a.html"]
    assert [maker.links(new, "Wang", "Fei", "T").url.rsplit("/", 1)[1] for _ in range(2)] == \
        ["wang19a.html", "wang19b.html"]


def test_arxiv_ids_have_the_shape_of_their_year():
    maker = synth_links.LinkMaker(__import__("random").Random(0))
    assert all(re.fullmatch(r"cs/\d{7}", maker.arxiv_id(2003)) for _ in range(20))
    assert all(re.fullmatch(r"(09|10)\d\d\.\d{4}", maker.arxiv_id(2010)) for _ in range(20))
    assert all(re.fullmatch(r"(18|19)\d\d\.\d{5}", maker.arxiv_id(2019)) for _ in range(20))


# --------------------------------------------------------------------------- defects


def test_record_defects_come_at_their_rates(messy_archive):
    stats = synth_archive.measure(messy_archive)
    mess, rates = stats["mess"], MESSY.mess
    for kind in ("glued_list", "family_given", "footnote", "all_caps"):  # per author entry
        assert abs(mess[kind] - getattr(rates, kind)) < 0.5 * getattr(rates, kind) + 0.002, (kind, mess[kind])
    for kind in ("cid_soft_hyphen", "line_break_hyphen", "empty_abstract", "name_twice"):  # per paper
        assert abs(mess[kind] - getattr(rates, kind)) < 0.3 * getattr(rates, kind) + 0.005, (kind, mess[kind])
    papers = messy_archive.papers
    entries = [synth_mess.full(e) for p in papers for e in p.entries]
    assert any(e.count(", ") >= 2 for e in entries)  # "A B, C D, E F"
    assert any(" and " in e for e in entries) and any("; " in e for e in entries)
    assert any(re.search(r"[*†‡§¹]$|\d$", e) for e in entries)
    assert any("{\\" in e for e in entries) and any(e.isupper() for e in entries if len(e) > 6)
    assert any("(cid:173) " in p.abstract for p in papers) and any(re.search(r"[a-z]- [a-z]", p.abstract)
                                                                  for p in papers)
    assert sum(1 for p in papers if not p.abstract) > 0.1 * len(papers)
    assert mess["exact_duplicate"] and stats["records"] > stats["papers"]
    assert mess["workshop_twin"] + mess["shared_abstract"] > 0
    assert any(not p.links.url and not p.links.doi for p in papers)
    assert mess["titles_with_math"] and mess["titles_not_ascii"]


def test_a_clean_archive_has_no_defects():
    archive = synth_archive.build_archive(300, 0, synth_archive.Params(mess=synth_mess.MessParams.clean()))
    assert not archive.mess
    for paper in archive.papers:
        assert paper.abstract == paper.clean_abstract and paper.original is None and not paper.duplicate
        assert [synth_mess.full(e) for e in paper.entries] == list(paper.names)


# --------------------------------------------------------------------------- record forms


def _read(form: str, path: Path, problems: Problems, warnings: list[str]):
    """The records of one file, read by the project's importer readers (nothing written)."""
    if form == "csl":
        from generator.importers.csl import read_csl, records_from_csl

        data, lines = read_csl(path, problems)
        return records_from_csl(data, str(path), problems, warnings, lines=lines)
    if form == "bibtex":
        from generator.importers.bibtex import _record
        from generator.importers.bibtex_read import read_bib

        return [_record(entry, warnings) for entry in read_bib(path, problems, warnings)]
    if form == "openreview":
        from generator.importers.openreview import read_notes_file, records_from_notes

        data, text = read_notes_file(path, problems)
        return records_from_notes(data, str(path), problems, warnings, text=text)
    from generator.importers.arxiv import records_from_atom

    return records_from_atom(path.read_bytes(), str(path), problems, warnings)


@pytest.mark.parametrize("form", [pytest.param(f, marks=pytest.mark.slow) if f == "bibtex" else f
                                  for f in synth_records.FORMS])  # bibtexparser: ~25 ms an entry
def test_every_record_form_reads_with_the_importers(records_dir, form):
    stats = json.loads((records_dir / "stats.json").read_text(encoding="utf-8"))
    files = sorted((records_dir / form).iterdir())
    assert files and all(f.suffix == "." + synth_records.EXTENSIONS[form] for f in files)
    problems, warnings, records = Problems(), [], []
    for path in files:
        records += _read(form, path, problems, warnings)
    assert not problems.items, problems.items[:5]
    assert len(records) == stats["records"]
    assert all(r.title for r in records)
    with_year = [r for r in records if r.container and r.year]
    assert len(with_year) >= (0.8 if form == "arxiv" else 1.0) * len(records)
    assert sum(1 for r in records if not r.abstract) >= 0.1 * len(records)  # empty abstracts, as in the archive
    assert any("(cid:173)" in r.abstract for r in records)
    if form == "bibtex":  # BibTeX's name rules take a glued list apart (wrongly), as they do real ones
        assert any(re.search(r"author = \{[^}]*, [^}]*, ", f.read_text(encoding="utf-8")) for f in files)
    else:
        assert any(name.count(",") >= 2 or " and " in name for r in records for name in r.authors)
    assert any(kind in ("venue_page", "openreview", "arxiv") for r in records for kind, _, _ in r.links)


def test_csl_records_look_like_zotero_exports(records_dir):
    items = [item for path in sorted((records_dir / "csl").glob("*.json"))
             for item in json.loads(path.read_text(encoding="utf-8"))]
    assert {"id", "type", "title", "author", "container-title", "issued"} <= set(items[0])
    assert {item["type"] for item in items} <= {"paper-conference", "chapter", "article-journal"}
    assert any("literal" in a for item in items for a in item["author"])
    assert any("DOI" in item and "URL" in item for item in items) and any("DOI" in item and "URL" not in item
                                                                            for item in items)
    assert any("DOI" not in item and "URL" not in item for item in items)
    assert all(isinstance(item["issued"]["date-parts"][0][0], int) for item in items)
    assert not any(re.search(r"\\(url|emph)\{|\]\(http", item.get("abstract", "")) for item in items)  # plain text


def test_openreview_notes_come_in_pages_as_the_api_answers(tmp_path, monkeypatch, messy_archive):
    monkeypatch.setattr(synth_records, "OPENREVIEW_PAGE", 50)
    files = synth_records.write_form(messy_archive, "openreview", tmp_path / "or")
    pages = [json.loads(p.read_text(encoding="utf-8")) for p in files]
    assert all(len(page["notes"]) <= 50 for page in pages)
    assert sum(len(page["notes"]) for page in pages) == len(messy_archive.papers) + \
        sum(p.duplicate for p in messy_archive.papers)
    assert any(page["count"] > len(page["notes"]) for page in pages)  # count: the query's total
    venueids = {page["notes"][0]["content"]["venueid"]["value"] for page in pages}
    assert any(v.endswith("/Conference") for v in venueids) and any(v.startswith("dblp.org/conf/") for v in venueids)


# --------------------------------------------------------------------------- text


def test_topics_differ_by_field():
    archive = synth_archive.build_archive(1200, 7, synth_archive.Params(mess=synth_mess.MessParams.clean()))
    by_field = defaultdict(list)
    for paper in archive.papers:
        by_field[paper.field].append(paper)

    def share(papers, words):
        return sum(1 for p in papers if any(w in p.abstract for w in words)) / max(1, len(papers))

    vision_words = ("image", "pixel", "segmentation", "detector", "depth", "video", "radiance")
    language_words = ("language", "translation", "parsing", "question answering", "summar", "sentiment")
    assert by_field["vision"] and by_field["language"]
    assert share(by_field["vision"], vision_words) > share(by_field["language"], vision_words) + 0.2
    assert share(by_field["language"], language_words) > share(by_field["vision"], language_words) + 0.2
    vision_tagged = sum(1 for p in by_field["vision"] if "computer-vision" in p.tags) / len(by_field["vision"])
    other_tagged = sum(1 for p in by_field["ml"] if "computer-vision" in p.tags) / max(1, len(by_field["ml"]))
    assert vision_tagged > other_tagged + 0.15


def test_vocabulary_keeps_growing_like_a_real_corpus():
    maker = synth_text.TextMaker(__import__("random").Random(0), synth_text.cached_corpus(), synth_text.field_banks())
    words: list[str] = []
    for i in range(1600):
        field = ("ml", "vision", "language")[i % 3]
        words += re.findall(r"[a-z]+", maker.abstract(field, maker.subtopic(field), Counter()).lower())
    quarter, half, full = (len(set(words[: len(words) * k // 4])) for k in (1, 2, 4))
    # Heaps' law V ~ N^b with 0.3 < b < 0.8: growing, but slower than the text.
    assert 2 ** 0.3 < half / quarter < 2 ** 0.8
    assert 2 ** 0.3 < full / half < 2 ** 0.8


def test_pseudo_words_are_distinct_and_pronounceable():
    ranks = list(range(20000)) + [len(synth.SYLLABLES) ** 3 + k for k in range(-50, 50)]
    words = [synth.pseudo_word(r) for r in ranks]
    assert len(set(words)) == len(words)
    assert all(re.fullmatch(r"[a-z]{6,16}", w) for w in words)
    assert synth.pseudo_word(synth.MAX_RANK)


def test_falls_back_to_the_committed_papers_without_seeds(tmp_path):
    corpus = synth.load_corpus(tmp_path / "no-seeds")
    committed = {" ".join(p.read_text(encoding="utf-8").split("\n---\n", 1)[1].split())
                 for p in (REPO / "content" / "papers").glob("*.md")}
    assert corpus.plain and all(any(s in body for body in committed) for s, _ in corpus.plain[:50])


# --------------------------------------------------------------------------- folders and command line


def test_refuses_to_replace_a_folder_that_is_not_synthetic(tmp_path):
    precious = tmp_path / "content"
    precious.mkdir()
    (precious / "notes.md").write_text("mine")
    with pytest.raises(FileExistsError):
        synth.generate(5, precious)
    with pytest.raises(FileExistsError):
        synth.write_records(5, precious)
    assert (precious / "notes.md").read_text() == "mine"


def test_replaces_a_previous_synthetic_catalog(tmp_path):
    out = synth.generate(20, tmp_path / "c", seed=0)
    synth.generate(10, out, seed=0)
    assert len(list((out / "papers").glob("*.md"))) == 10


def test_real_tag_suggestions_on_request(tmp_path):
    out = synth.generate(12, tmp_path / "suggested", seed=0, suggest_tags=True)
    catalog = load_catalog(out)
    assert len(catalog.papers) == 12
    fast = load_catalog(synth.generate(12, tmp_path / "voted", seed=0))
    # Same papers either way; only the tags come from elsewhere.
    assert [(p.slug, p.title, p.authors, p.abstract) for p in catalog.papers] == \
        [(p.slug, p.title, p.authors, p.abstract) for p in fast.papers]


def test_cli_writes_the_catalog_the_records_and_the_statistics(tmp_path, capsys):
    assert synth.main(["7", str(tmp_path / "cli")]) == 0
    assert len(list((tmp_path / "cli" / "papers").glob("*.md"))) == 7
    assert "Wrote 7 papers" in capsys.readouterr().out
    assert synth.main(["30", str(tmp_path / "rec"), "--records-only", "--form", "bibtex", "--form", "arxiv"]) == 0
    assert sorted(p.name for p in (tmp_path / "rec").iterdir()) == [".papershelf-synth", "arxiv", "bibtex",
                                                                     "stats.json"]
    capsys.readouterr()
    assert synth.main(["50", "--stats", "--clean"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["papers"] == 50 and not any(v for k, v in stats["mess"].items() if not k.startswith("titles"))


# --------------------------------------------------------------------------- the harness around it


def test_title_editor_edits_one_title_and_restores_the_file(tmp_path, catalog_dir):
    content = tmp_path / "copy"
    shutil.copytree(catalog_dir, content)
    before = _tree(content)
    editor = run.TitleEditor(content)
    editor.toggle()
    edited = load_catalog(content)  # still a valid catalog
    changed = [k for k, v in _tree(content).items() if before[k] != v]
    assert changed == [f"papers/{editor.path.name}"]
    paper = next(p for p in edited.papers if p.slug == editor.path.stem)
    assert paper.title.endswith("(edited 1)")
    editor.toggle()
    assert _tree(content) == before
    editor.toggle()
    editor.restore()
    assert _tree(content) == before


@pytest.mark.hugo
@pytest.mark.skipif(shutil.which("hugo") is None, reason="Hugo is not installed (apt-get install hugo)")
def test_hugo_builds_the_same_papers_tags_and_venues(tmp_path, catalog_dir, catalog):
    site = tmp_path / "hugo-site"
    convert_to_hugo(catalog_dir, site)
    out = tmp_path / "public"
    result = subprocess.run(["hugo", "--source", str(site), "--destination", str(out), "--quiet", "--noBuildLock",
                             "--cacheDir", str(tmp_path / "cache")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    papers = {p.parent.name for p in (out / "papers").glob("*/index.html")}
    assert papers == {p.slug for p in catalog.papers}
    assert {p.parent.name for p in (out / "venues").glob("*/index.html")} == set(catalog.venues)
    used_tags = {t for p in catalog.papers for t in p.tags}
    assert used_tags <= {p.parent.name for p in (out / "tags").glob("*/index.html")}
    assert len(list((out / "authors").glob("*/index.html"))) > 300
    # A paper page links its venue, tags and authors, with their names.
    paper = catalog.papers[0]
    html = (out / "papers" / paper.slug / "index.html").read_text(encoding="utf-8")
    assert f'href="/venues/{paper.venue}/"' in html and catalog.venues[paper.venue].name in html
    for tag in paper.tags:
        assert f'href="/tags/{tag}/"' in html
