"""The declarative schemas: each checker cleans a value or says what it expected."""

from __future__ import annotations

import datetime

import pytest

from generator.content import schema
from generator.errors import Problems
from generator.content.schema import Invalid


def invalid(check, value) -> str:
    with pytest.raises(Invalid) as info:
        check(value)
    return str(info.value)


# --------------------------------------------------------------------------- text


def test_text_is_stripped():
    assert schema.text("  A title \n") == "A title"


@pytest.mark.parametrize("value, expected", [
    (1984, "expected text, found a number (put it in quotes)"),
    (True, "expected text, found a yes/no value (put it in quotes)"),
    (datetime.date(2024, 1, 1), "expected text, found a date (put it in quotes)"),
    (["A"], "expected text, found a list"),
    ({"a": 1}, "expected text, found a mapping"),
    ("   ", "expected text, found an empty value"),
    ("", "expected text, found an empty value"),
    ("a\x00b", "text must not contain U+0000 (a NUL character)"),
    ("a\x07b", "text must not contain U+0007 (a control character)"),
    ("a\x9bb", "text must not contain U+009B (a control character)"),
    ("a\ufdd0b", "text must not contain U+FDD0 (a Unicode noncharacter)"),
    ("a\U0001fffeb", "text must not contain U+1FFFE (a Unicode noncharacter)"),
    ("a\ud800b", "text must not contain U+D800 (a lone surrogate)"),
])
def test_text_refusals(value, expected):
    assert invalid(schema.text, value) == expected


def test_text_keeps_unusual_but_valid_characters():
    weird = "J\u0301ose\u0300 \u202eevil\u202c \u200b 张伟 😀 \u00ad \ufb01 a\tb"
    assert schema.text(weird) == weird


def test_long_values_are_shortened_in_messages():
    message = invalid(schema.year, "x" * 500)
    assert len(message) < 120 and message.endswith("…'")


def test_optional_text():
    assert schema.optional_text(None) == ""
    assert schema.optional_text("  ") == ""
    assert schema.optional_text(" x ") == "x"
    assert invalid(schema.optional_text, 5) == "expected text, found a number (put it in quotes)"


# --------------------------------------------------------------------------- numbers, flags, dates


def test_year():
    assert schema.year(2024) == 2024
    assert invalid(schema.year, "2024") == "expected a year such as 2024, found '2024'"
    assert invalid(schema.year, True) == "expected a year such as 2024, found a yes/no value"
    assert invalid(schema.year, 20245) == "expected a four-digit year, found 20245"


def test_flag():
    assert schema.flag(None) is False and schema.flag(True) is True
    assert invalid(schema.flag, "yes") == "expected true or false, found 'yes'"
    assert invalid(schema.flag, 1) == "expected true or false, found a number"


def test_optional_date():
    assert schema.optional_date(None) is None
    assert schema.optional_date(datetime.date(2024, 5, 7)) == datetime.date(2024, 5, 7)
    assert schema.optional_date(datetime.datetime(2024, 5, 7, 10, 0)) == datetime.date(2024, 5, 7)
    assert schema.optional_date(" 2024-05-07 ") == datetime.date(2024, 5, 7)
    assert invalid(schema.optional_date, "2024-13-45") == "expected a date such as 2024-05-07, found '2024-13-45'"
    assert invalid(schema.optional_date, 20240507) == "expected a date such as 2024-05-07, found a number"


def test_presentation():
    assert schema.presentation("oral") == "oral"
    assert invalid(schema.presentation, "Oral") == "expected one of oral, spotlight, poster, found 'Oral'"


# --------------------------------------------------------------------------- lists and ids


def test_name_list():
    assert schema.name_list(None) == ()
    assert schema.name_list([" Ada ", "Alan"]) == ("Ada", "Alan")
    assert invalid(schema.name_list, "Ada Lovelace") == (
        "expected a list of names, found 'Ada Lovelace' (write authors: [\"First Author\", \"Second Author\"])")
    assert invalid(schema.name_list, ["Ada", ["nested"]]) == "item 2: expected text, found a list"
    assert invalid(schema.name_list, ["Ada", " "]) == "item 2: expected text, found an empty value"
    assert invalid(schema.name_list, ["Ada", "Ada"]) == "item 2: 'Ada' is listed twice"
    assert invalid(schema.name_list, {"a": 1}) == "expected a list of names, found a mapping"


@pytest.mark.parametrize("value, found", [
    ("Learning $\theta$", "a tab"),
    ("Via $\nabla f$", "a line break"),
    ("Rank $\u2028ambda$", "a line break"),  # "$\\Lambda$" in double quotes: YAML reads "\\L" as U+2028
    ("Mixing $\\mathcal{O}(\ncdot)$", "a line break"),  # "\\ncdot" inside a formula
])
def test_line_text_refuses_what_a_double_quoted_backslash_makes(value, found):
    message = invalid(schema.line_text, value)
    assert message.startswith(f"expected text on one line, found {found} in ")
    assert "put text with LaTeX in single quotes" in message
    assert "single quotes" in invalid(schema.line_text, "Al\x07pha")  # "\alpha": U+0007
    assert schema.line_text("  A title with $\\theta$ \n") == "A title with $\\theta$"
    # a title written over several lines (a YAML block scalar) is joined
    assert schema.line_text("A long title\non two lines\n") == "A long title on two lines"


def test_names_of_one_author_page_are_refused_in_one_list():
    assert invalid(schema.name_list, ["José Núñez", "Ada", "JOSE NUNEZ"]) == (
        "item 3: 'JOSE NUNEZ' is the same author as 'José Núñez' (item 1): names that differ only in"
        " accents, case or punctuation share one author page")
    assert schema.name_list(["Con", "Con 1"]) == ("Con", "Con 1")


def test_a_reserved_name_gets_an_author_page_of_its_own():
    from generator.content.slugs import author_key

    assert author_key("Con 1") == "con-1"
    assert author_key("Con").startswith("author-") and author_key("Con") != author_key("CON 2")
    assert author_key("José Núñez") == author_key("Jose Nunez") == "jose-nunez"
    # letters the slug drops tell people apart: not one page
    assert author_key("Wei Zhang 张伟") != author_key("Wei Zhang 章伟")
    assert author_key("Α. Smith") != author_key("Β. Smith")
    assert schema.name_list(["Wei Zhang 张伟", "Wei Zhang 章伟"]) == ("Wei Zhang 张伟", "Wei Zhang 章伟")


def test_slug_list():
    assert schema.slug_list(["a", "b-c", "a"]) == ("a", "b-c")
    assert invalid(schema.slug_list, "graph-learning") == \
        "expected a list of ids, found 'graph-learning' (write tags: [graph-learning])"
    assert invalid(schema.slug_list, ["Graph"]) == "item 1: expected an id like 'graph-learning', found 'Graph'"
    assert invalid(schema.slug_list, ["../x"]) == "item 1: expected an id like 'graph-learning', found '../x'"


@pytest.mark.parametrize("value", ["../etc", "/abs", "a/b", "A", "a--b", "-a", "con", "nul", "", "a" * 81, 5, None,
                                   "a.b", "a_b", "\u00e9t\u00e9"])
def test_slug_refuses_anything_that_is_not_a_safe_id(value):
    assert invalid(schema.slug, value).startswith("expected an id like 'iclr-2024', found ")


# --------------------------------------------------------------------------- URLs


@pytest.mark.parametrize("url", [
    "https://arxiv.org/abs/2401.00001", "http://example.org", "HTTPS://EXAMPLE.ORG/A?b=1&c=2#d",
    "http://[::1]:8080/x", "https://de.wikipedia.org/wiki/M\u00fcller", "https://x.org/a%20b",
    " https://x.org/padded ",
])
def test_http_url_accepts(url):
    assert schema.http_url(url) == url.strip()


@pytest.mark.parametrize("url", [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html;base64,PHNjcmlwdD4=",
    "vbscript:x", "file:///etc/passwd", "ftp://x.org", "mailto:a@b.c", "//x.org/a", "/relative", "x.org",
    "https:x.org", "https:/x.org", "https://", "http://:80/", "http://[::1", "http://h:99999/", "http://h:x/",
    "https://x.org/a b", "https://x.org/a\"onmouseover=\"alert(1)", "https://x.org/<script>", "https://x.org/\x00",
    "https://x.org/{{7*7}}", "https://x.org/a\\b", "https://x..org/", "https://x.org/%zz", "https://x.org/\ufdd0",
    "", 5, None, ["https://x.org"],
])
def test_http_url_refuses(url):
    assert invalid(schema.http_url, url).startswith("expected an http(s) URL, found ")


def test_links():
    assert schema.links(None) == ()
    assert schema.links({"code": "https://c.org", "arxiv": "https://a.org", "pdf": ""}) == (
        ("arxiv", "https://a.org"), ("code", "https://c.org"))
    assert invalid(schema.links, {"code": "javascript:alert(1)"}) == \
        "code: expected an http(s) URL, found 'javascript:alert(1)'"
    assert invalid(schema.links, {"homepage": "https://x.org"}).startswith("unknown link kind 'homepage'")
    assert invalid(schema.links, {1: "https://x.org"}).startswith("unknown link kind 1")
    assert invalid(schema.links, ["https://x.org"]) == \
        "expected a mapping such as 'arxiv: https://…', found a list"
    # A DOI beside the landing page, as a doi.org URL; listed last.
    assert schema.links({"doi": "https://doi.org/10.1109/ICRA.2019.8793485",
                         "venue_page": "https://ieeexplore.ieee.org/document/8793485"}) == (
        ("venue_page", "https://ieeexplore.ieee.org/document/8793485"),
        ("doi", "https://doi.org/10.1109/ICRA.2019.8793485"))
    assert schema.links({"doi": "http://dx.doi.org/10.1145/1.2"}) == (("doi", "http://dx.doi.org/10.1145/1.2"),)
    assert invalid(schema.links, {"doi": "https://ieeexplore.ieee.org/document/8793485"}) == \
        "doi: expected a DOI as a doi.org URL (https://doi.org/10.…), found 'https://ieeexplore.ieee.org/document/8793485'"
    assert invalid(schema.links, {"doi": "10.1145/1.2"}).startswith("doi: expected an http(s) URL")


@pytest.mark.parametrize("value, expected", [
    (None, "/"), ("", "/"), ("/", "/"), ("/catalog", "/catalog/"), ("/a/b/", "/a/b/"),
    ("https://example.org", "https://example.org/"), ("https://example.org:8443/c/", "https://example.org:8443/c/"),
    ("/~me/shelf-2024/", "/~me/shelf-2024/"),
    ("HTTPS://Example.ORG/Shelf/", "https://example.org/Shelf/"), ("http://[::1]:8080/x/", "http://[::1]:8080/x/"),
])
def test_base_url_accepts(value, expected):
    assert schema.base_url(value) == expected


@pytest.mark.parametrize("value", [
    "javascript:alert(1)", "//evil.example/", "/a/../b/", "/./", "/a//b/", "catalog/", "/a b/",
    '/c/"><script>alert(1)</script>/', "/c/<x>/", "ftp://x.org/", "https://x.org/?q=1", "https://x.org/#f",
    "https://user@x.org/", "https://./", "/%zz/", 3,
    "https://example.org:99999/", "https://example.org:0/", "https://-/", "https://a..b/", "https://-x.org/",
])
def test_base_url_refuses(value):
    message = invalid(schema.base_url, value)
    assert "expected" in message and "found" in message


def test_language():
    assert schema.language(None) == "en" and schema.language("en-GB") == "en-GB"
    assert invalid(schema.language, 'en" onload="x').startswith("expected a language tag such as 'en'")


# --------------------------------------------------------------------------- check_fields


def check(data: dict, fields=schema.PAPER_FIELDS, lines: dict | None = None):
    problems = Problems()
    clean, ok = schema.check_fields(data, fields, file="papers/p.md",
                                    line_of=lambda key: (lines or {}).get(key, 9), problems=problems)
    return clean, ok, [str(p) for p in problems.items]


def test_check_fields_cleans_and_fills_defaults():
    clean, ok, problems = check({"title": " T ", "venue": "v-2024"})
    assert ok and problems == []
    assert clean["title"] == "T" and clean["authors"] == () and clean["links"] == ()
    assert clean["provisional"] is False and clean["added"] is None


def test_check_fields_reports_every_problem_with_line_and_field():
    clean, ok, problems = check(
        {"title": ["x"], "authors": "Ada", "tags": ["Bad Tag"], "colour": "red", "provisional": "no"},
        lines={"title": 2, "authors": 3, "tags": 4, "colour": 5, "provisional": 6},
    )
    assert not ok
    assert problems == [
        "papers/p.md:5: colour: unknown field; expected one of added, address, authors, editors, extra, links, "
        "month, pages, presentation, provisional, publisher, tags, title, track, venue",
        "papers/p.md:2: title: expected text, found a list",
        'papers/p.md:3: authors: expected a list of names, found \'Ada\' (write authors: ["First Author", '
        '"Second Author"])',
        "papers/p.md:9: venue: required field is missing",
        "papers/p.md:4: tags: item 1: expected an id like 'graph-learning', found 'Bad Tag'",
        "papers/p.md:6: provisional: expected true or false, found 'no'",
    ]


def test_a_required_field_present_but_empty_says_so():
    _, ok, problems = check({"title": None, "venue": "v"}, lines={"title": 2})
    assert not ok and problems == ["papers/p.md:2: title: required field is empty"]


def test_every_schema_field_has_a_doc_and_a_unique_name():
    for fields in (schema.SITE_FIELDS, schema.VENUE_FIELDS, schema.PAPER_FIELDS):
        names = [f.name for f in fields]
        assert len(names) == len(set(names))
        assert all(f.doc for f in fields)
