"""Citation data for each paper: BibTeX, RIS, COinS, Highwire Press tags, OpenGraph, JSON-LD.

Everything here is computed from the derived views (``derive.PaperView``) and the site
configuration; nothing is written. ``CitationIndex(site)`` gives every paper one frozen
``Citation`` for the templates (the Jinja filter ``paper|citation``) and for the exports
(``exports``). The rules, also documented in ``docs/metadata.md``:

BibTeX keys
    first author's family name (BibTeX's own "Last" part, ASCII-folded) + the venue's year
    + the first significant word of the title (articles, prepositions and the like are
    skipped), all lower-case ASCII letters and digits: ``xue2024encoding``. Papers without
    (Latin-script) authors use ``anon``. When two papers of the catalog get the same key,
    the one that joined the catalog first (``added`` date, then slug) keeps it and the
    others get ``b``, ``c``, … appended, so a newly added paper never changes the key of
    a paper that was already there (as long as it carries a later ``added`` date).

BibTeX text
    Titles, abstracts and the venue name are written as LaTeX: math (``$…$``, ``$$…$$``,
    ``\\(…\\)``) is kept as it is, text-mode LaTeX commands too; bare special characters
    are escaped (``& % # _ $`` → ``\\&`` …, ``^ < >`` → ``\\textasciicircum{}`` …,
    ``~`` unless it is a tie); braces are balanced the way BibTeX counts them (an
    unmatched brace becomes ``\\textbraceleft{}``/``\\textbraceright{}``). In titles,
    every word with a capital letter and every formula is protected in braces, runs of
    such words in one group (``{Encoding Unitig}-level {Assembly Graphs}``), so a
    bibliography style prints the title exactly as published. Non-ASCII text is written
    as UTF-8 (biber, and bibtex with ``\\usepackage[utf8]{inputenc}``, read it).
"""

from __future__ import annotations

import datetime
import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence
from urllib.parse import urlsplit

import bibtexparser
from bibtexparser import model as bibmodel
from bibtexparser.middlewares import AddEnclosingMiddleware
from bibtexparser.middlewares.names import parse_single_name_into_parts
from bibtexparser.writer import BibtexFormat
from markupsafe import Markup

from ..derive.views import PaperView, SiteData
from ..content.model import LINK_KINDS, SiteConfig
from ..text.markdown import plain_text

ENTRY_TYPE = "inproceedings"
ANONYMOUS = "anon"  # key prefix for papers without (Latin-script) authors
UNTITLED = "paper"  # key suffix when the title has no usable word

# Where a paper's URL comes from when the site has no absolute base URL: the first of
# these links that the paper has.
BEST_LINK_ORDER = ("openreview", "venue_page", "arxiv", "pdf", "project", "code")

# Link kinds written as their own BibTeX field in the full .bib files (``openreview =
# {…}``), so that importing an export gives every link back under its kind. arXiv links
# of the form https://arxiv.org/abs/<id> are written as ``eprint`` + ``archiveprefix``.
LINK_FIELDS = LINK_KINDS

KEY_STOPWORDS = frozenset(
    "a an the on of in for to with and or at by from via is are be do does can how what why when "
    "where which who whom into onto as its it this that these those towards toward we our your".split()
)

_ARXIV_ABS = re.compile(r"^https://arxiv\.org/abs/(?P<id>(?:\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?)$")

# Letters that NFKD does not decompose into ASCII (as in ``slugs``).
_TRANSLITERATE = str.maketrans({"ß": "ss", "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d",
                                "ł": "l", "Ł": "l", "œ": "oe", "Œ": "oe", "þ": "th", "ð": "d", "ı": "i"})


# ---------------------------------------------------------------------------------------
# URLs
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SiteUrls:
    """URLs of the site's files: ``path`` (with the base path) or ``absolute`` (or None)."""

    base_path: str  # "/" or "/catalog/"
    absolute_base: str | None  # "https://host/catalog/" or None when base_url is a path

    @classmethod
    def from_config(cls, config: SiteConfig) -> "SiteUrls":
        parts = urlsplit(config.base_url)
        absolute = config.base_url if parts.scheme else None
        return cls(parts.path or "/", absolute)

    def path(self, rel: str) -> str:
        return self.base_path + rel

    def absolute(self, rel: str) -> str | None:
        return self.absolute_base + rel if self.absolute_base else None

    def best(self, rel: str) -> str:
        """Absolute when possible, else a path from the root of the host."""
        return self.absolute(rel) or self.path(rel)


def paper_bib_path(slug: str) -> str:
    return f"papers/{slug}/{slug}.bib"


def paper_ris_path(slug: str) -> str:
    return f"papers/{slug}/{slug}.ris"


def best_link(view: PaperView) -> str | None:
    links = {link.kind: link.url for link in view.links}
    return next((links[kind] for kind in BEST_LINK_ORDER if kind in links), None)


def arxiv_id(url: str) -> str | None:
    """The arXiv identifier of a canonical ``https://arxiv.org/abs/<id>`` link, else None."""
    match = _ARXIV_ABS.match(url)
    return match.group("id") if match else None


def paper_date(view: PaperView) -> datetime.date:
    """The date feeds and sitemaps give a paper: ``added``, else 1 January of the venue's year."""
    return view.paper.added or datetime.date(view.venue.year, 1, 1)


# ---------------------------------------------------------------------------------------
# Plain text helpers
# ---------------------------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_SPACES = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """Text without control characters (tabs and newlines kept)."""
    return text if text.isprintable() else _CONTROL.sub("", text)


@functools.lru_cache(maxsize=16384)
def one_line(text: str) -> str:
    """Text on one line: every run of whitespace one space, no control characters."""
    return " ".join(clean_text(text).split())


_LESS_THAN = "\ue000"  # stands in for "<" while ``plain_text`` runs


@functools.lru_cache(maxsize=16384)
def text_as_shown(source: str) -> str:
    """Plain text of a title as its page shows it (math as linear text).

    Like ``text.plain_text``, which cuts out anything that looks like an HTML tag, except
    that such text is kept: on the page it is text ("<b>" shows as "<b>"), and metadata
    must name the paper the way the page does. Every output escapes it again.
    """
    if "<" not in source or _LESS_THAN in source:
        return one_line(plain_text(source))
    return one_line(plain_text(source.replace("<", _LESS_THAN)).replace(_LESS_THAN, "<"))


def ascii_fold(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text`` (accents folded, the rest dropped)."""
    folded = unicodedata.normalize("NFKD", text.translate(_TRANSLITERATE)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})


def bibtex_name_form(name: str) -> str:
    """``"Hans Müller Jr."`` → ``"Müller, Jr., Hans"``: BibTeX reads a suffix only after commas."""
    words = name.split()
    if "," in name or len(words) < 3 or words[-1].casefold() not in NAME_SUFFIXES:
        return name
    return f"{words[-2]}, {words[-1]}, {' '.join(words[:-2])}"


# Caches of per-name work: names repeat across papers (a 10,000-paper catalog has about
# 24,000 distinct names in 53,000 author slots) and each is read by several outputs.
_NAME_CACHE = 1 << 17


@functools.lru_cache(maxsize=_NAME_CACHE)
def name_parts(name: str):
    """BibTeX's reading of a name (first, von, last, jr), or None when it cannot be read."""
    try:
        parts = parse_single_name_into_parts(bibtex_name_form(name), strict=False)
    except Exception:  # a name BibTeX cannot read at all: treated as one word
        return None
    return parts if parts.last else None


def family_name(name: str) -> str:
    parts = name_parts(name)
    if parts is None:
        words = name.split()
        return words[-1] if words else ""
    return " ".join(parts.last)


@functools.lru_cache(maxsize=_NAME_CACHE)
def last_first(name: str) -> str:
    """``"Ada Lovelace"`` → ``"Lovelace, Ada"`` (von part kept with the family name)."""
    parts = name_parts(name)
    if parts is None:
        return one_line(name)
    head = " ".join(parts.von + parts.last)
    rest = [" ".join(parts.jr), " ".join(parts.first)]
    return ", ".join(p for p in [head, *rest] if p).replace("{", "").replace("}", "")


# ---------------------------------------------------------------------------------------
# LaTeX source → tokens (shared with the BibTeX importer)
# ---------------------------------------------------------------------------------------

MATH, CMD, SYM, BACKSLASH, OPEN, CLOSE, SPACE, CHAR = "math", "cmd", "sym", "backslash", "open", "close", "space", "char"

# Control symbols that mean something in LaTeX text mode; they are kept as they are. A
# backslash before other ASCII punctuation is a Markdown escape (``\*``, ``\[``): it stands
# for the character itself.
_LATEX_SYMBOLS = frozenset("\\{}$&%#_'\"^~`=.,;:! -/@")
_ACCENT_SYMBOLS = frozenset("'\"^~`=.")


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str
    text: str


def _escaped(s: str, pos: int) -> bool:
    """True when the character at ``pos`` is preceded by an odd number of backslashes."""
    count = 0
    pos -= 1
    while pos >= 0 and s[pos] == "\\":
        count += 1
        pos -= 1
    return count % 2 == 1


def _find_unescaped(s: str, needle: str, start: int) -> int:
    pos = s.find(needle, start)
    while pos != -1 and _escaped(s, pos):
        pos = s.find(needle, pos + 1)
    return pos


def _math_end(s: str, i: int) -> int | None:
    """If a formula starts at ``s[i]``, the index just after it (mirrors ``text``'s rules)."""
    if s.startswith("\\(", i) or s.startswith("\\[", i):
        closer = "\\)" if s[i + 1] == "(" else "\\]"
        j = s.find(closer, i + 2)
        return j + 2 if j > i + 2 else None
    if s[i] != "$" or _escaped(s, i):
        return None
    if s.startswith("$$", i):
        j = _find_unescaped(s, "$$", i + 2)
        return j + 2 if j != -1 and s[i + 2 : j].strip() else None
    if i > 0 and s[i - 1].isdigit():  # "5$" is currency, not math
        return None
    j = _find_unescaped(s, "$", i + 1)
    if j == -1 or j == i + 1 or (j + 1 < len(s) and s[j + 1].isdigit()):
        return None
    return j + 1


_COMMAND = re.compile(r"\\[A-Za-z]+\*?")
_WHITESPACE = re.compile(r"\s+")
_RUN = re.compile(r"[^\\{}$~\s]+")  # ordinary text: one CHAR token per run
_RUN_WITH_SPACES = re.compile(r"[^\\{}$~]+")


def tokenize(s: str, *, spaces: bool = True) -> list[Tok]:
    """Split LaTeX-with-math source into tokens: formulas are single ``MATH`` tokens, and
    ``CHAR`` tokens are runs of ordinary characters (``$`` and ``~`` on their own).

    ``spaces=False``: whitespace is part of the runs (no ``SPACE`` tokens; faster when
    words do not matter)."""
    run = _RUN if spaces else _RUN_WITH_SPACES
    tokens: list[Tok] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        end = _math_end(s, i) if c in "$\\" else None
        if end is not None:
            tokens.append(Tok(MATH, s[i:end]))
            i = end
        elif c == "\\":
            nxt = s[i + 1] if i + 1 < n else ""
            if nxt.isascii() and nxt.isalpha():
                m = _COMMAND.match(s, i)
                assert m
                tokens.append(Tok(CMD, m.group()))
                i = m.end()
            elif nxt.isascii() and nxt and not nxt.isalnum():
                tokens.append(Tok(SYM, s[i : i + 2]))
                i += 2
            else:
                tokens.append(Tok(BACKSLASH, c))
                i += 1
        elif c == "{":
            tokens.append(Tok(OPEN, c))
            i += 1
        elif c == "}":
            tokens.append(Tok(CLOSE, c))
            i += 1
        elif spaces and c.isspace():
            m = _WHITESPACE.match(s, i)
            assert m
            tokens.append(Tok(SPACE, m.group()))
            i = m.end()
        elif c in "$~":
            tokens.append(Tok(CHAR, c))
            i += 1
        else:
            m = run.match(s, i)
            assert m
            tokens.append(Tok(CHAR, m.group()))
            i = m.end()
    return tokens


def _match_pairs(tokens: Sequence[Tok], is_open, is_close) -> tuple[dict[int, int], set[int]]:
    """Matching open/close indices (both directions) and the indices left unmatched."""
    stack: list[int] = []
    pairs: dict[int, int] = {}
    unmatched: set[int] = set()
    for i, tok in enumerate(tokens):
        if is_open(tok):
            stack.append(i)
        elif is_close(tok):
            if stack:
                j = stack.pop()
                pairs[i], pairs[j] = j, i
            else:
                unmatched.add(i)
    unmatched.update(stack)
    return pairs, unmatched


# ---------------------------------------------------------------------------------------
# Tokens → BibTeX field values
# ---------------------------------------------------------------------------------------

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
        escaped = _escaped(math, i)
        if c in "%#&":
            if not escaped:
                pieces.append(Tok(CHAR, math[last:i] + "\\" + c))
                last = i + 1
        elif escaped:  # the backslash before it belongs to this brace
            pieces.append(Tok(CHAR, math[last:i - 1]))
            pieces.append(Tok(SYM, "\\" + c))
            last = i + 1
        else:
            pieces.append(Tok(CHAR, math[last:i]))
            pieces.append(Tok(OPEN if c == "{" else CLOSE, c))
            last = i + 1
    pieces.append(Tok(CHAR, math[last:]))
    _, bad_groups = _match_pairs(pieces, lambda t: t.kind == OPEN, lambda t: t.kind == CLOSE)
    _, bad_syms = _match_pairs(pieces, lambda t: t.text == "\\{", lambda t: t.text == "\\}")
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


# Markdown in content text that LaTeX must see differently: bare URLs (→ \url{…}, which
# LaTeX reads verbatim) and emphasis (*x*, _x_ → \emph{x}; **x**, __x__ → \textbf{x}).
_BARE_URL = re.compile(r"(?<![^\W_]|/)(?:https?|ftp)://[^\s{}\\$<>\"\[\]]+")
_URL_TRAILING = ".,;:!?'\")]"
_DELIMITERS = re.compile(r"\*{1,2}|_{1,2}")


def _markdown_marks(tokens: Sequence[Tok], groups: dict[int, int], verbatim: set[int]) -> dict[int, dict[int, str]]:
    """For CHAR tokens: {offset in the token: replacement} for URL bounds and emphasis marks.

    Replacements: ``"url:<"``/``"url:>"`` open/close ``\\url{…}`` around the URL starting/ending
    there (the URL's own characters are kept as they are: ``"raw"``), ``"\\emph{"`` … for an
    opening delimiter, ``"}"`` for a closing one, ``""`` for the second character of ``**``.
    """
    marks: dict[int, dict[int, str]] = {}
    # 1. Bare URLs, in runs of CHAR tokens ("~" is a token of its own).
    i = 0
    n = len(tokens)
    runs: list[tuple[int, int]] = []  # token ranges of consecutive CHAR tokens
    while i < n:
        if tokens[i].kind == CHAR and i not in verbatim:
            j = i
            while j < n and tokens[j].kind == CHAR and j not in verbatim:
                j += 1
            runs.append((i, j))
            i = j
        else:
            i += 1
    in_url: set[tuple[int, int]] = set()
    for start, end in runs:
        run_text = "".join(tokens[k].text for k in range(start, end))
        if "://" not in run_text:
            continue
        index = [(k, off) for k in range(start, end) for off in range(len(tokens[k].text))]
        # The character before the run decides whether a URL at its very start is "bare".
        before = (tokens[start - 1].text[-1:] if start > 0 else "") or " "
        for match in _BARE_URL.finditer(before + run_text):
            a, b = match.start() - 1, match.end() - 1
            if a < 0:
                continue
            while b > a and run_text[b - 1] in _URL_TRAILING:
                if run_text[b - 1] == ")" and run_text[a:b].count("(") >= run_text[a:b].count(")"):
                    break
                b -= 1
            if run_text[max(0, a - 2):a] == "](":  # a Markdown link's target: leave it alone
                for pos in range(a, b):
                    in_url.add(index[pos])
                    marks.setdefault(index[pos][0], {})[index[pos][1]] = "raw"
                continue
            for pos in range(a, b):
                k, off = index[pos]
                in_url.add((k, off))
                marks.setdefault(k, {})[off] = "raw"
            k, off = index[a]
            marks[k][off] = "url:<"
            k, off = index[b - 1]
            marks[k][off] = "url:>" if b - 1 > a else "url:<>"
    # 2. Emphasis, CommonMark's flanking rules, paired at one brace depth and paragraph.
    depth = 0
    stack: list[tuple[str, int, int, int, int]] = []  # (delimiter, depth, token, offset, paragraph)
    paragraph = 0
    for i, tok in enumerate(tokens):
        if tok.kind == OPEN and i in groups:
            depth += 1
        elif tok.kind == CLOSE and i in groups:
            depth -= 1
        if "\n\n" in tok.text and tok.kind in (SPACE, CHAR):
            paragraph += 1
        if tok.kind != CHAR or i in verbatim or ("*" not in tok.text and "_" not in tok.text):
            continue
        text = tok.text
        for match in _DELIMITERS.finditer(text):
            off = match.start()
            if (i, off) in in_url:
                continue
            delim = match.group()
            before = text[off - 1] if off > 0 else (tokens[i - 1].text[-1:] if i > 0 else " ") or " "
            after = text[match.end()] if match.end() < len(text) else (
                tokens[i + 1].text[:1] if i + 1 < n else " ") or " "
            if text[max(0, off - 1):off] == delim[0] or text[match.end():match.end() + 1] == delim[0]:
                continue  # part of a longer run (***): left as text
            left = not after.isspace() and (not _is_punct(after) or before.isspace() or _is_punct(before))
            right = not before.isspace() and (not _is_punct(before) or after.isspace() or _is_punct(after))
            if delim[0] == "_":
                can_open = left and (not right or _is_punct(before))
                can_close = right and (not left or _is_punct(after))
            else:
                can_open, can_close = left, right
            if can_close:
                found = next((s for s in range(len(stack) - 1, -1, -1)
                              if stack[s][0] == delim and stack[s][1] == depth and stack[s][4] == paragraph), None)
                if found is not None:
                    _, _, ok, ooff, _ = stack[found]
                    del stack[found:]
                    command = "\\emph{" if len(delim) == 1 else "\\textbf{"
                    marks.setdefault(ok, {})[ooff] = command
                    marks.setdefault(i, {})[off] = "}"
                    if len(delim) == 2:
                        marks[ok][ooff + 1] = ""
                        marks[i][off + 1] = ""
                    continue
            if can_open:
                stack.append((delim, depth, i, off, paragraph))
    return marks  # unpaired delimiters have no mark: they are escaped as text


def _is_punct(char: str) -> bool:
    return bool(char) and not char.isalnum() and not char.isspace()


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
    return not before.isspace() and not after.isspace() and before not in "/:="


LITERAL = "literal"  # text shown exactly as written (a template tag such as "{{ x }}")
_TEMPLATE_CLOSERS = {"{": "}}", "%": "%}", "#": "#}"}  # as ``text``: {{ x }}, {% x %}, {# x #}
_ACCENT_CHARS = frozenset("'`^\"~=.")
_LITERAL_ESCAPES = {"\\": "\\textbackslash{}", "{": "\\{", "}": "\\}", "~": "\\textasciitilde{}",
                    **_CHAR_ESCAPES}
_LITERAL_SPECIAL = re.compile("[" + re.escape("".join(_LITERAL_ESCAPES)) + "]")


def _literal_text(text: str) -> str:
    """``text`` as BibTeX text that LaTeX prints character for character."""
    return _LITERAL_SPECIAL.sub(lambda m: _LITERAL_ESCAPES[m.group()], text)


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
        if tok.kind == OPEN and i + 1 < n:
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
    tokens = _merge_template_tags(tokenize(source, spaces=protect))
    # Each analysis below finds nothing when its characters are absent from the source
    # (no brace: no group, no escaped brace, no \\url argument; no "*", "_" or "://": no
    # Markdown); skipping them then is only faster.
    groups: dict[int, int] = {}
    bad_groups: set[int] = set()
    text_braces: set[int] = set()
    bad_syms: set[int] = set()
    verbatim: set[int] = set()
    if "{" in source or "}" in source:
        groups, bad_groups = _match_pairs(tokens, lambda t: t.kind == OPEN, lambda t: t.kind == CLOSE)
        text_braces = _text_braces(tokens, groups)
        _, bad_syms = _match_pairs(tokens, lambda t: t.kind == SYM and t.text == "\\{",
                                   lambda t: t.kind == SYM and t.text == "\\}")
        verbatim = _url_arguments(tokens, groups)
    markup = _markdown_marks(tokens, groups, verbatim) if _MARKDOWN_HINT.search(source) else {}

    def render(i: int) -> str:
        tok = tokens[i]
        if i in verbatim:  # the URL of \url{…} or \href{…}{…}: as written
            return tok.text
        if tok.kind == MATH:
            return _escape_math(tok.text)
        if tok.kind == LITERAL:
            return _literal_text(tok.text)
        if tok.kind in (OPEN, CLOSE):
            if i in bad_groups:
                return "\\textbraceleft{}" if tok.kind == OPEN else "\\textbraceright{}"
            if i in text_braces:
                return "\\" + tok.text
            return tok.text
        if tok.kind == SYM:
            if i in bad_syms:
                return "\\textbraceleft{}" if tok.text == "\\{" else "\\textbraceright{}"
            char = tok.text[1]
            if char.isspace():
                return "\\ " if one_line_spaces else tok.text
            if char not in _LATEX_SYMBOLS:  # a Markdown escape: the character itself
                return _CHAR_ESCAPES.get(char, char)
            return tok.text
        if tok.kind == BACKSLASH:
            return "\\textbackslash{}"
        if tok.kind == SPACE:
            return tok.text
        if tok.kind == CHAR:
            marks = markup.get(i)
            if marks is not None:
                return _render_marked(tok.text, marks)
            if tok.text == "~":
                return "~" if _tie(tokens, i) else "\\textasciitilde{}"
            return _escape_chars(tok.text)
        return tok.text  # CMD, SYM

    if not protect:
        return _separate_backslashes("".join(render(i) for i in range(len(tokens))))

    # Words at brace depth 0 (a group counts as part of the word it is in).
    words: list[tuple[int, int]] = []  # [start, end) token ranges
    i, n = 0, len(tokens)
    while i < n:
        if tokens[i].kind == SPACE:
            i += 1
            continue
        start = i
        while i < n and tokens[i].kind != SPACE:
            if tokens[i].kind == OPEN and i in groups:
                i = groups[i] + 1
            else:
                i += 1
        words.append((start, i))

    def needs_protection(start: int, end: int) -> bool:
        k = start
        while k < end:
            tok = tokens[k]
            if tok.kind == MATH:
                return True
            if tok.kind in (CHAR, LITERAL) and tok.text.lower() != tok.text:
                return True
            if tok.kind == CMD and (tok.text in _CASED_COMMANDS or any(ch.isupper() for ch in tok.text)):
                return True
            if tok.kind == OPEN and k in groups and k not in text_braces:
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

    protected = [needs_protection(s, e) for s, e in words]
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
        # Merge a run of protected words separated by single spaces into one group.
        last = w
        while (last + 1 < len(words) and protected[last + 1]
               and words[last + 1][0] == words[last][1] + 1 and tokens[words[last][1]].kind == SPACE):
            last += 1
        inner = "".join(render(k) for k in range(start, words[last][1]))
        # "{\cmd…}" would be a BibTeX "special character", whose letters are case-changed:
        # "{{}\cmd…}" is not (the importer drops the empty group again). The same form after
        # "\cmd " or "\cmd{…} ", where a plain group would read as the command's argument.
        after_command = bool(_ARGUMENT_POSITION.search("".join(out[-3:])))
        # Likewise when no letter or formula stands outside commands and escaped symbols
        # ("*\LaTeX", "\$\LaTeX"): the importer reads braces around no plain letter as
        # literal text, not as protection.
        bare = _COMMAND_OR_SYMBOL.sub("", inner)
        marked = inner.startswith("\\") or after_command or not any(ch.isalpha() or ch == "$" for ch in bare)
        out.append("{{}" + inner + "}" if marked else "{" + inner + "}")
        pos = words[last][1]
        w = last + 1
    out.extend(render(k) for k in range(pos, len(tokens)))
    return _separate_backslashes("".join(out))


_MARKDOWN_HINT = re.compile(r"[*_]|://")  # what ``_markdown_marks`` acts on
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


@functools.lru_cache(maxsize=_NAME_CACHE)
def bib_name(name: str) -> str:
    """An author name for BibTeX's ``author`` field (names are joined with `` and ``)."""
    value = latex_value(bibtex_name_form(name))
    if re.search(r"(?i)(^|\s)and(\s|$)", value) or value.count(",") > 2 or not value.strip(","):
        # One unit for BibTeX: "and" would split it, more than two commas are an error.
        return "{{}" + value + "}" if value.startswith("\\") else "{" + value + "}"
    return value


def bib_url(url: str) -> str:
    """A URL as a .bib value: characters that would unbalance braces are percent-encoded."""
    return clean_text(url).replace("\\", "%5C").replace("{", "%7B").replace("}", "%7D").strip()


# ---------------------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------------------


def key_title_word(title_plain: str) -> str:
    for word in title_plain.split():
        folded = ascii_fold(re.sub(r"['’]", "", word))
        if folded and folded not in KEY_STOPWORDS:
            return folded
    return UNTITLED


def key_author(authors: Sequence[str]) -> str:
    if not authors:
        return ANONYMOUS
    return ascii_fold(family_name(authors[0])) or ANONYMOUS


def base_key(view: PaperView) -> str:
    return f"{key_author(view.paper.authors)}{view.venue.year}{key_title_word(view.title_plain)}"


def _suffixes() -> Iterable[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    for c in letters[1:]:
        yield c
    n = 2
    while True:  # aa, ab, … after z
        for i in range(len(letters) ** n):
            s, k = "", i
            for _ in range(n):
                s = letters[k % 26] + s
                k //= 26
            yield s
        n += 1


def assign_keys(views: Iterable[PaperView]) -> dict[str, str]:
    """slug → BibTeX key, unique in the catalog (see the module docstring)."""
    ordered = sorted(views, key=lambda v: (v.paper.added or datetime.date.min, v.slug))
    wanted = {v.slug: base_key(v) for v in ordered}
    taken: set[str] = set()
    keys: dict[str, str] = {}
    # Base keys first, so that a suffixed key never takes another paper's base key.
    firsts: dict[str, str] = {}
    for v in ordered:
        firsts.setdefault(wanted[v.slug], v.slug)
    taken.update(firsts)
    for v in ordered:
        base = wanted[v.slug]
        if firsts[base] == v.slug:
            keys[v.slug] = base
            continue
        for suffix in _suffixes():
            if base + suffix not in taken:
                keys[v.slug] = base + suffix
                taken.add(base + suffix)
                break
    return keys


# ---------------------------------------------------------------------------------------
# BibTeX entries
# ---------------------------------------------------------------------------------------


# The fields of the entry shown on a paper page (what one pastes into a paper); the .bib
# files have every field.
CITE_FIELDS = frozenset({"title", "author", "booktitle", "year", "address", "url", "eprint", "archiveprefix"})


def bibtex_fields(view: PaperView, url: str | None, location: str | None = None) -> list[tuple[str, str]]:
    """(field, value) pairs of a paper's full entry, values already in BibTeX form.

    ``url``: the ``url`` field (the paper's page, or its best external link). Besides
    the citation fields (``CITE_FIELDS``), every link under its kind, the presentation,
    the tag names as keywords and the abstract.
    """
    paper = view.paper
    venue = view.venue
    fields: list[tuple[str, str]] = [("title", latex_value(paper.title, protect=True))]
    if paper.authors:
        fields.append(("author", " and ".join(bib_name(a) for a in paper.authors)))
    fields.append(("booktitle", latex_value(venue.full_name)))
    fields.append(("year", str(venue.year)))
    if location:
        fields.append(("address", latex_value(location)))
    links = {link.kind: link.url for link in view.links}
    if url:
        fields.append(("url", bib_url(url)))
    eprint = arxiv_id(links["arxiv"]) if "arxiv" in links else None
    if eprint:
        fields.append(("eprint", eprint))
        fields.append(("archiveprefix", "arXiv"))
    for kind in LINK_FIELDS:
        if kind in links and not (kind == "arxiv" and eprint):
            fields.append((kind, bib_url(links[kind])))
    if view.presentation:
        fields.append(("presentation", view.presentation))
    if view.tags:
        fields.append(("keywords", latex_value(", ".join(t.name for t in view.tags))))
    if paper.abstract.strip():
        fields.append(("abstract", latex_value(paper.abstract.strip(), one_line_spaces=False)))
    return fields


def write_bibtex(entries: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """BibTeX text of ``(key, fields)`` entries, exactly as bibtexparser writes them with
    every value in braces, fields indented by two spaces and one newline between entries
    (``write_bibtex_with_bibtexparser``; ``tests/test_citations.py`` compares the two).

    Written here because going through bibtexparser's library, middleware and writer
    objects took a third of the time of a large catalog's exports.
    """
    keys = [key for key, _ in entries]
    if len(set(keys)) != len(keys):  # (bibtexparser's library refuses them too)
        raise ValueError(f"duplicate BibTeX keys: {sorted({k for k in keys if keys.count(k) > 1})}")
    return "\n".join(
        f"@{ENTRY_TYPE}{{{key},\n" + ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        + ("\n}\n" if fields else "}\n")
        for key, fields in entries
    )


def write_bibtex_with_bibtexparser(entries: Sequence[tuple[str, Sequence[tuple[str, str]]]]) -> str:
    """``write_bibtex`` by way of bibtexparser (the reference it must equal)."""
    library = bibtexparser.Library()
    for key, fields in entries:
        library.add(bibmodel.Entry(ENTRY_TYPE, key, [bibmodel.Field(k, v) for k, v in fields]))
    fmt = BibtexFormat()
    fmt.indent = "  "
    fmt.block_separator = "\n"
    stack = [AddEnclosingMiddleware(allow_inplace_modification=True, default_enclosing="{",
                                    reuse_previous_enclosing=False, enclose_integers=True)]
    return bibtexparser.write_string(library, unparse_stack=stack, bibtex_format=fmt)


# ---------------------------------------------------------------------------------------
# RIS, COinS, meta tags, JSON-LD
# ---------------------------------------------------------------------------------------


def ris_record(view: PaperView, url: str | None, key: str, location: str | None = None, *,
               full: bool, newline: str = "\n") -> str:
    """One RIS record (``TY  - CPAPER`` … ``ER  - ``); ``full`` adds keywords, abstract, links."""
    lines: list[tuple[str, str]] = [("TY", "CPAPER"), ("TI", text_as_shown(view.paper.title))]
    lines += [("AU", last_first(a)) for a in view.paper.authors]
    lines += [("T2", view.venue.full_name), ("PY", str(view.venue.year))]
    if location:
        lines.append(("CY", location))
    if url:
        lines.append(("UR", url))
    pdf = next((link.url for link in view.links if link.kind == "pdf"), None)
    if pdf:
        lines.append(("L1", pdf))
    lines.append(("ID", key))
    if full:
        lines += [("KW", t.name) for t in view.tags]
        if view.abstract_plain:
            lines.append(("AB", view.abstract_plain))
        lines += [("UR", link.url) for link in view.links if link.url != url and link.kind != "pdf"]
    lines.append(("ER", ""))
    return "".join(f"{tag}  - {one_line(value)}{newline}" for tag, value in lines)


def coins_kev(view: PaperView, url: str | None = None) -> str:
    """The OpenURL (Z39.88-2004) ContextObject of a paper, for a COinS ``<span title>``.

    ``url``: the paper's page (default: its best external link). Zotero reads this as a
    conference paper: title, authors, proceedings title, year.
    """
    pairs: list[tuple[str, str]] = [
        ("ctx_ver", "Z39.88-2004"),
        ("rft_val_fmt", "info:ofi/fmt:kev:mtx:book"),
        ("rfr_id", "info:sid/papershelf"),
        ("rft.genre", "proceeding"),
        ("rft.atitle", text_as_shown(view.paper.title)),
        ("rft.btitle", one_line(view.venue.full_name)),
        ("rft.date", str(view.venue.year)),
    ]
    authors = view.paper.authors
    if authors:
        parts = name_parts(authors[0])
        if parts is not None and parts.first:
            pairs += [("rft.aulast", " ".join(parts.von + parts.last).replace("{", "").replace("}", "")),
                      ("rft.aufirst", " ".join(parts.first).replace("{", "").replace("}", ""))]
        else:
            pairs.append(("rft.au", one_line(authors[0])))
        pairs += [("rft.au", one_line(a)) for a in authors[1:]]
    target = url or best_link(view)
    if target:
        pairs.append(("rft_id", target))
    return "&".join(f"{_percent_encode(k)}={_percent_encode(v)}" for k, v in pairs)


# Percent-encoding of each UTF-8 byte as ``urllib.parse.quote(text, safe="")`` does it:
# letters, digits and ``_.-~`` as they are, every other byte as ``%XX``.
_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~")
_PERCENT_BYTES = tuple(chr(b) if b in _UNRESERVED else f"%{b:02X}" for b in range(256))


def _percent_encode(text: str) -> str:
    """``quote(text, safe="")`` (what ``urlencode(pairs, quote_via=quote, safe="")`` applies
    to each key and value), without its per-byte Python calls."""
    return "".join(map(_PERCENT_BYTES.__getitem__, text.encode("utf-8")))


@dataclass(frozen=True, slots=True)
class Meta:
    name: str
    content: str


def highwire_tags(view: PaperView, page_url: str) -> tuple[Meta, ...]:
    """``citation_*`` tags (Google Scholar, Zotero), in the order Scholar documents them."""
    tags = [Meta("citation_title", text_as_shown(view.paper.title))]
    tags += [Meta("citation_author", one_line(a)) for a in view.paper.authors]
    tags.append(Meta("citation_publication_date", str(view.venue.year)))
    tags.append(Meta("citation_conference_title", one_line(view.venue.full_name)))
    pdf = next((link.url for link in view.links if link.kind == "pdf"), None)
    if pdf:
        tags.append(Meta("citation_pdf_url", pdf))
    tags.append(Meta("citation_abstract_html_url", page_url))
    arxiv = next((arxiv_id(link.url) for link in view.links if link.kind == "arxiv"), None)
    if arxiv:
        tags.append(Meta("citation_arxiv_id", arxiv))
    if view.tags:
        tags.append(Meta("citation_keywords", "; ".join(t.name for t in view.tags)))
    return tuple(tags)


_COMPACT_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # json.dumps(data, these options)


def json_for_script(data: object) -> Markup:
    """JSON for a ``<script type="application/ld+json">`` element.

    ``<``, ``>`` and ``&`` are written as ``\\u003c`` … (they only occur inside JSON strings,
    where the escapes mean the same), so no content can end the script element or open an
    HTML comment; U+2028/U+2029 are escaped for old JavaScript parsers.
    """
    text = _COMPACT_JSON.encode(data)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return Markup(text)


def json_ld(view: PaperView, urls: SiteUrls, config: SiteConfig) -> dict[str, object]:
    """schema.org ``ScholarlyArticle`` data of a paper."""
    page = urls.absolute(view.url)
    data: dict[str, object] = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "name": text_as_shown(view.paper.title),
        "headline": text_as_shown(view.paper.title),
    }
    if page:
        data["@id"] = page
        data["url"] = page
        data["mainEntityOfPage"] = page
    if view.paper.authors:
        data["author"] = [
            {"@type": "Person", "name": one_line(name),
             **({"url": urls.absolute(ref.url)} if urls.absolute_base else {})}
            for name, ref in zip(view.paper.authors, view.authors)
        ]
    data["datePublished"] = str(view.venue.year)
    event: dict[str, object] = {"@type": "PublicationEvent", "name": one_line(view.venue.full_name)}
    if urls.absolute_base:
        event["url"] = urls.absolute(view.venue.url)
    data["publication"] = event
    if view.abstract_plain:
        data["abstract"] = one_line(view.abstract_plain)
    if view.description:
        data["description"] = one_line(view.description)
    if view.tags:
        data["keywords"] = [t.name for t in view.tags]
    if config.language:
        data["inLanguage"] = config.language
    external = [link.url for link in view.links]
    if external:
        data["sameAs"] = external
    pdf = next((link.url for link in view.links if link.kind == "pdf"), None)
    if pdf:
        data["encoding"] = {"@type": "MediaObject", "contentUrl": pdf, "encodingFormat": "application/pdf"}
    return data


# ---------------------------------------------------------------------------------------
# The per-paper bundle and the catalog index
# ---------------------------------------------------------------------------------------


class Citation:
    """Everything a paper page, a list item or an export needs to cite a paper.

    The light fields are computed when the citation is made: list items need the COinS of
    every paper, about ten times per build. The texts (BibTeX, RIS, meta tags, JSON-LD) are
    computed on each access instead of kept: each is used once or twice per build (the paper
    page, the exports), and keeping them took ~180 MB at 10,000 papers.
    """

    __slots__ = ("_index", "_view", "_location", "key", "url", "page_url", "bib_path", "ris_path",
                 "coins", "canonical")

    def __init__(self, index: CitationIndex, view: PaperView):
        urls = index.urls
        self._index = index
        self._view = view
        self._location = index.locations.get(view.venue.id)
        self.key: str = index.keys.get(view.slug) or base_key(view)
        self.page_url: str = urls.best(view.url)  # absolute page URL, else a path from the host root
        # the BibTeX/RIS url: absolute page URL, else the best external link
        self.url: str | None = urls.absolute(view.url) or best_link(view)
        self.bib_path: str = paper_bib_path(view.slug)  # relative to the site root: papers/<slug>/<slug>.bib
        self.ris_path: str = paper_ris_path(view.slug)
        self.coins: str = coins_kev(view, self.url)  # OpenURL ContextObject for <span class="Z3988">
        self.canonical: str = self.page_url  # absolute when base_url is absolute, else a path

    @property
    def bibtex(self) -> str:
        """The entry shown on the page (no abstract)."""
        fields = [(name, value) for name, value in self._full_fields() if name in CITE_FIELDS]
        return write_bibtex([(self.key, fields)])

    @property
    def bibtex_full(self) -> str:
        """The .bib file: with abstract, keywords and every link."""
        return write_bibtex([(self.key, self._full_fields())])

    def _full_fields(self) -> list[tuple[str, str]]:
        return bibtex_fields(self._view, self.url, self._location)

    @property
    def ris(self) -> str:
        """Shown on the page (no abstract)."""
        return ris_record(self._view, self.url, self.key, self._location, full=False)

    @property
    def ris_full(self) -> str:
        """The .ris file (CRLF line ends, as RIS wants)."""
        return ris_record(self._view, self.url, self.key, self._location, full=True, newline="\r\n")

    @property
    def meta_names(self) -> tuple[Meta, ...]:
        """<meta name=… content=…>: Highwire, Twitter."""
        view = self._view
        names = list(highwire_tags(view, self.page_url))
        names += [Meta("twitter:card", "summary"), Meta("twitter:title", text_as_shown(view.paper.title))]
        if view.description:
            names.append(Meta("twitter:description", one_line(view.description)))
        return tuple(names)

    @property
    def meta_properties(self) -> tuple[Meta, ...]:
        """<meta property=… content=…>: OpenGraph."""
        view, index = self._view, self._index
        props = [Meta("og:type", "article"), Meta("og:title", text_as_shown(view.paper.title))]
        if view.description:
            props.append(Meta("og:description", one_line(view.description)))
        page_abs = index.urls.absolute(view.url)
        if page_abs:
            props.append(Meta("og:url", page_abs))
        props.append(Meta("og:site_name", one_line(index.config.title)))
        props.append(Meta("article:section", one_line(view.venue.name)))
        props += [Meta("article:tag", t.name) for t in view.tags]
        return tuple(props)

    @property
    def json_ld(self) -> Markup:
        """Escaped for a <script type="application/ld+json">."""
        return json_for_script(json_ld(self._view, self._index.urls, self._index.config))


class CitationIndex:
    """Citations of every paper of a site; keys are assigned once for the whole catalog."""

    def __init__(self, site: SiteData):
        self.site = site
        self.config = site.catalog.site
        self.urls = SiteUrls.from_config(self.config)
        self.keys = assign_keys(site.papers)
        self.locations = {v.ref.id: v.venue.location for v in site.venues}
        self._cache: dict[str, Citation] = {}

    @property
    def absolute(self) -> bool:
        return self.urls.absolute_base is not None

    def __call__(self, view: PaperView) -> Citation:
        return self.for_paper(view)

    def for_paper(self, view: PaperView) -> Citation:
        cached = self._cache.get(view.slug)
        if cached is None:
            cached = self._cache[view.slug] = self._make(view)
        return cached

    def _make(self, view: PaperView) -> Citation:
        return Citation(self, view)
