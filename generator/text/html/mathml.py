"""LaTeX formulas to MathML: latex2mathml's output written out through an allow-list of
elements and attributes, with a few common author macros patched in; a formula that cannot
be converted faithfully gives None (the caller shows its source)."""

from __future__ import annotations

import functools
import re
from xml.etree.ElementTree import Element

from latex2mathml.converter import convert_to_element
from markdown_it.common.utils import escapeHtml

from ..settings import CACHE_SIZE

_MAX_FORMULA = 3000  # characters; longer formulas are shown as source
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


@functools.lru_cache(maxsize=CACHE_SIZE)
def math_to_mathml(latex: str, display: bool) -> str | None:
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
