"""The shared LaTeX tokenizer read as page text (``tokenize_text``, ``text_token_at``,
``text_kind_at``): the reader under the text-mode LaTeX rewriter, next to ``tokenize``,
the reader of BibTeX."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.text.tokens import (BACKSLASH, CHAR, CLOSE, CMD, DASH, MATH, OPEN, QUOTE, SPACE, SYM, TIE, Tok,
                                         text_kind_at, text_token_at, tokenize, tokenize_text)


def kinds(s: str) -> list[tuple[str, str]]:
    return [(tok.kind, tok.text) for tok in tokenize_text(s)]


@pytest.mark.parametrize(
    "source, expected",
    [
        ("plain words", [(CHAR, "plain words")]),
        (r"\emph{x}", [(CMD, r"\emph"), (OPEN, "{"), (CHAR, "x"), (CLOSE, "}")]),
        (r"\section*{A}", [(CMD, r"\section*"), (OPEN, "{"), (CHAR, "A"), (CLOSE, "}")]),
        (r"a\_b \{c\}", [(CHAR, "a"), (SYM, r"\_"), (CHAR, "b "), (SYM, r"\{"), (CHAR, "c"), (SYM, r"\}")]),
        (r"\'e \"{o}", [(SYM, r"\'"), (CHAR, "e "), (SYM, r"\""), (OPEN, "{"), (CHAR, "o"), (CLOSE, "}")]),
        ("\\\\ \\\n", [(SYM, "\\\\"), (CHAR, " "), (SYM, "\\\n")]),
        ("end\\", [(CHAR, "end"), (BACKSLASH, "\\")]),
        ("p.~3", [(CHAR, "p."), (TIE, "~"), (CHAR, "3")]),
        ("``quoted''", [(QUOTE, "``"), (CHAR, "quoted"), (QUOTE, "''")]),
        ("`single'", [(QUOTE, "`"), (CHAR, "single'")]),
        ("pages 3--5, this---that", [(CHAR, "pages 3"), (DASH, "--"), (CHAR, "5, this"), (DASH, "---"),
                                    (CHAR, "that")]),
        ("$x$ costs 5$", [(CHAR, "$x$ costs 5$")]),  # formulas were taken out by the Markdown parser
    ],
)
def test_page_text_tokens(source, expected):
    assert kinds(source) == expected


@pytest.mark.parametrize("source", ["```code```", "a----b", "<!-- note -->", "a --> b", "x <-- y", "!--"])
def test_backtick_runs_long_dashes_and_html_arrows_are_text(source):
    """Three or more backticks, four or more dashes, and dashes in <!-- -->, --> and <--."""
    assert all(tok.kind == CHAR for tok in tokenize_text(source))


def test_a_backslash_before_any_character_but_a_letter_is_a_control_symbol_in_page_text():
    """In page text ``\\é`` and ``\\1`` are control symbols (the rewriter shows the character);
    BibTeX reads only a backslash before ASCII punctuation as one."""
    assert kinds("\\é\\1") == [(SYM, "\\é"), (SYM, "\\1")]
    assert [tok.kind for tok in tokenize("\\é")] == [BACKSLASH, CHAR]


def test_tokenize_for_bibtex_is_unchanged():
    assert tokenize("a~b $x$ \\'e") == [
        Tok(CHAR, "a"), Tok(CHAR, "~"), Tok(CHAR, "b"), Tok(SPACE, " "), Tok(MATH, "$x$"), Tok(SPACE, " "),
        Tok(SYM, "\\'"), Tok(CHAR, "e"),
    ]


def test_reading_resumes_anywhere():
    """A reader that skipped an argument resumes mid-run; what it reads is the rest of the run."""
    s = r"\c cedilla and \'\i*"
    assert text_token_at(s, 3) == Tok(CHAR, "cedilla and ")
    assert text_token_at(s, 4) == Tok(CHAR, "edilla and ")
    assert text_token_at(s, len(s) - 1) == Tok(CHAR, "*")
    assert text_token_at(s, len(s) - 3) == Tok(CMD, r"\i*")


def test_kind_at_the_end_of_the_text():
    assert text_kind_at("ab", 2) == ""
    assert text_kind_at("a{", 1) == OPEN
    assert text_kind_at("a--b", 1) == DASH
    assert text_kind_at("a-b", 1) == CHAR


_ALPHABET = st.sampled_from(list("\\{}~`'-<!>ab é1*$ \n\t") + ["\\i", "{{", "--", "``", "''"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_tokens_cover_the_text_and_agree_wherever_reading_starts(s):
    tokens = tokenize_text(s)
    assert "".join(tok.text for tok in tokens) == s
    assert all(tok.text for tok in tokens)
    pos = 0
    for tok in tokens:
        assert text_token_at(s, pos) == tok
        if tok.kind == CHAR:  # a run read from inside is the rest of the run
            for k in range(1, len(tok.text)):
                assert text_token_at(s, pos + k) == Tok(CHAR, tok.text[k:])
        pos += len(tok.text)
    for i in range(len(s) + 1):
        assert text_kind_at(s, i) == (text_token_at(s, i).kind if i < len(s) else "")
