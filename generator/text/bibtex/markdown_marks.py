"""Markdown in content text that LaTeX must see differently, found token by token for
``to_bibtex.latex_value``: bare URLs (→ \\url{…}, which LaTeX reads verbatim) and emphasis
(*x*, _x_ → \\emph{x}; **x**, __x__ → \\textbf{x}), by CommonMark's flanking rules."""

from __future__ import annotations

import re
from typing import Sequence

from ..tokens import CHAR, CLOSE, OPEN, SPACE, Tok

BARE_URL = re.compile(r"(?<![^\W_]|/)(?:https?|ftp)://[^\s{}\\$<>\"\[\]]+")
URL_TRAILING = ".,;:!?'\")]"
_DELIMITERS = re.compile(r"\*{1,2}|_{1,2}")
MARKDOWN_HINT = re.compile(r"[*_]|://")  # what ``markdown_marks`` acts on


def markdown_marks(tokens: Sequence[Tok], groups: dict[int, int], verbatim: set[int]) -> dict[int, dict[int, str]]:
    """For CHAR tokens: {offset in the token: replacement} for URL bounds and emphasis marks.

    Replacements: ``"url:<"``/``"url:>"`` open/close ``\\url{…}`` around the URL starting/ending
    there (the URL's own characters are kept as they are: ``"raw"``), ``"\\emph{"`` … for an
    opening delimiter, ``"}"`` for a closing one, ``""`` for the second character of ``**``.
    """
    marks: dict[int, dict[int, str]] = {}
    in_url = _url_marks(tokens, verbatim, marks)
    _emphasis_marks(tokens, groups, verbatim, in_url, marks)
    return marks  # unpaired delimiters have no mark: they are escaped as text


def _url_marks(tokens: Sequence[Tok], verbatim: set[int], marks: dict[int, dict[int, str]]) -> set[tuple[int, int]]:
    """Marks the bare URLs, in runs of CHAR tokens ("~" is a token of its own); returns the
    (token, offset) of every character in a URL."""
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
        for match in BARE_URL.finditer(before + run_text):
            a, b = match.start() - 1, match.end() - 1
            if a < 0:
                continue
            while b > a and run_text[b - 1] in URL_TRAILING:
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
    return in_url


def _emphasis_marks(tokens: Sequence[Tok], groups: dict[int, int], verbatim: set[int], in_url: set[tuple[int, int]],
                    marks: dict[int, dict[int, str]]) -> None:
    """Marks emphasis by CommonMark's flanking rules, paired at one brace depth and paragraph."""
    n = len(tokens)
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


def _is_punct(char: str) -> bool:
    return bool(char) and not char.isalnum() and not char.isspace()
