"""Text-mode LaTeX on markdown-it inline tokens: the core rule that walks each inline token
list, reads its text with the shared LaTeX tokenizer (``text.tokens``), rewrites what it
reads (commands, groups, accents, quotes, dashes, ties, citations) and turns links with
unsafe targets into text."""

from __future__ import annotations

import re
import unicodedata

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from ..tokens import BACKSLASH, CHAR, CLOSE, CMD, DASH, OPEN, QUOTE, TIE, Tok, text_kind_at, text_token_at
from .latex_writer import LatexOutput, arg_start, blanks_end, text_token
from ..latex_commands import (ARG_TAGS, ASCII_LETTERS, BREAKS, CITE_COMMANDS, CITE_NOTES, CONTROL_SYMBOLS, DROP_ARG,
                           DROP_TWO_ARGS, ENV_ARG, LATEX_URL_ESCAPE, LETTER_ACCENTS, OPT_ARGS, SILENT, SWITCH_TAGS,
                           SYMBOL_ACCENTS, TEXT_QUOTES, TEXT_SYMBOLS, WRAP_ARG)
from .links import check_href, link_attrs
from ..math_text import math_symbol
from .math_rules import MATH_CLOSERS
from ..settings import TITLE_ENV_KEY

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


def _accent_letter(s: str, pos: int, dotless: bool = True) -> tuple[str, int] | None:
    """The letter an accent goes on, read at ``s[pos]``: an ASCII letter or (``dotless``)
    ``\\i`` or ``\\j``, the dotless i and j; with the position after it."""
    kind = text_kind_at(s, pos)
    if kind == CHAR and s[pos] in ASCII_LETTERS:
        return s[pos], pos + 1
    if dotless and kind == CMD and text_token_at(s, pos).text.removesuffix("*") in ("\\i", "\\j"):
        return s[pos : pos + 2], pos + 2  # in "\\i*" the star comes after the letter
    return None


def _braced_accent_letter(s: str, pos: int) -> tuple[str, int] | None:
    """A group around one such letter at ``s[pos]`` (``{e}``, ``{ \\i }``): the letter and
    the position after the group."""
    if text_kind_at(s, pos) != OPEN:
        return None
    found = _accent_letter(s, blanks_end(s, pos + 1))
    if found is None:
        return None
    letter, end = found
    end = blanks_end(s, end)
    return (letter, end + 1) if text_kind_at(s, end) == CLOSE else None


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
        """Rewrite the text ``s``, token by token as the shared tokenizer reads it; a token
        that takes arguments returns where reading goes on."""
        pos, n = 0, len(s)
        self.arg_at = -1
        self.no_closer = {}
        while pos < n:
            if self.collect is not None:
                pos = self.collect_text(s, pos)
                continue
            tok = text_token_at(s, pos)
            if tok.kind == CHAR:
                self.emit_text(tok.text)
                pos += len(tok.text)
            else:
                pos = self.handle(tok, s, pos)

    def handle(self, tok: Tok, s: str, start: int) -> int:
        kind, end = tok.kind, start + len(tok.text)
        if kind == OPEN:
            return self.open_brace(s, start, end)
        if kind == CLOSE:
            return self.close_brace(s, end)
        if kind == QUOTE:  # LaTeX quotes that Markdown left alone
            self.emit_text(TEXT_QUOTES[tok.text])
            return end
        if kind == DASH:  # LaTeX's en and em dashes: "pages 3--5", "this---and that"
            literal = _literal_dashes(s, start, end)
            self.emit_text(tok.text if literal else "\u2014" if tok.text == "---" else "\u2013")
            return end
        if kind == TIE:
            before = s[start - 1] if start > 0 else self.last_char()
            after = s[end] if end < len(s) else "x"
            tie = not before.isspace() and not after.isspace() and before not in "/:="
            self.emit_text("\u00a0" if tie else "~")
            return end
        if kind == BACKSLASH:  # a lone backslash at the end of the text
            self.emit_text("\\")
            return end
        if kind == CMD:
            pos = self.command(tok.text[1:].removesuffix("*"), s, end)
            self.arg_at = blanks_end(s, pos)
            return pos
        return self.control_symbol(tok.text[1], s, start, end)

    def control_symbol(self, char: str, s: str, start: int, end: int) -> int:
        if char in SYMBOL_ACCENTS:
            # \'e, \"{o}, \^{\i}: only when the result is one accented letter, so that
            # a Markdown escape such as \"quoted\" keeps its quote.
            braced = _braced_accent_letter(s, end)
            found = braced or _accent_letter(s, end)
            if found is not None:
                composed = _compose(found[0], SYMBOL_ACCENTS[char], strict=braced is None)
                if composed is not None:
                    self.emit_text(composed)
                    return found[1]
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
            return blanks_end(s, end)
        if name in SILENT:
            return blanks_end(s, end)
        if name in BREAKS:
            self.emit_text(" ")
            return blanks_end(s, end)
        if name in ARG_TAGS:
            pos = arg_start(s, end)
            if pos is None:
                return end
            tag = ARG_TAGS[name]
            self.open_arg([Token(f"{tag}_open", tag, 1)], [Token(f"{tag}_close", tag, -1)])
            return pos
        if name in WRAP_ARG:
            pos = arg_start(s, OPT_ARGS.match(s, end).end())  # type: ignore[union-attr]
            if pos is None:
                return end
            before, after = WRAP_ARG[name]
            self.open_arg([text_token(before)], [text_token(after)])
            return pos
        if name in DROP_ARG or name in DROP_TWO_ARGS:
            pos = arg_start(s, OPT_ARGS.match(s, end).end())  # type: ignore[union-attr]
            if pos is None:
                return end
            self.open_drop(1 if name in DROP_TWO_ARGS else 0)
            return pos
        if name in ("url", "href"):
            pos = arg_start(s, end)
            if pos is None:
                return end
            self.start_collect(name)
            return pos
        if name in CITE_COMMANDS:
            notes = CITE_NOTES.match(s, end)
            pos = arg_start(s, notes.end())  # type: ignore[union-attr]
            if pos is None:
                return end
            self.start_collect("cite", (notes.group(1), notes.group(2)))  # type: ignore[union-attr]
            return pos
        if name in ("begin", "end"):
            match = ENV_ARG.match(s, end)
            return match.end() if match else end
        if name in LETTER_ACCENTS:
            # \c{c}, \v{ s }, \u{\i}, or a letter after a space: \c c
            pos = blanks_end(s, end)
            found = _braced_accent_letter(s, pos) or (_accent_letter(s, pos, dotless=False) if pos > end else None)
            if found:
                base, pos = found
                self.emit_text(_compose(base, LETTER_ACCENTS[name]) or base)
                return pos
            if name not in TEXT_SYMBOLS:
                return end
        if name in TEXT_SYMBOLS:
            self.emit_text(TEXT_SYMBOLS[name])
            return end
        symbol = math_symbol(name)
        if symbol is not None:
            self.emit_text(" " if symbol.isspace() else symbol)
            return end
        if arg_start(s, end) is not None:
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
