"""Words split at a line end by PDF extraction ("explic- itly") are joined on import when the
catalog knows the word (``generator.importers.dehyphen``), by the seed importer and by the
record importers alike, and the reports say what was joined."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.errors import Problems
from generator.importers.dehyphen import Joined, Vocabulary, joined_lines
from generator.importers.records import Format, Record, import_records
from generator.importers.seeds import import_seeds

from ..conftest import REPO, ContentDir
from .conftest import read

KNOWN = ("We model recent work explicitly. The method consists of two streamlining steps and "
         "self-supervised pre-training; it is state-of-the-art on pretraining benchmarks.")


@pytest.mark.parametrize(("text", "expected", "changes"), [
    # The joined word is used by the catalog.
    ("a model that explic- itly takes", "a model that explicitly takes", ["explic- itly → explicitly"]),
    ("images con- sists of two terms", "images consists of two terms", ["con- sists → consists"]),
    # Another form of the word is ("streamlining": the same stem).
    ("designed to stream- line LLMs", "designed to streamline LLMs", ["stream- line → streamline"]),
    # The hyphen was the word's own: the hyphenated form is the known one.
    ("a self- supervised loss", "a self-supervised loss", ["self- supervised → self-supervised"]),
    ("achieves state-of- the-art results", "achieves state-of-the-art results",
     ["state-of- the-art → state-of-the-art"]),
    # A line break rather than a space, and a capital first fragment.
    ("Re-\n  cent approaches", "Recent approaches", ["Re- cent → Recent"]),
    # Kept: a suspended hyphen, an unknown word, a spaced dash, a blank line, math, one letter.
    ("between low- and high-fitness samples", "between low- and high-fitness samples", []),
    ("a quan- tum leap", "a quan- tum leap", []),
    ("Hugging Face - one of the largest", "Hugging Face - one of the largest", []),
    ("ends with explic-\n\nitly", "ends with explic-\n\nitly", []),
    ("for $explic- itly$ in math", "for $explic- itly$ in math", []),
    ("an x- itly", "an x- itly", []),
])
def test_a_broken_word_is_joined_only_when_the_catalog_knows_it(text, expected, changes):
    mended, joined = Vocabulary([KNOWN]).join(text)
    assert mended == expected
    assert [str(j) for j in joined] == changes


def test_the_more_used_spelling_wins_and_a_tie_keeps_the_hyphen():
    assert Vocabulary(["pretraining pretraining pre-training"]).join("pre- training")[0] == "pretraining"
    assert Vocabulary(["pretraining pre-training pre-training"]).join("pre- training")[0] == "pre-training"
    assert Vocabulary(["Pretraining, pre-training."]).join("pre- training")[0] == "pre-training"


def test_every_text_is_mended_and_each_break_counted_once_for_all():
    texts = ["explic- itly once", "nothing here", "explic- itly twice, and re- cent", "a quan- tum"]
    assert Vocabulary(["explicitly recently"]).join_all(texts) == [
        ("explicitly once", [Joined("explic- itly", "explicitly")]),
        ("nothing here", []),
        ("explicitly twice, and recent", [Joined("explic- itly", "explicitly"), Joined("re- cent", "recent")]),
        ("a quan- tum", []),
    ]


def test_the_catalog_is_read_only_for_words_the_import_does_not_use():
    calls = []

    def catalog():
        calls.append(1)
        return ["Explicit-ly said, streamlining and quantum."]

    vocabulary = Vocabulary(["It says so explicitly."], fallback=catalog)
    assert vocabulary.join_all(["No broken word, only hyphen-ated ones.", "explic- itly"]) == [
        ("No broken word, only hyphen-ated ones.", []), ("explicitly", [Joined("explic- itly", "explicitly")])]
    assert calls == []  # the import knew the word: the catalog's "explicit-ly" is not even read
    assert vocabulary.join_all(["stream- line", "quan- tum", "flab- bergasted"]) == [
        ("streamline", [Joined("stream- line", "streamline")]), ("quantum", [Joined("quan- tum", "quantum")]),
        ("flab- bergasted", [])]
    assert calls == [1]
    vocabulary.join("stream- line and quan- tum")
    assert calls == [1]  # read once


def test_report_lines_name_each_file_and_its_words():
    assert joined_lines([]) == [] and joined_lines([("papers/a.md", [])]) == []
    lines = joined_lines([("papers/a.md", [Joined("explic- itly", "explicitly"), Joined("re- cent", "recent")]),
                          ("papers/b.md", [Joined("self- supervised", "self-supervised")])])
    assert lines == ["Joined 3 words split at a line end in the source:",
                     "  - papers/a.md: explic- itly → explicitly, re- cent → recent",
                     "  - papers/b.md: self- supervised → self-supervised"]


def _seed_content(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(REPO / "tests" / "fixtures" / "seeds" / "tags.toml", content / "tags.toml")
    return content


def test_the_seed_importer_joins_words_known_from_all_the_abstracts_and_the_catalog(tmp_path):
    content = _seed_content(tmp_path)
    (content / "papers").mkdir()
    # A word only the catalog's existing papers use counts too.
    (content / "papers" / "old.md").write_text("---\ntitle: Old\nauthors: []\nvenue: iclr-2024\ntags: []\n---\n"
                                               "Streamlining the pipeline.\n", encoding="utf-8")
    seeds = tmp_path / "s.txt"
    seeds.write_text("ICLR 2024 Papers\n\nA first abstract that models the data explic- itly and stream- lines it.\n\n"
                     "A second abstract says explicitly what a quan- tum of text is.\n", encoding="utf-8")
    report = import_seeds([seeds], content)
    first, second = (read(content / "papers" / f"{p.slug}.md")[1] for p in report.papers)
    assert first == "A first abstract that models the data explicitly and streamlines it."
    assert second == "A second abstract says explicitly what a quan- tum of text is."
    assert report.joined == [(f"papers/{report.papers[0].slug}.md",
                              [Joined("explic- itly", "explicitly"), Joined("stream- lines", "streamlines")])]
    assert "Joined 2 words split at a line end in the source:" in report.summary()
    # A re-run writes nothing, so it reports no joins.
    again = import_seeds([seeds], content)
    assert again.joined == [] and "Joined" not in again.summary()


NOTES = Format("Notes", noun="note", container="venue", container_field="venue")


def test_the_record_importers_join_words_in_abstracts_in_one_place(tmp_path):
    content = ContentDir(tmp_path / "content")
    records = [Record(file="in.json", line=1, key="n1", title="Recent Graph Models", authors=["Ada Lovelace"],
                      abstract="We re- visit graph models and their re- cent self- supervised variants.",
                      container="TEST 2024", year=2024),
               Record(file="in.json", line=9, key="n2", title="Self-Supervised Graphs", authors=["Alan Turing"],
                      abstract="Self-supervised graph learning, revisited.", container="TEST 2024", year=2024)]
    report = import_records(records, content.root, NOTES.new_report(1), Problems(), NOTES)
    slug = report.papers[0].slug
    assert read(content.root / "papers" / f"{slug}.md")[1] == \
        "We revisit graph models and their recent self-supervised variants."
    assert report.joined == [(f"papers/{slug}.md", [Joined("re- visit", "revisit"), Joined("re- cent", "recent"),
                                                    Joined("self- supervised", "self-supervised")])]
    assert "  - papers/" + slug + ".md: re- visit → revisit, re- cent → recent, " \
           "self- supervised → self-supervised" in report.summary()


def test_the_committed_catalog_has_no_word_left_broken_that_the_catalog_knows():
    texts = [read(path)[1] for path in sorted((REPO / "content" / "papers").glob("*.md"))]
    assert [changes for _, changes in Vocabulary(texts).join_all(texts) if changes] == []
    everything = "\n".join(texts)
    assert "explicitly takes matching cost" in everything and "designed to streamline LLMs" in everything
    assert "low- and high-fitness" in everything  # a real (suspended) hyphen stays
