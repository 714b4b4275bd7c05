"""What an import does to a title or abstract once its format's reader made it content text
(Markdown with LaTeX, which the site's text layer renders as it renders the seeds'), counted
by kind for the import's summary (``TextRepairs``):

* **wrapping quotes removed**: a text wholly inside quotes (CVF's abstracts are
  ``"We present …"``; also “…”, «…» and LaTeX's ````…''``) loses them; quotes inside it are
  kept, and so are quotes that open and close parts of it (``"A" and "B"``).
* **citations dropped**: there is no bibliography on the site, so a citation in an abstract
  (``\\cite{Gregor10}``, ``\\citep``, ``\\parencite`` …) that the sentence reads without is
  dropped with the space before it ("the task \\cite{x}, a" → "the task, a"; "(\\cite{x})"
  goes whole). One the sentence needs stays, and the page marks it ``[x]``: a textual
  citation (``\\citet``, ``\\citeauthor``, ``\\textcite`` …), one that starts a sentence, or
  one after a word that wants an object ("as in \\cite{x}", "see", "by", "e.g."). Only for
  the record importers: the seeds' text is the curator's own (``drop_citations``).
* **LaTeX read as text**: the commands (``\\emph``, ``\\%``, ``\\'``) and formulas left for the
  text layer, which shows them as emphasis, characters and MathML: counted by command.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..text.tokens import CMD, MATH, SYM, tokenize

# Opening quote → its closing quote, for a text wholly inside them.
_WRAPPERS = {'"': '"', "\u201c": "\u201d", "\u00ab": "\u00bb", "``": "''", "\u201e": "\u201c"}
_OPENERS = frozenset("\u201c\u00ab\u201e")
_CLOSERS = frozenset("\u201d\u00bb")
_OPENING_CONTEXT = frozenset(" \t\n([{\u2013\u2014-/")  # a straight quote after these opens

_ONE_CITE = r"\\(?P<name>[A-Za-z]*cite[A-Za-z]*)\*?(?:\s*\[[^\]\n]*\]){0,2}\s*\{[^{}\n]*\}"
_NEXT_CITE = _ONE_CITE.replace("?P<name>", "?:")
# One citation, or several in a row ("\cite{a}; \cite{b}"), with the space before them and,
# when they alone fill them, their parentheses.
_CITE = re.compile(rf"(?P<space>[\s~]*)(?P<open>\(\s*)?{_ONE_CITE}(?:\s*[;,]?\s*{_NEXT_CITE})*(?(open)\s*\))")
# Textual citations: the author's name is part of the sentence.
_TEXTUAL = frozenset({"citet", "Citet", "citeauthor", "Citeauthor", "textcite", "Textcite", "citealt",
                      "Citealt", "citeyear", "citeyearpar", "citenum", "citetitle", "fullcite"})
# Words after which a citation is the object the sentence needs ("as shown in \cite{x}").
_WANTS_OBJECT = frozenset("""in of by see from to and or as with than following like unlike including
    cf cf. e.g. e.g., i.e. i.e., eg eg. ie see, also via per on at after before over within into
    follow follows followed extend extends extending""".split())
_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s*|\n\s*)$")
# What the importers write to show characters as typed: escapes, not LaTeX read as text.
_ESCAPES = frozenset({"\\textless", "\\textgreater", "\\textbackslash", "\\textasciitilde", "\\*", "\\_", "\\`",
                      "\\@", "\\]", "\\[", "\\{", "\\}", "\\$", "\\#", "\\-", "\\+", "\\>"})
SHOWN_COMMANDS = 8  # commands named in the summary line


def unwrap_quotes(text: str) -> str | None:
    """``text`` without the quotes that wrap all of it, or None when none do (see the module docstring)."""
    stripped = text.strip()
    for opener, closer in _WRAPPERS.items():
        if (len(stripped) > len(opener) + len(closer) and stripped.startswith(opener)
                and stripped.endswith(closer)):
            inner = stripped[len(opener):-len(closer)]
            if inner.strip() and _balanced(inner, opener):
                return inner.strip()
    return None


def _balanced(inner: str, opener: str) -> bool:
    """Whether no quote in ``inner`` closes the outer one before its end (inner quotes pair up)."""
    depth = 0
    if opener == '"':
        for i, ch in enumerate(inner):
            if ch != '"':
                continue
            opens = i == 0 or inner[i - 1] in _OPENING_CONTEXT
            depth += 1 if opens else -1
            if depth < 0:
                return False
        return depth == 0
    if opener == "``":
        return inner.count("``") == inner.count("''") and all(
            inner[:i].count("``") >= inner[:i].count("''") for i in range(len(inner)) if inner.startswith("''", i))
    for ch in inner:
        if ch in _OPENERS and not (opener == "\u201e" and ch == "\u201c"):
            depth += 1
        elif ch in _CLOSERS or (opener == "\u201e" and ch == "\u201c"):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _math_spans(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for tok in tokenize(text, spaces=False):
        if tok.kind == MATH:
            spans.append((pos, pos + len(tok.text)))
        pos += len(tok.text)
    return spans


def drop_citations(text: str) -> tuple[str, int, int]:
    """(``text`` without the citations it reads well without, how many were dropped, how many kept)."""
    if "cite" not in text:
        return text, 0, 0
    spans = _math_spans(text) if "$" in text or "\\(" in text or "\\[" in text else []
    out: list[str] = []
    last = dropped = kept = 0
    for match in _CITE.finditer(text):
        start = match.start("open") if match.group("open") else match.end("space")
        if any(a <= start < b for a, b in spans) or match.group("name") == "nocite":
            continue
        before = text[:match.start()]
        word = before.split()[-1].lower().lstrip("([{\"'\u201c") if before.split() else ""
        parenthesised = match.group("open") is not None
        if not parenthesised and (match.group("name") in _TEXTUAL or word in _WANTS_OBJECT
                                  or word.rstrip(",;") in _WANTS_OBJECT or _SENTENCE_START.search(before)):
            kept += 1
            continue
        out.append(text[last:match.start()])
        last = match.end()
        dropped += 1
    if not dropped:
        return text, 0, kept
    out.append(text[last:])
    return "".join(out), dropped, kept


def latex_commands(text: str) -> tuple[Counter, int]:
    """(the text-mode LaTeX commands of ``text`` by name, its formulas), escapes aside."""
    commands: Counter = Counter()
    formulas = 0
    if "\\" not in text and "$" not in text:
        return commands, 0
    for tok in tokenize(text, spaces=False):
        if tok.kind == MATH:
            formulas += 1
        elif tok.kind in (CMD, SYM) and tok.text not in _ESCAPES:
            commands[tok.text] += 1
    return commands, formulas


@dataclass
class TextRepairs:
    """The text repairs of one import and their counts (see the module docstring)."""

    drop_citations: bool = True
    quotes: list[str] = field(default_factory=list)  # where wrapping quotes were removed
    citations_dropped: int = 0
    citations_kept: int = 0
    citation_texts: int = 0  # texts that lost a citation
    commands: Counter = field(default_factory=Counter)  # LaTeX command -> times read as text
    latex_texts: Counter = field(default_factory=Counter)  # "titles"/"abstracts" -> texts with LaTeX
    formulas: int = 0

    def repair(self, text: str, where: str, *, title: bool = False) -> str:
        """``text`` with its wrapping quotes removed and the citations it reads well without
        dropped; its LaTeX counted."""
        if not text:
            return text
        unwrapped = unwrap_quotes(text)
        if unwrapped is not None:
            text = unwrapped
            self.quotes.append(f"{where} ({'title' if title else 'abstract'})")
        if self.drop_citations and not title:
            text, dropped, kept = drop_citations(text)
            self.citations_dropped += dropped
            self.citations_kept += kept
            self.citation_texts += dropped > 0
        commands, formulas = latex_commands(text)
        if commands or formulas:
            self.commands.update(commands)
            self.formulas += formulas
            self.latex_texts["titles" if title else "abstracts"] += 1
        return text

    def summary_lines(self, listed: Callable[[Sequence[str]], list[str]]) -> list[str]:
        """The summary's lines; ``listed`` writes a list of places (``repairs.listed``)."""
        counts = []
        if self.quotes:
            counts.append(f"wrapping quotes removed: {len(self.quotes):,}")
        if self.citations_dropped or self.citations_kept:
            counts.append(f"citations dropped: {self.citations_dropped:,}"
                          + (f", kept as [markers]: {self.citations_kept:,}" if self.citations_kept else ""))
        if self.commands:
            texts = " and ".join(_count(n, kind[:-1]) for kind, n in sorted(self.latex_texts.items(), reverse=True))
            shown = ", ".join(f"{name} {n:,}" for name, n in self.commands.most_common(SHOWN_COMMANDS))
            more = len(self.commands) - SHOWN_COMMANDS
            counts.append(f"LaTeX commands converted: {sum(self.commands.values()):,} in {texts} ({shown}"
                          + (f", {more:,} other kinds" if more > 0 else "") + ")")
        if self.formulas:
            counts.append(f"formulas shown as MathML: {self.formulas:,}")
        if not counts:
            return []
        lines = ["Text repaired and read as LaTeX: " + "; ".join(counts) + "."]
        if self.quotes:
            lines.append("Wrapping quotes removed from:")
            lines.extend(listed(self.quotes))
        return lines


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"
