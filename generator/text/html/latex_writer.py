"""The output side of the text-mode LaTeX rewriter: the tokens it writes, the groups open at
any point (braces, command arguments, font switches, dropped arguments) and the raw
arguments gathered for ``\\url``, ``\\href`` and ``\\cite``, which become links and citations.
What it reads (is an argument next? where does the argument end?) it reads with the
shared LaTeX tokenizer, ``text.tokens``, as the scanner in ``latex_rule`` does."""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..tokens import ACCENT_SYMBOLS, CLOSE, CMD, OPEN, SYM, text_kind_at, text_token_at, tokenize_text
from ..latex_commands import BLANKS, LATEX_GROUPS, MAX_GROUPS, TEMPLATE_CLOSERS
from .links import URL_CTRL, check_href, link_attrs


def text_token(content: str) -> Token:
    return Token("text", "", 0, content=content)


def blanks_end(s: str, pos: int) -> int:
    """The position after the spaces and tabs at ``s[pos]``."""
    return BLANKS.match(s, pos).end()  # type: ignore[union-attr]


def arg_start(s: str, pos: int) -> int | None:
    """Where an argument's text begins when ``{`` opens one at ``s[pos]`` (after blanks)."""
    pos = blanks_end(s, pos)
    return pos + 1 if text_kind_at(s, pos) == OPEN else None


def _starts_with_command(s: str, pos: int) -> bool:
    """Whether a group whose text begins at ``s[pos]`` opens with a command or an accent:
    ``{\\bf x}``, ``{\\em x}``, ``{\\"o}``."""
    pos = blanks_end(s, pos)
    kind = text_kind_at(s, pos)
    return kind == CMD or (kind == SYM and s[pos + 1] in ACCENT_SYMBOLS)


def unescape(raw: str) -> str:
    """A collected argument with each control symbol as its character (``a\\_b`` is ``a_b``)."""
    return "".join(tok.text[1] if tok.kind == SYM else tok.text for tok in tokenize_text(raw))


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


class LatexOutput:
    """What the rewriter of one inline token list has written and has open: the tokens
    and text written, the open groups, and the raw argument being collected (the scanner
    and the walk over the tokens are in ``latex_rule``)."""

    def __init__(self, title: bool, md: MarkdownIt):
        self.title = title
        self.md = md  # the parser: how it normalises link targets and texts
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
        self.latex_groups = 0  # open entries that are LaTeX groups (LATEX_GROUPS)
        self.arg_at = -1  # where a "{" would be a command's argument, in the text being scanned
        self.no_closer: dict[str, int] = {}  # template closers absent after a position in it

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
        if not url or URL_CTRL.search(url):
            return None
        return check_href(self.md.normalizeLink(url))

    def emit_link(self, url: str) -> None:
        text = url.strip()
        href = self.href_for(text)
        if href is None:
            self.emit_text(text)
            return
        self.push(Token("link_open", "a", 1, attrs=link_attrs(href)))
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
        if entry.kind in LATEX_GROUPS:
            self.latex_groups += 1

    def pop_entry(self) -> _Entry:
        entry = self.stack.pop()
        if entry.kind in LATEX_GROUPS:
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
        if len(self.stack) < MAX_GROUPS:  # beyond that, keep the text and skip the tags
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
        if len(self.stack) >= MAX_GROUPS:
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
        closer = TEMPLATE_CLOSERS.get(s[end : end + 1])
        if closer is not None:
            stop = self.find_closer(s, end + 1, closer)
            if stop >= 0:
                self.emit_text(s[start:stop])
                self.arg_at = -1
                return stop
        if start == self.arg_at or self.latex_groups or _starts_with_command(s, end):
            placeholder = text_token("{")
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
            pos = arg_start(s, end)
            if pos is not None:
                self.open_drop(entry.more_drops - 1)
                return pos
        return end

    # -- collecting raw arguments ------------------------------------------------------

    def start_collect(self, kind: str, notes: tuple[str | None, str | None] = (None, None)) -> None:
        self.collect = _Collect(kind, notes)

    def collect_text(self, s: str, pos: int) -> int:
        """Gather the text from ``s[pos]`` up to the brace that closes the argument."""
        c = self.collect
        assert c is not None
        start, n = pos, len(s)
        while pos < n:
            tok = text_token_at(s, pos)
            if tok.kind == OPEN:
                c.level += 1
            elif tok.kind == CLOSE:
                if c.level == 0 and c.inner == 0:
                    c.buf.append(s[start:pos])
                    self.collect = None
                    return self.finish_collect(c, s, pos + 1)
                elif c.level > 0:
                    c.level -= 1
            pos += len(tok.text)
        c.buf.append(s[start:])
        return n

    def finish_collect(self, c: _Collect, s: str, pos: int) -> int:
        raw = unescape("".join(c.buf))
        if c.kind == "cite":
            self.emit_cite(raw, c.notes)
            return pos
        if c.kind == "url":
            self.emit_link(raw)
            return pos
        # \href{url}{text}
        start = arg_start(s, pos)
        if start is None:
            self.emit_link(raw)
            return pos
        href = self.href_for(raw)
        entry = _Entry("arg", self.depth)
        if href is not None:
            self.push(Token("link_open", "a", 1, attrs=link_attrs(href)))
            entry.closers = [Token("link_close", "a", -1)]
            entry.link = True
            self.in_link += 1
        self.open_entry(entry)
        return start

    def abort_collect(self) -> None:
        c = self.collect
        self.collect = None
        if c is not None:
            self.emit_text(unescape("".join(c.buf)))
