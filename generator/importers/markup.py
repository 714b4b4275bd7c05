"""Bibliographic rich text to content text (Markdown with LaTeX, as titles and abstracts are
written): ``rich_text_to_content`` for CSL-JSON titles (citeproc-js's HTML-like tags) and
Crossref's JATS abstracts, ``plain_to_content`` for text without tags. Any importer whose
source gives such text (CSL-JSON, arXiv, OpenReview) can use them.

* Formatting: ``<i>``/``<em>``/``<jats:italic>`` → ``\\emph{…}``, ``<b>``/``<strong>``/
  ``<jats:bold>`` → ``\\textbf{…}``, ``<sup>``/``<sub>`` → ``\\textsuperscript{…}``/
  ``\\textsubscript{…}`` (LaTeX commands, which the site renders and BibTeX exports as they
  are). ``<span>`` (``class="nocase"``, small caps), ``<sc>``, ``<u>``, ``<tt>`` … keep only
  their text. A format inside the same format adds nothing (no ``\\emph`` in ``\\emph``).
* Tags are recognised by name only: the ones above, those of JATS and MathML (any tag with
  a namespace prefix, ``<jats:…>``, ``<mml:…>``), and in abstracts the block tags (``p``,
  ``sec``, ``list-item``, ``br`` …; in a title ``<p>`` is text, ``<jats:p>`` a space). Any
  other tag is text, shown as typed, as citeproc-js does: ``<script>alert(1)</script>`` in
  a title is those characters, never markup. Closing tags without their opening tag are
  dropped (an unclosed tag ends with the text); nesting deeper than ``MAX_DEPTH`` elements
  is flattened.
* Entities (``&amp;``, ``&lt;``, ``&#233;``) are decoded; control characters are dropped,
  lone surrogates become U+FFFD; whitespace is collapsed.
* Paragraphs (abstracts only): block tags separate paragraphs; text without block tags is
  split at blank lines, and at single line breaks that end a sentence (``.``, ``!``, ``?``,
  ``:``; a line broken mid-sentence is a wrapped line). A JATS ``<title>`` "Abstract" is
  dropped; other section titles become a bold paragraph. Titles are one line.
* Math: ``$…$`` and ``$$…$$`` in the text are kept as formulas, as the renderer reads them
  (no digit before the opening or after the closing ``$``), with no space just inside the
  dollars (Pandoc's rule: "costs $5 or $ 6" is no formula) and within a paragraph (a formula
  broken over lines is joined); other ``$`` are escaped. ``<jats:tex-math>`` is a formula (its ``\\begin{document}`` body, without its
  own delimiters), an ``<mml:math>`` is one too: its ``alttext`` or TeX annotation, else its
  MathML converted (``msup``, ``msub``, ``mfrac``, ``msqrt`` …); it is written ``$…$``, or
  ``\\(…\\)`` next to a digit (where ``$`` would be read as currency). Display formulas
  (``<jats:disp-formula>``) in abstracts are ``$$…$$`` paragraphs.
* LaTeX (``rich_text_to_content``; ``plain_to_content`` with ``latex=True``): text that
  holds text-mode LaTeX (``speaks_latex``: a command, a control symbol, braces protecting
  capitals) keeps it for the site's text layer to render, as the seeds' and BibTeX's text:
  ``\\emph{…}``, ``\\cite{…}``, ``\\url{…}`` (its URL as written), ``95\\%``, ``R\\'enyi``,
  ``{\\bf x}``, ties (``Fig.~3``) and LaTeX quotes (````x''`` → “x”); braces that only
  protect capitals (``{BERT}``, ``{W}izard``) are dropped; other braces, a lone backslash
  and Markdown's characters are escaped as below. A formula next to a digit is one when it
  starts with a command or a script (``2$\\times$``), as the renderer reads it.
* Everything else shows as typed: the characters that mean something in Markdown or LaTeX
  are escaped (``\\ { } $ * _ ` ~ ]``, ``<`` before a non-space, ``&`` before an entity,
  ``''`` which LaTeX prints as a quote, and ``#``, ``-``, ``+``, ``>``, ``1.`` where a
  paragraph starts). A bare ``http(s)://`` URL is kept as it is (a link in an abstract)
  when the renderer would link exactly it: plain URL characters, and a space or closing
  punctuation after it; another is text, its ``://`` written ``:/\\/`` so that it is no link.
  ``--`` and ``---`` are left alone: the site prints them as en and em dashes, as LaTeX does.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Union

from ..content.characters import FORBIDDEN_IN_TEXT
from ..text.hygiene import typographic_quotes
from ..text.tokens import formula_may_touch_digits
from ..text.bibtex.markdown_marks import BARE_URL, URL_TRAILING
from .latex_text import escape_latex, speaks_latex

MAX_DEPTH = 32  # nested elements kept as such; deeper tags are dropped, their text kept

_FORMATS = {"i": "emph", "em": "emph", "italic": "emph", "b": "textbf", "strong": "textbf", "bold": "textbf",
            "sup": "textsuperscript", "sub": "textsubscript"}
_MATH = frozenset({"math", "tex-math", "inline-formula", "disp-formula", "alternatives"})
_INLINE = frozenset(_FORMATS) | _MATH | frozenset({"span", "sc", "scp", "u", "underline", "tt", "monospace",
                                                   "ovl", "strike", "nocase"})
_BLOCKS = frozenset({"p", "div", "br", "break", "sec", "section", "title", "list", "list-item", "li", "ul", "ol",
                     "abstract", "trans-abstract", "blockquote", "disp-quote", "h1", "h2", "h3", "h4", "h5", "h6",
                     "caption", "statement", "boxed-text"})
_DROPPED_TITLES = frozenset({"abstract", "summary", "graphical abstract", "abstract:", "summary:"})

_TAG = re.compile(r"<(/?)((?:[A-Za-z][\w.-]*:)?[A-Za-z][\w.-]*)((?:\s[^<>]*)?)(/?)>")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ALTTEXT = re.compile(r"""\balttext\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_ENCODING = re.compile(r"""\bencoding\s*=\s*["']?application/(?:x-)?(?:la)?tex""", re.IGNORECASE)
# $…$ and $$…$$ as the renderer (dollarmath, no digits next to the outer dollars) reads them,
# within a paragraph.
_DOLLAR_MATH = re.compile(r"(?<![\\$])(\$\$?)(?=[^\s$])(?:[^$\\\n]|\\[^\n]|\n(?![ \t]*\n))+?(?<!\s)\1")
# In text that speaks LaTeX, formulas as the renderer reads them: spaces inside the dollars too.
_DOLLAR_MATH_LATEX = re.compile(r"(?<![\\$])(\$\$?)(?!\$)(?=\S|[ \t]+[^\s$])(?:[^$\\\n]|\\[^\n]|\n(?![ \t]*\n))+?\1")
_ESCAPES = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "$": "\\$", "*": "\\*", "_": "\\_", "`": "\\`\\@",
            "~": "\\textasciitilde{}", "]": "\\]", "<": "\\textless{}", "&": "\\&", "'": "'\\@"}
_SPECIAL = re.compile(r"[\\{}$*_`~\]]|<(?!\s)|&(?=#?\w+;)|'(?=')")
_URL_END = URL_TRAILING + "*_~`'"  # not taken into a link by the renderer at a URL's end
_URL_FOLLOWER = re.compile(r"[.,;:!?\")]*(?:\s|$)")  # what may follow a URL kept as a link
_URL_SAFE = re.compile(r"(?:https?|ftp)://[\w\-./?#=%@:+&,;!]+")  # a URL the renderer links as it is
_ENTITY_LIKE = re.compile(r"&#?\w+;")
_LINE_START = re.compile(r"^(?:[-+#]|>|\d{1,9}(?=[.)](?:\s|$)))")
_SENTENCE_END = re.compile(r"[.!?:][\"')\]\u2019\u201d]*$")
_BEGIN_DOCUMENT = re.compile(r"\\begin\{document\}(.*?)\\end\{document\}", re.DOTALL)
_MATH_ESCAPES = {"\\": "\\backslash ", "{": "\\{", "}": "\\}", "$": "\\$", "%": "\\%", "#": "\\#", "&": "\\&",
                 "_": "\\_", "^": "\\hat{}", "~": "\\sim "}
_MATH_SPECIAL = re.compile(r"[\\{}$%#&_^~]")


@dataclass
class _Element:
    name: str  # local name, lower case ("italic" for <jats:italic>)
    attrs: str = ""
    children: list[Union["_Element", str]] = field(default_factory=list)


@dataclass(frozen=True)
class _Formula:
    tex: str
    display: bool = False


_PARA = object()  # a paragraph break among the pieces of output
_Piece = Union[str, _Formula, object]


# --------------------------------------------------------------------------- public


def rich_text_to_content(text: str, *, title: bool, latex: bool = True) -> str:
    """CSL-JSON rich text (a title) or a JATS/HTML abstract as content text: one line for a
    title, paragraphs separated by blank lines for an abstract (see the module docstring).
    ``latex``: LaTeX in the text is kept for the site to render (see "LaTeX")."""
    return _convert(text, title=title, tags=True, latex=latex)


def plain_to_content(text: str, *, title: bool = True, latex: bool = False) -> str:
    """Plain text (no tags: ``<`` is a character) as content text that shows as typed,
    ``$…$`` formulas kept; entities are not decoded. An abstract keeps its paragraphs.
    ``latex``: LaTeX in the text is kept for the site to render (see "LaTeX")."""
    return _convert(text, title=title, tags=False, latex=latex)


def clean_text(text: str) -> str:
    """``text`` without control characters and noncharacters; lone surrogates become U+FFFD."""
    if text.isprintable():
        return text
    return FORBIDDEN_IN_TEXT.sub(lambda m: "\ufffd" if "\ud800" <= m.group() <= "\udfff" else "",
                                 text.replace("\t", " "))


def decode_entities(text: str) -> str:
    """HTML/XML character references decoded (``&amp;`` → ``&``, ``&#233;`` → ``é``); a lone ``&`` stays."""
    return _ENTITY.sub(lambda m: clean_text(html.unescape(m.group())), text) if "&" in text else text


# --------------------------------------------------------------------------- reading tags


def _convert(text: str, *, title: bool, tags: bool, latex: bool) -> str:
    text = clean_text(text).replace("\r\n", "\n").replace("\r", "\n")
    latex = latex and speaks_latex(text)
    if latex:
        text = typographic_quotes(text)  # ``like this'' (the page would show them so too)
    root = _parse(text, title) if tags else _Element("", children=[text])
    blocks = tags and not title and _has_blocks(root)
    pieces = _render(root, title=title, split_lines=not title and not blocks, active=frozenset(), decode=tags,
                     latex=latex)
    paragraphs = _paragraphs(pieces)
    if title:
        return " ".join(p for p in paragraphs if p)
    return "\n\n".join(p for p in paragraphs if p)


def _parse(text: str, title: bool) -> _Element:
    """The tree of recognised tags; other text (unknown tags included) as strings."""
    known = _INLINE if title else _INLINE | _BLOCKS
    root = _Element("")
    stack = [root]
    last = 0
    for match in _TAG.finditer(text):
        qualified = match.group(2).lower()
        prefixed = ":" in qualified
        name = qualified.rsplit(":", 1)[-1]
        if not (prefixed or name in known or any(e.name == "math" for e in stack)):
            continue  # not a tag we know: text
        if match.start() > last:
            stack[-1].children.append(text[last:match.start()])
        last = match.end()
        attrs = match.group(3)
        if match.group(1):  # a closing tag: close up to its element, if it is open
            for depth in range(len(stack) - 1, 0, -1):
                if stack[depth].name == name:
                    del stack[depth:]
                    break
        elif match.group(4) or attrs.rstrip().endswith("/") or name in ("br", "break"):
            stack[-1].children.append(_Element(name, attrs))
        elif len(stack) <= MAX_DEPTH:
            element = _Element(name, attrs)
            stack[-1].children.append(element)
            stack.append(element)
    if last < len(text):
        stack[-1].children.append(text[last:])
    return root


def _has_blocks(element: _Element) -> bool:
    pending = [element]
    while pending:
        node = pending.pop()
        if node.name in _BLOCKS:
            return True
        pending.extend(child for child in node.children if isinstance(child, _Element))
    return False


def _text_of(element: _Element) -> str:
    return "".join(c if isinstance(c, str) else _text_of(c) for c in element.children)


# --------------------------------------------------------------------------- writing content


def _render(node: _Element, *, title: bool, split_lines: bool, active: frozenset[str],
            decode: bool, latex: bool = False) -> list[_Piece]:
    out: list[_Piece] = []
    for child in node.children:
        if isinstance(child, str):
            out.extend(_text_pieces(decode_entities(child) if decode else child, split_lines, latex))
            continue
        name = child.name
        if name in _MATH:
            formula = _formula(child, display=not title and name == "disp-formula")
            if formula is None:
                out.extend(_render(child, title=title, split_lines=split_lines, active=active, decode=decode, latex=latex))
            else:
                out.extend([_PARA, formula, _PARA] if formula.display else [formula])
        elif name == "title" and not title:
            heading = " ".join(decode_entities(_text_of(child)).split())
            if heading.casefold() not in _DROPPED_TITLES:
                out.extend([_PARA, "\\textbf{", *_text_pieces(heading, False, latex), "}", _PARA])
        elif name in _BLOCKS:
            inner = _render(child, title=title, split_lines=split_lines, active=active, decode=decode, latex=latex)
            out.extend([" ", *inner, " "] if title else [_PARA, *inner, _PARA])
        elif name in _FORMATS and _FORMATS[name] not in active:
            command = _FORMATS[name]
            inner = _render(child, title=title, split_lines=split_lines, active=active | {command}, decode=decode, latex=latex)
            out.extend(_wrap(command, inner))
        else:
            out.extend(_render(child, title=title, split_lines=split_lines, active=active, decode=decode, latex=latex))
    return out


def _wrap(command: str, inner: list[_Piece]) -> list[_Piece]:
    """``\\command{inner}``, with the spaces at its edges outside and no paragraph inside."""
    inner = [" " if piece is _PARA else piece for piece in inner]
    lead = trail = ""
    if inner and isinstance(inner[0], str) and inner[0][:1].isspace():
        lead, inner[0] = " ", inner[0].lstrip()
    if inner and isinstance(inner[-1], str) and inner[-1][-1:].isspace():
        trail, inner[-1] = " ", inner[-1].rstrip()
    if not any(isinstance(p, _Formula) or (isinstance(p, str) and p.strip()) for p in inner):
        return [lead or trail]
    return [lead, f"\\{command}{{", *inner, "}", trail]


def _text_pieces(text: str, split_lines: bool, latex: bool = False) -> list[_Piece]:
    """A run of text: paragraphs (``split_lines``: see the module docstring) of escaped text and formulas."""
    if not split_lines or "\n" not in text:
        return [_escape_run(text, latex)]
    if "$" in text:  # a formula broken over lines is one formula
        text = _join_formula_lines(text, latex)
    out: list[_Piece] = []
    lines = text.split("\n")
    paragraph = [lines[0]]  # the lines of a paragraph are escaped together (a LaTeX group may span them)
    for i in range(1, len(lines)):
        previous, line = lines[i - 1].strip(), lines[i]
        if not previous or not line.strip() or _SENTENCE_END.search(previous):
            out.extend([_escape_run(" ".join(paragraph), latex), _PARA])
            paragraph = []
        paragraph.append(line)
    out.append(_escape_run(" ".join(paragraph), latex))
    return out


def _formulas(text: str, latex: bool = False) -> list[tuple[int, int]]:
    """The spans of the ``$…$`` and ``$$…$$`` formulas of ``text``, as the renderer reads them:
    no digit next to an outer dollar, unless the formula starts with a command or a script
    (``2$\\times$``: ``tokens.formula_may_touch_digits``)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while True:
        match = (_DOLLAR_MATH_LATEX if latex else _DOLLAR_MATH).search(text, pos)
        if match is None:
            return spans
        start, end = match.span()
        dollars = len(match.group(1))
        if ((start and text[start - 1].isdigit()) or text[end:end + 1].isdigit()) and not (
                dollars == 1 and formula_may_touch_digits(text[start + 1:end - 1])):
            pos = start + 1
            continue
        spans.append((start, end))
        pos = end


def _join_formula_lines(text: str, latex: bool = False) -> str:
    """A formula broken over lines made one line: it is one formula."""
    out, last = [], 0
    for start, end in _formulas(text, latex):
        out.extend([text[last:start], " ".join(text[start:end].split())])
        last = end
    out.append(text[last:])
    return "".join(out)


def _escape_run(text: str, latex: bool = False) -> str:
    """Text shown as typed: formulas and bare URLs kept, every other special character
    escaped; with ``latex`` its text-mode LaTeX kept (``_escape_latex``)."""
    if not _SPECIAL.search(text) and "://" not in text and "\n" not in text:
        return text
    escape = (lambda part: escape_latex(part, _escape_text)) if latex else _escape_text
    out: list[str] = []
    last = 0
    for start, end in _formulas(text, latex) if "$" in text else ():
        out.append(escape(text[last:start]))
        out.append(" ".join(text[start:end].split()))
        last = end
    out.append(escape(text[last:]))
    return "".join(out)


def _escape_text(text: str) -> str:
    """Text without formulas: bare URLs kept (the renderer links them), the rest escaped.

    A URL that other characters follow directly (not a space, nor closing punctuation and a
    space) would take them into the link as typed, escapes and all: such a URL is written
    as text, its ``://`` as ``:/\\/`` so that it is not a link (it shows as typed)."""
    text = text.replace("\n", " ")
    if "://" not in text:
        return _SPECIAL.sub(_escape_char, text)
    out: list[str] = []
    last = 0
    for match in BARE_URL.finditer(text):
        url = match.group().rstrip(_URL_END)
        end = match.start() + len(url)
        if not (_URL_SAFE.fullmatch(url) and _URL_FOLLOWER.match(text, end)) \
                or _ENTITY_LIKE.search(text, match.start(), end + 1):
            continue
        out.append(_escape_plain(text[last:match.start()]))
        out.append(url)
        last = end
    out.append(_escape_plain(text[last:]))
    return "".join(out)


def _escape_plain(text: str) -> str:
    return _SPECIAL.sub(_escape_char, text).replace("://", ":/\\/")


def _escape_char(match: re.Match[str]) -> str:
    return _ESCAPES[match.group()]


def _paragraphs(pieces: list[_Piece]) -> list[str]:
    paragraphs: list[str] = []
    current: list[_Piece] = []
    for piece in [*pieces, _PARA]:
        if piece is not _PARA:
            current.append(piece)
            continue
        text = " ".join(_join(current).split())
        current = []
        if text:
            paragraphs.append(_LINE_START.sub(lambda m: "\\textgreater{}" if m.group() == ">" else
                                              (m.group() + "\\" if m.group()[0].isdigit() else "\\" + m.group()),
                                              text, count=1))
    return paragraphs


def _join(pieces: list[_Piece]) -> str:
    """The pieces as one string; a formula is ``$…$`` unless a digit touches it (then ``\\(…\\)``,
    which the renderer reads next to digits too)."""
    out: list[str] = []
    before = ""  # the last character written
    for i, piece in enumerate(pieces):
        if isinstance(piece, _Formula):
            after = next((p[:1] if isinstance(p, str) else "$" for p in pieces[i + 1:] if p != ""), "")
            touching = before.isdigit() or after.isdigit()
            text = f"$${piece.tex}$$" if piece.display else \
                (f"\\({piece.tex}\\)" if touching else f"${piece.tex}$")
        else:
            text = piece  # type: ignore[assignment]
        out.append(text)
        before = text[-1:] or before
    return "".join(out)


# --------------------------------------------------------------------------- formulas


def _formula(element: _Element, display: bool) -> _Formula | None:
    """The formula of a JATS formula or MathML element; None when it holds none (then its text is kept)."""
    if element.name in ("inline-formula", "disp-formula", "alternatives"):
        parts = [c for c in element.children if isinstance(c, _Element) and c.name in _MATH]
        preferred = [c for c in parts if c.name == "tex-math"] or [c for c in parts if c.name != "alternatives"] \
            or parts
        found = [f for f in (_formula(c, display) for c in preferred) if f is not None]
        return found[0] if found else None
    if element.name == "tex-math":
        tex = decode_entities(_text_of(element))
        body = _BEGIN_DOCUMENT.search(tex)
        tex = (body.group(1) if body else tex).strip()
        for opener, closer in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]")):
            if len(tex) > len(opener) + len(closer) and tex.startswith(opener) and tex.endswith(closer):
                tex = tex[len(opener):-len(closer)].strip()
                break
        return _make_formula(tex, display)
    alt = _ALTTEXT.search(element.attrs)
    if alt:
        return _make_formula(decode_entities(alt.group(1) or alt.group(2) or ""), display)
    return _make_formula(_mathml(element), display)


def _make_formula(tex: str, display: bool) -> _Formula | None:
    tex = " ".join(tex.split())
    if not tex or "$" in tex.replace("\\$", ""):
        return None
    if (len(tex) - len(tex.rstrip("\\"))) % 2:
        tex += " "  # a backslash at the end would escape the closing delimiter
    return _Formula(tex, display)


def _mathml(element: _Element) -> str:
    """A MathML element as TeX (the common layout elements; others give their content)."""
    kids = [c for c in element.children if isinstance(c, _Element)]
    if element.name == "semantics":
        for kid in kids:
            if kid.name == "annotation" and _ENCODING.search(kid.attrs):
                return decode_entities(_text_of(kid))
        return _mathml(kids[0]) if kids else ""
    if element.name in ("annotation", "annotation-xml"):
        return ""
    if element.name in ("mi", "mn", "mo", "ms", "mtext"):
        text = " ".join(decode_entities(_text_of(element)).split())
        text = _MATH_SPECIAL.sub(lambda m: _MATH_ESCAPES[m.group()], text)
        return f"\\text{{{text}}}" if element.name == "mtext" and text else text
    parts = [_mathml(kid) for kid in kids]
    layouts = {"msup": "{%s}^{%s}", "msub": "{%s}_{%s}", "msubsup": "{%s}_{%s}^{%s}", "mfrac": "\\frac{%s}{%s}",
               "mroot": "\\sqrt[%s]{%s}", "mover": "\\overset{%s}{%s}", "munder": "\\underset{%s}{%s}"}
    if element.name in layouts and len(parts) == layouts[element.name].count("%s"):
        if element.name in ("mroot", "mover", "munder"):
            parts.reverse()
        return layouts[element.name] % tuple(parts)
    if element.name == "msqrt":
        return "\\sqrt{%s}" % " ".join(parts)
    if element.name == "mfenced":
        return "(" + ", ".join(parts) + ")"
    return " ".join(p for p in parts if p)
