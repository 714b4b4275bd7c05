"""The front-matter reader: fences, line numbers, and the safe subset of YAML it accepts."""

from __future__ import annotations

import datetime

import pytest

from generator.errors import Problem
from generator.content.frontmatter import MAX_DEPTH, FrontMatterError, dump, parse, type_name


def problem(text: str, file: str = "papers/x.md") -> Problem:
    with pytest.raises(FrontMatterError) as info:
        parse(text, file)
    return info.value.problem


def message(text: str) -> str:
    return str(problem(text))


def test_fields_lines_and_body():
    fm = parse("---\ntitle: T\nauthors:\n  - A\n  - B\nvenue: v\n---\n\nThe body.\n", "p.md")
    assert fm.data == {"title": "T", "authors": ["A", "B"], "venue": "v"}
    assert fm.lines == {"title": 2, "authors": 3, "venue": 6}
    assert fm.end_line == 7 and fm.body_line == 8
    assert fm.body == "\nThe body.\n"
    assert fm.line_of("venue") == 6
    assert fm.line_of("missing") == 7  # the closing fence


@pytest.mark.parametrize("variant", [
    "\ufeff---\ntitle: T\n---\nBody\n",          # BOM
    "---\r\ntitle: T\r\n---\r\nBody\r\n",        # CRLF
    "---\rtitle: T\r---\rBody\r",                # old Mac line ends
    "---   \ntitle: T\n---\t\nBody",             # spaces after the fences, no final newline
    "---\ntitle: T\n...\nBody\n",                # YAML's document end marker closes too
])
def test_bom_line_endings_and_fence_variants(variant):
    fm = parse(variant, "p.md")
    assert fm.data == {"title": "T"}
    assert fm.body.strip() == "Body"
    assert fm.lines == {"title": 2}


def test_a_later_fence_in_the_body_is_body():
    fm = parse("---\ntitle: T\n---\nabove\n---\nbelow\n", "p.md")
    assert fm.body == "above\n---\nbelow\n"


@pytest.mark.parametrize("text", ["", "   \n\t\n", "\ufeff", "\r\n\r\n"])
def test_empty_files(text):
    assert message(text) == "papers/x.md: the file is empty"


def test_no_opening_fence():
    assert message("title: T\n---\n") == "papers/x.md:1: expected front matter starting with '---' on the first line"
    assert message("\n---\ntitle: T\n---\n").startswith("papers/x.md:1: expected front matter")


def test_never_closed():
    assert message("---\ntitle: T\nbody text\n") == \
        "papers/x.md:1: front matter opened with '---' on line 1 is never closed"


def test_empty_front_matter_is_an_empty_mapping():
    assert parse("---\n---\nbody\n", "p.md").data == {}
    assert parse("---\n# only a comment\n---\n", "p.md").data == {}


@pytest.mark.parametrize("yaml_text, found", [
    ("just some text", "text"), ("- a\n- b", "a list"), ("42", "a number"), ("true", "a yes/no value"),
])
def test_front_matter_must_be_a_mapping(yaml_text, found):
    assert message(f"---\n{yaml_text}\n---\n") == \
        f"papers/x.md:2: front matter must be a mapping of fields, found {found}"


def test_broken_yaml_names_the_line():
    p = problem("---\ntitle: T\nauthors: [A, B\nvenue: v\n---\n")
    assert p.file == "papers/x.md" and p.line in (3, 4, 5)
    assert p.message.startswith("invalid YAML: ")


def test_tab_indentation_gets_a_hint():
    assert message("---\ntitle: T\nauthors:\n\t- A\n---\n") == (
        "papers/x.md:4: invalid YAML: found character '\\t' that cannot start any token "
        "(indent with spaces, not tabs)")


def test_control_characters_are_refused_with_their_line():
    assert message("---\ntitle: T\nvenue: a\x07b\n---\n") == \
        "papers/x.md:3: invalid YAML: the character U+0007 is not allowed"


@pytest.mark.parametrize("text, line", [
    ('---\ntitle: &t "T"\nauthors: [*t]\n---\n', 2),
    ("---\nbase: &b {a: 1}\nother:\n  <<: *b\n---\n", 2),
    ("---\ntitle: T\nauthors: &x [A]\n---\n", 3),  # an anchor alone is refused too
])
def test_anchors_and_aliases_are_refused(text, line):
    assert message(text) == f"papers/x.md:{line}: YAML anchors and aliases are not allowed (&name, *name)"


def test_billion_laughs_is_refused_quickly():
    lines = ['lol0: &a0 ["lol"]'] + [f"lol{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    text = "---\n" + "\n".join(lines) + "\n---\n"
    assert "anchors and aliases are not allowed" in message(text)


@pytest.mark.parametrize("value, shown", [
    ("!!python/object:os.system ls", "!!python/object:os.system"),
    ("!!python/object/apply:os.system [ls]", "!!python/object/apply:os.system"),
    ("!!binary aGVsbG8=", "!!binary"),
    ("!!set {a, b}", "!!set"),
    ("!!omap [a: 1]", "!!omap"),
    ("!!timestamp not-a-date", "!!timestamp"),
    ("!custom x", "!custom"),
    ("! x", "!"),
])
def test_yaml_tags_are_refused(value, shown):
    assert message(f"---\ntitle: {value}\n---\n") == \
        f"papers/x.md:2: YAML tags such as {shown!r} are not allowed; write plain values"


def test_the_str_tag_is_allowed():
    assert parse("---\ntitle: !!str 2024\n---\n", "p.md").data == {"title": "2024"}


def test_nesting_depth_is_limited():
    ok = "---\nextra: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n---\n"
    assert parse(ok, "p.md").data["extra"] is not None
    too_deep = "---\nextra: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n---\n"
    assert message(too_deep) == f"papers/x.md:2: nested more than {MAX_DEPTH} levels deep"


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_very_deep_nesting_is_an_error_not_a_crash(depth):
    for opener, closer in (("[", "]"), ("{a: ", "}")):
        text = "---\nextra: " + opener * depth + "1" + closer * depth + "\n---\n"
        assert problem(text).message.startswith(("nested more than", "invalid YAML"))


def test_duplicate_keys_are_refused():
    assert message("---\ntitle: A\nvenue: v\ntitle: B\n---\n") == \
        "papers/x.md:4: title: appears twice (first on line 2)"
    assert message("---\nlinks:\n  code: https://a.org\n  code: https://b.org\n---\n") == \
        "papers/x.md:4: key 'code' appears twice (first on line 3)"


def test_values_that_only_look_like_dates_or_numbers_stay_text():
    fm = parse("---\nadded: 2024-13-45\nbig: " + "9" * 5000 + "\nok: 2024-05-07\nn: 12\n---\n", "p.md")
    assert fm.data["added"] == "2024-13-45"
    assert fm.data["big"] == "9" * 5000
    assert fm.data["ok"] == datetime.date(2024, 5, 7)
    assert fm.data["n"] == 12


def test_field_names_must_be_text():
    assert message("---\n1.5: x\n---\n") == "papers/x.md:2: field names must be text, found 1.5"
    assert message("---\n? [a, b]\n: 1\n---\n").startswith("papers/x.md:2: invalid YAML:")


def test_dump_round_trips_and_never_writes_aliases():
    shared = ["Ada Lovelace", "Alan Turing"]
    data = {"title": "It's: a \"test\" #1", "authors": shared, "editors": shared, "year": "2024"}
    text = dump(data, "Body $x$.\n\n")
    assert "&id" not in text and "*id" not in text
    fm = parse(text, "p.md")
    assert fm.data == data
    assert fm.body.strip() == "Body $x$."


@pytest.mark.parametrize("value, name", [
    (None, "nothing"), (True, "a yes/no value"), (3, "a number"), (2.5, "a decimal number"), ("x", "text"),
    ([1], "a list"), ({}, "a mapping"), (datetime.date(2024, 1, 1), "a date"),
    (datetime.datetime(2024, 1, 1, 10), "a date and time"), (b"x", "binary data"), ({1}, "a set"),
])
def test_type_names(value, name):
    assert type_name(value) == name
