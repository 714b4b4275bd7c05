"""authors.toml: the optional catalog of people (generator.content.people), read, checked
with file, line and field like the other inputs, loaded into the catalog, and an input of
the incremental build. The people are made up; the ORCID iDs are ORCID's own examples
(0000-0002-1825-0097 is its fictitious Josiah Carberry) or made up with a valid check digit.
"""

from __future__ import annotations

import json
import os

import pytest

from generator.build import BuildOptions, build
from generator.content import schema
from generator.content.loader import load_catalog
from generator.content.model import Person
from generator.content.people import parse_people
from generator.derive.people import Profile
from generator.derive.views import derive
from generator.outputs.citations import CitationIndex
from generator.errors import ContentError

from ..conftest import paper_md

GOOD = """\
# People of the catalog
"Cy Sample" = { homepage = "http://example.net/~cy" }

["Ada Example"]
orcid = "0000-0002-1825-0097"
homepage = "https://example.org/ada/"
affiliation = "University of Examples"
aliases = ["A. Example", "Ada B. Example"]

["Bo Testperson"]
orcid = "https://orcid.org/0000-0002-1694-233x"
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ContentError) as info:
        parse_people(text)
    return [str(p) for p in info.value.problems]


def test_reads_people_in_file_order_with_ids_as_orcid_writes_them():
    people = parse_people(GOOD)
    assert people == (
        Person("Cy Sample", homepage="http://example.net/~cy", line=2),
        Person("Ada Example", orcid="0000-0002-1825-0097", homepage="https://example.org/ada/",
               affiliation="University of Examples", aliases=("A. Example", "Ada B. Example"), line=4),
        Person("Bo Testperson", orcid="0000-0002-1694-233X", line=10),
    )


def test_an_empty_file_describes_nobody():
    assert parse_people("# nobody yet\n") == ()


@pytest.mark.parametrize("digits, check", [
    ("000000021825009", "7"), ("000000021694233", "X"), ("000000015109370", "0"),  # ORCID's examples
])
def test_the_orcid_check_digit_is_iso_7064_mod_11_2(digits, check):
    assert schema.orcid_check_digit(digits) == check


@pytest.mark.parametrize("text, expected", [
    ('["Ada Example"]\norcid = "0000-0002-1825-0098"\n',
     "authors.toml:2: \"Ada Example\".orcid: '0000-0002-1825-0098' is not a valid ORCID iD: its last character "
     "should be '7' (a typo in the digits?)"),
    ('["Ada Example"]\norcid = "0000-0002-1825"\n',
     "authors.toml:2: \"Ada Example\".orcid: expected an ORCID iD such as '0000-0002-1825-0097' (four groups of "
     "four digits, the last may be X), found '0000-0002-1825'"),
    ('["Ada Example"]\norcid = 18250097\n',
     "authors.toml:2: \"Ada Example\".orcid: expected an ORCID iD such as '0000-0002-1825-0097', found a number"),
    ('["Ada Example"]\naffiliation = "Somewhere"\nemail = "ada@example.org"\n',
     "authors.toml:3: \"Ada Example\".email: unknown field; expected one of affiliation, aliases, coauthors, distinct, homepage, orcid, papers, venues"),
    ('["Ada Example"]\nhomepage = "ftp://example.org/ada"\n',
     "authors.toml:2: \"Ada Example\".homepage: expected an http(s) URL, found 'ftp://example.org/ada'"),
    ('["Ada Example"]\nhomepage = "javascript:alert(1)"\n',
     "authors.toml:2: \"Ada Example\".homepage: expected an http(s) URL, found 'javascript:alert(1)'"),
    ('["Ada Example"]\naliases = "A. Example"\n',
     "authors.toml:2: \"Ada Example\".aliases: expected a list of names, found 'A. Example' "
     "(write aliases = [\"A. Example\"])"),
    ('["Ada Example"]\naliases = ["A. Example", 3]\n',
     "authors.toml:2: \"Ada Example\".aliases: item 2: expected text, found a number (put it in quotes)"),
    ('"Ada Example" = "0000-0002-1825-0097"\n',
     "authors.toml:1: \"Ada Example\": expected a table [\"Ada Example\"] of the person's orcid, homepage, "
     "affiliation and aliases, found text"),
    ('["Ada Example"]\norcid = \n',
     "authors.toml:2: invalid TOML: Invalid value (column 9)"),
])
def test_each_problem_names_file_line_and_field(text, expected):
    assert problems(text) == [expected]


def test_a_spelling_claimed_by_two_people_is_an_error_naming_both():
    text = ('["Ada Example"]\naliases = ["A. Example"]\n\n'
            '["Al Example"]\naliases = ["A. Example"]\n\n'
            '["ada exámple"]\n')
    assert problems(text) == [
        "authors.toml:5: \"Al Example\".aliases: 'A. Example' is already an alias of 'Ada Example' (line 1): "
        "a spelling can name one person only",
        "authors.toml:7: \"ada exámple\": 'ada exámple' is the same author as 'Ada Example' (line 1): names that "
        "differ only in accents, case or punctuation are one author; describe them in one table",
    ]
    # a name may not be another person's alias either
    assert problems('["Ada Example"]\naliases = ["A. Example"]\n\n["A. Example"]\n') == [
        "authors.toml:4: \"A. Example\": 'A. Example' is already an alias of 'Ada Example' (line 1): "
        "a spelling can name one person only"]


def test_every_problem_of_the_file_is_reported_at_once():
    text = '["Ada Example"]\norcid = "0000-0002-1825-0098"\nhomepage = "ftp://x.org"\n\n["Bo"]\nnick = "b"\n'
    assert [p.split(": ")[0] for p in problems(text)] == ["authors.toml:2", "authors.toml:3", "authors.toml:6"]


def test_an_alias_that_is_already_the_name_is_dropped():
    (person,) = parse_people('["Ada Example"]\naliases = ["Ada Exämple", "A. Example"]\n')
    assert person.aliases == ("A. Example",)


# ----------------------------------------------------------------- in the catalog


def test_the_catalog_holds_the_people_and_none_without_the_file(content):
    assert load_catalog(content.root).people == ()
    content.write("authors.toml", GOOD)
    assert [p.name for p in load_catalog(content.root).people] == ["Cy Sample", "Ada Example", "Bo Testperson"]


def test_problems_of_authors_toml_stop_the_load_with_the_others(content):
    content.write("authors.toml", '["Ada Example"]\norcid = "0000-0002-1825-0098"\n')
    content.add_paper("broken", paper_md(venue="nowhere"))
    with pytest.raises(ContentError) as info:
        load_catalog(content.root)
    assert [(p.file, p.line, p.field) for p in info.value.problems] == [
        ("authors.toml", 2, '"Ada Example".orcid'), ("papers/broken.md", 4, "venue")]


def test_a_paper_naming_one_person_twice_by_two_spellings_is_an_error(content):
    content.write("authors.toml", '["Ada Example"]\naliases = ["A. Example"]\n')
    content.add_paper("twice", title="Twice Over", authors=("Ada Example", "A. Example"))
    with pytest.raises(ContentError) as info:
        load_catalog(content.root)
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.field) == ("papers/twice.md", 3, "authors")
    assert problem.message == ("'Ada Example' and 'A. Example' are one person in authors.toml ('Ada Example', "
                               "line 1): list them once, or remove the alias if they are two people")


def test_authors_toml_must_be_utf8_inside_the_content_folder(content, tmp_path):
    (content.root / "authors.toml").write_bytes(b'["Ad\xe9"]\n')
    with pytest.raises(ContentError) as info:
        load_catalog(content.root)
    assert [str(p) for p in info.value.problems] == [
        "authors.toml:1: not UTF-8 text (byte 0xe9); save the file as UTF-8"]
    outside = tmp_path / "elsewhere.toml"
    outside.write_text('["Ada Example"]\n', encoding="utf-8")
    (content.root / "authors.toml").unlink()
    (content.root / "authors.toml").symlink_to(outside)
    with pytest.raises(ContentError) as info:
        load_catalog(content.root)
    assert "outside the content folder" in str(info.value)


# ----------------------------------------------------------------- incremental builds


def test_a_change_to_authors_toml_rebuilds_the_pages_it_shows_on(content, tmp_path):
    content.add_paper("by-ada", title="A Paper by Ada", authors=("A. Example", "Alan Turing"))
    content.add_paper("by-ada-too", title="Another Paper by Ada", authors=("A. Example",), body="More.")  # a page: two papers
    out = tmp_path / "site"
    build(BuildOptions(content=content.root, output=out))
    page = out / "authors" / "ae" / "a-example" / "index.html"
    assert page.is_file() and "orcid.org" not in page.read_text(encoding="utf-8")
    assert build(BuildOptions(content=content.root, output=out)).up_to_date

    path = content.write("authors.toml", '["Ada Example"]\norcid = "0000-0002-1825-0097"\naliases = ["A. Example"]\n')
    report = build(BuildOptions(content=content.root, output=out))
    assert not report.up_to_date
    assert not page.exists()  # one page for the person, under their name
    html = (out / "authors" / "ad" / "ada-example" / "index.html").read_text(encoding="utf-8")
    assert 'href="https://orcid.org/0000-0002-1825-0097"' in html
    assert build(BuildOptions(content=content.root, output=out)).up_to_date

    # An edit of the same size within the same clock tick still counts (the mtime is set apart).
    path.write_text(path.read_text(encoding="utf-8").replace("1825-0097", "1694-233X"), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert not build(BuildOptions(content=content.root, output=out)).up_to_date
    html = (out / "authors" / "ad" / "ada-example" / "index.html").read_text(encoding="utf-8")
    assert "0000-0002-1694-233X" in html and "1825-0097" not in html

    path.unlink()
    assert not build(BuildOptions(content=content.root, output=out)).up_to_date
    assert page.is_file() and not (out / "authors" / "ad" / "ada-example").exists()


# ----------------------------------------------------------------- what the pages get

PEOPLE = """\
["Ada Example"]
orcid = "0000-0002-1825-0097"
homepage = "https://example.org/ada/"
affiliation = "University of Examples"
aliases = ["A. Example"]

["Nobody Here"]
orcid = "0000-0002-1694-233X"
"""


def people_site(content):
    content.write("authors.toml", PEOPLE)
    content.add_paper("by-ada", title="A Paper by Ada", authors=("A. Example", "Alan Turing"))
    content.add_paper("by-ada-again", title="Ada Again", authors=("Ada Exámple",), tags=("optimization",))
    site = derive(load_catalog(content.root))
    return site, {a.ref.slug: a for a in site.authors}, {p.slug: p for p in site.papers}


def test_every_spelling_of_a_person_is_one_author_shown_under_the_files_name(content):
    site, authors, papers = people_site(content)
    ada = authors["ada-example"]
    assert "a-example" not in authors and "ada-example" in authors
    assert ada.ref.name == "Ada Example"  # the file's name, though no paper spells it so
    assert [p.slug for p in ada.papers] == ["by-ada", "by-ada-again"]  # by title
    assert ada.other_names == ("A. Example", "Ada Exámple")
    assert ada.ref.profile == Profile(orcid="0000-0002-1825-0097", orcid_url="https://orcid.org/0000-0002-1825-0097",
                                      homepage="https://example.org/ada/", homepage_label="example.org/ada",
                                      affiliation="University of Examples")
    assert ada.ref.profile.same_as == ("https://orcid.org/0000-0002-1825-0097", "https://example.org/ada/")
    assert papers["by-ada"].authors[0] is ada.ref
    assert authors["alan-turing"].ref.profile is None and authors["alan-turing"].other_names == ()
    # Whom no paper names: a warning naming the line, not an error.
    assert site.warnings == ("authors.toml:7: 'Nobody Here' is not an author of any paper, so no page shows what "
                             "the file says of them (check the spelling, or add an alias)",)


def test_paper_metadata_gives_each_authors_orcid_and_pages_elsewhere(content):
    site, _, papers = people_site(content)
    citation = CitationIndex(site).for_paper(papers["by-ada"])
    meta = [(m.name, m.content) for m in citation.meta_names if m.name.startswith("citation_author")]
    assert meta == [("citation_author", "A. Example"),  # as the paper gives it
                    ("citation_author_orcid", "https://orcid.org/0000-0002-1825-0097"),
                    ("citation_author", "Alan Turing")]
    people = json.loads(str(citation.json_ld))["author"]
    assert people == [{"@type": "Person", "name": "A. Example",
                       "sameAs": ["https://orcid.org/0000-0002-1825-0097", "https://example.org/ada/"]},
                      {"@type": "Person", "name": "Alan Turing"}]
