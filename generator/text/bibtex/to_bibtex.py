"""Content text (Markdown with LaTeX and math) as BibTeX field values: special characters
escaped, braces balanced, formulas kept, Markdown emphasis and bare URLs in LaTeX's terms,
capitals protected in titles (``latex_value``)."""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Sequence

from ..latex_commands import ARGUMENT_COMMANDS, OPT_ARGS, OPTIONAL_ARGUMENT_COMMANDS
from .markdown_marks import MARKDOWN_HINT, markdown_marks
from .capitals import brace_capitals as _brace_capitals, sentence_case as _sentence_case
from ..tokens import (BACKSLASH, CHAR, CLOSE, CMD, LATEX_SYMBOLS, MATH, OPEN, SPACE, SYM, Tok,
                     clean_text, escaped, match_pairs, tokenize)

_SPACES = re.compile(r"\s+")
_CHAR_ESCAPES = {
    "&": "\\&", "%": "\\%", "#": "\\#", "_": "\\_", "$": "\\$",
    "^": "\\textasciicircum{}", "<": "\\textless{}", ">": "\\textgreater{}",
}
_SPECIAL_CHARS = re.compile("[" + re.escape("".join(_CHAR_ESCAPES)) + "]")
# Commands whose upper-case letters BibTeX lower-cases even inside a {\...} group.
_CASED_COMMANDS = frozenset({"\\O", "\\OE", "\\AE", "\\AA", "\\L", "\\SS"})
_MATH_SPECIAL = re.compile(r"[%#&{}]")


def _escape_math(math: str) -> str:
    """A formula made safe for a .bib value: ``% # &`` escaped, braces balanced.

    Escaped braces (``\\{``, ``\\}``) and grouping braces must each balance on their own:
    BibTeX counts both kinds, bibtexparser (and others) only the unescaped ones. An
    unmatched one becomes ``\\lbrace``/``\\rbrace``.
    """
    if not _MATH_SPECIAL.search(math):
        return math
    # Runs of other characters are single CHAR pieces: only the braces are matched.
    pieces: list[Tok] = []
    last = 0
    for match in _MATH_SPECIAL.finditer(math):
        i, c = match.start(), match.group()
        is_escaped = escaped(math, i)
        if c in "%#&":
            if not is_escaped:
                pieces.append(Tok(CHAR, math[last:i] + "\\" + c))
                last = i + 1
        elif is_escaped:  # the backslash before it belongs to this brace
            pieces.append(Tok(CHAR, math[last:i - 1]))
            pieces.append(Tok(SYM, "\\" + c))
            last = i + 1
        else:
            pieces.append(Tok(CHAR, math[last:i]))
            pieces.append(Tok(OPEN if c == "{" else CLOSE, c))
            last = i + 1
    pieces.append(Tok(CHAR, math[last:]))
    _, bad_groups = match_pairs(pieces, lambda t: t.kind == OPEN, lambda t: t.kind == CLOSE)
    _, bad_syms = match_pairs(pieces, lambda t: t.text == "\\{", lambda t: t.text == "\\}")
    bad = bad_groups | bad_syms
    return "".join(
        ("\\lbrace " if t.text.endswith("{") else "\\rbrace ") if i in bad else t.text for i, t in enumerate(pieces)
    )


def strip_latex(text: str) -> str:
    """``text.strip()``, without leaving half of a control space (``\\ ``) at the end."""
    stripped = text.rstrip()
    while stripped != text and (len(stripped) - len(stripped.rstrip("\\"))) % 2 == 1:
        text = stripped[:-1]  # "\ " at the end: a control space, whitespace too
        stripped = text.rstrip()
    return stripped.lstrip()


def _url_arguments(tokens: Sequence[Tok], groups: dict[int, int]) -> set[int]:
    """Indices of the tokens inside the URL argument of ``\\url`` and ``\\href`` (verbatim in LaTeX)."""
    inside: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok.kind == CMD and tok.text in ("\\url", "\\href"):
            j = i + 1
            while j < len(tokens) and tokens[j].kind == SPACE:
                j += 1
            if j < len(tokens) and tokens[j].kind == OPEN and j in groups:
                inside.update(range(j + 1, groups[j]))
    return inside


def _escape_chars(text: str) -> str:
    return _SPECIAL_CHARS.sub(lambda m: _CHAR_ESCAPES[m.group()], text)


def _render_marked(text: str, marks: dict[int, str]) -> str:
    out: list[str] = []
    plain_start = 0
    for off in sorted(marks):
        out.append(_escape_chars(text[plain_start:off]))
        mark = marks[off]
        char = text[off]
        if mark == "raw":
            out.append(char)
        elif mark == "url:<":
            out.append("\\url{" + char)
        elif mark == "url:>":
            out.append(char + "}")
        elif mark == "url:<>":
            out.append("\\url{" + char + "}")
        else:
            out.append(mark)
        plain_start = off + 1
    out.append(_escape_chars(text[plain_start:]))
    return "".join(out)


def _tie(tokens: Sequence[Tok], i: int) -> bool:
    """A ``~`` between two non-spaces is a tie (non-breaking space), as ``text`` reads it."""
    before = tokens[i - 1].text[-1] if i > 0 else " "
    after = tokens[i + 1].text[0] if i + 1 < len(tokens) else " "
    # (a Markdown mark after it, "_a~_", closes emphasis: the "~" ends the text there, no tie)
    return not before.isspace() and not after.isspace() and before not in "/:=" and after not in "_*"


LITERAL = "literal"  # text shown exactly as written (a template tag such as "{{ x }}")
_TEMPLATE_CLOSERS = {"{": "}}", "%": "%}", "#": "#}"}  # as ``text``: {{ x }}, {% x %}, {# x #}
_ACCENT_CHARS = frozenset("'`^\"~=.")
_LITERAL_ESCAPES = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "~": "\\textasciitilde{}",
                    **_CHAR_ESCAPES}
_UNPAIRED_ESCAPES = {**_LITERAL_ESCAPES, "{": "\\textbraceleft{}", "}": "\\textbraceright{}"}
_LITERAL_SPECIAL = re.compile("[" + re.escape("".join(_LITERAL_ESCAPES)) + "]")


def _literal_text(text: str) -> str:
    """``text`` as BibTeX text LaTeX prints as typed (unpaired braces as \\textbrace...: BibTeX counts \\{ too)."""
    depths = list(accumulate((c == "{") - (c == "}") for c in text)) or [0]
    escapes = _LITERAL_ESCAPES if min(depths) >= 0 and depths[-1] == 0 else _UNPAIRED_ESCAPES
    return _LITERAL_SPECIAL.sub(lambda m: escapes[m.group()], text)


def _merge_template_tags(tokens: list[Tok]) -> list[Tok]:
    """Template tags (``{{ x }}``, ``{% x %}``, ``{# x #}``) as single ``LITERAL`` tokens.

    ``text`` prints them as typed (never as LaTeX), so the export writes them as text too.
    A tag ends at the first closer after it; a closer inside a formula token does not count.
    """
    if not any(t.kind == OPEN for t in tokens):
        return tokens
    out: list[Tok] = []
    missing: set[str] = set()  # closers absent from the rest of the text (keeps this linear)
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        closer = None
        if tok.kind == OPEN and i + 1 < n and not _opens_argument(tokens, i):
            closer = _TEMPLATE_CLOSERS.get(tokens[i + 1].text[:1])
        if closer is not None and closer not in missing:
            # The closer ends with "}", always a token of its own: find it token by token.
            j = i + 2 if tokens[i + 1].kind == OPEN else i + 1  # "{{": the second "{" opens
            end = None
            while j < n:
                t = tokens[j]
                if t.kind == CLOSE and (closer == "}}" and j + 1 < n and tokens[j + 1].kind == CLOSE):
                    end = j + 2
                    break
                if t.kind == CLOSE and closer != "}}" and j > i + 1 and tokens[j - 1].text.endswith(closer[0]) \
                        and tokens[j - 1].kind == CHAR and (j - 1 > i + 1 or len(tokens[j - 1].text) > 1):
                    end = j + 1
                    break
                j += 1
            if end is not None:
                out.append(Tok(LITERAL, "".join(t.text for t in tokens[i:end])))
                i = end
                continue
            missing.add(closer)
        out.append(tok)
        i += 1
    return out


def _opens_argument(tokens: Sequence[Tok], i: int) -> bool:
    """Whether the ``{`` at ``tokens[i]`` opens the argument of a command that ``text`` reads
    with its argument (``\\emph{``, ``\\footnote[a] {``): never a template tag there."""
    j = i - 1
    optional = False
    while j >= 0 and tokens[j].kind in (SPACE, CHAR):
        piece = tokens[j].text
        if piece.strip(" \t") == "":
            j -= 1
        elif tokens[j].kind == CHAR and OPT_ARGS.fullmatch(piece) and piece.strip(" \t").startswith("["):
            optional = True
            j -= 1
        else:
            return False
    if j < 0 or tokens[j].kind != CMD:
        return False
    name = tokens[j].text[1:]
    return name in (OPTIONAL_ARGUMENT_COMMANDS if optional else ARGUMENT_COMMANDS)


def _text_braces(tokens: Sequence[Tok], groups: dict[int, int]) -> set[int]:
    """Indices of matched braces that are text, not LaTeX groups (``text``'s rule).

    A brace pair is a LaTeX group when it is a command's argument (right after a command,
    spaces or tabs between allowed, or right after another group: ``\\foo{a}{b}``), an
    accent's argument (``\\"{o}``), starts with a command (``{\\bf x}``, ``{\\"o}``) or is
    inside such a group. Every other pair is text: ``{a, b}`` shows its braces.
    """
    def blank(t: Tok) -> bool:
        return t.kind in (SPACE, CHAR) and t.text != "" and t.text.strip(" \t") == ""

    text: set[int] = set()
    latex_depth = 0  # open LaTeX groups around the current token
    stack: list[bool] = []  # for each open matched group: is it a LaTeX group?
    n = len(tokens)
    for i, tok in enumerate(tokens):
        if tok.kind == OPEN and i in groups:
            is_latex = latex_depth > 0
            if not is_latex and i > 0:
                prev = tokens[i - 1]
                if prev.kind == CLOSE and i - 1 in groups and i - 1 not in text:
                    is_latex = True
                elif prev.kind == SYM and prev.text[1:] in _ACCENT_CHARS:
                    is_latex = True
                else:
                    j = i - 1
                    while j >= 0 and blank(tokens[j]):
                        j -= 1
                    is_latex = j >= 0 and tokens[j].kind == CMD
            if not is_latex:
                j = i + 1
                if j < n and blank(tokens[j]):
                    j += 1
                is_latex = j < n and (tokens[j].kind == CMD or (
                    tokens[j].kind == SYM and tokens[j].text[1:] in _ACCENT_CHARS))
            stack.append(is_latex)
            if is_latex:
                latex_depth += 1
            else:
                text.update((i, groups[i]))
        elif tok.kind == CLOSE and i in groups and stack:
            if stack.pop():
                latex_depth -= 1
    return text


def latex_value(source: str, *, protect: bool = False, one_line_spaces: bool = True) -> str:
    """``source`` (text with LaTeX and math) as the value of a BibTeX field.

    ``protect``: put words with capitals and formulas in braces (titles).
    ``one_line_spaces``: every run of whitespace becomes one space (else kept, for abstracts).
    """
    source = clean_text(source).replace("\r\n", "\n").replace("\r", "\n")
    if one_line_spaces:
        source = _SPACES.sub(" ", strip_latex(source))
    encoder = _Encoder(source, _merge_template_tags(tokenize(source, spaces=protect)), one_line_spaces)
    if not protect:
        return _separate_backslashes("".join(encoder.render(i) for i in range(len(encoder.tokens))))
    return _separate_backslashes(encoder.protected())


class _Encoder:
    """The analyses of one value's tokens (brace groups, unmatched braces, verbatim URL
    arguments, Markdown marks) and each token written as BibTeX (``render``)."""

    def __init__(self, source: str, tokens: list, one_line_spaces: bool):
        self.tokens, self.one_line_spaces = tokens, one_line_spaces
        # Each analysis below finds nothing when its characters are absent from the source
        # (no brace: no group, no escaped brace, no \\url argument; no "*", "_" or "://": no
        # Markdown); skipping them then is only faster.
        self.groups: dict[int, int] = {}
        self.bad_groups: set[int] = set()
        self.text_braces: set[int] = set()
        self.bad_syms: set[int] = set()
        self.verbatim: set[int] = set()
        if "{" in source or "}" in source:
            self.groups, self.bad_groups = match_pairs(tokens, lambda t: t.kind == OPEN, lambda t: t.kind == CLOSE)
            self.text_braces = _text_braces(tokens, self.groups)
            _, self.bad_syms = match_pairs(tokens, lambda t: t.kind == SYM and t.text == "\\{",
                                           lambda t: t.kind == SYM and t.text == "\\}")
            self.verbatim = _url_arguments(tokens, self.groups)
        self.markup = markdown_marks(tokens, self.groups, self.verbatim) if MARKDOWN_HINT.search(source) else {}

    def render(self, i: int) -> str:
        tok = self.tokens[i]
        if i in self.verbatim:  # the URL of \url{…} or \href{…}{…}: as written
            return tok.text
        if tok.kind == MATH:
            return _escape_math(tok.text)
        if tok.kind == LITERAL:
            return _literal_text(tok.text)
        if tok.kind in (OPEN, CLOSE):
            if i in self.bad_groups:
                return "\\textbraceleft{}" if tok.kind == OPEN else "\\textbraceright{}"
            if i in self.text_braces:
                return "\\" + tok.text
            return tok.text
        if tok.kind == SYM:
            if i in self.bad_syms:
                return "\\textbraceleft{}" if tok.text == "\\{" else "\\textbraceright{}"
            char = tok.text[1]
            if char.isspace():
                return "\\ " if self.one_line_spaces else tok.text
            if char not in LATEX_SYMBOLS:  # a Markdown escape: the character itself
                return _CHAR_ESCAPES.get(char, char)
            return tok.text
        if tok.kind == BACKSLASH:
            return "\\textbackslash{}"
        if tok.kind == SPACE:
            return tok.text
        if tok.kind == CHAR:
            marks = self.markup.get(i)
            if marks is not None:
                return _render_marked(tok.text, marks)
            if tok.text == "~":
                return "~" if _tie(self.tokens, i) else "\\textasciitilde{}"
            return _escape_chars(tok.text)
        return tok.text  # CMD, SYM

    def words(self) -> list[tuple[int, int]]:
        """Words at brace depth 0 as [start, end) token ranges (a group counts as part of the
        word it is in)."""
        tokens, groups = self.tokens, self.groups
        words: list[tuple[int, int]] = []
        i, n = 0, len(tokens)
        while i < n:
            if tokens[i].kind == SPACE:
                i += 1
                continue
            start = i
            while i < n and tokens[i].kind != SPACE:
                i = groups[i] + 1 if tokens[i].kind == OPEN and i in groups else i + 1
            words.append((start, i))
        return words

    def needs_protection(self, start: int, end: int) -> bool:
        tokens, groups = self.tokens, self.groups
        k = start
        while k < end:
            tok = tokens[k]
            if tok.kind == MATH:
                return True
            if tok.kind in (CHAR, LITERAL) and tok.text.lower() != tok.text:
                return True
            if tok.kind == CMD and (tok.text in _CASED_COMMANDS or any(ch.isupper() for ch in tok.text)):
                return True
            if tok.kind == OPEN and k in groups and k not in self.text_braces:
                close = groups[k]
                # A group that starts with a command is a BibTeX "special character":
                # its letters are case-changed too.
                if k + 1 < close and tokens[k + 1].kind in (CMD, SYM):
                    inner = tokens[k + 1 : close]
                    if any((t.kind == CHAR and t.text.lower() != t.text) or t.text in _CASED_COMMANDS for t in inner):
                        return True
                k = close + 1
                continue
            k += 1
        return False

    def protected(self) -> str:
        """The value with the capitals that must stay in braces, as the ACL Anthology writes
        titles (issue 36): a word with a capital past its first letter has each run of
        capitals braced (``{BERT}``, ``{T}hing{T}alk``, ``{R}o{BERT}a``); a word's first capital
        is braced only where it names something, which a title in sentence case says (a
        capital there that is not the first word's nor after ":"; in a title in headline
        case, capitals are its style and a sentence-case bibliography may lower them);
        a word with a formula, a command or a group is braced whole, as before."""
        if self.markup:
            return self.protected_phrases()
        tokens, render = self.tokens, self.render
        words = self.words()
        plain = [all(tokens[k].kind == CHAR for k in range(s, e)) for s, e in words]
        texts = ["".join(tokens[k].text for k in range(s, e)) if ok else "" for (s, e), ok in zip(words, plain)]
        sentence_case = _sentence_case(texts, plain)
        out: list[str] = []
        pos = 0
        after_break = True  # the first word, or a word after ":", "?", "!", "."
        for w, (start, end) in enumerate(words):
            out.extend(render(k) for k in range(pos, start))
            rendered = "".join(render(k) for k in range(start, end))
            if plain[w]:
                out.append(_brace_capitals(rendered, initial=sentence_case and not after_break))
                after_break = texts[w][-1:] in (":", "?", "!", ".") or texts[w] in ("-", "\u2013", "\u2014", "--")
            elif self.needs_protection(start, end):
                out.append(_protected_group(rendered, out))
                after_break = False
            else:
                out.append(rendered)
                after_break = False
            pos = end
        out.extend(render(k) for k in range(pos, len(tokens)))
        return "".join(out)

    def protected_phrases(self) -> str:
        """Every word with a capital or a formula in braces, a run of such words in one group
        (for a value with Markdown emphasis, whose marks may span words: ``protected``)."""
        tokens, render = self.tokens, self.render
        words = self.words()
        protected = [self.needs_protection(s, e) for s, e in words]
        out: list[str] = []
        pos = 0
        w = 0
        while w < len(words):
            start, end = words[w]
            out.extend(render(k) for k in range(pos, start))
            if not protected[w]:
                out.extend(render(k) for k in range(start, end))
                pos = end
                w += 1
                continue
            last = w
            while (last + 1 < len(words) and protected[last + 1]
                   and words[last + 1][0] == words[last][1] + 1 and tokens[words[last][1]].kind == SPACE):
                last += 1
            out.append(_protected_group("".join(render(k) for k in range(start, words[last][1])), out))
            pos = words[last][1]
            w = last + 1
        out.extend(render(k) for k in range(pos, len(tokens)))
        return "".join(out)


def _protected_group(inner: str, before: list[str]) -> str:
    """``inner`` in protecting braces, after the output ``before``.

    "{\\cmd…}" would be a BibTeX "special character", whose letters are case-changed:
    "{{}\\cmd…}" is not (the importer drops the empty group again). The same form after
    "\\cmd " or "\\cmd{…} ", where a plain group would read as the command's argument.
    Likewise when no letter or formula stands outside commands and escaped symbols
    ("*\\LaTeX", "\\$\\LaTeX"): the importer reads braces around no plain letter as
    literal text, not as protection.
    """
    after_command = bool(_ARGUMENT_POSITION.search("".join(before[-3:])))
    bare = _COMMAND_OR_SYMBOL.sub("", inner)
    marked = inner.startswith("\\") or after_command or not any(ch.isalpha() or ch == "$" for ch in bare)
    return "{{}" + inner + "}" if marked else "{" + inner + "}"


_COMMAND_OR_SYMBOL = re.compile(r"\\(?:[A-Za-z]+|.)", re.DOTALL)
_ARGUMENT_POSITION = re.compile(r"(\\[A-Za-z]+\*?|\})\s+$")
_BACKSLASHES_BEFORE_BRACE = re.compile(r"(?<!\\)((?:\\\\)+)(?=[{}]|$)")


def _separate_backslashes(value: str) -> str:
    """``\\\\`` (a line break) right before a brace or the end: a space in between.

    BibTeX counts every brace, but most BibTeX readers (bibtexparser among them) take
    any brace after a backslash for an escaped one; with the space both read the same.
    """
    if "\\\\" not in value:
        return value
    return _BACKSLASHES_BEFORE_BRACE.sub(r"\1 ", value)
