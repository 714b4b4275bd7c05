"""Paper text: Markdown + LaTeX in, safe HTML, MathML and plain text out.

Titles and abstracts are written the way researchers write them: Markdown with inline LaTeX
math (``$K$-means``, ``$\\mathcal{O}(n^2)$``) and text-mode LaTeX that leaked in from the
paper (``\\emph{...}``, ``\\url{...}``, ``\\cite{...}``, ``22\\%``, ``{\\bf x}``).

Public API (all pure and deterministic, never raise on any string; results are memoised):

``render_abstract(source)``
    Block HTML. Markdown via markdown-it-py (CommonMark, raw HTML **off**, typographer off),
    bare ``http(s)://`` URLs and e-mail addresses linkified (trailing punctuation excluded;
    no "fuzzy" links, so ``model.py`` or ``www.example.org`` stay text),
    ``$...$`` / ``\\(...\\)`` inline math and ``$$...$$`` / ``\\[...\\]`` display math converted to MathML at
    build time with latex2mathml. A formula latex2mathml cannot convert (or that uses
    commands it does not know, or macro definitions) is shown as its source in
    ``<code class="math-source">`` (escaped). Only ``http``, ``https`` and ``mailto`` links
    survive; any other target (``javascript:``, ``data:``, relative paths, ...) is rendered as
    its text. External links get ``rel="noopener"``. Images are shown as their alt text (no
    hot-linked images in a catalogue). ``$`` followed or preceded by a digit ("costs $5 and
    $10") does not start math; ``\\[...\\]`` holding a command or an operator is display
    math, as in LaTeX (otherwise Markdown's escaped brackets: ``\\[1\\]``), and so are the
    environments ``equation``, ``align``, ``gather``, ``multline``, ``eqnarray`` (starred too).
``render_title(source)``
    Inline HTML for a title (no ``<p>``, no ``<a>``: links become their text).
``plain_text(source)``
    Readable plain text for meta descriptions and the search index. Text that looks like
    HTML (``<b>``, ``<script>``) is kept as typed, as the page shows it: every consumer
    escapes plain text or sets it as ``textContent``.
``excerpt(plain, limit=200)``
    Cut plain text at a word boundary, adding "…" when cut; the result is at most ``limit``
    characters long, the ellipsis included.

Text-mode LaTeX (outside math), as a reader would expect it:

* ``\\emph``/``\\textit``/``\\textsl``/``{\\em x}``/``{\\it x}`` -> ``<em>``; ``\\textbf``/``{\\bf x}``
  -> ``<strong>``; ``\\texttt`` -> ``<code>``; ``\\textsuperscript``/``\\textsubscript`` ->
  ``<sup>``/``<sub>``; ``\\underline`` -> ``<u>``; ``\\footnote{x}`` -> " (x)".
* ``\\url{u}`` -> a link to ``u``; ``\\href{u}{text}`` -> a link on ``text`` (only if the target
  is http/https/mailto, never in titles or inside another link).
* **Citations**: there is no bibliography, so ``\\cite{a,b}`` (and ``\\citep``, ``\\citet``,
  ``\\parencite``, ...) becomes a visible marker with the keys,
  ``<cite class="latex-cite">[a, b]</cite>``; optional notes are kept the way LaTeX prints
  them (``\\cite[p.~5]{a}`` -> ``[a, p. 5]``). ``\\nocite`` disappears. In plain text
  citations are removed (with the space before them).
* ``\\$ \\% \\& \\_ \\# \\{ \\}`` -> the character (an escaped dollar never starts math);
  ``~`` between two non-space characters -> no-break space (a ``~`` next to a space, as in
  "~10%", stays a tilde); ``\\,`` -> narrow no-break space; ``\\\\`` -> a space; accents
  (``Erd\\H{o}s``, ``R\\'enyi``, ``Schr\\"odinger``) -> the accented letter; ````x''`` ->
  "x"; ``\\LaTeX``, ``\\ldots``, ``\\S``, ``\\ss``, ``\\eg``, ``\\ie``, ``\\etal``... -> their text;
  ``--``/``---`` -> en/em dash, as LaTeX prints them (not in math, code or URLs).
* Layout commands (``\\noindent``, ``\\small``, ``\\vspace{..}``, ``\\label{..}``...) vanish.
  Unknown commands followed by an argument keep the argument and lose the name
  (``\\mycmd{x}`` -> ``x``); unknown commands without an argument that name a math symbol
  become the symbol (``\\alpha`` -> α) and otherwise show their name without the backslash
  (``\\eft`` -> ``eft``: such commands are usually an author's macro for a method name).
* Braces are LaTeX groups, which lose their braces, only where LaTeX is being written: a
  command's arguments (``\\mycmd{x}{y}``, ``\\LaTeX{}``), a group that starts with a command
  (``{\\bf x}``, ``{\\"o}``) and any group inside those. Other braces are text
  (``{a, b}``, ``{"key": 1}``, the set in ``$K:=${$x \\in A$}``). Text that looks like a
  template tag, ``{{ x }}``, ``{% x %}`` or ``{# x #}``, is shown exactly as typed (it is
  never evaluated: templates print it as text).

Blocks nested deeper than markdown-it goes (20 levels of quotes or lists) are shown as their
source, in plain paragraphs that keep inline Markdown, LaTeX and math, instead of losing text.
Control characters, the byte-order mark and Unicode noncharacters are dropped.

The conversion works on markdown-it tokens after parsing (math spans are separate tokens, so
it never touches math), emits only text tokens and fixed tags, and every text token is escaped
by the renderer: there is no way for input to reach the HTML unescaped.

Plain-text math is written in a linear, searchable form: commands become their Unicode symbol
(``\\alpha`` -> α, ``\\times`` -> ×, ``\\cdot`` -> ·, ``\\ell`` -> ℓ, ``\\mathbb{R}`` -> ℝ), font
commands keep their letters (``\\mathcal{O}`` -> O), operator names stay words (``\\log n`` ->
log n), ``\\left``/``\\right``/spacing commands and braces disappear, and scripts keep ASCII
``^``/``_`` with parentheses only when needed: ``$n^2$`` -> ``n^2``, ``$n_k$`` -> ``n_k``,
``$\\ell_2$`` -> ``ℓ_2``, ``$n^{3-o(1)}$`` -> ``n^(3-o(1))``, ``$X^\\top$`` -> ``X^T``,
``$M^*$`` -> ``M*``, ``\\frac{a}{b}`` -> ``a/b``, ``\\sqrt{x}`` -> ``√x``. So ``$K$-means`` is
``K-means`` and ``$\\mathcal{O}(n)$`` is ``O(n)``, which is what people type into a search box.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any, Callable
from xml.etree.ElementTree import Element

from latex2mathml.converter import convert_to_element
from latex2mathml.symbols_parser import SYMBOLS as _L2M_SYMBOLS
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.linkify import linkify as _core_linkify
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin

__all__ = ["render_abstract", "render_title", "plain_text", "excerpt"]

_CACHE_SIZE = 4096
_MAX_FORMULA = 3000  # characters; longer formulas are shown as source
_TITLE_ENV_KEY = "papershelf_title"

# ---------------------------------------------------------------------------------------
# Input hygiene
# ---------------------------------------------------------------------------------------

_REPLACE_CHARS = re.compile(r"[\x00\ud800-\udfff]")
# Control characters (tab, newline and carriage return kept), the byte-order mark and the
# Unicode noncharacters (U+FDD0-U+FDEF and the last two code points of every plane), which
# HTML forbids.
_NONCHARACTERS = "".join(chr(plane + 0xFFFE) + chr(plane + 0xFFFF) for plane in range(0, 0x110000, 0x10000))
_DROP_CHARS = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\ufdd0-\ufdef" + _NONCHARACTERS + "]")
# LaTeX quotes ``like this'' (converted before Markdown sees the backticks).
_LATEX_QUOTES = re.compile(r"``(?=[^\s`])([^`$\n]{0,500}?[^\s`])''")
_LATEX_SINGLE_QUOTES = re.compile(r"(?<![`\w])`(?=\w)([^`'$\n]{0,200}?[^\s`'])'(?!\w)")


# The part of _DROP_CHARS below U+10000: a class the regex engine tests quickly (the full
# class, with its characters beyond the BMP, makes every search slow). The other dropped
# characters can only be in a string that has a character beyond U+FFFF.
_DROP_BMP_CHARS = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufeff\ufdd0-\ufdef\ufffe\uffff]")


def _clean(source: Any) -> str:
    if not isinstance(source, str):
        source = "" if source is None else str(source)
    source = _REPLACE_CHARS.sub("\ufffd", source)
    if _DROP_BMP_CHARS.search(source) or (not source.isascii() and max(source) > "\uffff"):
        source = _DROP_CHARS.sub("", source)
    if "`" in source and "'" in source:
        source = _LATEX_QUOTES.sub("\u201c\\1\u201d", source)
        source = _LATEX_SINGLE_QUOTES.sub("\u2018\\1\u2019", source)
    return source


# ---------------------------------------------------------------------------------------
# Links
# ---------------------------------------------------------------------------------------

_SAFE_HREF = re.compile(r"(?:https?://[^\s/?#\\]|mailto:[^\s])", re.IGNORECASE)
_HTTP_HREF = re.compile(r"https?:", re.IGNORECASE)
_URL_CTRL = re.compile(r"[\x00-\x20\x7f-\x9f]")


def _check_href(href: str) -> str | None:
    """``href`` if it is an http(s) or mailto URL, else None (already normalised)."""
    if href and _SAFE_HREF.match(href) and not _URL_CTRL.search(href):
        return href
    return None


def _link_attrs(href: str, title: str | None = None) -> dict[str, str | int | float]:
    attrs: dict[str, str | int | float] = {"href": href}
    if title:
        attrs["title"] = title
    if _HTTP_HREF.match(href):
        attrs["rel"] = "noopener"
    return attrs


# ---------------------------------------------------------------------------------------
# Math -> MathML
# ---------------------------------------------------------------------------------------

_MATHML_NS = "http://www.w3.org/1998/Math/MathML"
_MATH_TAGS = frozenset(
    "mrow mi mn mo mtext mspace ms mfrac msqrt mroot mstyle merror mpadded mphantom mfenced "
    "menclose msub msup msubsup munder mover munderover mmultiscripts mprescripts none mtable "
    "mtr mlabeledtr mtd semantics".split()
)
_MATH_ATTRS = frozenset(
    "mathvariant mathsize mathcolor mathbackground stretchy fence form separator lspace rspace "
    "largeop movablelimits accent accentunder symmetric minsize maxsize width height depth "
    "voffset linethickness displaystyle scriptlevel notation columnalign rowalign columnlines "
    "rowlines columnspacing rowspacing frame framespacing equalrows equalcolumns rowspan "
    "columnspan linebreak".split()
)
_ATTR_VALUE = re.compile(r"[A-Za-z0-9 .,%#+\-]{0,80}")
_CHARREF = re.compile(r"&#(?:[xX]([0-9A-Fa-f]{1,8})|([0-9]{1,8}));")
_LEAK = re.compile(r"\\([A-Za-z]+)")
_FORBIDDEN_MATH = re.compile(
    r"\\(?:def|edef|gdef|xdef|let|futurelet|newcommand|renewcommand|providecommand|"
    r"DeclareMathOperator|newenvironment|renewenvironment|require|input|include|catcode|"
    r"csname|expandafter)(?![A-Za-z])"
)
_MATH_LABEL = re.compile(r"\\label\s*\{[^{}]*\}")
_MATH_RENAME = re.compile(
    r"\\(textsc|textup|textnormal|textmd|textsf|dag|ddag|nonumber|notag|ensuremath|vcentcolon)"
    r"(?![A-Za-z])"
)
_MATH_RENAMES = {
    "textsc": r"\text",
    "textup": r"\text",
    "textnormal": r"\text",
    "textmd": r"\text",
    "textsf": r"\textrm",
    "dag": r"\dagger",
    "ddag": r"\ddagger",
    "nonumber": "",
    "notag": "",
    "ensuremath": "",
    "vcentcolon": ":",
}


class _Leak(Exception):
    """latex2mathml passed unknown commands through as text."""

    def __init__(self, names: set[str]):
        super().__init__(", ".join(sorted(names)))
        self.names = names


def _decode_charref(match: re.Match[str]) -> str:
    try:
        code = int(match.group(1), 16) if match.group(1) else int(match.group(2))
    except ValueError:
        return "\ufffd"
    if code in (0x9, 0xA, 0xD) or 0x20 <= code < 0x7F or (
        0xA0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF and not _is_noncharacter(code)
    ):
        return chr(code)
    return "\ufffd"


def _is_noncharacter(code: int) -> bool:
    return 0xFDD0 <= code <= 0xFDEF or (code & 0xFFFE) == 0xFFFE


def _math_text(text: str | None) -> str:
    """Text of a latex2mathml element: its own character references decoded, then escaped."""
    if not text:
        return ""
    if "&#" in text:
        text = _CHARREF.sub(_decode_charref, text)
    return escapeHtml(text)


def _serialize_math(element: Element, parts: list[str]) -> None:
    tag = element.tag
    if not isinstance(tag, str) or tag not in _MATH_TAGS:
        raise ValueError(f"unexpected MathML element {tag!r}")
    parts.append("<" + tag)
    for name, value in element.attrib.items():
        if name in _MATH_ATTRS and isinstance(value, str) and _ATTR_VALUE.fullmatch(value):
            parts.append(f' {name}="{escapeHtml(value)}"')
    parts.append(">")
    parts.append(_math_text(element.text))
    for child in element:
        _serialize_math(child, parts)
        parts.append(_math_text(child.tail))
    parts.append(f"</{tag}>")


def _leaked_commands(element: Element) -> set[str]:
    names: set[str] = set()
    for text in element.itertext():
        names.update(_LEAK.findall(text))
    return names


def _patch_unknown(latex: str, names: set[str]) -> str | None:
    """Replace unknown argument-less commands: ``\\R`` -> ``\\mathbb{R}``, ``\\tr`` -> operator."""
    for name in sorted(names, key=len, reverse=True):
        pattern = re.compile(r"\\" + name + r"(?![A-Za-z])(\s*\{)?")
        if any(m.group(1) for m in pattern.finditer(latex)):
            return None  # an unknown command with arguments: we cannot guess what it means
        if len(name) == 1 and name.isupper():
            replacement = r"\mathbb{" + name + "}"
        else:
            replacement = r"\operatorname{" + name + "}"
        latex = pattern.sub(lambda _m, r=replacement: r, latex)
    return latex


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _math_to_mathml(latex: str, display: bool) -> str | None:
    """MathML for ``latex``, or None when latex2mathml cannot convert it faithfully."""
    src = latex.strip()
    if not src or len(src) > _MAX_FORMULA or _FORBIDDEN_MATH.search(src):
        return None
    src = _MATH_LABEL.sub("", src)
    src = _MATH_RENAME.sub(lambda m: _MATH_RENAMES[m.group(1)], src)
    mode = "block" if display else "inline"
    for _attempt in range(3):
        try:
            element = convert_to_element(src, display=mode)
            leaked = _leaked_commands(element)
            if leaked:
                raise _Leak(leaked)
            parts = [f'<math xmlns="{_MATHML_NS}" display="{mode}">']
            for child in element:
                _serialize_math(child, parts)
                parts.append(_math_text(child.tail))
            parts.append("</math>")
            return "".join(parts)
        except _Leak as leak:
            patched = _patch_unknown(src, leak.names)
            if patched is None or patched == src:
                return None
            src = patched
        except Exception:  # latex2mathml raises many kinds of errors on bad input
            return None
    return None


_MATH_CLOSERS = {"$": "$", "$$": "$$", "\\(": "\\)", "\\[": "\\]"}


def _math_source_html(content: str, markup: str) -> str:
    source = f"{markup}{content}{_MATH_CLOSERS.get(markup, markup)}"
    return f'<code class="math-source">{escapeHtml(source)}</code>'


def _render_math_inline(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    title = isinstance(env, dict) and bool(env.get(_TITLE_ENV_KEY))
    display = token.type == "math_inline_double" and not title
    if not token.content.strip():  # "$ $" is not a formula
        markup = token.markup or "$"
        return escapeHtml(f"{markup}{token.content}{_MATH_CLOSERS.get(markup, markup)}")
    html = _math_to_mathml(token.content, display)
    return html if html is not None else _math_source_html(token.content, token.markup or "$")


def _render_math_block(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    html = _math_to_mathml(token.content, True)
    if html is None:
        html = _math_source_html(token.content.strip("\n"), "$$")
    return f'<div class="math-block">{html}</div>\n'


_MATHY = re.compile(r"[\\^_={}+<>|]")  # display math has a command or an operator; "\[in press\]" has none


def _delimited_math_rule(opener: str, closer: str, token_type: str,
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


_URLISH = re.compile(r"://|^www\.|^doi:|/", re.IGNORECASE)


def _literal_dashes(s: str, start: int, end: int) -> bool:
    """Whether the dashes at ``s[start:end]`` are not LaTeX dashes: inside a URL, DOI or path
    written as text ("https://x.org/a--b", "doi:10.1/a--b"), or a command-line option
    ("--verbose": at the start of a word, before a letter)."""
    word_start = max(s.rfind(" ", 0, start), s.rfind("\n", 0, start)) + 1
    if start == word_start and end < len(s) and s[end].isalpha():
        return True
    word_end = len(s)
    for stop in (" ", "\n"):
        k = s.find(stop, end)
        if k >= 0:
            word_end = min(word_end, k)
    return bool(_URLISH.search(s[word_start:word_end]))


_MATH_ENV = re.compile(r"\\begin\{(equation|align|alignat|gather|multline|eqnarray|displaymath|math)(\*?)\}")
_MATH_ENV_CLOSE = "papershelf_no_env_close"


def _math_env_rule(state: StateInline, silent: bool) -> bool:
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


# ---------------------------------------------------------------------------------------
# Math -> plain text
# ---------------------------------------------------------------------------------------

def _double_struck() -> dict[str, str]:
    table = {}
    for letter in "CHNPQRZ":  # the ones in the Basic Multilingual Plane
        table[letter] = unicodedata.lookup(f"DOUBLE-STRUCK CAPITAL {letter}")
    return table


_DOUBLE_STRUCK = str.maketrans(_double_struck())

_MATH_SYMBOL_OVERRIDES = {
    "cdot": "·", "cdotp": "·", "top": "⊤", "sim": "∼", "ast": "*", "colon": ":", "mid": "|",
    "vert": "|", "lvert": "|", "rvert": "|", "Vert": "‖", "lVert": "‖", "rVert": "‖",
    "lbrace": "{", "rbrace": "}", "setminus": "∖", "backslash": "\\", "ldots": "…",
    "dots": "…", "dotsc": "…", "cdots": "⋯", "prime": "′", "lt": "<", "gt": ">", "le": "≤",
    "ge": "≥", "leq": "≤", "geq": "≥", "neq": "≠", "ne": "≠", "to": "→", "gets": "←",
    "infty": "∞", "emptyset": "∅", "varnothing": "∅", "epsilon": "ε", "varepsilon": "ε",
    "phi": "φ", "varphi": "φ", "vartheta": "θ", "varrho": "ρ", "varsigma": "ς", "varpi": "π",
    "varkappa": "κ", "minus": "-", "lbrack": "[", "rbrack": "]", "langle": "⟨", "rangle": "⟩",
}
_MATH_FRACS = frozenset({"frac", "dfrac", "tfrac", "cfrac", "nicefrac", "sfrac"})
_MATH_BINOMS = frozenset({"binom", "dbinom", "tbinom"})
_MATH_KEEP_ARG = frozenset(
    "mathrm mathit mathbf mathsf mathtt mathcal mathscr mathfrak mathnormal boldsymbol bm pmb "
    "text textrm textit textbf textsf texttt textsc textup textnormal textmd emph mbox hbox "
    "operatorname mathop mathbin mathrel mathord mathpunct mathinner ensuremath underline "
    "boxed fbox framebox cancel bcancel xcancel sout displaylines smash mathclap mathllap "
    "mathrlap llap rlap overbrace underbrace".split()
)
_MATH_DOUBLE_STRUCK = frozenset({"mathbb", "mathds", "mathbbm", "Bbb", "mathbbb"})
_MATH_ACCENTS = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303",
    "bar": "\u0304", "overline": "\u0305", "vec": "\u20d7", "overrightarrow": "\u20d7",
    "dot": "\u0307", "ddot": "\u0308", "check": "\u030c", "breve": "\u0306",
    "acute": "\u0301", "grave": "\u0300", "mathring": "\u030a",
}
_MATH_DROP_ARG = frozenset(
    "label tag hspace vspace phantom hphantom vphantom color mkern kern hskip mspace".split()
)
_MATH_DROP_FIRST = frozenset({"textcolor", "colorbox", "href", "class", "style", "cssId", "fcolorbox"})
_MATH_DELIM_SIZERS = frozenset(
    "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr bigm Bigm "
    "biggm Biggm".split()
)
_MATH_IGNORE = frozenset(
    "displaystyle textstyle scriptstyle scriptscriptstyle bf rm it cal sf tt mit bold "
    "limits nolimits nonumber notag hline mathstrut strut allowbreak nobreak relax "
    "def newcommand renewcommand providecommand let DeclareMathOperator".split()
)
_MATH_SPACES = frozenset(
    "quad qquad enspace enskip thinspace medspace thickspace space nobreakspace".split()
)
_MATH_CONTROL = {
    "{": "{", "}": "}", "|": "‖", ",": " ", ":": " ", ";": " ", ">": " ", " ": " ", "!": "",
    "\\": " ", "\n": " ", "\t": " ",
}
_MATH_TOKEN = re.compile(r"\\(?:[A-Za-z]+\*?|[^A-Za-z]|$)|\s+|.", re.DOTALL)
_ATOMIC = re.compile(r"[-+]?[\w.′]+|.")
_POSTFIX_SCRIPTS = {"′": "′", "″": "″", "‴": "‴", "*": "*", "∗": "*", "⋆": "*", "†": "†",
                    "‡": "‡", "'": "′"}
_PAREN_SPACE_OPEN = re.compile(r"([(\[{])\s+")
_PAREN_SPACE_CLOSE = re.compile(r"\s+([)\]}])")
_SPACES = re.compile(r"\s+")


def _math_symbol(name: str) -> str | None:
    """The Unicode character for a symbol command such as ``alpha`` or ``times``, or None."""
    symbol = _MATH_SYMBOL_OVERRIDES.get(name)
    if symbol is not None:
        return symbol
    code = _L2M_SYMBOLS.get("\\" + name)
    if code is None:
        return None
    try:
        return chr(int(code, 16))
    except ValueError:
        return None


def _wrap(text: str) -> str:
    text = text.strip()
    return text if _ATOMIC.fullmatch(text) else f"({text})"


class _MathPlain:
    """A small, forgiving LaTeX math reader that writes linear plain text."""

    def __init__(self, latex: str):
        self.toks = _MATH_TOKEN.findall(latex)
        self.n = len(self.toks)
        self.i = 0

    def _skip_spaces(self) -> int:
        j = self.i
        while j < self.n and self.toks[j].isspace():
            j += 1
        return j

    def seq(self, stop: str | None = None) -> str:
        out: list[str] = []
        while self.i < self.n:
            tok = self.toks[self.i]
            self.i += 1
            if stop is not None and tok == stop:
                break
            if tok.isspace():
                out.append(" ")
            elif tok == "{":
                out.append(self.seq("}"))
            elif tok == "}":
                continue  # stray closing brace
            elif tok in ("^", "_"):
                out.append(self.script(tok))
            elif tok in ("&", "~"):
                out.append(" ")
            elif tok[0] == "\\":
                text = self.command(tok)
                if (len(text) > 1 and text[0].isascii() and text[0].isalpha() and out
                        and out[-1][-1:].isalnum()):
                    out.append(" ")
                out.append(text)
            else:
                out.append(tok)
        return "".join(out)

    def arg(self) -> str:
        j = self._skip_spaces()
        if j >= self.n:
            self.i = j
            return ""
        tok = self.toks[j]
        if tok in ("}", "]"):
            self.i = j
            return ""
        self.i = j + 1
        if tok == "{":
            return self.seq("}")
        if tok[0] == "\\":
            return self.command(tok)
        return tok

    def optional(self) -> str | None:
        j = self._skip_spaces()
        if j < self.n and self.toks[j] == "[":
            self.i = j + 1
            return self.seq("]")
        return None

    def script(self, kind: str) -> str:
        text = self.arg().strip()
        if not text:
            return ""
        if text in ("⊤", "⊺"):
            text = "T"
        if kind == "^" and text in _POSTFIX_SCRIPTS:
            return _POSTFIX_SCRIPTS[text]
        if _ATOMIC.fullmatch(text):
            return kind + text
        return f"{kind}({text})"

    def command(self, tok: str) -> str:
        name = tok[1:]
        if name.endswith("*") and len(name) > 1:
            name = name[:-1]
        if not name:
            return ""
        if len(name) == 1 and not name.isalpha():
            return _MATH_CONTROL.get(name, name)
        if name in _MATH_DELIM_SIZERS:
            j = self._skip_spaces()
            if j < self.n and self.toks[j] == ".":
                self.i = j + 1
            return ""
        if name in _MATH_IGNORE:
            return ""
        if name in _MATH_SPACES:
            return " "
        if name in ("negthinspace", "negmedspace", "negthickspace"):
            return ""
        if name in _MATH_FRACS:
            num, den = self.arg(), self.arg()
            return f"{_wrap(num)}/{_wrap(den)}"
        if name in _MATH_BINOMS:
            top, bottom = self.arg(), self.arg()
            return f"({top.strip()} choose {bottom.strip()})"
        if name in ("sqrt", "surd"):
            index = self.optional()
            body = _wrap(self.arg())
            index = index.strip() if index else ""
            prefix = {"": "√", "2": "√", "3": "∛", "4": "∜"}.get(index, f"{index}√")
            return prefix + body
        if name in _MATH_DOUBLE_STRUCK:
            return self.arg().translate(_DOUBLE_STRUCK)
        if name in _MATH_KEEP_ARG:
            return self.arg()
        if name in _MATH_ACCENTS:
            body = self.arg()
            if len(body) == 1:
                return unicodedata.normalize("NFC", body + _MATH_ACCENTS[name])
            return body
        if name in _MATH_DROP_ARG:
            self.arg()
            return ""
        if name in _MATH_DROP_FIRST:
            self.arg()
            return self.arg()
        if name in ("overset", "stackrel"):
            self.arg()
            return self.arg()
        if name == "underset":
            below = self.arg().strip()
            base = self.arg()
            return base + (("_" + _wrap(below)) if below else "")
        if name == "not":
            body = self.arg()
            if len(body) == 1:
                return unicodedata.normalize("NFC", body + "\u0338")
            return "¬" + body
        if name in ("begin", "end"):
            env = self.arg().strip()
            if name == "begin" and env in ("array", "tabular", "subarray"):
                self.arg()
            return " "
        if name in ("operatorname", "mathop"):
            return self.arg()
        symbol = _math_symbol(name)
        if symbol is not None:
            return " " if symbol.isspace() else symbol
        j = self._skip_spaces()
        if j < self.n and self.toks[j] == "{":
            return ""  # unknown command with an argument: keep the argument only
        if len(name) == 1:
            return name.translate(_DOUBLE_STRUCK)  # \R, \N, \Z: the usual macros for sets
        return name


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _math_plain(latex: str) -> str:
    try:
        text = _MathPlain(latex).seq()
    except Exception:  # e.g. RecursionError on absurdly nested braces
        text = re.sub(r"\\([A-Za-z]+)", r"\1", latex)
        text = re.sub(r"[{}]", "", text)
    text = unicodedata.normalize("NFC", text)
    text = _SPACES.sub(" ", text).strip()
    text = _PAREN_SPACE_OPEN.sub(r"\1", text)
    return _PAREN_SPACE_CLOSE.sub(r"\1", text)


# ---------------------------------------------------------------------------------------
# Text-mode LaTeX on markdown-it inline tokens
# ---------------------------------------------------------------------------------------

_TEXT_SPECIAL = re.compile(r"\\(?:[A-Za-z]+\*?|.)?|[{}~]|(?<!`)``?(?!`)|''|(?<![<!-])---?(?![->])", re.DOTALL)
# A bare URL typed with LaTeX escapes (https://github.com/a\_b): the backslash is not meant.
_LATEX_URL_ESCAPE = re.compile(r"%5C(?=[_%#&~$])", re.IGNORECASE)
_BRACES = re.compile(r"\\.|[{}]", re.DOTALL)
_ARG_START = re.compile(r"[ \t]*\{")
_OPT_ARG_START = re.compile(r"[ \t]*(?:\[[^\]\n]*\][ \t]*)*\{")
_CITE_ARGS = re.compile(r"[ \t]*(?:\[([^\]\n]*)\][ \t]*)?(?:\[([^\]\n]*)\][ \t]*)?\{")
_ENV_ARG = re.compile(r"[ \t]*\{[^{}\n]*\}")
_SPACES_AFTER = re.compile(r"[ \t]*")
_LETTER_ACCENT_ARG = re.compile(
    r"[ \t]*\{[ \t]*(\\[ij](?![A-Za-z])|[A-Za-z])[ \t]*\}|[ \t]+([A-Za-z])"
)
_SYMBOL_ACCENT_ARG = re.compile(
    r"\{[ \t]*(\\[ij](?![A-Za-z])|[A-Za-z])[ \t]*\}|(\\[ij](?![A-Za-z])|[A-Za-z])"
)
_UNESCAPE_COLLECTED = re.compile(r"\\([^A-Za-z])")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

_ARG_TAGS: dict[str, str] = {
    "emph": "em", "textit": "em", "textsl": "em", "mathit": "em",
    "textbf": "strong", "mathbf": "strong", "boldsymbol": "strong", "bm": "strong",
    "texttt": "code", "mathtt": "code",
    "textsuperscript": "sup", "textsubscript": "sub",
    "underline": "u", "uline": "u",
}
_SWITCH_TAGS = {
    "bf": "strong", "bfseries": "strong", "it": "em", "em": "em", "itshape": "em", "sl": "em",
    "slshape": "em", "tt": "code", "ttfamily": "code",
}
_SILENT = frozenset(
    "rm sf sc scshape normalfont upshape mdseries rmfamily sffamily small large Large LARGE huge "
    "Huge tiny scriptsize footnotesize normalsize noindent indent centering raggedright "
    "raggedleft hfill vfill bigskip medskip smallskip maketitle relax protect xspace null "
    "nobreak clearpage newpage selectfont displaystyle textstyle scriptstyle ignorespaces "
    "unskip phantomsection frenchspacing sloppy fussy leavevmode hline toprule midrule "
    "bottomrule appendix tableofcontents nolinebreak allowbreak footnotemark".split()
)
_BREAKS = frozenset({"par", "newline", "linebreak", "break", "cr", "vskip", "smallbreak"})
_DROP_ARG = frozenset(
    "label nocite vspace hspace index bibliographystyle bibliography thanks pagestyle "
    "thispagestyle input include includegraphics usepackage documentclass color textcolor "
    "colorbox fcolorbox pagecolor hypersetup phantom hphantom vphantom keywords "
    "addcontentsline markboth markright".split()
)
_DROP_TWO_ARGS = frozenset(
    "newcommand renewcommand providecommand setlength addtolength setcounter addtocounter "
    "DeclareMathOperator newenvironment".split()
)
_WRAP_ARG = {"footnote": (" (", ")")}
_CITE_COMMANDS = frozenset(
    "cite citep citet citealp citealt citeauthor citeyear citeyearpar parencite textcite "
    "autocite autocites footcite fullcite smartcite supercite Cite Citep Citet Parencite "
    "Textcite Autocite citenum".split()
)
_TEXT_SYMBOLS = {
    "LaTeX": "LaTeX", "LaTeXe": "LaTeX2ε", "TeX": "TeX", "BibTeX": "BibTeX", "ldots": "…",
    "dots": "…", "textellipsis": "…", "textendash": "–", "textemdash": "—",
    "textasciitilde": "~", "textasciicircum": "^", "textbackslash": "\\", "textbar": "|",
    "textless": "<", "textgreater": ">", "textbullet": "•", "textperiodcentered": "·",
    "textdegree": "°", "degree": "°", "textregistered": "®", "texttrademark": "™",
    "copyright": "©", "textcopyright": "©", "S": "§", "P": "¶", "dag": "†", "ddag": "‡",
    "pounds": "£", "textsterling": "£", "euro": "€", "texteuro": "€", "textyen": "¥",
    "textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“",
    "textquotedblright": "”", "textquotedbl": '"', "guillemotleft": "«", "guillemotright": "»",
    "textunderscore": "_", "textdollar": "$", "textdagger": "†", "checkmark": "✓",
    "i": "ı", "j": "ȷ", "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "o": "ø",
    "O": "Ø", "aa": "å", "AA": "Å", "l": "ł", "L": "Ł", "item": "•",
    "eg": "e.g.", "Eg": "E.g.", "ie": "i.e.", "Ie": "I.e.", "cf": "cf.", "Cf": "Cf.",
    "etc": "etc.", "vs": "vs.", "wrt": "w.r.t.", "dof": "d.o.f.", "etal": "et al.",
}
_LETTER_ACCENTS = {
    "H": "\u030b", "c": "\u0327", "k": "\u0328", "v": "\u030c", "u": "\u0306", "r": "\u030a",
    "d": "\u0323", "b": "\u0331",
}
_SYMBOL_ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307",
}
_MAX_GROUPS = 32  # nested LaTeX groups that still produce tags
_LATEX_GROUPS = frozenset({"brace", "arg", "drop"})  # _Entry kinds inside which "{" is a group
_GROUP_START = re.compile(r"[ \t]*\\(?:[A-Za-z]|['`^\"~=.])")  # {\bf x}, {\em x}, {\"o}
_TEMPLATE_CLOSERS = {"{": "}}", "%": "%}", "#": "#}"}  # {{ x }}, {% x %}, {# x #}
_TEXT_QUOTES = {"``": "\u201c", "`": "\u2018", "''": "\u201d"}
_CONTROL_SYMBOLS = {"\\": " ", " ": " ", "\t": " ", "\n": " ", ",": "\u202f", ";": " ",
                    ":": " ", ">": " ", "@": "", "{": "{", "}": "}"}


def _compose(base: str, mark: str, strict: bool = False) -> str | None:
    """``base`` with the combining ``mark``.

    With ``strict`` (an accent written without braces, such as ``\\"o``), None unless the
    result is one of the common Latin letters (U+00C0-U+024F), so that ``\\"hello\\"`` keeps
    its quotes.
    """
    if base in ("\\i", "ı"):
        base = "i"
    elif base in ("\\j", "ȷ"):
        base = "j"
    composed = unicodedata.normalize("NFC", base + mark)
    if strict and not (len(composed) == 1 and "\u00c0" <= composed <= "\u024f"):
        return None
    return composed


def _text_token(content: str) -> Token:
    return Token("text", "", 0, content=content)


def _protect_literal(char: str) -> str:
    """An entity's character, written so that the LaTeX scanner shows it as itself."""
    if char == "\\":
        return "\\textbackslash{}"
    if char == "~":
        return "\\textasciitilde{}"
    if char in "{}":
        return "\\" + char
    return char


class _Entry:
    """An open group: ``{...}``, a command argument, a dropped argument, a switch."""

    __slots__ = ("kind", "depth", "closers", "placeholder", "more_drops", "link")

    def __init__(self, kind: str, depth: int, placeholder: Token | None = None):
        self.kind = kind  # "brace" | "literal" | "arg" | "drop" | "switch"
        self.depth = depth
        self.closers: list[Token] = []
        self.placeholder = placeholder
        self.more_drops = 0
        self.link = False


class _Collect:
    """Raw argument text being gathered for ``\\url``, ``\\href`` or ``\\cite``."""

    __slots__ = ("kind", "buf", "level", "inner", "notes")

    def __init__(self, kind: str, notes: tuple[str | None, str | None] = (None, None)):
        self.kind = kind
        self.buf: list[str] = []
        self.level = 0
        self.inner = 0
        self.notes = notes


class _InlineLatex:
    """Rewrites one inline token list: text-mode LaTeX to tokens, unsafe links to text."""

    def __init__(self, title: bool):
        self.title = title
        self.out: list[Token | str] = []  # text as str; "text" tokens are placeholders
        self.stack: list[_Entry] = []
        self.depth = 0
        self.suppress = 0
        self.raw = 0
        self.links: list[tuple[bool, bool]] = []
        self.in_link = 0
        self.collect: _Collect | None = None
        self.auto_text: str | None = None  # display text of a cleaned bare URL
        self.auto_href: str | None = None  # its target, which is what \url{...} collects
        self.latex_groups = 0  # open entries that are LaTeX groups (_LATEX_GROUPS)
        self.arg_at = -1  # where a "{" would be a command's argument, in the text being scanned
        self.no_closer: dict[str, int] = {}  # template closers absent after a position in it

    # -- driver ---------------------------------------------------------------------------

    def run(self, children: list[Token]) -> list[Token]:
        i, n = 0, len(children)
        while i < n:
            token = children[i]
            if token.type in ("text", "text_special"):
                j = i
                while j < n and children[j].type in ("text", "text_special"):
                    j += 1
                self.feed_text(children[i:j])
                i = j
                continue
            if token.nesting == 1:
                self.open_token(token)
            elif token.nesting == -1:
                self.close_token(token)
            else:
                self.leaf_token(token)
            i += 1
        if self.collect is not None:
            self.abort_collect()
        while self.stack:
            self.close_entry(self.pop_entry())
        return self.merged()

    def merged(self) -> list[Token]:
        """The output as tokens, each run of text joined into one text token (linear time)."""
        result: list[Token] = []
        run: list[str] = []
        for token in self.out:
            if isinstance(token, str):
                run.append(token)
                continue
            if token.type == "text":
                if token.content:
                    run.append(token.content)
                continue
            if run:
                result.append(_text_token("".join(run)))
                run = []
            result.append(token)
        if run:
            result.append(_text_token("".join(run)))
        return result

    # -- output ---------------------------------------------------------------------------

    def push(self, token: Token) -> None:
        if not self.suppress:
            self.out.append(token)

    def emit_text(self, text: str) -> None:
        if text and not self.suppress:
            self.out.append(text)

    def last_char(self) -> str:
        for token in reversed(self.out):
            if isinstance(token, str):
                return token[-1]
            if token.type == "text":
                if token.content:
                    return token.content[-1]
                continue
            return "x"  # after math, code, a tag...: not a space
        return " "

    def href_for(self, url: str) -> str | None:
        if self.title or self.in_link:
            return None
        url = url.strip()
        if not url or _URL_CTRL.search(url):
            return None
        return _check_href(_MD.normalizeLink(url))

    def emit_link(self, url: str) -> None:
        text = url.strip()
        href = self.href_for(text)
        if href is None:
            self.emit_text(text)
            return
        self.push(Token("link_open", "a", 1, attrs=_link_attrs(href)))
        self.emit_text(text)
        self.push(Token("link_close", "a", -1))

    def emit_cite(self, raw: str, notes: tuple[str | None, str | None]) -> None:
        keys = [key.strip() for key in raw.split(",") if key.strip()]
        if not keys:
            return
        first, second = (note.strip() if note else "" for note in notes)
        if notes[1] is not None:  # \cite[pre][post]{keys}
            pre, post = first, second
        else:
            pre, post = "", first
        body = ", ".join(keys)
        if pre:
            body = f"{pre} {body}"
        if post:
            body = f"{body}, {post}"
        body = body.replace("~", "\u00a0")
        self.push(Token("cite_open", "cite", 1, attrs={"class": "latex-cite"}))
        self.emit_text(f"[{body}]")
        self.push(Token("cite_close", "cite", -1))

    # -- groups ---------------------------------------------------------------------------

    def open_entry(self, entry: _Entry) -> None:
        self.stack.append(entry)
        if entry.kind in _LATEX_GROUPS:
            self.latex_groups += 1

    def pop_entry(self) -> _Entry:
        entry = self.stack.pop()
        if entry.kind in _LATEX_GROUPS:
            self.latex_groups -= 1
        return entry

    def close_entry(self, entry: _Entry) -> None:
        for token in reversed(entry.closers):
            self.push(token)  # inside a dropped argument these were suppressed, as were openers
        if entry.kind == "drop":
            self.suppress -= 1
        if entry.link:
            self.in_link -= 1

    def open_arg(self, opener: list[Token], closers: list[Token]) -> None:
        entry = _Entry("arg", self.depth)
        if len(self.stack) < _MAX_GROUPS:  # beyond that, keep the text and skip the tags
            for token in opener:
                self.push(token)
            entry.closers = closers
        self.open_entry(entry)

    def open_drop(self, more: int = 0) -> None:
        entry = _Entry("drop", self.depth)
        entry.more_drops = more
        self.open_entry(entry)
        self.suppress += 1

    def switch(self, tag: str) -> None:
        if len(self.stack) >= _MAX_GROUPS:
            return
        if self.stack and self.stack[-1].depth == self.depth:
            target = self.stack[-1]
        else:
            target = _Entry("switch", self.depth)
            self.open_entry(target)
        self.push(Token(f"{tag}_open", tag, 1))
        target.closers.append(Token(f"{tag}_close", tag, -1))

    def open_brace(self, s: str, start: int, end: int) -> int:
        """A ``{``: a template tag verbatim, a LaTeX group, or a brace that is text.

        LaTeX groups are a command's arguments (``\\foo{x}{y}``, ``\\LaTeX{}``), groups
        that start with a command (``{\\bf x}``, ``{\\"o}``) and every group inside those.
        Other braces are text, as Markdown has it: ``{a, b}``, ``{"key": 1}``. Text that
        looks like a template tag (``{{ x }}``, ``{% x %}``, ``{# x #}``) is shown as typed.
        """
        closer = _TEMPLATE_CLOSERS.get(s[end : end + 1])
        if closer is not None:
            stop = self.find_closer(s, end + 1, closer)
            if stop >= 0:
                self.emit_text(s[start:stop])
                self.arg_at = -1
                return stop
        if start == self.arg_at or self.latex_groups or _GROUP_START.match(s, end):
            placeholder = _text_token("{")
            self.push(placeholder)
            self.open_entry(_Entry("brace", self.depth, placeholder))
        else:
            self.emit_text("{")
            self.open_entry(_Entry("literal", self.depth))
        return end

    def find_closer(self, s: str, pos: int, closer: str) -> int:
        """The end of the first ``closer`` in ``s`` from ``pos``, or -1 (linear over a text)."""
        if pos >= self.no_closer.get(closer, len(s) + 1):
            return -1
        found = s.find(closer, pos)
        if found < 0:
            self.no_closer[closer] = pos
            return -1
        return found + len(closer)

    def close_brace(self, s: str, end: int) -> int:
        index = None
        for k in range(len(self.stack) - 1, -1, -1):
            entry = self.stack[k]
            if entry.depth != self.depth:
                break
            if entry.kind != "switch":
                index = k
                break
        if index is None:
            self.emit_text("}")
            self.arg_at = -1
            return end
        while len(self.stack) > index + 1:
            self.close_entry(self.pop_entry())
        entry = self.pop_entry()
        self.close_entry(entry)
        if entry.kind == "literal":
            self.emit_text("}")
            self.arg_at = -1
            return end
        if entry.placeholder is not None:
            entry.placeholder.content = ""
        self.arg_at = end  # "\\foo{a}{b}": a group right after a group is the next argument
        if entry.kind == "drop" and entry.more_drops:
            match = _ARG_START.match(s, end)
            if match:
                self.open_drop(entry.more_drops - 1)
                return match.end()
        return end

    # -- collecting raw arguments ------------------------------------------------------

    def start_collect(self, kind: str, notes: tuple[str | None, str | None] = (None, None)) -> None:
        self.collect = _Collect(kind, notes)

    def collect_text(self, s: str, pos: int) -> int:
        c = self.collect
        assert c is not None
        for match in _BRACES.finditer(s, pos):
            char = match.group()
            if char == "{":
                c.level += 1
            elif char == "}":
                if c.level == 0 and c.inner == 0:
                    c.buf.append(s[pos : match.start()])
                    self.collect = None
                    return self.finish_collect(c, s, match.end())
                elif c.level > 0:
                    c.level -= 1
        c.buf.append(s[pos:])
        return len(s)

    def finish_collect(self, c: _Collect, s: str, pos: int) -> int:
        raw = _UNESCAPE_COLLECTED.sub(r"\1", "".join(c.buf))
        if c.kind == "cite":
            self.emit_cite(raw, c.notes)
            return pos
        if c.kind == "url":
            self.emit_link(raw)
            return pos
        # \href{url}{text}
        match = _ARG_START.match(s, pos)
        if match is None:
            self.emit_link(raw)
            return pos
        href = self.href_for(raw)
        entry = _Entry("arg", self.depth)
        if href is not None:
            self.push(Token("link_open", "a", 1, attrs=_link_attrs(href)))
            entry.closers = [Token("link_close", "a", -1)]
            entry.link = True
            self.in_link += 1
        self.open_entry(entry)
        return match.end()

    def abort_collect(self) -> None:
        c = self.collect
        self.collect = None
        if c is not None:
            self.emit_text(_UNESCAPE_COLLECTED.sub(r"\1", "".join(c.buf)))

    # -- tokens -------------------------------------------------------------------------

    def feed_text(self, tokens: list[Token]) -> None:
        if self.raw:  # the text of a bare URL: verbatim
            content = "".join(t.content for t in tokens)
            if self.collect is not None:
                self.collect_text(self.auto_href if self.auto_href is not None else content, 0)
            else:
                self.emit_text(self.auto_text if self.auto_text is not None else content)
            self.auto_text = self.auto_href = None
            return
        pieces = []
        for token in tokens:
            if token.type == "text":
                pieces.append(token.content)
            elif token.info == "escape":
                pieces.append(token.markup)
            else:  # an entity: literal
                pieces.append("".join(_protect_literal(ch) for ch in token.content))
        self.scan("".join(pieces))

    def open_token(self, token: Token) -> None:
        keep = True
        if self.collect is not None:
            self.collect.inner += 1
            self.collect.buf.append(token.markup if token.type in ("em_open", "strong_open") else "")
            keep = False
        if token.type == "link_open":
            auto = token.markup in ("linkify", "autolink")
            if token.markup == "linkify":
                href = str(token.attrGet("href") or "")
                cleaned = _LATEX_URL_ESCAPE.sub("", href)
                self.auto_href = cleaned
                if cleaned != href:
                    token.attrSet("href", cleaned)
                    self.auto_text = _MD.normalizeLinkText(cleaned)
            if keep:
                href = None
                if not (self.title or self.in_link):
                    href = _check_href(str(token.attrGet("href") or ""))
                if href is None:
                    keep = False
                else:
                    title = token.attrGet("title")
                    token.attrs = _link_attrs(href, str(title) if title else None)
            self.links.append((keep, auto))
            if auto:
                self.raw += 1
            if keep:
                self.in_link += 1
        if keep:
            self.push(token)
        self.depth += 1

    def close_token(self, token: Token) -> None:
        swallow = False
        c = self.collect
        if c is not None:
            if c.inner > 0:
                c.inner -= 1
                c.buf.append(token.markup if token.type in ("em_close", "strong_close") else "")
                swallow = True
            else:
                self.abort_collect()
        if not swallow:
            while self.stack and self.stack[-1].depth >= self.depth:
                self.close_entry(self.pop_entry())
        keep = not swallow
        if token.type == "link_close":
            kept, auto = self.links.pop() if self.links else (False, False)
            if auto:
                self.raw -= 1
            if kept:
                self.in_link -= 1
            keep = keep and kept
        if keep:
            self.push(token)
        self.depth -= 1

    def leaf_token(self, token: Token) -> None:
        kind = token.type
        if self.collect is not None:
            if kind.startswith("math"):
                closer = _MATH_CLOSERS.get(token.markup, token.markup)
                self.collect.buf.append(f"{token.markup}{token.content}{closer}")
            elif kind in ("softbreak", "hardbreak"):
                self.collect.buf.append(" ")
            elif kind == "image":
                self.collect.buf.append(_image_alt(token))
            else:
                self.collect.buf.append(token.content)
            return
        if kind in ("softbreak", "hardbreak") and self.title:
            self.emit_text(" ")
        elif kind == "image":
            self.emit_text(_image_alt(token))
        elif kind in ("html_inline", "html_block"):
            self.emit_text(token.content)
        else:
            self.push(token)

    # -- the LaTeX scanner ----------------------------------------------------------------

    def scan(self, s: str) -> None:
        pos, n = 0, len(s)
        self.arg_at = -1
        self.no_closer = {}
        while pos < n:
            if self.collect is not None:
                pos = self.collect_text(s, pos)
                continue
            match = _TEXT_SPECIAL.search(s, pos)
            if match is None:
                self.emit_text(s[pos:])
                return
            if match.start() > pos:
                self.emit_text(s[pos : match.start()])
            pos = self.handle(s, match)

    def handle(self, s: str, match: re.Match[str]) -> int:
        tok, end = match.group(), match.end()
        if tok == "{":
            return self.open_brace(s, match.start(), end)
        if tok == "}":
            return self.close_brace(s, end)
        if tok in _TEXT_QUOTES:  # LaTeX quotes that Markdown left alone
            self.emit_text(_TEXT_QUOTES[tok])
            return end
        if tok[0] == "-":  # LaTeX's en and em dashes: "pages 3--5", "this---and that"
            self.emit_text(tok if _literal_dashes(s, match.start(), end) else "\u2014" if tok == "---" else "\u2013")
            return end
        if tok == "~":
            before = s[match.start() - 1] if match.start() > 0 else self.last_char()
            after = s[end] if end < len(s) else "x"
            tie = not before.isspace() and not after.isspace() and before not in "/:="
            self.emit_text("\u00a0" if tie else "~")
            return end
        if len(tok) == 1:  # a lone backslash at the end of the text
            self.emit_text("\\")
            return end
        if tok[1] in _ASCII_LETTERS:
            name = tok[1:]
            if name.endswith("*"):
                name = name[:-1]
            pos = self.command(name, s, end)
            self.arg_at = _SPACES_AFTER.match(s, pos).end()  # type: ignore[union-attr]
            return pos
        return self.control_symbol(tok[1], s, match.start(), end)

    def control_symbol(self, char: str, s: str, start: int, end: int) -> int:
        if char in _SYMBOL_ACCENTS:
            # \'e, \"{o}, \^{\i}: only when the result is one accented letter, so that
            # a Markdown escape such as \"quoted\" keeps its quote.
            accent = _SYMBOL_ACCENT_ARG.match(s, end)
            composed = None
            if accent:
                composed = _compose(accent.group(1) or accent.group(2), _SYMBOL_ACCENTS[char],
                                    strict=accent.group(1) is None)
            if composed is not None:
                self.emit_text(composed)
                return accent.end()  # type: ignore[union-attr]
            self.emit_text(char)
            return end
        if char == "-":  # discretionary hyphen inside a word, otherwise an escaped "-"
            inside = start > 0 and s[start - 1].isalpha() and end < len(s) and s[end].isalpha()
            self.emit_text("" if inside else "-")
            return end
        if char == "/":  # italic correction after a letter, otherwise an escaped "/"
            self.emit_text("" if start > 0 and s[start - 1].isalpha() else "/")
            return end
        self.emit_text(_CONTROL_SYMBOLS.get(char, char))
        return end

    def command(self, name: str, s: str, end: int) -> int:
        if name in _SWITCH_TAGS:
            self.switch(_SWITCH_TAGS[name])
            return _SPACES_AFTER.match(s, end).end()  # type: ignore[union-attr]
        if name in _SILENT:
            return _SPACES_AFTER.match(s, end).end()  # type: ignore[union-attr]
        if name in _BREAKS:
            self.emit_text(" ")
            return _SPACES_AFTER.match(s, end).end()  # type: ignore[union-attr]
        if name in _ARG_TAGS:
            match = _ARG_START.match(s, end)
            if match is None:
                return end
            tag = _ARG_TAGS[name]
            self.open_arg([Token(f"{tag}_open", tag, 1)], [Token(f"{tag}_close", tag, -1)])
            return match.end()
        if name in _WRAP_ARG:
            match = _OPT_ARG_START.match(s, end)
            if match is None:
                return end
            before, after = _WRAP_ARG[name]
            self.open_arg([_text_token(before)], [_text_token(after)])
            return match.end()
        if name in _DROP_ARG or name in _DROP_TWO_ARGS:
            match = _OPT_ARG_START.match(s, end)
            if match is None:
                return end
            self.open_drop(1 if name in _DROP_TWO_ARGS else 0)
            return match.end()
        if name in ("url", "href"):
            match = _ARG_START.match(s, end)
            if match is None:
                return end
            self.start_collect(name)
            return match.end()
        if name in _CITE_COMMANDS:
            match = _CITE_ARGS.match(s, end)
            if match is None:
                return end
            self.start_collect("cite", (match.group(1), match.group(2)))
            return match.end()
        if name in ("begin", "end"):
            match = _ENV_ARG.match(s, end)
            return match.end() if match else end
        if name in _LETTER_ACCENTS:
            match = _LETTER_ACCENT_ARG.match(s, end)
            if match:
                base = match.group(1) or match.group(2)
                self.emit_text(_compose(base, _LETTER_ACCENTS[name]) or base)
                return match.end()
            if name not in _TEXT_SYMBOLS:
                return end
        if name in _TEXT_SYMBOLS:
            self.emit_text(_TEXT_SYMBOLS[name])
            return end
        symbol = _math_symbol(name)
        if symbol is not None:
            self.emit_text(" " if symbol.isspace() else symbol)
            return end
        if _ARG_START.match(s, end):
            return end  # unknown command with an argument: keep the argument, drop the name
        self.emit_text(name)
        return end


def _image_alt(token: Token) -> str:
    if token.children:
        return "".join(
            child.content for child in token.children if child.type in ("text", "text_special", "code_inline")
        )
    return token.content


def _latex_core_rule(state: StateCore) -> None:
    env = state.env
    title = bool(env.get(_TITLE_ENV_KEY)) if isinstance(env, dict) else False
    for token in state.tokens:
        if token.type == "inline" and token.children is not None:
            token.children = _InlineLatex(title).run(token.children)


# ---------------------------------------------------------------------------------------
# The Markdown parser (built once)
# ---------------------------------------------------------------------------------------

def _email_linkify_rule(state: StateCore) -> None:
    """The core linkify pass, only where it can find something.

    Scheme URLs (``https://...``) are found by the inline linkify rule while parsing; with
    fuzzy links off, the core pass only adds e-mail addresses, and its pretest is costly.
    """
    if any(token.type == "inline" and "@" in token.content for token in state.tokens):
        _core_linkify(state)


_MAX_NESTING = 20  # markdown-it's guard against deep recursion (see _parse_block)


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
    # Every link target is checked (and unsafe ones turned into text) by _latex_core_rule;
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
    md.core.ruler.at("linkify", _email_linkify_rule)
    md.inline.ruler.before("escape", "math_paren", _delimited_math_rule("\\(", "\\)", "math_inline"))
    md.inline.ruler.before("escape", "math_bracket", _delimited_math_rule("\\[", "\\]", "math_inline_double",
                                                                        only_mathy=True))
    md.inline.ruler.before("escape", "math_env", _math_env_rule)
    md.core.ruler.push("papershelf_latex", _latex_core_rule)
    md.add_render_rule("math_inline", _render_math_inline)
    md.add_render_rule("math_inline_double", _render_math_inline)
    md.add_render_rule("math_block", _render_math_block)
    md.add_render_rule("math_block_label", _render_math_block)
    return md


_MD = _build_markdown()


# ---------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=256)
def _parse_block(source: str) -> tuple[Token, ...]:
    """Tokens of a Markdown document, shared by ``render_abstract`` and ``plain_text``.

    A build usually asks for the HTML and the plain text of the same abstract one after the
    other; the tokens are only read afterwards (rendering does not change them).

    Blocks nested deeper than markdown-it goes (``maxNesting``: quotes in quotes, lists in
    lists) would lose their text, so such a top-level block is shown as its source instead,
    in plain paragraphs (inline Markdown, LaTeX and math still apply).
    """
    tokens = _MD.parse(source, {})
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
        inline = _MD.parseInline("\n".join(paragraph), {})[0]
        inline.level, inline.block, inline.map = 1, True, lines_map
        tokens += [
            Token("paragraph_open", "p", 1, map=lines_map, level=0, block=True),
            inline,
            Token("paragraph_close", "p", -1, level=0, block=True),
        ]
        paragraph = []
    return tokens


# The fast path. "Simple" text means nothing to Markdown, LaTeX or linkify: it has none of
# the characters an inline rule, the LaTeX scanner or ``_clean``'s quotes act on, no "''",
# no "://" (a bare URL), no white space but " " and "\n", no space at the end of a line,
# and no line that starts with a space, a digit, "-", "+", "#" or "=" (an indented code
# block, a list, a heading or a setext underline; every other block needs one of the
# excluded characters; "--" is a dash). Such text parses to paragraphs (split at blank lines) of one text
# token per line, joined by soft breaks: its HTML is those paragraphs escaped and its plain
# text the text itself, with single spaces. Most titles and many abstracts are simple, and
# markdown-it is the slowest part of rendering them; ``tests/test_text.py`` checks that the
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


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _render_abstract(source: str) -> str:
    if _is_simple(source):
        return "".join(f"<p>{escapeHtml(paragraph)}</p>\n"
                       for paragraph in _PARAGRAPH_BREAKS.split(source.strip("\n")))
    return _render_abstract_parsed(source)


def _render_abstract_parsed(source: str) -> str:
    return _MD.renderer.render(list(_parse_block(source)), _MD.options, {})


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _render_title(source: str) -> str:
    source = source.strip()
    if "\n" not in source and _is_simple(source):
        return escapeHtml(source).strip()
    return _render_title_parsed(source)


def _render_title_parsed(source: str) -> str:
    env: dict[str, Any] = {_TITLE_ENV_KEY: True}
    tokens = _MD.parseInline(source.strip(), env)
    return _MD.renderer.render(tokens, _MD.options, env).strip()  # env: display math inline


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
            parts.append(_math_plain(child.content) if child.content.strip() else child.markup)
        elif kind in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif kind == "image":
            parts.append(_image_alt(child))


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _plain_text(source: str) -> str:
    if _is_simple(source):
        return _tidy_plain(source)
    return _plain_text_parsed(source)


def _plain_text_parsed(source: str) -> str:
    parts: list[str] = []
    for token in _parse_block(source):
        kind = token.type
        if kind == "inline":
            _plain_inline(token.children or [], parts)
        elif kind in ("fence", "code_block"):
            parts.append(f" {token.content} ")
        elif kind.startswith("math_block"):
            parts.append(f" {_math_plain(token.content)} ")
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


def render_abstract(source: str) -> str:
    """Block HTML for an abstract or description written in Markdown with LaTeX."""
    try:
        return _render_abstract(_clean(source))
    except Exception:  # pragma: no cover - a last resort: never break a build on text
        return f"<p>{escapeHtml(_clean(source))}</p>\n"


def render_title(source: str) -> str:
    """Inline HTML for a title: math as MathML, emphasis kept, no links, no ``<p>``."""
    try:
        return _render_title(_clean(source))
    except Exception:  # pragma: no cover
        return escapeHtml(_clean(source))


def plain_text(source: str) -> str:
    """Readable plain text of a title or abstract (math as linear text, no markup)."""
    try:
        return _plain_text(_clean(source))
    except Exception:  # pragma: no cover
        return _tidy_plain(_clean(source))


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
