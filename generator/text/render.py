"""The public functions: titles and abstracts to HTML and to plain text (with a fast path for
text that means nothing to Markdown or LaTeX, and escaped text when rendering fails), and
excerpts of plain text."""

from __future__ import annotations

import functools
import re
from typing import Any

from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token

from .fallbacks import record, strict
from .hygiene import clean
from .html.latex_rule import image_alt
from .html.markdown import MD, parse_block
from .math_text import math_plain
from .settings import CACHE_SIZE, TITLE_ENV_KEY

# The fast path. "Simple" text means nothing to Markdown, LaTeX or linkify: it has none of
# the characters an inline rule, the LaTeX scanner or ``clean``'s quotes act on, no "''",
# no "://" (a bare URL), no white space but " " and "\n", no space at the end of a line,
# and no line that starts with a space, a digit, "-", "+", "#" or "=" (an indented code
# block, a list, a heading or a setext underline; every other block needs one of the
# excluded characters; "--" is a dash). Such text parses to paragraphs (split at blank lines) of one text
# token per line, joined by soft breaks: its HTML is those paragraphs escaped and its plain
# text the text itself, with single spaces. Most titles and many abstracts are simple, and
# markdown-it is the slowest part of rendering them; ``tests/text/test_text.py`` checks that the
# fast path and the parser agree.
_NOT_SIMPLE_CHAR = re.compile(r"[\\`$~&<>*_\[\]@{}|\t\r\x0b\x0c\x1c-\x1f]")
_NON_ASCII_SPACE = re.compile(r"[^\S\x00-\x7f]")
_NOT_SIMPLE_LINE_START = re.compile(r"[\d\-+#= ]")  # lists, headings, setext underlines, indents
_NOT_SIMPLE_AFTER_NEWLINE = re.compile(r"\n[\d\-+#= ]")
_PARAGRAPH_BREAKS = re.compile(r"\n{2,}")


def _is_simple(source: str) -> bool:
    """Whether ``source`` (cleaned) is simple text as described above (a few fast scans)."""
    return not (
        source == "" or source.isspace()
        or _NOT_SIMPLE_CHAR.search(source)
        or (not source.isascii() and _NON_ASCII_SPACE.search(source))
        or "''" in source or "--" in source or "://" in source or " \n" in source or source.endswith(" ")
        or _NOT_SIMPLE_LINE_START.match(source) or _NOT_SIMPLE_AFTER_NEWLINE.search(source)
    )


@functools.lru_cache(maxsize=CACHE_SIZE)
def _render_abstract(source: str) -> str:
    if _is_simple(source):
        return "".join(f"<p>{escapeHtml(paragraph)}</p>\n"
                       for paragraph in _PARAGRAPH_BREAKS.split(source.strip("\n")))
    return _render_abstract_parsed(source)


def _render_abstract_parsed(source: str) -> str:
    return MD.renderer.render(list(parse_block(source)), MD.options, {})


@functools.lru_cache(maxsize=CACHE_SIZE)
def _render_title(source: str) -> str:
    source = source.strip()
    if "\n" not in source and _is_simple(source):
        return escapeHtml(source).strip()
    return _render_title_parsed(source)


def _render_title_parsed(source: str) -> str:
    env: dict[str, Any] = {TITLE_ENV_KEY: True}
    tokens = MD.parseInline(source.strip(), env)
    return MD.renderer.render(tokens, MD.options, env).strip()  # env: display math inline


_COMMAND_LEFT = re.compile(r"\\+(?=[A-Za-z])")


def _plain_inline(children: list[Token], parts: list[str]) -> None:
    skip = 0
    for child in children:
        kind = child.type
        if kind == "cite_open":
            if not skip:
                while parts and not parts[-1].strip():
                    parts.pop()
                if parts:
                    parts[-1] = parts[-1].rstrip()
            skip += 1
        elif kind == "cite_close":
            skip = max(0, skip - 1)
        elif skip:
            continue
        elif kind in ("text", "text_special", "code_inline"):
            parts.append(child.content)
        elif kind.startswith("math_inline"):
            parts.append(math_plain(child.content) if child.content.strip() else child.markup)
        elif kind in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif kind == "image":
            parts.append(image_alt(child))


@functools.lru_cache(maxsize=CACHE_SIZE)
def _plain_text(source: str) -> str:
    if _is_simple(source):
        return _tidy_plain(source)
    return _plain_text_parsed(source)


def _plain_text_parsed(source: str) -> str:
    parts: list[str] = []
    for token in parse_block(source):
        kind = token.type
        if kind == "inline":
            _plain_inline(token.children or [], parts)
        elif kind in ("fence", "code_block"):
            parts.append(f" {token.content} ")
        elif kind.startswith("math_block"):
            parts.append(f" {math_plain(token.content)} ")
        elif kind == "list_item_open" and token.info:
            parts.append(f" {token.info}{token.markup} ")
        else:
            parts.append(" ")
    return _tidy_plain("".join(parts))


def _tidy_plain(text: str) -> str:
    """No backslash commands, single spaces.

    Text that looks like HTML (``<b>``, ``<script>``) is kept as typed: it is text on the
    page too, and every consumer of plain text escapes it (or sets it as ``textContent``).
    """
    if "\\" in text:
        text = _COMMAND_LEFT.sub("", text)
    return " ".join(text.split())  # what _SPACES.sub(" ", text).strip() gives, faster


# The public functions never fail on a bug in the code above unless in strict mode: they
# fall back to the text, escaped, and record that they did (``fallbacks``).

def render_abstract(source: str) -> str:
    """Block HTML for an abstract or description written in Markdown with LaTeX."""
    try:
        return _render_abstract(clean(source))
    except Exception as error:
        if strict():
            raise
        record("render_abstract", error)
        return f"<p>{escapeHtml(clean(source))}</p>\n"


def render_title(source: str) -> str:
    """Inline HTML for a title: math as MathML, emphasis kept, no links, no ``<p>``."""
    try:
        return _render_title(clean(source))
    except Exception as error:
        if strict():
            raise
        record("render_title", error)
        return escapeHtml(clean(source))


def plain_text(source: str) -> str:
    """Readable plain text of a title or abstract (math as linear text, no markup)."""
    try:
        return _plain_text(clean(source))
    except Exception as error:
        if strict():
            raise
        record("plain_text", error)
        return _tidy_plain(clean(source))


_CUT_TRAILING = " \t\n,;:([{-–—/"


def excerpt(plain: str, limit: int = 200) -> str:
    """``plain`` cut at a word boundary so that it is at most ``limit`` characters, "…" included."""
    if not isinstance(plain, str):
        plain = "" if plain is None else str(plain)
    text = " ".join(plain.split())  # the same as _SPACES.sub(" ", plain).strip(), faster
    if len(text) <= limit:
        return text
    if limit < 1:
        return ""
    head = text[: limit - 1]
    if not text[limit - 1].isspace():
        space = head.rfind(" ")
        if space > 0:
            head = head[:space]
    head = head.rstrip(_CUT_TRAILING)
    if not head:
        head = text[: limit - 1].rstrip()
    return head + "…"
