"""The Markdown parser, built once: markdown-it set up for catalogue text (CommonMark, no raw
HTML, bare URLs linkified without fuzzy links, dollar and LaTeX math, the text-mode LaTeX
core rule), and the parse of a whole text shared by its HTML and its plain text, with
blocks nested too deep shown as paragraphs of their source."""

from __future__ import annotations

import functools
import re
from typing import Callable

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.linkify import linkify as _core_linkify
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.dollarmath.index import math_inline_dollar

from ..tokens import formula_may_touch_digits
from .latex_rule import latex_core_rule
from .math_rules import delimited_math_rule, math_env_rule, render_math_block, render_math_inline


def _email_linkify_rule(state: StateCore) -> None:
    """The core linkify pass, only where it can find something.

    Scheme URLs (``https://...``) are found by the inline linkify rule while parsing; with
    fuzzy links off, the core pass only adds e-mail addresses, and its pretest is costly.
    """
    if any(token.type == "inline" and "@" in token.content for token in state.tokens):
        _core_linkify(state)


_MAX_NESTING = 20  # markdown-it's guard against deep recursion (see parse_block)


def _no_digits_around(rule: Callable[[StateInline, bool], bool]) -> Callable[[StateInline, bool], bool]:
    """``rule`` (inline ``$…$`` math), refused when a digit touches the outside of either
    dollar, so "costs 5$ or 6$" stays text; a ``$`` at the start has no character before it.
    A formula that starts with a command or a script may touch digits ("2$\\times$",
    ``tokens.formula_may_touch_digits``)."""

    def guarded(state: StateInline, silent: bool) -> bool:
        start = state.pos
        src = state.src
        digit_before = start > 0 and src[start - 1].isdigit()
        if digit_before and not formula_may_touch_digits(src[start + 1 : start + 3]):
            return False
        if not rule(state, True):
            return False
        after = state.pos
        state.pos = start
        touching = digit_before or (after < len(src) and src[after].isdigit())
        if touching and not (src.startswith("$", after - 1) and not src.startswith("$$", start)
                             and formula_may_touch_digits(src[start + 1 : after - 1])):
            return False
        if silent:
            state.pos = after  # a silent match still moves past the formula
            return True
        return rule(state, False)

    return guarded


def _build_markdown() -> MarkdownIt:
    md = MarkdownIt(
        "commonmark",
        {"html": False, "linkify": True, "typographer": False, "maxNesting": _MAX_NESTING},
    )
    md.enable("linkify")
    md.disable(["html_inline", "html_block", "text_join"])
    assert md.linkify is not None
    md.linkify.set({"fuzzy_link": False, "fuzzy_ip": False, "fuzzy_email": True})
    md.linkify.add("ftp:", None)
    md.linkify.add("//", None)
    # Every link target is checked (and unsafe ones turned into text) by latex_core_rule;
    # accepting them here keeps "[text](javascript:...)" from showing its Markdown syntax.
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    dollarmath_plugin(
        md,
        allow_labels=False,
        allow_space=True,
        allow_digits=False,
        allow_blank_lines=False,
        double_inline=True,
    )
    # The plugin's own digit test reads the character before a "$" at the start of a
    # paragraph as the paragraph's last one (index -1): "$K$-means in 2024" lost its
    # formula. The same rule, with the digit tests done here.
    md.inline.ruler.at("math_inline", _no_digits_around(math_inline_dollar(True, True, True)))
    md.core.ruler.at("linkify", _email_linkify_rule)
    md.inline.ruler.before("escape", "math_paren", delimited_math_rule("\\(", "\\)", "math_inline"))
    md.inline.ruler.before("escape", "math_bracket", delimited_math_rule("\\[", "\\]", "math_inline_double",
                                                                        only_mathy=True))
    md.inline.ruler.before("escape", "math_env", math_env_rule)
    md.core.ruler.push("papershelf_latex", latex_core_rule)
    md.add_render_rule("math_inline", render_math_inline)
    md.add_render_rule("math_inline_double", render_math_inline)
    md.add_render_rule("math_block", render_math_block)
    md.add_render_rule("math_block_label", render_math_block)
    return md


MD = _build_markdown()


@functools.lru_cache(maxsize=256)
def parse_block(source: str) -> tuple[Token, ...]:
    """Tokens of a Markdown document, shared by ``render_abstract`` and ``plain_text``.

    A build usually asks for the HTML and the plain text of the same abstract one after the
    other; the tokens are only read afterwards (rendering does not change them).

    Blocks nested deeper than markdown-it goes (``maxNesting``: quotes in quotes, lists in
    lists) would lose their text, so such a top-level block is shown as its source instead,
    in plain paragraphs (inline Markdown, LaTeX and math still apply).
    """
    tokens = MD.parse(source, {})
    if any(_too_deep(token) for token in tokens):
        tokens = _flatten_too_deep(source, tokens)
    return tuple(tokens)


_TEXT_BLOCKS = frozenset({"paragraph_open", "heading_open"})  # blocks of inline text only
_NEWLINES = re.compile(r"\r\n?")


def _too_deep(token: Token) -> bool:
    """Whether markdown-it stopped parsing inside this block, dropping the rest of it.

    markdown-it parses the content of a container (a quote, a list item) one level deeper
    than the container's own token; at ``maxNesting`` it skips the content, and for a list
    item the skipped "content" is the rest of the document.
    """
    return token.nesting == 1 and token.level >= _MAX_NESTING - 1 and token.type not in _TEXT_BLOCKS


def _flatten_too_deep(source: str, tokens: list[Token]) -> list[Token]:
    """``tokens`` with each top-level block that is too deep replaced by plain paragraphs."""
    lines = _NEWLINES.sub("\n", source).split("\n")
    result: list[Token] = []
    i, n = 0, len(tokens)
    while i < n:
        first, j = tokens[i], i + 1
        if first.nesting == 1:  # the block runs to its closing token, at the same level
            while j < n and not (tokens[j].nesting == -1 and tokens[j].level == first.level):
                j += 1
            j += 1
        block = tokens[i:j]
        if any(_too_deep(token) for token in block):
            if first.map is None:  # cannot happen with markdown-it's block rules
                return _plain_paragraphs(lines, 0)
            result += _plain_paragraphs(lines[first.map[0] : first.map[1]], first.map[0])
        else:
            result += block
        i = j
    return result


def _plain_paragraphs(lines: list[str], first_line: int) -> list[Token]:
    """Block tokens for ``lines`` as paragraphs of inline Markdown (blank lines separate them)."""
    tokens: list[Token] = []
    paragraph: list[str] = []
    for number, line in enumerate([*lines, ""], first_line):
        if line.strip():
            paragraph.append(line.strip())
            continue
        if not paragraph:
            continue
        lines_map = [number - len(paragraph), number]
        inline = MD.parseInline("\n".join(paragraph), {})[0]
        inline.level, inline.block, inline.map = 1, True, lines_map
        tokens += [
            Token("paragraph_open", "p", 1, map=lines_map, level=0, block=True),
            inline,
            Token("paragraph_close", "p", -1, level=0, block=True),
        ]
        paragraph = []
    return tokens
