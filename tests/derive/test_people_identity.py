"""Who is one person (issue 36 item 4): spellings that differ by case, accents or hyphens are
one author; spellings that differ by a middle or a given name's initial are one when they share
a co-author (never by venue alone); ``authors.toml`` keeps two apart (``distinct``) or numbers
namesakes (dblp's "Jie Zhou 0001"); every author has a page up to 20,000 papers; list items
name every author.

The catalog is shaped like a real archive's: ACL Anthology and CVF papers (slugs from their
ids), ~3.9 authors a paper, namesakes at the same venue, one person's spellings with and
without a middle initial that share co-authors, and namesakes' spellings that do not.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.build import BuildOptions, build
from generator.cli import main
from generator.content.loader import load_catalog
from generator.content.model import Paper
from generator.content.slugs import author_key
from generator.derive import people as people_module
from generator.derive.people import compatible, homonyms, identify, _given_family
from generator.derive.urls import author_page
from generator.derive.views import derive
from generator.errors import ContentError

from ..conftest import ContentDir, paper_md

VENUES = {
    "cvpr-2023": ("CVPR 2023", "IEEE/CVF Conference on Computer Vision and Pattern Recognition 2023", 2023),
    "acl-2022": ("ACL 2022", "Annual Meeting of the Association for Computational Linguistics 2022", 2022),
    "neurips-2021": ("NeurIPS 2021", "Advances in Neural Information Processing Systems 34", 2021),
}

# (slug, venue, authors): slugs as the Anthology's and CVF's ids become file names.
PAPERS = [
    # Joshua Tenenbaum, three spellings, co-authors in common (Kevin Ellis, Armando Solar-Lezama)
    ("2021-neurips-dreamcoder", "neurips-2021", ["Kevin Ellis", "Catherine Wong", "Joshua B. Tenenbaum", "Armando Solar-Lezama"]),
    ("2021-neurips-program-synthesis", "neurips-2021", ["Kevin Ellis", "Maxwell Nye", "Joshua Tenenbaum"]),
    ("2022-acl-long-75", "acl-2022", ["Maxwell Nye", "Armando Solar-Lezama", "Joshua Tenenbaum", "Brenden Lake"]),
    ("2023-cvpr-physion", "cvpr-2023", ["Daniel Bear", "Kevin Ellis", "J. Tenenbaum", "Jiajun Wu"]),
    ("2023-cvpr-intuitive-physics", "cvpr-2023", ["Jiajun Wu", "Joshua Tenenbaum", "Daniel Bear", "Kevin Smith"]),
    # William Cohen / William W. Cohen share Fan Yang; Julian McAuley / Julian J. Mcauley share Wang-Cheng Kang
    ("2022-acl-long-12", "acl-2022", ["Fan Yang", "Zhilin Yang", "William W. Cohen"]),
    ("2022-findings-acl-91", "acl-2022", ["Bhuwan Dhingra", "Fan Yang", "William Cohen", "Haitian Sun"]),
    ("2022-acl-short-3", "acl-2022", ["Wang-Cheng Kang", "Julian McAuley", "Jianmo Ni"]),
    ("2022-findings-acl-7", "acl-2022", ["Jianmo Ni", "Wang-Cheng Kang", "Julian J. Mcauley", "Zhankui He"]),
    ("2023-cvpr-recsys", "cvpr-2023", ["Zhankui He", "Julian Mcauley"]),  # case only: always one
    # Jean-Pierre Dupont: hyphen, accents
    ("2022-acl-demo-4", "acl-2022", ["Jean-Pierre Dupont", "Marie Curie-Sklodowska", "Ana Lopez"]),
    ("2023-cvpr-dupont", "cvpr-2023", ["Jean Pierre Dupont", "Ana López"]),
    # Two Jie Zhous: vision with Jiwen Lu (CVPR), language with Fandong Meng (ACL) -- a name dblp numbers
    ("2023-cvpr-zhou-lu-1", "cvpr-2023", ["Yongming Rao", "Jie Zhou", "Jiwen Lu", "Wenliang Zhao"]),
    ("2023-cvpr-zhou-lu-2", "cvpr-2023", ["Wenliang Zhao", "Yongming Rao", "Jiwen Lu", "Jie Zhou"]),
    ("2023-cvpr-zhou-lu-3", "cvpr-2023", ["Jiwen Lu", "Jie Zhou", "Zheng Zhu"]),
    ("2022-acl-long-300", "acl-2022", ["Fandong Meng", "Jie Zhou", "Yufeng Chen", "Jinan Xu"]),
    ("2022-findings-acl-301", "acl-2022", ["Chulun Zhou", "Fandong Meng", "Jie Zhou", "Jinsong Su"]),
    # "Jian Zhou" shares Jiwen Lu with "Jie Zhou" but is not alike; "J. Zhou" shares Fandong Meng
    ("2023-cvpr-jian-zhou", "cvpr-2023", ["Jian Zhou", "Jiwen Lu", "Xiuwei Xu", "Ziwei Wang"]),
    ("2022-acl-long-302", "acl-2022", ["J. Zhou", "Fandong Meng", "Yijin Liu", "Jinan Xu"]),
    # Namesakes at the same venue, nothing in common: "Yang Liu" and "Yang L. Liu" stay two
    ("2023-cvpr-liu-a", "cvpr-2023", ["Yang Liu", "Wei Chen", "Xiaogang Wang", "Hongsheng Li"]),
    ("2023-cvpr-liu-b", "cvpr-2023", ["Yang L. Liu", "Kristen Grauman", "Tushar Nagarajan"]),
    # A long author list (the byline folds after ten)
    ("2022-acl-long-400", "acl-2022", ["Teven Le Scao", "Angela Fan", "Christopher Akiki", "Ellie Pavlick",
                                       "Suzana Ilic", "Daniel Hesslow", "Roman Castagne", "Alexandra Sasha Luccioni",
                                       "Francois Yvon", "Matthias Galle", "Jonathan Tow", "Alexander M. Rush",
                                       "Stella Biderman", "Albert Webson"]),
]


def make_catalog(root: Path, authors_toml: str | None = None, site_toml: str | None = None) -> Path:
    content = ContentDir(root / "content")
    for vid, (name, full, year) in VENUES.items():
        content.write(f"venues/{vid}.md", f'---\nname: "{name}"\nfull_name: "{full}"\nyear: {year}\n---\n')
    for slug, venue, authors in PAPERS:
        content.add_paper(slug, title=f"On {slug.replace('-', ' ')}", authors=tuple(authors), venue=venue,
                          body=f"We study {slug.replace('-', ' ')}.")
    if authors_toml is not None:
        content.write("authors.toml", authors_toml)
    if site_toml is not None:
        content.write("site.toml", site_toml)
    return content.root


def slugs_by_name(site) -> dict[str, set[str]]:
    found = defaultdict(set)
    for view in site.papers:
        for name, ref in zip(view.paper.authors, view.authors):
            found[name].add(ref.slug)
    return found


@pytest.fixture(scope="module")
def catalog_root(tmp_path_factory) -> Path:
    return make_catalog(tmp_path_factory.mktemp("people"))


@pytest.fixture(scope="module")
def site(catalog_root):
    return derive(load_catalog(catalog_root))


def test_the_catalog_is_shaped_like_an_archive():
    mentions = sum(len(a) for _, _, a in PAPERS)
    assert 3.5 <= mentions / len(PAPERS) <= 4.5  # ~3.9 authors a paper


def test_spellings_differing_by_case_accents_or_hyphens_are_one_person(site):
    slugs = slugs_by_name(site)
    assert slugs["Julian McAuley"] == slugs["Julian Mcauley"]
    assert slugs["Jean-Pierre Dupont"] == slugs["Jean Pierre Dupont"] == {"jean-pierre-dupont"}
    assert slugs["Ana Lopez"] == slugs["Ana López"]


def test_spellings_differing_by_an_initial_that_share_co_authors_are_one_person(site):
    slugs = slugs_by_name(site)
    one = slugs["Joshua Tenenbaum"]
    assert one == slugs["Joshua B. Tenenbaum"] == slugs["J. Tenenbaum"] == {"joshua-tenenbaum"}
    assert slugs["William Cohen"] == slugs["William W. Cohen"]
    assert slugs["Julian J. Mcauley"] == slugs["Julian McAuley"]
    page = next(a for a in site.authors if a.ref.slug == "joshua-tenenbaum")
    assert page.ref.name == "Joshua Tenenbaum"  # the most frequent spelling
    assert len(page.papers) == 5 and set(page.other_names) == {"Joshua B. Tenenbaum", "J. Tenenbaum"}
    merge = next(m for m in site.merges if m.name == "Joshua Tenenbaum")
    assert dict(merge.spellings) == {"Joshua Tenenbaum": 3, "Joshua B. Tenenbaum": 1, "J. Tenenbaum": 1}
    assert {"Kevin Ellis", "Armando Solar-Lezama"} <= set(merge.evidence)


def test_namesakes_at_one_venue_without_a_co_author_in_common_stay_two(site):
    slugs = slugs_by_name(site)
    assert slugs["Yang Liu"] != slugs["Yang L. Liu"]  # both at CVPR 2023: a venue is no evidence


def test_an_initial_joins_one_of_two_names_that_are_not_alike(site):
    slugs = slugs_by_name(site)
    assert slugs["Jie Zhou"] != slugs["Jian Zhou"]  # share Jiwen Lu, but Jie is not Jian
    assert slugs["J. Zhou"] == slugs["Jie Zhou"]  # shares Fandong Meng and Jinan Xu


@pytest.mark.parametrize("a, b, alike", [
    ("Joshua Tenenbaum", "Joshua B. Tenenbaum", True), ("J. Tenenbaum", "Joshua B. Tenenbaum", True),
    ("J. B. Tenenbaum", "Joshua Tenenbaum", True), ("William W. Cohen", "William X. Cohen", False),
    ("Jie Zhou", "Jian Zhou", False), ("Jie Zhou", "Jie Zhu", False), ("Martin Luther King Jr.", "M. L. King", True),
])
def test_which_spellings_are_alike(a, b, alike):
    assert compatible(_given_family(a), _given_family(b)) is alike


def test_no_paper_is_dropped_from_a_person_s_page_by_a_merge(catalog_root, site):
    """Every paper of every spelling is on the page of the person the spelling belongs to, and
    a merged page holds exactly the union of its spellings' papers."""
    pages = {a.ref.slug: {v.slug for v in a.papers} for a in site.authors}
    raw = defaultdict(set)
    for slug, _, authors in PAPERS:
        for name in authors:
            raw[name].add(slug)
    slugs = slugs_by_name(site)
    for name, papers in raw.items():
        (slug,) = slugs[name]
        assert papers <= pages[slug], name
    for slug, papers in pages.items():
        assert papers == set().union(*(raw[n] for n, s in slugs.items() if slug in s)), slug


def test_authors_toml_keeps_two_spellings_apart_and_forces_a_merge(tmp_path):
    root = make_catalog(tmp_path, '["William W. Cohen"]\ndistinct = ["William Cohen"]\n\n'
                                  '["Yang Liu"]\naliases = ["Yang L. Liu"]\n')
    slugs = slugs_by_name(derive(load_catalog(root)))
    assert slugs["William Cohen"] != slugs["William W. Cohen"]
    assert slugs["Yang Liu"] == slugs["Yang L. Liu"]
    assert slugs["Joshua Tenenbaum"] == slugs["J. Tenenbaum"]  # the other merges stand


SPLIT = """\
["Jie Zhou 0001"]
affiliation = "Tsinghua University"
coauthors = ["Jiwen Lu"]

["Jie Zhou 0002"]
coauthors = ["Fandong Meng"]
venues = ["acl-2022"]
"""


def test_a_numbered_person_takes_the_papers_their_rules_pick(tmp_path):
    site = derive(load_catalog(make_catalog(tmp_path, SPLIT)))
    pages = {a.ref.slug: a for a in site.authors}
    vision, language = pages["jie-zhou-0001"], pages["jie-zhou-0002"]
    assert {v.slug for v in vision.papers} == {"2023-cvpr-zhou-lu-1", "2023-cvpr-zhou-lu-2", "2023-cvpr-zhou-lu-3"}
    assert {v.slug for v in language.papers} == {"2022-acl-long-300", "2022-findings-acl-301"}
    assert vision.ref.full_name == "Jie Zhou 0001" and vision.ref.profile.affiliation == "Tsinghua University"
    byline = next(v for v in site.papers if v.slug == "2022-acl-long-300").authors
    assert [a.name for a in byline][1] == "Jie Zhou" and byline[1].url == author_page("jie-zhou-0002")
    assert "jie-zhou" not in pages  # every paper of the name went to one of them
    slugs = slugs_by_name(site)
    assert slugs["J. Zhou"] == {"j-zhou"}  # a split name is never merged
    assert not site.warnings


def test_a_numbered_person_whose_rules_pick_no_paper_is_a_warning(tmp_path):
    site = derive(load_catalog(make_catalog(tmp_path, SPLIT + '\n["Jie Zhou 0003"]\nvenues = ["neurips-2021"]\n')))
    assert any("authors.toml:9: no paper of 'Jie Zhou' is 'Jie Zhou 0003''s" in w for w in site.warnings)


def test_check_names_likely_homonyms_and_lists_merges(tmp_path):
    root = make_catalog(tmp_path)
    result = CliRunner().invoke(main, ["check", "--content", str(root)])
    assert result.exit_code == 0, result.output
    merged = [line for line in result.output.splitlines() if line.startswith("Merged: ")]
    assert any("'Joshua Tenenbaum' (3 papers)" in line and "Kevin Ellis" in line for line in merged)
    two = [line for line in result.output.splitlines() if line.startswith("Two people? ")]
    assert len(two) == 1 and "'Jie Zhou'" in two[0] and "Jiwen Lu" in two[0] and "Fandong Meng" in two[0]
    assert "at different venues" in two[0]
    root2 = make_catalog(tmp_path / "split", SPLIT)
    result = CliRunner().invoke(main, ["check", "--content", str(root2)])
    assert "Two people? " not in result.output


def test_homonyms_need_two_papers_a_side():
    def paper(slug, *authors):
        return Paper(slug, slug.upper(), authors, "cvpr-2023", (), "")

    papers = (paper("a", "Wei Zhang", "Ann One"), paper("b", "Wei Zhang", "Ann One"), paper("c", "Wei Zhang", "Bo Two"))
    assert homonyms(papers, identify(papers, ())) == ()
    papers += (paper("d", "Bo Two", "Wei Zhang", "Cy Three"),)
    assert len(homonyms(papers, identify(papers, ()))) == 1
    assert "never wrote together elsewhere" in homonyms(papers, identify(papers, ()))[0]
    papers += (paper("e", "Ann One", "Bo Two"),)  # the two groups wrote together elsewhere: less likely
    (note,) = homonyms(papers, identify(papers, ()))
    assert "'Wei Zhang' (4 papers) may be 2 people" in note and "never wrote together" not in note


@pytest.mark.parametrize("toml, line, message", [
    ('["Jie Zhou 0001"]\ncoauthors = ["Jiwen Lu", "Jiwen Lou"]\n', 2, "'Jiwen Lou' is not an author of any paper"),
    ('["Jie Zhou 0001"]\n\npapers = ["2022-acl-long-999"]\n', 3, "no paper '2022-acl-long-999'"),
    ('["Jie Zhou 0001"]\npapers = ["2023-cvpr-liu-a"]\n', 2, "'Jie Zhou' is not an author of the paper '2023-cvpr-liu-a'"),
    ('["Jie Zhou 0001"]\nvenues = ["cvpr-2033"]\n', 2, "unknown venue 'cvpr-2033'"),
    ('["Jie Zhuo 0001"]\nvenues = ["cvpr-2023"]\n', 1, "'Jie Zhuo' is not an author of any paper"),
    ('["William W. Cohen"]\ndistinct = ["Wiliam Cohen"]\n', 2, "'Wiliam Cohen' is not an author of any paper"),
    ('["Jie Zhou 0001"]\naffiliation = "Tsinghua"\n', 1, "say which papers are theirs"),
    ('["Jie Zhou"]\ncoauthors = ["Jiwen Lu"]\n', 1, "name the table 'Jie Zhou 0001'"),
])
def test_a_rule_naming_what_does_not_exist_is_an_error_with_file_and_line(tmp_path, toml, line, message):
    root = make_catalog(tmp_path, toml)
    with pytest.raises(ContentError) as info:
        load_catalog(root)
    text = str(info.value)
    assert f"authors.toml:{line}:" in text and message in text, text


def test_a_bad_rule_leaves_the_previous_site(tmp_path):
    root = make_catalog(tmp_path, SPLIT)
    out = tmp_path / "site"
    report = build(BuildOptions(content=root, output=out))
    assert (out / "authors" / "ji" / "jie-zhou-0001" / "index.html").is_file()
    assert any("spellings of" in note and "merged" in note for note in report.notes)  # the summary's count
    (root / "authors.toml").write_text(SPLIT.replace("Jiwen Lu", "Jiwen Lou"), encoding="utf-8")
    with pytest.raises(ContentError):
        build(BuildOptions(content=root, output=out))
    assert (out / "authors" / "ji" / "jie-zhou-0001" / "index.html").is_file()


def test_every_author_has_a_page_up_to_20000_papers(site, catalog_root, monkeypatch):
    assert all(a.has_page for v in site.papers for a in v.authors)  # one-paper authors too
    assert site.author_count == len(site.authors)
    monkeypatch.setattr(people_module, "PAGE_FOR_EVERYONE_UP_TO", len(PAPERS) - 1)  # as if above 20,000
    bigger = derive(load_catalog(catalog_root))
    alone = next(a for v in bigger.papers for a in v.authors if a.name == "Tushar Nagarajan")
    assert not alone.has_page and alone.url is None
    assert alone.search_url == "search/?q=Tushar%20Nagarajan"


def test_site_toml_still_sets_the_threshold(tmp_path):
    root = make_catalog(tmp_path, site_toml='title = "T"\nauthor_page_min_papers = 2\n')
    site = derive(load_catalog(root))
    assert {a.ref.slug for a in site.authors} == {
        s for s, n in _paper_counts(site).items() if n >= 2}


def _paper_counts(site) -> dict[str, int]:
    counts = defaultdict(set)
    for v in site.papers:
        for a in v.authors:
            counts[a.slug].add(v.slug)
    return {s: len(p) for s, p in counts.items()}


@pytest.fixture(scope="module")
def built(catalog_root, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("people-site") / "site"
    build(BuildOptions(content=catalog_root, output=out, base_url="/shelf/"))
    return out


def _items(html: str) -> list[str]:
    return re.findall(r'<li class="paper-item".*?</li>', html, re.S)


def test_lists_link_every_author_and_fold_a_long_list_in_details(built):
    html = (built / "venues" / "acl-2022" / "index.html").read_text(encoding="utf-8")
    items = _items(html)
    long = next(i for i in items if "2022-acl-long-400" in i)
    names = PAPERS[-1][2]
    for name in names:
        assert f'/shelf/authors/{author_key(name)[:2]}/{author_key(name)}/">{name}</a>' in long, name
    head, tail = long.split("<details", 1)
    assert all(n in head for n in names[:10]) and not any(f">{n}<" in head for n in names[10:])
    assert '<summary><span class="more-closed">and 4 more</span>' in tail
    assert "<script" not in long and "onclick" not in long
    short = next(i for i in items if "2022-acl-short-3" in i)
    assert "<details" not in short and short.count("/shelf/authors/") == 3
    # a merged person's spellings link to one page, under the person's name
    cvpr = (built / "venues" / "cvpr-2023" / "index.html").read_text(encoding="utf-8")
    assert cvpr.count('href="/shelf/authors/jo/joshua-tenenbaum/">Joshua Tenenbaum</a>') == 2
    assert "J. Tenenbaum" not in cvpr


def test_an_author_s_own_name_is_never_folded_on_their_page(built):
    page = (built / "authors" / "al" / "albert-webson" / "index.html").read_text(encoding="utf-8")
    (item,) = _items(page)
    assert '<strong class="own-name">Albert Webson</strong>' in item and "<details" not in item
    page = (built / "authors" / "te" / "teven-le-scao" / "index.html").read_text(encoding="utf-8")
    (item,) = _items(page)
    assert '<strong class="own-name">Teven Le Scao</strong>' in item and "and 4 more" in item


def test_merged_spellings_have_no_pages_of_their_own(built):
    assert (built / "authors" / "jo" / "joshua-tenenbaum" / "index.html").is_file()
    assert not (built / "authors" / "jo" / "joshua-b-tenenbaum").exists()
    assert not (built / "authors" / "jt" / "j-tenenbaum").exists()
    page = (built / "authors" / "jo" / "joshua-tenenbaum" / "index.html").read_text(encoding="utf-8")
    assert len(_items(page)) == 5

