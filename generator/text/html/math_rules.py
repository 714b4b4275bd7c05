"""Math in Markdown: the markdown-it rules that find ``\\(...\\)``, ``\\[...\\]`` and LaTeX math
environments, and the renderers that write math tokens as MathML or, when a formula cannot
be converted, as its escaped source."""

from __future__ import annotations

import re
from typing import Any, Callable

from markdown_it.common.utils import escapeHtml
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from .mathml import math_to_mathml
from ..settings import TITLE_ENV_KEY

MATH_CLOSERS = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}


def _math_source_html(content: str, markup: str) -> str:
    source = f"{markup}{content}{MATH_CLOSERS.get(markup, markup)}"
    return f'<code class="math-source">{escapeHtml(source)}</code>'


def render_math_inline(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    title = isinstance(env, dict) and bool(env.get(TITLE_ENV_KEY))
    display = token.type == "math_inline_double" and not title
    if not token.content.strip():  # "$ $" is not a formula
        markup = token.markup or "$"
        return escapeHtml(f"{markup}{token.content}{MATH_CLOSERS.get(markup, markup)}")
    html = math_to_mathml(token.content, display)
    return html if html is not None else _math_source_html(token.content, token.markup or "$")


def render_math_block(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    html = math_to_mathml(token.content, True)
    if html is None:
        html = _math_source_html(token.content.strip("\n"), "$$")
    return f'<div class="math-block">{html}</div>\n'


_MATHY = re.compile(r"[\\^_={}+<>|]")  # display math has a command or an operator; "\[in press\]" has none


def delimited_math_rule(opener: str, closer: str, token_type: str,
                         only_mathy: bool = False) -> Callable[[StateInline, bool], bool]:
    """Inline rule for math written as ``\\(...\\)`` (inline) or ``\\[...\\]`` (display).

    ``\\[`` is also Markdown's escaped bracket (HTML-to-Markdown converters escape every
    bracket): with ``only_mathy`` the content must hold a command or an operator, so
    ``\\[1\\]`` and ``\\[in press\\]`` stay brackets; so does a ``\\[`` without its ``\\]``.
    """
    no_close = f"papershelf_no_close_{opener}"  # key in StateInline.cache (which has int keys)

    def rule(state: StateInline, silent: bool) -> bool:
        src, pos, maximum = state.src, state.pos, state.posMax
        if not src.startswith(opener, pos):
            return False
        # Where a search for the closer up to ``maximum`` failed, no later opener needs to
        # search again (without this, a text full of openers and no closer takes quadratic
        # time). Link labels are parsed with a smaller ``posMax``, hence the key.
        failed_key = (no_close, maximum)
        if pos + 2 >= state.cache.get(failed_key, maximum + 1):  # type: ignore[call-overload]
            return False
        end = pos + 2
        while True:
            end = src.find(closer, end, maximum)
            if end < 0:
                state.cache[failed_key] = pos + 2  # type: ignore[index]
                return False
            backslashes, k = 0, end - 1
            while k >= pos + 2 and src[k] == "\\":
                backslashes += 1
                k -= 1
            if backslashes % 2 == 0:
                break
            end += 2
        content = src[pos + 2 : end]
        if not content.strip() or (only_mathy and not _MATHY.search(content)):
            return False
        if not silent:
            token = state.push(token_type, "math", 0)
            token.content = content
            token.markup = opener
        state.pos = end + 2
        return True

    return rule


_MATH_ENV = re.compile(r"\\begin\{(equation|align|alignat|gather|multline|eqnarray|displaymath|math)(\*?)\}")
_MATH_ENV_CLOSE = "papershelf_no_env_close"


def math_env_rule(state: StateInline, silent: bool) -> bool:
    """``\\begin{equation}...\\end{equation}`` (and align, gather, multline, eqnarray,
    starred or not) outside ``$$``: display math, as LaTeX typesets it (``math``: inline). The formula keeps its
    environment (latex2mathml lays out align's rows); without its ``\\end`` it is text."""
    src, pos, maximum = state.src, state.pos, state.posMax
    if not src.startswith("\\begin{", pos):
        return False
    match = _MATH_ENV.match(src, pos, maximum)
    if match is None:
        return False
    closer = f"\\end{{{match.group(1)}{match.group(2)}}}"
    failed_key = (_MATH_ENV_CLOSE, closer, maximum)
    if pos >= state.cache.get(failed_key, maximum + 1):  # type: ignore[call-overload]
        return False
    end = src.find(closer, match.end(), maximum)
    if end < 0:
        state.cache[failed_key] = pos  # type: ignore[index]
        return False
    if not silent:
        name = match.group(1)
        token = state.push("math_inline" if name == "math" else "math_inline_double", "math", 0)
        if name in ("equation", "displaymath", "math"):  # one formula: its inside
            token.content = src[match.end():end]
        else:
            token.content = src[pos:end + len(closer)]
        token.markup = "$$"
    state.pos = end + len(closer)
    return True
