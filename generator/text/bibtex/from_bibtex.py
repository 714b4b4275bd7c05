"""BibTeX field values back to content text (Markdown with LaTeX): protective braces
dropped, characters the exporter escaped unescaped, ``\\url{}`` of a bare URL made bare
again, LaTeX dashes as dashes (``bib_text_to_content``, ``decode_url``). The inverse of
``to_bibtex``: a value written by the exporter reads back as the content it came from."""

from __future__ import annotations

import re
from typing import Sequence

from .to_bibtex import strip_latex
from .markdown_marks import BARE_URL, URL_TRAILING
from ..tokens import (ACCENT_SYMBOLS, BACKSLASH, CHAR, CLOSE, CMD, MATH, OPEN, SPACE, SYM, Tok, clean_text,
                     match_pairs, tokenize)

# Commands the exports write for characters that are plain text in the content.
_UNESCAPE_COMMANDS = {"\\textless": "<", "\\textgreater": ">", "\\textasciicircum": "^",
                      "\\textbraceleft": "\\{", "\\textbraceright": "\\}"}
_UNESCAPE_SYMBOLS = {"\\&": "&", "\\%": "%"}
_QUOTES = re.compile(r"'|``?|''")  # a quote the Anthology protects with braces


# Text with none of these holds no LaTeX to unwrap and no dash or "*" to rewrite: most
# abstracts of an archive, which are then spaced as below without being tokenized (twice).
_LATEX_SYNTAX = re.compile(r"[\\{}$%~&*`^_#]|--")


def bib_text_to_content(raw: str, *, title: bool) -> str:
    """A BibTeX title or abstract as content text (Markdown with LaTeX); see the module docstring."""
    text = clean_text(raw).replace("\r\n", "\n").replace("\r", "\n")
    if "dollar" in text or "{\\$}" in text:
        text = _ESCAPED_MATH.sub(_unescape_math, text)
    if _LATEX_SYNTAX.search(text):
        tokens = tokenize(text)
        groups, _ = match_pairs(tokens, lambda t: t.kind == OPEN, lambda t: t.kind == CLOSE)
        out: list[str] = []
        _unwrap(tokens, 0, len(tokens), groups, out)
        text = _plain_characters("".join(out))
    if title:
        return " ".join(strip_latex(text).split())
    lines = [strip_latex(line) for line in strip_latex(text).split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


# DBLP escapes a title's formulas: "{\textdollar}{\textbackslash}ell{\_}1{\textdollar}" is $\ell_1$
# (older exports: "{\$}k{\$}"). Read back as the formula it was.
_TEXTDOLLAR = r"(?:\{\\textdollar\}|\\textdollar\{\})"
_ESCAPED_MATH = re.compile(rf"{_TEXTDOLLAR}((?:(?!{_TEXTDOLLAR})[^\n]){{1,300}}?){_TEXTDOLLAR}"
                           r"|\{\\\$\}([^\s$]{1,40}?)\{\\\$\}")  # "{\$}…{\$}" only around one word: "#Turki{\$}h"
_MATH_UNESCAPES = re.compile(r"\{\\textbackslash\}|\\textbackslash\{\}|\{\\_\}|\\_|\\\{|\\\}|\{\\\^\}|\\\^\{\}"
                             r"|\{\\textasciicircum\}|\\textasciicircum\{\}")


def _unescape_math(match: re.Match[str]) -> str:
    def char(m: re.Match[str]) -> str:
        token = m.group()
        return ("\\" if "backslash" in token else "_" if "_" in token else "^" if ("^" in token or "circum" in token)
                else "{" if token.endswith("{") else "}")
    return "$" + _MATH_UNESCAPES.sub(char, match.group(1) or match.group(2)) + "$"


def _unwrap(tokens: Sequence[Tok], start: int, end: int, groups: dict[int, int], out: list[str]) -> None:
    """Write tokens[start:end] without protective braces; ``\\&`` and friends as characters."""
    prev: Tok | None = None  # the last token that can take an argument group
    i = start
    while i < end:
        tok = tokens[i]
        if tok.kind == OPEN and i in groups:
            close = groups[i]
            inner_first = tokens[i + 1] if i + 1 < close else None
            is_argument = prev is not None and (
                prev.kind == CMD or (prev.kind == SYM and prev.text[1] in ACCENT_SYMBOLS) or prev.kind == "arg")
            special = inner_first is not None and inner_first.kind in (CMD, SYM)
            after = tokens[close + 1] if close + 1 < end else None
            glued = (close - 1 > i and tokens[close - 1].kind == CMD and after is not None
                     and after.kind == CHAR and after.text[:1].isalpha())
            # Braces around no letter and no formula do not protect capitals: they separate
            # ("{-}-", "{~}", "{}"), so they stay.
            # Nor do braces that make a "~" a tie rather than a tilde.
            inner = tokens[i + 1 : close]
            protects = (any(t.kind == MATH or (t.kind == CHAR and any(ch.isalpha() for ch in t.text)) for t in inner)
                        and not (inner[0].text == "~" or inner[-1].text == "~"))
            # The ACL Anthology writes apostrophes and quotes in braces: "d{'}un", "{``}x{''}".
            quote = not is_argument and bool(inner) and all(t.kind == CHAR and _QUOTES.fullmatch(t.text) for t in inner)
            if inner_first is not None and inner_first.kind == OPEN and groups.get(i + 1) == i + 2:
                # "{{}\cmd…}": the exporter's protection of words that start with a command.
                _unwrap(tokens, i + 3, close, groups, out)
                prev = None
            elif quote:
                _unwrap(tokens, i + 1, close, groups, out)
                prev = None
            elif is_argument or special or glued or not protects:
                out.append("{")
                _unwrap(tokens, i + 1, close, groups, out)
                out.append("}")
                prev = Tok("arg", "") if is_argument else None
            else:  # only protects capitals: drop the braces
                _unwrap(tokens, i + 1, close, groups, out)
                prev = None
            i = close + 1
            continue
        if tok.kind == CMD and tok.text == "\\url" and _bare_url_argument(tokens, i, end, groups):
            close = groups[i + 1]
            out.append("".join(t.text for t in tokens[i + 2 : close]))  # as the exporter found it
            prev = None
            i = close + 1
            continue
        if tok.kind == CMD and tok.text in _UNESCAPE_COMMANDS:
            out.append(_UNESCAPE_COMMANDS[tok.text])
            nxt = i + 1
            if nxt < end and tokens[nxt].kind == OPEN and groups.get(nxt) == nxt + 1:
                i = nxt + 2  # the empty group after the command
            elif nxt < end and tokens[nxt].kind == SPACE:
                i = nxt + 1  # TeX eats the space after a control word
            else:
                i = nxt
            prev = None
            continue
        if tok.kind == SYM and tok.text in _UNESCAPE_SYMBOLS and not (
                tok.text == "\\%" and out and out[-1].endswith("{")):
            # (after "{", "%" stays "\%": "{%" would open a template tag, which content prints as typed)
            out.append(_UNESCAPE_SYMBOLS[tok.text])
        else:
            out.append(tok.text)
        if tok.kind == SPACE:
            if prev is not None and prev.kind in (CMD, "arg"):
                pass  # spaces between a command and its arguments do not end it
            else:
                prev = None
        elif tok.kind in (CMD, SYM):
            prev = tok
        elif tok.kind in (CHAR, MATH, BACKSLASH, CLOSE, OPEN):
            prev = None
        i += 1


def _bare_url_argument(tokens: Sequence[Tok], i: int, end: int, groups: dict[int, int]) -> bool:
    """Whether ``\\url{…}`` at ``i`` wraps a URL that the exporter would find bare again.

    The exporter writes a bare URL of the content as ``\\url{…}``; the importer writes it
    back bare, where it stays a link (Markdown) and is found the same way next time.
    """
    if i + 1 >= end or tokens[i + 1].kind != OPEN or i + 1 not in groups:
        return False
    close = groups[i + 1]
    url = "".join(t.text for t in tokens[i + 2 : close])
    if not BARE_URL.fullmatch(url) or url[-1] in URL_TRAILING or "*" in url or "~" in url:
        return False  # ("*" would be escaped against emphasis, "~" read as a tie: \url{} keeps them)
    # Braces around it may be dropped (protection): look through them.
    k = i - 1
    while k >= 0 and tokens[k].kind in (OPEN, CLOSE):
        k -= 1
    before = tokens[k].text[-1:] if k >= 0 else ""
    if before and (before.isalnum() or before == "/"):
        return False
    after = ""
    for tok in tokens[close + 1 :]:
        if tok.kind not in (OPEN, CLOSE):
            after += tok.text
            if len(after) >= 2:
                break
    after = after[:2]
    return not after or after[0].isspace() or (after[0] in URL_TRAILING and (len(after) == 1 or after[1].isspace()))


def _plain_characters(text: str) -> str:
    """Dashes as LaTeX writes them (``--``, ``---``) become en and em dashes; ``*`` is
    literal in LaTeX, so it is escaped against Markdown emphasis. Not in math or URLs."""
    out = []
    for tok in tokenize(text):
        if tok.kind == CHAR and "://" not in tok.text and not tok.text.startswith("www."):
            out.append(tok.text.replace("---", "\u2014").replace("--", "\u2013").replace("*", "\\*"))
        else:
            out.append(tok.text)
    return "".join(out)


def decode_url(raw: str) -> str:
    """A URL from a .bib value: ``\\url{…}`` unwrapped, ``\\_ \\% \\& \\# \\~`` unescaped."""
    value = raw.strip()
    match = re.fullmatch(r"\\(?:url|href)\s*\{(.*)\}(?:\{.*\})?", value, re.S)
    if match:
        value = match.group(1)
    value = re.sub(r"\\([_%&#~$])", r"\1", value)
    return "".join(value.split())
