"""Text-mode LaTeX in imported text, kept for the site's text layer (``markup``'s LaTeX
reading): whether a text holds LaTeX (``speaks_latex``), and a run of such text written as
content text, its commands, their arguments and ties kept, the rest escaped (``escape_latex``)."""

from __future__ import annotations

import re
from typing import Callable

from ..text.tokens import BACKSLASH, CHAR, CLOSE, CMD, MATH, OPEN, SYM, Tok, match_pairs, tokenize

# Text-mode LaTeX (``speaks_latex``): a command, a control symbol, or braces that protect capitals.
_LATEX_HINT = re.compile(r"\\(?:[A-Za-z]|[%&$_#{}'\"`^~=.,])|\{[\w\-]*[A-Z][\w\- ]*\}")
_PROTECTED = re.compile(r"[\w\-.'+/&: ]+")  # what braces that only protect capitals hold
_ACCENTS = frozenset("'\"^~`=.")  # control symbols that take an argument (accents: \'{e})
_URL_COMMANDS = frozenset({"\\url", "\\href"})


def speaks_latex(text: str) -> bool:
    """Whether ``text`` holds text-mode LaTeX: a command (``\\emph``), a control symbol
    (``\\%``, ``\\'e``) or braces that protect capitals (``{BERT}``, ``{W}izard``)."""
    return bool(_LATEX_HINT.search(text)) if ("\\" in text or "{" in text) else False


def escape_latex(text: str, escape_text: Callable[[str], str]) -> str:
    """Text (no ``$`` formula) whose text-mode LaTeX is kept for the site to render:
    commands and control symbols (``\\emph``, ``\\%``, ``\\'``), the braces of their
    arguments and of groups that start with a command (``{\\bf x}``) and of any group in
    those, ``\\url``'s and ``\\href``'s URL as written and ties (``Fig.~3``); braces that
    only protect capitals (``{BERT}``, ``{W}izard``) are dropped. The rest is escaped as
    ``escape_text`` (markup's) escapes it: other braces are text, as is a lone backslash."""
    text = text.replace("\n", " ")
    tokens = tokenize(text, spaces=False)
    groups, _ = match_pairs(tokens, lambda t: t.kind == OPEN, lambda t: t.kind == CLOSE)
    out: list[str] = []
    kept: set[int] = set()  # braces written as LaTeX (both of each pair)
    dropped: set[int] = set()  # protective braces (both of each pair)
    arguments: set[int] = set()  # opening braces of command arguments
    open_kept = 0  # kept groups around the current token
    url_until = -1  # the closing brace of a \url or \href target being written as it is
    takes_argument = False  # the last token (blanks aside) takes an argument group
    previous_command = ""
    for i, tok in enumerate(tokens):
        kind = tok.kind
        if i < url_until:
            out.append(tok.text)
            continue
        if kind == OPEN and i in groups:
            inner = tokens[i + 1:groups[i]]
            if takes_argument or open_kept or (inner and inner[0].kind in (CMD, SYM)):
                kept.update((i, groups[i]))
                if takes_argument:
                    arguments.add(i)
                    if previous_command in _URL_COMMANDS:
                        url_until = groups[i]
                        previous_command = ""  # \href's second argument is text
            elif _protective(inner):
                dropped.update((i, groups[i]))
        if kind == OPEN and i in kept:
            open_kept += 1
            out.append("{")
        elif kind == CLOSE and i in kept:
            open_kept -= 1
            out.append("}")
        elif i in dropped:
            pass
        elif kind in (OPEN, CLOSE):
            out.append("\\" + tok.text)
        elif kind in (CMD, SYM, MATH):
            out.append(tok.text)
        elif kind == BACKSLASH:
            out.append("\\textbackslash{}")
        elif tok.text == "~":
            before = out[-1][-1:] if out and out[-1] else ""
            after = tokens[i + 1].text[:1] if i + 1 < len(tokens) else ""
            tie = before and after and not before.isspace() and not after.isspace()
            out.append("~" if tie else "\\textasciitilde{}")
        else:
            out.append(escape_text(tok.text))
        # Does the next group take an argument?
        if kind == CMD:
            takes_argument, previous_command = True, tok.text
        elif kind == SYM:
            takes_argument, previous_command = tok.text[1:] in _ACCENTS, ""
        elif kind == CLOSE and i in kept:
            takes_argument = groups[i] in arguments  # \href{url}{text}: arguments follow each other
        elif not (kind == CHAR and not tok.text.strip()):
            takes_argument, previous_command = False, ""
    return "".join(out)


def _protective(inner: list[Tok]) -> bool:
    """Whether a brace group holding ``inner`` only protects capitals, as BibTeX's braces do:
    words and a capital letter, nothing that makes the braces mean more (``{a, b}``)."""
    text = "".join(t.text for t in inner)
    return all(t.kind == CHAR for t in inner) and bool(_PROTECTED.fullmatch(text)) and text.lower() != text
