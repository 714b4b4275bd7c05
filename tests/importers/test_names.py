"""Author names cleaned on import (importers/names.py, with the list rule of content/names.py):
real shapes of broken author records, each repair counted by kind, what cannot be repaired
safely reported and left as it is."""

from __future__ import annotations

import pytest

from generator.content.names import given_first, looks_like_list, split_list
from generator.importers.names import CAPS, DIGITS, LATEX, MARKS, ORDER, SPLIT, TWICE, NameCleaner


@pytest.mark.parametrize("raw, names, kinds", [
    # Glued author lists, as the archive has them.
    ("Ipek Oztas, Duygu Ceylan, Aysegul Dundar", ["Ipek Oztas", "Duygu Ceylan", "Aysegul Dundar"], {SPLIT}),
    ("Jane Doe and John Smith", ["Jane Doe", "John Smith"], {SPLIT}),
    ("Jane Doe, John Smith, and Mary Major", ["Jane Doe", "John Smith", "Mary Major"], {SPLIT}),
    ("Wei Zhang; Li Na", ["Wei Zhang", "Li Na"], {SPLIT}),
    ("Doe, J.; Roe, R.", ["J. Doe", "R. Roe"], {SPLIT, ORDER}),
    ("Doe, Jane and Roe, Rick", ["Jane Doe", "Rick Roe"], {SPLIT, ORDER}),
    # One person, written "Family, Given", or with a suffix.
    ("Lovelace, Ada", ["Ada Lovelace"], {ORDER}),
    ("van der Berg, Ludwig", ["Ludwig van der Berg"], {ORDER}),
    ("Martin Luther King, Jr.", ["Martin Luther King, Jr."], set()),
    ("King, Jr., Martin Luther", ["Martin Luther King Jr."], {ORDER}),
    ("Jane Doe, Jr. and John Smith", ["Jane Doe, Jr.", "John Smith"], {SPLIT}),
    # Footnote marks and affiliation digits.
    ("Jane Doe*", ["Jane Doe"], {MARKS}),
    ("†John Smith", ["John Smith"], {MARKS}),
    ("Ada Lovelace‡§", ["Ada Lovelace"], {MARKS}),
    ("Alice Liddell$^*$", ["Alice Liddell"], {MARKS}),
    ("Jane Doe1,2", ["Jane Doe"], {DIGITS}),
    ("Jane Doe 3", ["Jane Doe"], {DIGITS}),
    ("Jane Doe¹²", ["Jane Doe"], {DIGITS}),
    ("Doe1,2, Jane", ["Jane Doe"], {DIGITS, ORDER}),  # BibTeX's "Family, Given" with affiliations
    ("Doe1, Jane and Roe2, Rick", ["Jane Doe", "Rick Roe"], {DIGITS, SPLIT, ORDER}),
    ("Jane Doe$^{1,2}$", ["Jane Doe"], {DIGITS}),  # superscripts in LaTeX
    ("Doe$^{1}$, Jane", ["Jane Doe"], {DIGITS, ORDER}),
    ("Jane Doe$^\\dagger$, John Roe$^*$", ["Jane Doe", "John Roe"], {MARKS, SPLIT}),
    ("Jane Doe\\textsuperscript{2}", ["Jane Doe"], {DIGITS}),
    ("R2D2, Robot", ["Robot R2D2"], {ORDER}),  # digits inside a word are the name's
    # LaTeX accents.
    ('Kurt G{\\"o}del', ["Kurt Gödel"], {LATEX}),
    ("Fran\\c{c}ois Fleuret", ["François Fleuret"], {LATEX}),
    ("{\\L}ukasz Kaiser", ["Łukasz Kaiser"], {LATEX}),
    ("Jos\\'{e} Garc\\'{\\i}a", ["José García"], {LATEX}),
    # ALL-CAPS words are cased; a word with any lower-case letter is left as written.
    ("YANN LECUN", ["Yann Lecun"], {CAPS}),
    ("Yann LeCun", ["Yann LeCun"], set()),
    ("Wei LI", ["Wei Li"], {CAPS}),
    ("MARY MCDONALD", ["Mary McDonald"], {CAPS}),
    ("SEAN O'BRIEN", ["Sean O'Brien"], {CAPS}),
    ("JEAN-PIERRE DUPONT", ["Jean-Pierre Dupont"], {CAPS}),
    ("LUDWIG VAN DER BERG", ["Ludwig van der Berg"], {CAPS}),
    ("JOHN SMITH III", ["John Smith III"], {CAPS}),
    # Names that are fine as they are.
    ("A. B. Smith", ["A. B. Smith"], set()),
    ("José García", ["José García"], set()),
    ("张伟", ["张伟"], set()),
    ("Google DeepMind", ["Google DeepMind"], set()),
    ("The & Team", ["The & Team"], set()),
    # Several repairs at once.
    ("JANE DOE1, JOHN SMITH*", ["Jane Doe", "John Smith"], {SPLIT, MARKS, DIGITS, CAPS}),
])
def test_real_shapes_are_repaired_and_counted_by_kind(raw, names, kinds):
    cleaner = NameCleaner()
    assert cleaner.clean([raw], "a.json:3 (k)") == names
    assert set(cleaner.counts) == kinds
    assert cleaner.unrepaired == []
    assert not any(looks_like_list(name) for name in names)


def test_a_name_listed_twice_is_kept_once_accents_case_and_punctuation_aside():
    cleaner = NameCleaner()
    assert cleaner.clean(["Ada Lovelace", "J. Smith", "ADA LOVELACE", "J Smith", "Jose Garcia", "José García"],
                         "x") == ["Ada Lovelace", "J. Smith", "Jose Garcia"]
    assert cleaner.counts[TWICE] == 3


def test_what_cannot_be_split_safely_is_kept_and_reported_with_file_and_record():
    cleaner = NameCleaner()
    assert cleaner.clean(["Doe, Jane, Roe, Rick"], "papers.json:12 (k7)") == ["Doe, Jane, Roe, Rick"]
    assert cleaner.unrepaired == ["papers.json:12 (k7): author 'Doe, Jane, Roe, Rick' looks like several names "
                                  "but cannot be split safely; kept as it is — split it by hand"]
    assert looks_like_list("Doe, Jane, Roe, Rick")  # and the build warns about it
    assert cleaner.summary_lines()[0] == "Author names left as they are (1):"


def test_the_summary_counts_each_kind():
    cleaner = NameCleaner()
    cleaner.clean(["Jane Doe*", "YANN LECUN", "Lovelace, Ada"], "x")
    cleaner.clean(["Ann Bee, Cy Dee", "Jane Doe1"], "y")
    assert cleaner.summary_lines() == [
        "Author names repaired (5): lists split 1, 'Family, Given' turned round 1, footnote marks dropped 1, "
        "affiliation digits dropped 1, ALL-CAPS names cased 1."]


def test_the_list_rule_the_loader_uses():
    assert split_list("Ipek Oztas, Duygu Ceylan") == ["Ipek Oztas", "Duygu Ceylan"]
    assert split_list("Lovelace, Ada") is None and not looks_like_list("Lovelace, Ada")
    assert split_list("Ada Lovelace") is None and not looks_like_list("Ada Lovelace")
    assert given_first("Lovelace, Ada Maria") == "Ada Maria Lovelace"
    assert looks_like_list("X and Y")
