"""Text-mode LaTeX on markdown-it inline tokens: the core rule that walks each inline token
list, scans its text for LaTeX (commands, groups, accents, quotes, dashes, ties, citations)
and turns links with unsafe targets into text."""

from __future__ import annotations

import re
import unicodedata

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .latex_output import LatexOutput, text_token
from .latex_tables import (ARG_START, ARG_TAGS, ASCII_LETTERS, BREAKS, CITE_ARGS, CITE_COMMANDS, CONTROL_SYMBOLS,
                           DROP_ARG, DROP_TWO_ARGS, ENV_ARG, LATEX_URL_ESCAPE, LETTER_ACCENT_ARG, LETTER_ACCENTS,
                           OPT_ARG_START, SILENT, SPACES_AFTER, SWITCH_TAGS, SYMBOL_ACCENT_ARG, SYMBOL_ACCENTS,
                           TEXT_QUOTES, TEXT_SPECIAL, TEXT_SYMBOLS, WRAP_ARG)
from .links import check_href, link_attrs
from .math_plain import math_symbol
from .math_syntax import MATH_CLOSERS
from .settings import TITLE_ENV_KEY

# A word with one of these is a URL, DOI or path, whose dashes are not LaTeX dashes.
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


def _protect_literal(char: str) -> str:
    """An entity's character, written so that the LaTeX scanner shows it as itself."""
    if char == "\\":
        return "\\textbackslash{}"
    if char == "~":
        return "\\textasciitilde{}"
    if char in "{}":
        return "\\" + char
    return char


class _InlineLatex(LatexOutput):
    """Rewrites one inline token list: text-mode LaTeX to tokens, unsafe links to text."""

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
                result.append(text_token("".join(run)))
                run = []
            result.append(token)
        if run:
            result.append(text_token("".join(run)))
        return result

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
                cleaned = LATEX_URL_ESCAPE.sub("", href)
                self.auto_href = cleaned
                if cleaned != href:
                    token.attrSet("href", cleaned)
                    self.auto_text = self.md.normalizeLinkText(cleaned)
            if keep:
                href = None
                if not (self.title or self.in_link):
                    href = check_href(str(token.attrGet("href") or ""))
                if href is None:
                    keep = False
                else:
                    title = token.attrGet("title")
                    token.attrs = link_attrs(href, str(title) if title else None)
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
                closer = MATH_CLOSERS.get(token.markup, token.markup)
                self.collect.buf.append(f"{token.markup}{token.content}{closer}")
            elif kind in ("softbreak", "hardbreak"):
                self.collect.buf.append(" ")
            elif kind == "image":
                self.collect.buf.append(image_alt(token))
            else:
                self.collect.buf.append(token.content)
            return
        if kind in ("softbreak", "hardbreak") and self.title:
            self.emit_text(" ")
        elif kind == "image":
            self.emit_text(image_alt(token))
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
            match = TEXT_SPECIAL.search(s, pos)
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
        if tok in TEXT_QUOTES:  # LaTeX quotes that Markdown left alone
            self.emit_text(TEXT_QUOTES[tok])
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
        if tok[1] in ASCII_LETTERS:
            name = tok[1:]
            if name.endswith("*"):
                name = name[:-1]
            pos = self.command(name, s, end)
            self.arg_at = SPACES_AFTER.match(s, pos).end()  # type: ignore[union-attr]
            return pos
        return self.control_symbol(tok[1], s, match.start(), end)

    def control_symbol(self, char: str, s: str, start: int, end: int) -> int:
        if char in SYMBOL_ACCENTS:
            # \'e, \"{o}, \^{\i}: only when the result is one accented letter, so that
            # a Markdown escape such as \"quoted\" keeps its quote.
            accent = SYMBOL_ACCENT_ARG.match(s, end)
            composed = None
            if accent:
                composed = _compose(accent.group(1) or accent.group(2), SYMBOL_ACCENTS[char],
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
        self.emit_text(CONTROL_SYMBOLS.get(char, char))
        return end

    def command(self, name: str, s: str, end: int) -> int:
        if name in SWITCH_TAGS:
            self.switch(SWITCH_TAGS[name])
            return SPACES_AFTER.match(s, end).end()  # type: ignore[union-attr]
        if name in SILENT:
            return SPACES_AFTER.match(s, end).end()  # type: ignore[union-attr]
        if name in BREAKS:
            self.emit_text(" ")
            return SPACES_AFTER.match(s, end).end()  # type: ignore[union-attr]
        if name in ARG_TAGS:
            match = ARG_START.match(s, end)
            if match is None:
                return end
            tag = ARG_TAGS[name]
            self.open_arg([Token(f"{tag}_open", tag, 1)], [Token(f"{tag}_close", tag, -1)])
            return match.end()
        if name in WRAP_ARG:
            match = OPT_ARG_START.match(s, end)
            if match is None:
                return end
            before, after = WRAP_ARG[name]
            self.open_arg([text_token(before)], [text_token(after)])
            return match.end()
        if name in DROP_ARG or name in DROP_TWO_ARGS:
            match = OPT_ARG_START.match(s, end)
            if match is None:
                return end
            self.open_drop(1 if name in DROP_TWO_ARGS else 0)
            return match.end()
        if name in ("url", "href"):
            match = ARG_START.match(s, end)
            if match is None:
                return end
            self.start_collect(name)
            return match.end()
        if name in CITE_COMMANDS:
            match = CITE_ARGS.match(s, end)
            if match is None:
                return end
            self.start_collect("cite", (match.group(1), match.group(2)))
            return match.end()
        if name in ("begin", "end"):
            match = ENV_ARG.match(s, end)
            return match.end() if match else end
        if name in LETTER_ACCENTS:
            match = LETTER_ACCENT_ARG.match(s, end)
            if match:
                base = match.group(1) or match.group(2)
                self.emit_text(_compose(base, LETTER_ACCENTS[name]) or base)
                return match.end()
            if name not in TEXT_SYMBOLS:
                return end
        if name in TEXT_SYMBOLS:
            self.emit_text(TEXT_SYMBOLS[name])
            return end
        symbol = math_symbol(name)
        if symbol is not None:
            self.emit_text(" " if symbol.isspace() else symbol)
            return end
        if ARG_START.match(s, end):
            return end  # unknown command with an argument: keep the argument, drop the name
        self.emit_text(name)
        return end


def image_alt(token: Token) -> str:
    if token.children:
        return "".join(
            child.content for child in token.children if child.type in ("text", "text_special", "code_inline")
        )
    return token.content


def latex_core_rule(state: StateCore) -> None:
    env = state.env
    title = bool(env.get(TITLE_ENV_KEY)) if isinstance(env, dict) else False
    for token in state.tokens:
        if token.type == "inline" and token.children is not None:
            token.children = _InlineLatex(title, state.md).run(token.children)
