"""Tests for generator.importers.seeds."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.content import frontmatter
from generator.errors import ContentError
from generator.importers.common import CREATED, KEPT_EDITED, UNCHANGED, UPDATED, paper_file_text
from generator.importers.seeds import ImportReport, import_seeds, provisional_title
from generator.importers.seeds_read import _parse_header
from generator.content.slugs import is_valid_slug

from ..sitecheck import files_of

FIXTURES = Path(__file__).parent.parent / "fixtures" / "seeds"
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
REAL_TAGS = Path(__file__).resolve().parents[2] / "content" / "tags.toml"

ABSTRACT_RL = ("We study offline reinforcement learning with a score-based diffusion model as the policy class. "
               "Experiments on D4RL show that the diffusion model policy beats strong offline RL baselines.")
ABSTRACT_PLAIN = "Nothing in this abstract matches any phrase of the small test taxonomy at all."


def make_content(root: Path) -> Path:
    content = root / "content"
    content.mkdir(parents=True)
    shutil.copy(FIXTURES / "tags.toml", content / "tags.toml")
    return content


def seed_file(root: Path, name: str, data: str | bytes) -> Path:
    folder = root / "seeds"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_bytes(data.encode("utf-8"))
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return files_of(folder, manifest=True)


def read_paper(content: Path, slug: str) -> frontmatter.FrontMatter:
    path = content / "papers" / f"{slug}.md"
    return frontmatter.parse(path.read_text(encoding="utf-8"), path.name)


def no_metadata(root: Path) -> Path:
    return root / "no-metadata"


# --------------------------------------------------------------------------- header and paragraphs


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("ICLR 2024 Papers", ("ICLR", 2024)),
        ("  ICLR   2024\tPapers  ", ("ICLR", 2024)),
        ("icml 2023 papers", ("ICML", 2023)),
        ("Neurips 2022 Papers", ("NeurIPS", 2022)),
        ("FooConf Workshop 2021 Papers", ("FooConf Workshop", 2021)),
    ],
)
def test_header_is_parsed(line, expected):
    assert _parse_header(line) == expected


@pytest.mark.parametrize(
    "line",
    ["2024 Papers", "ICLR Papers", "ICLR 2024", "ICLR 2024 Papers extra", "ICLR 24 Papers",
     "We study offline RL and in 2024 Papers", "We study offline RL for the robots 2024 Papers",
     "x" * 61 + " 2024 Papers"],
)
def test_non_headers(line):
    assert _parse_header(line) is None


def test_imports_sample_with_metadata(tmp_path):
    content = make_content(tmp_path)
    report = import_seeds([FIXTURES / "sample.txt"], content)  # metadata/ beside the seed by default
    assert isinstance(report, ImportReport)
    assert [p.status for p in report.papers] == [CREATED] * 3
    assert report.venues_created == ["iclr-2024"]

    first = read_paper(content, "diffusion-policies-for-offline-rl")
    assert first.data == {
        "title": "Diffusion Policies for Offline RL",
        "authors": ["Ada Lovelace", "Alan Turing"],
        "venue": "iclr-2024",
        "tags": ["reinforcement-learning", "diffusion-models"],
        "presentation": "oral",
        "links": {
            "arxiv": "https://arxiv.org/abs/2401.00001",
            "project": "https://example.org/project",
            "venue_page": "https://iclr.cc/virtual/2024/poster/1",
        },
    }
    assert first.body.strip() == ABSTRACT_RL
    assert any("urls.openreview is not an http(s) URL" in w for w in report.warnings)

    second = read_paper(content, "faster-k-means-with-guarantees")
    assert second.data["title"] == "Faster $K$-means with Guarantees"
    assert second.data["tags"] == ["clustering"]
    assert second.data["links"] == {"code": "https://github.com/x/kmeans"}
    assert "presentation" not in second.data and "provisional" not in second.data
    # The abstract is kept exactly, LaTeX and links included.
    assert second.body.strip().startswith(r"$K$-means clustering is a classic method")
    assert r"\emph{provable}" in second.body and "$O(n \\log n)$" in second.body

    venue = frontmatter.parse((content / "venues" / "iclr-2024.md").read_text(encoding="utf-8"), "v")
    assert venue.data == {
        "name": "ICLR 2024",
        "full_name": "The 12th International Conference on Learning Representations",
        "year": 2024,
        "url": "https://iclr.cc/Conferences/2024",
    }
    assert venue.body.strip()


def test_provisional_paper_fields(tmp_path):
    content = make_content(tmp_path)
    report = import_seeds([FIXTURES / "sample.txt"], content)
    third = report.papers[2]
    assert third.provisional and third.index == 3
    fm = read_paper(content, third.slug)
    assert fm.data["title"] == "Self supervised pretraining of vision encoders…"  # cut at the clause
    assert fm.data["authors"] == []
    assert fm.data["provisional"] is True
    assert fm.data["tags"] == ["self-supervised"]
    assert third.slug == "self-supervised-pretraining-of-vision-encoders"
    assert "Provisional" in report.summary() and third.slug in report.summary()


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        ("We study X. Then Y.", "We study X"),
        (r"$K$-means clustering via \emph{nonnegative} SDP is \textbf{fast} and simple to run in practice today.",
         "K-means clustering via nonnegative SDP is fast and simple…"),
        ("Structure learning is a crucial task in science, especially in fields such as medicine.",
         "Structure learning is a crucial task in science…"),
        ("This paper focuses on the large-scale optimization which is very popular in the big data era.",
         "This paper focuses on the large-scale optimization…"),
        ("See [our site](https://x.org) for the $\\mathcal{O}(n)$ method.", "See our site for the O(n) method"),
        ("$$ {} $$", "Untitled abstract"),
    ],
)
def test_provisional_title(abstract, title):
    got = provisional_title(abstract)
    assert got == title
    assert "$" not in got and "\\" not in got


def test_crlf_bom_whitespace_lines_and_missing_newline_give_identical_files(tmp_path):
    lf = "ICLR 2024 Papers\n\n" + ABSTRACT_RL + "\n\n" + ABSTRACT_PLAIN + "\n"
    messy = "\ufeff  ICLR  2024 Papers \r\n \t \r\n" + ABSTRACT_RL + "   \r\n\r\n  \r\n\r\n" + ABSTRACT_PLAIN
    a, b = tmp_path / "a", tmp_path / "b"
    ra = import_seeds([seed_file(a, "s.txt", lf)], make_content(a), no_metadata(a))
    rb = import_seeds([seed_file(b, "s.txt", messy.encode("utf-8"))], make_content(b), no_metadata(b))
    assert [p.slug for p in ra.papers] == [p.slug for p in rb.papers]
    assert len(ra.papers) == 2
    assert snapshot(a / "content") == snapshot(b / "content")


def test_wrapped_paragraph_is_joined(tmp_path):
    text = "ICLR 2024 Papers\nFirst half of one abstract\nsecond half of it.\n\nAnother abstract here."
    content = make_content(tmp_path)
    report = import_seeds([seed_file(tmp_path, "s.txt", text)], content, no_metadata(tmp_path))
    assert len(report.papers) == 2
    assert read_paper(content, report.papers[0].slug).body.strip() == "First half of one abstract second half of it."


def test_very_long_abstract_is_kept_whole(tmp_path):
    long = "Offline reinforcement learning " + " ".join(f"word{i}" for i in range(20000)) + " end."
    content = make_content(tmp_path)
    report = import_seeds([seed_file(tmp_path, "s.txt", "ICLR 2024 Papers\n\n" + long)], content,
                          no_metadata(tmp_path))
    assert read_paper(content, report.papers[0].slug).body.strip() == long
    assert report.papers[0].title == "Offline reinforcement learning word0 word1 word2 word3 word4 word5 word6…"


# --------------------------------------------------------------------------- refused input


REFUSED = [
    (b"", "empty"),
    (b"  \n\t\n", "empty"),
    (b"\xef\xbb\xbf", "empty"),
    (b"ICLR 2024 Papers\n\n  \n", "no abstracts"),
    (b"ICLR 2024 Papers", "no abstracts"),
    (ABSTRACT_RL.encode() + b"\n\nAnother.", "venue header"),
    (b"\nICLR\n\nAn abstract.", "venue header"),
    (b"ICLR 2024 Papers\n\nCaf\xe9 au lait is not UTF-8.", "not UTF-8"),
    ("ICLR 2024 Papers\n\nabc".encode("utf-16"), "not UTF-8"),
    (b"ICLR 2024 Papers\n\nA binary\x00file.", "NUL"),
    (b"ICLR 2024 Papers\n\nOne abstract.\n\nICML 2024 Papers\n\nAnother.", "second venue header"),
]


@pytest.mark.parametrize(("data", "needle"), REFUSED)
def test_refused_input_names_the_file_and_writes_nothing(tmp_path, data, needle):
    content = make_content(tmp_path)
    good = seed_file(tmp_path, "good.txt", "ICLR 2024 Papers\n\n" + ABSTRACT_RL)
    bad = seed_file(tmp_path, "bad.txt", data)
    before = snapshot(tmp_path)
    with pytest.raises(ContentError) as info:
        import_seeds([good, bad], content, no_metadata(tmp_path))
    assert [p.file for p in info.value.problems] == [str(bad)]
    assert needle in info.value.problems[0].message
    assert str(bad) in str(info.value)
    assert snapshot(tmp_path) == before  # nothing written, not even the good file's papers


def test_non_utf8_error_names_the_line(tmp_path):
    bad = seed_file(tmp_path, "bad.txt", b"ICLR 2024 Papers\n\nFine.\n\nCaf\xe9.")
    with pytest.raises(ContentError) as info:
        import_seeds([bad], make_content(tmp_path), no_metadata(tmp_path))
    assert info.value.problems[0].line == 5


def test_all_refused_files_are_reported_together(tmp_path):
    a = seed_file(tmp_path, "a.txt", b"")
    b = seed_file(tmp_path, "b.txt", b"no header here")
    missing = tmp_path / "seeds" / "missing.txt"
    with pytest.raises(ContentError) as info:
        import_seeds([a, b, missing], make_content(tmp_path), no_metadata(tmp_path))
    assert {p.file for p in info.value.problems} == {str(a), str(b), str(missing)}


def test_missing_or_broken_taxonomy_is_refused(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    seed = seed_file(tmp_path, "s.txt", "ICLR 2024 Papers\n\n" + ABSTRACT_RL)
    with pytest.raises(ContentError) as info:
        import_seeds([seed], content, no_metadata(tmp_path))
    assert "tags.toml" in info.value.problems[0].file
    (content / "tags.toml").write_text("[bad id]\nname = 1\n", encoding="utf-8")
    with pytest.raises(ContentError):
        import_seeds([seed], content, no_metadata(tmp_path))
    assert sorted(p.name for p in content.iterdir()) == ["tags.toml"]


def test_broken_metadata_is_refused_naming_it(tmp_path):
    content = make_content(tmp_path)
    seed = seed_file(tmp_path, "s.txt", "ICLR 2024 Papers\n\n" + ABSTRACT_RL)
    meta = tmp_path / "meta"
    meta.mkdir()
    (meta / "s.json").write_text('[{"index": 1,\n "title": }]', encoding="utf-8")
    with pytest.raises(ContentError) as info:
        import_seeds([seed], content, meta)
    [problem] = info.value.problems
    assert problem.file == str(meta / "s.json") and problem.line == 2
    assert not (content / "papers").exists()


# --------------------------------------------------------------------------- duplicates and metadata


def test_duplicate_abstract_is_imported_once_with_a_warning(tmp_path):
    content = make_content(tmp_path)
    one = seed_file(tmp_path, "one.txt", f"ICLR 2024 Papers\n\n{ABSTRACT_RL}\n\n{ABSTRACT_PLAIN}\n\n{ABSTRACT_RL}")
    two = seed_file(tmp_path, "two.txt", f"ICML 2024 Papers\n\n{ABSTRACT_PLAIN.replace(' ', '  ')}")
    report = import_seeds([one, two], content, no_metadata(tmp_path))
    assert len(report.papers) == 2
    assert len(list((content / "papers").glob("*.md"))) == 2
    repeats = [w for w in report.warnings if "repeats" in w]
    assert len(repeats) == 2
    assert str(one) in repeats[0] and str(two) in repeats[1]


def write_metadata(folder: Path, stem: str, records: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.json").write_text(json.dumps(records), encoding="utf-8")
    return folder


def record(index: int, first_words: str, title: str | None, authors=("A. Author",), **extra) -> dict:
    base = {"seed": "s.txt", "index": index, "first_words": first_words, "title": title,
            "authors": list(authors) if authors is not None else None, "venue": "ICLR 2024",
            "presentation": None, "urls": {}}
    base.update(extra)
    return base


def test_first_words_mismatch_means_the_record_is_not_used(tmp_path):
    content = make_content(tmp_path)
    seed = seed_file(tmp_path, "s.txt", f"ICLR 2024 Papers\n\n{ABSTRACT_RL}\n\n{ABSTRACT_PLAIN}")
    meta = write_metadata(tmp_path / "meta", "s", [
        record(1, "We  study\toffline reinforcement learning with", "Matched Title"),  # whitespace differs: ok
        record(2, "Something else entirely here now", "Wrong Title"),
    ])
    report = import_seeds([seed], content, meta)
    assert [p.title for p in report.papers][0] == "Matched Title"
    second = report.papers[1]
    assert second.provisional and second.title != "Wrong Title"
    assert any("do not match" in w and "record #2" in w for w in report.warnings)
    assert read_paper(content, second.slug).data["provisional"] is True


def test_metadata_with_null_title_or_authors_is_provisional(tmp_path):
    content = make_content(tmp_path)
    seed = seed_file(tmp_path, "s.txt", f"ICLR 2024 Papers\n\n{ABSTRACT_RL}\n\n{ABSTRACT_PLAIN}")
    meta = write_metadata(tmp_path / "meta", "s", [
        record(1, "We study offline reinforcement learning with", None, authors=None),
        record(2, "Nothing in this abstract matches", "Known Title", authors=None),
    ])
    report = import_seeds([seed], content, meta)
    first, second = report.papers
    assert first.provisional and first.title.endswith("…")
    assert second.provisional and second.title == "Known Title"
    assert read_paper(content, second.slug).data["authors"] == []


def test_bad_records_are_ignored_with_warnings(tmp_path):
    content = make_content(tmp_path)
    seed = seed_file(tmp_path, "s.txt", f"ICLR 2024 Papers\n\n{ABSTRACT_RL}")
    meta = write_metadata(tmp_path / "meta", "s", [
        "not an object",
        {"index": "1"},
        record(1, "We study offline reinforcement learning with", "T", authors=["X", "X", ""],
               presentation="keynote", venue="ICML 2024", urls={"slides": "https://x.org", "arxiv": 5}),
        record(1, "We study offline reinforcement learning with", "Second record"),
        record(7, "Whatever", "No such abstract"),
        dict(record(1, "We", "Other seed"), seed="other.txt"),
    ])
    report = import_seeds([seed], content, meta)
    fm = read_paper(content, report.papers[0].slug)
    assert fm.data["title"] == "T" and fm.data["authors"] == ["X"]
    assert "presentation" not in fm.data and "links" not in fm.data
    text = "\n".join(report.warnings)
    for needle in ("not a JSON object", "'index'", "listed twice", "keynote", "differs from the seed header",
                   "unknown URL kind", "urls.arxiv", "a second record", "has no abstract #7", "other.txt"):
        assert needle in text


def test_missing_metadata_file_warns_and_imports_provisional(tmp_path):
    content = make_content(tmp_path)
    seed = seed_file(tmp_path, "s.txt", f"ICLR 2024 Papers\n\n{ABSTRACT_RL}")
    report = import_seeds([seed], content)  # no seeds/metadata/s.json
    assert report.papers[0].provisional
    assert any("no metadata file" in w for w in report.warnings)


# --------------------------------------------------------------------------- idempotence and edits


def test_rerun_is_unchanged_and_byte_identical(tmp_path):
    content = make_content(tmp_path)
    import_seeds([FIXTURES / "sample.txt"], content)
    before = snapshot(content)
    report = import_seeds([FIXTURES / "sample.txt"], content)
    assert set(report.statuses.values()) == {UNCHANGED}
    assert report.venues_created == [] and report.venues_existing == ["iclr-2024"]
    assert snapshot(content) == before
    assert "3 unchanged" in report.summary()
    # Forcing changes nothing either when nothing differs.
    assert set(import_seeds([FIXTURES / "sample.txt"], content, force=True).statuses.values()) == {UNCHANGED}
    assert not [p for p in content.rglob(".*")]  # no temp files left behind


def test_edited_file_is_kept_unless_forced(tmp_path):
    content = make_content(tmp_path)
    import_seeds([FIXTURES / "sample.txt"], content)
    target = content / "papers" / "diffusion-policies-for-offline-rl.md"
    original = target.read_bytes()
    edited = original.replace(b"- diffusion-models\n", b"- diffusion-models\n- clustering\n")
    assert edited != original
    target.write_bytes(edited)
    venue = content / "venues" / "iclr-2024.md"
    venue.write_bytes(venue.read_bytes() + b"\nEdited by hand.\n")
    venue_edited = venue.read_bytes()

    report = import_seeds([FIXTURES / "sample.txt"], content)
    assert report.statuses["diffusion-policies-for-offline-rl"] == KEPT_EDITED
    assert target.read_bytes() == edited
    assert any("diffusion-policies-for-offline-rl" in w and "force" in w for w in report.warnings)
    assert "Kept as edited" in report.summary()

    report = import_seeds([FIXTURES / "sample.txt"], content, force=True)
    assert report.statuses["diffusion-policies-for-offline-rl"] == UPDATED
    assert target.read_bytes() == original
    assert venue.read_bytes() == venue_edited  # venues are never overwritten


def test_renamed_paper_file_is_not_duplicated(tmp_path):
    content = make_content(tmp_path)
    import_seeds([FIXTURES / "sample.txt"], content)
    papers = content / "papers"
    (papers / "faster-k-means-with-guarantees.md").rename(papers / "fast-kmeans.md")
    report = import_seeds([FIXTURES / "sample.txt"], content)
    assert report.statuses["fast-kmeans"] == UNCHANGED
    assert not (papers / "faster-k-means-with-guarantees.md").exists()
    assert len(list(papers.glob("*.md"))) == 3


def test_slug_collisions_get_numbered_suffixes_in_input_order(tmp_path):
    content = make_content(tmp_path)
    abstracts = [f"Abstract number {n} is about reinforcement learning." for n in range(1, 5)]
    seed = seed_file(tmp_path, "s.txt", "ICLR 2024 Papers\n\n" + "\n\n".join(abstracts))
    long_title = "Deep " + "very " * 30 + "long title"
    meta = write_metadata(tmp_path / "meta", "s", [
        record(1, "Abstract number 1 is about", "Graph Nets!"),
        record(2, "Abstract number 2 is about", "Graph-Nets?"),
        record(3, "Abstract number 3 is about", long_title),
        record(4, "Abstract number 4 is about", long_title + "s"),
    ])
    report = import_seeds([seed], content, meta)
    slugs = [p.slug for p in report.papers]
    assert slugs[:2] == ["graph-nets", "graph-nets-2"]
    assert len(slugs[2]) <= 80 and len(slugs[3]) <= 80 and slugs[3].endswith("-2")
    assert all(is_valid_slug(s) for s in slugs)
    # "Graph Nets!" and "Graph-Nets?": one title, two abstracts: both kept, reported as likely duplicates
    assert [line.split(": ", 1)[1] for line in report.repairs.kept] == [
        f"likely the same paper as {seed}:3 (#1) (same title, venue and authors, another abstract); is this the "
        "same paper twice?"]
    # Deterministic: a second run maps the same abstracts to the same files.
    again = import_seeds([seed], content, meta)
    assert [p.slug for p in again.papers] == slugs
    assert set(again.statuses.values()) == {UNCHANGED}


def test_identical_provisional_titles_collide_deterministically(tmp_path):
    content = make_content(tmp_path)
    start = "One two three four five six seven eight nine ten eleven"
    seed = seed_file(tmp_path, "s.txt", f"ICLR 2024 Papers\n\n{start} alpha.\n\n{start} beta.\n\n{start} gamma.")
    report = import_seeds([seed], content, no_metadata(tmp_path))
    base = "one-two-three-four-five-six-seven-eight-nine-ten"
    assert [p.slug for p in report.papers] == [base, f"{base}-2", f"{base}-3"]


def test_every_paper_gets_at_least_one_tag(tmp_path):
    content = make_content(tmp_path)
    seed = seed_file(tmp_path, "s.txt", f"ICLR 2024 Papers\n\n{ABSTRACT_PLAIN}\n\n{ABSTRACT_RL}")
    report = import_seeds([seed], content, no_metadata(tmp_path))
    assert report.papers[0].tags == ("machine-learning",)
    for paper in report.papers:
        assert read_paper(content, paper.slug).data["tags"]


@pytest.mark.parametrize("title", ["Yes", "no", "1984", "3.14", "null", "~", "Why: a study", "- dash", "#hash",
                                   "'quoted'", '"double"', "[x]", "{y}", "a: b: c", "@at", "%pct", "!bang",
                                   "Ünïcödé — ½", "x" * 300])
def test_titles_round_trip_as_text(title):
    text = paper_file_text(title=title, authors=["Nobody"], venue="iclr-2024", tags=["x"], abstract="Body.")
    fm = frontmatter.parse(text, "t.md")
    assert fm.data["title"] == title
    assert fm.body.strip() == "Body."


def test_unknown_venue_has_no_url(tmp_path):
    content = make_content(tmp_path)
    seed = seed_file(tmp_path, "s.txt", f"FooConf 2023 Papers\n\n{ABSTRACT_RL}")
    report = import_seeds([seed], content, no_metadata(tmp_path))
    assert report.venues_created == ["fooconf-2023"]
    fm = frontmatter.parse((content / "venues" / "fooconf-2023.md").read_text(encoding="utf-8"), "v")
    assert fm.data == {"name": "FooConf 2023", "full_name": "FooConf 2023", "year": 2023}
    assert read_paper(content, report.papers[0].slug).data["venue"] == "fooconf-2023"


def test_known_venue_canonical_name(tmp_path):
    content = make_content(tmp_path)
    seed = seed_file(tmp_path, "s.txt", f"neurips 2023 papers\n\n{ABSTRACT_RL}")
    report = import_seeds([seed], content, no_metadata(tmp_path))
    assert report.venues_created == ["neurips-2023"]
    fm = frontmatter.parse((content / "venues" / "neurips-2023.md").read_text(encoding="utf-8"), "v")
    assert fm.data["name"] == "NeurIPS 2023"
    assert fm.data["full_name"] == "Advances in Neural Information Processing Systems 36"
    assert fm.data["url"] == "https://neurips.cc/Conferences/2023"


# --------------------------------------------------------------------------- property


def _check_any_input(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        content = make_content(root)
        seed = seed_file(root, "s.txt", data)
        try:
            report = import_seeds([seed], content, no_metadata(root))
        except ContentError as exc:
            assert exc.problems and all(p.file == str(seed) for p in exc.problems)
            assert sorted(p.name for p in content.iterdir()) == ["tags.toml"]
            return
        assert isinstance(report, ImportReport)
        assert report.papers
        report.summary()
        for paper in report.papers:
            assert is_valid_slug(paper.slug)
            fm = read_paper(content, paper.slug)
            assert isinstance(fm.data["title"], str) and fm.data["title"].strip()
            assert fm.data["tags"] and fm.data["provisional"] is True
            assert fm.body.strip()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_any_text_gives_a_report_or_a_content_error(text):
    _check_any_input(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.text(st.characters(codec="utf-8"), max_size=8)
                | st.sampled_from(["\n", "\n\n", "\r\n", "\r", " \t ", "$", "\\", "---", ": ", "ICML 2024 Papers"]))
       .map("".join))
@pytest.mark.slow
def test_any_text_after_a_header_gives_a_report_or_a_content_error(text):
    _check_any_input(("ICLR 2024 Papers\n\n" + text).encode("utf-8"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary())
def test_any_bytes_give_a_report_or_a_content_error(data):
    _check_any_input(data)


# --------------------------------------------------------------------------- the real seeds


@pytest.mark.slow
@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed catalog not available")
def test_imports_the_real_seeds(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(REAL_TAGS, content / "tags.toml")
    files = sorted(SEEDS.glob("*.txt"))
    report = import_seeds(files, content, SEEDS / "metadata")
    assert len(report.papers) == 76
    assert set(report.statuses.values()) == {CREATED}
    assert sum(p.provisional for p in report.papers) == 3
    assert sorted(report.venues_created) == ["iclr-2024", "icml-2024"]
    assert report.warnings == []
    assert len(list((content / "papers").glob("*.md"))) == 76
    for paper in report.papers:
        fm = read_paper(content, paper.slug)
        assert 1 <= len(fm.data["tags"]) <= 4
        assert "machine-learning" not in fm.data["tags"]
        assert bool(fm.data.get("provisional")) == paper.provisional
        if not paper.provisional:
            assert fm.data["authors"]
    again = import_seeds(files, content, SEEDS / "metadata")
    assert set(again.statuses.values()) == {UNCHANGED}

    # The site loader accepts everything the importer wrote.
    loader = pytest.importorskip("generator.content.loader")
    (content / "site.toml").write_text('title = "Test"\n', encoding="utf-8")
    catalog = loader.load_catalog(content)
    assert len(catalog.papers) == 76
    assert sum(p.provisional for p in catalog.papers) == 3


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
_record = st.fixed_dictionaries(
    {"index": st.integers(0, 3) | _json, "first_words": st.just("We study offline reinforcement learning with") | _json},
    optional={"seed": st.just("s.txt") | _json, "title": st.text(max_size=30) | _json,
              "authors": st.lists(st.text(max_size=10) | _json, max_size=3) | _json,
              "presentation": st.sampled_from(["oral", "poster", "keynote"]) | _json,
              "venue": _json, "urls": st.dictionaries(st.sampled_from(["arxiv", "code", "project_page", "x"]),
                                                       st.just("https://a.org/b") | _json, max_size=3) | _json},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_record | _json, max_size=4) | _json)
def test_any_metadata_gives_a_report_or_a_content_error(records):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        content = make_content(root)
        seed = seed_file(root, "s.txt", f"ICLR 2024 Papers\n\n{ABSTRACT_RL}\n\n{ABSTRACT_PLAIN}")
        write_metadata(root / "meta", "s", records)
        try:
            report = import_seeds([seed], content, root / "meta")
        except ContentError as exc:
            assert all(p.file == str(root / "meta" / "s.json") for p in exc.problems)
            return
        for paper in report.papers:
            fm = read_paper(content, paper.slug)
            assert isinstance(fm.data["title"], str) and fm.data["title"].strip()
            assert all(isinstance(a, str) and a.strip() for a in fm.data["authors"])
            assert fm.data.get("presentation") in (None, "oral", "spotlight", "poster")


# --------------------------------------------------------------------------- paper file text

_CHARS = list("ab yYnNoO019 .-+:?#,[]{}&*!|>'\"%@`<=~/\\_") + ["é", "张", "\u0301", "\xa0", "\u2028", "\t", "\x85",
                                                                    "\ufeff", "\U0001f600", "\n"]
_words = st.text(st.sampled_from(_CHARS), max_size=12) | st.sampled_from(
    ["yes", "No", "null", "~", "2024", "1e3", "0x1F", "2024-01-02", "<<", "=", "-", "---", "...", "a: b", "a:"])
_long = st.lists(_words, min_size=1, max_size=40).map(" ".join)  # around the 100-character line width


class _PureDumper(yaml.SafeDumper):
    def ignore_aliases(self, data):
        return True


def pure_dump(data: dict, body: str) -> str:
    """What frontmatter.dump wrote with PyYAML's pure-Python emitter alone (before it used
    libyaml's): the files an earlier import wrote, which a re-import must find unchanged."""
    head = yaml.dump(data, Dumper=_PureDumper, sort_keys=False, allow_unicode=True, width=100)
    body = body.rstrip("\n")
    return f"---\n{head}---\n\n{body}\n" if body else f"---\n{head}---\n"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=_words | _long, authors=st.lists(_words | _long, max_size=5), venue=_words,
       tags=st.lists(_words, max_size=4), abstract=_words | _long, presentation=st.none() | _words,
       links=st.lists(st.tuples(st.sampled_from(["pdf", "venue_page", "on", "no", "x y", "Code"]), _words | _long),
                      max_size=3),
       provisional=st.booleans())
def test_paper_file_text_is_the_pure_emitters_dump(title, authors, venue, tags, abstract, presentation, links,
                                                   provisional):
    # frontmatter.dump uses libyaml's emitter where it writes what the pure-Python one does,
    # and that one elsewhere: the bytes are the same either way.
    data = {"title": title, "authors": list(authors), "venue": venue, "tags": list(tags)}
    if presentation:
        data["presentation"] = presentation
    if links:
        data["links"] = dict(links)
    if provisional:
        data["provisional"] = True
    assert paper_file_text(title=title, authors=authors, venue=venue, tags=tags, abstract=abstract,
                           presentation=presentation, links=links, provisional=provisional) \
        == pure_dump(data, abstract)


def test_paper_file_text_of_the_usual_titles_and_names():
    for title in ["Attention Is All You Need", "BERT: Pre-training of Deep Bidirectional Transformers",
                  "Don't Stop Pretraining", "On the Opportunities and Risks of Foundation Models",
                  "Yes", "No Free Lunch", "#1 Ranked", "?-learning", "Q: a study", "3D Vision", "A" * 94 + " B",
                  "Le modèle à l'échelle", "Learning to see … and — beyond"]:
        for authors in ([], ["Ada Lovelace", "José García", "O'Neil", "张伟", "Jr., Sam", "yes"]):
            data = {"title": title, "authors": authors, "venue": "v", "tags": ["t"]}
            assert paper_file_text(title=title, authors=authors, venue="v", tags=["t"], abstract="x") \
                == pure_dump(data, "x")


def test_paper_file_text_at_the_line_width():
    # Lines longer than the YAML width are folded at a space, by both emitters alike.
    for n in range(80, 102):
        for text in ["a" * n + " b", "a " * (n // 2), "'" + "a" * n + " b", "Q: " + "a" * n, "a" * n, "a\t" * n,
                     "https://proceedings.neurips.cc/paper/" + "a" * (2 * n), "Q:" + "a" * 2 * n + " b"]:
            data = {"title": text, "authors": [text], "venue": "v", "tags": ["t"], "links": {"pdf": text}}
            assert paper_file_text(title=text, authors=[text], venue="v", tags=["t"], abstract="x",
                                   links=[("pdf", text)]) == pure_dump(data, "x")
