"""Math to plain text: a small, forgiving LaTeX math reader that writes a linear, searchable
form (``$\\mathcal{O}(n^2)$`` -> ``O(n^2)``, ``\\alpha`` -> α) for the search index and metadata."""

from __future__ import annotations

import functools
import re
import unicodedata

from latex2mathml.symbols_parser import SYMBOLS as _L2M_SYMBOLS

from .settings import CACHE_SIZE


def _double_struck() -> dict[str, str]:
    table = {}
    for letter in "CHNPQRZ":  # the ones in the Basic Multilingual Plane
        table[letter] = unicodedata.lookup(f"DOUBLE-STRUCK CAPITAL {letter}")
    return table


_DOUBLE_STRUCK = str.maketrans(_double_struck())

_MATH_SYMBOL_OVERRIDES = {
    "cdot": "·", "cdotp": "·", "top": "⊤", "sim": "∼", "ast": "*", "colon": ":", "mid": "|",
    "vert": "|", "lvert": "|", "rvert": "|", "Vert": "‖", "lVert": "‖", "rVert": "‖",
    "lbrace": "{", "rbrace": "}", "setminus": "∖", "backslash": "\\", "ldots": "…",
    "dots": "…", "dotsc": "…", "cdots": "⋯", "prime": "′", "lt": "<", "gt": ">", "le": "≤",
    "ge": "≥", "leq": "≤", "geq": "≥", "neq": "≠", "ne": "≠", "to": "→", "gets": "←",
    "infty": "∞", "emptyset": "∅", "varnothing": "∅", "epsilon": "ε", "varepsilon": "ε",
    "phi": "φ", "varphi": "φ", "vartheta": "θ", "varrho": "ρ", "varsigma": "ς", "varpi": "π",
    "varkappa": "κ", "minus": "-", "lbrack": "[", "rbrack": "]", "langle": "⟨", "rangle": "⟩",
}
_MATH_FRACS = frozenset({"frac", "dfrac", "tfrac", "cfrac", "nicefrac", "sfrac"})
_MATH_BINOMS = frozenset({"binom", "dbinom", "tbinom"})
_MATH_KEEP_ARG = frozenset(
    "mathrm mathit mathbf mathsf mathtt mathcal mathscr mathfrak mathnormal boldsymbol bm pmb "
    "text textrm textit textbf textsf texttt textsc textup textnormal textmd emph mbox hbox "
    "operatorname mathop mathbin mathrel mathord mathpunct mathinner ensuremath underline "
    "boxed fbox framebox cancel bcancel xcancel sout displaylines smash mathclap mathllap "
    "mathrlap llap rlap overbrace underbrace".split()
)
_MATH_DOUBLE_STRUCK = frozenset({"mathbb", "mathds", "mathbbm", "Bbb", "mathbbb"})
_MATH_ACCENTS = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303",
    "bar": "\u0304", "overline": "\u0305", "vec": "\u20d7", "overrightarrow": "\u20d7",
    "dot": "\u0307", "ddot": "\u0308", "check": "\u030c", "breve": "\u0306",
    "acute": "\u0301", "grave": "\u0300", "mathring": "\u030a",
}
_MATH_DROP_ARG = frozenset(
    "label tag hspace vspace phantom hphantom vphantom color mkern kern hskip mspace".split()
)
_MATH_DROP_FIRST = frozenset({"textcolor", "colorbox", "href", "class", "style", "cssId", "fcolorbox"})
_MATH_DELIM_SIZERS = frozenset(
    "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr bigm Bigm "
    "biggm Biggm".split()
)
_MATH_IGNORE = frozenset(
    "displaystyle textstyle scriptstyle scriptscriptstyle bf rm it cal sf tt mit bold "
    "limits nolimits nonumber notag hline mathstrut strut allowbreak nobreak relax "
    "def newcommand renewcommand providecommand let DeclareMathOperator".split()
)
_MATH_SPACES = frozenset(
    "quad qquad enspace enskip thinspace medspace thickspace space nobreakspace".split()
)
_MATH_CONTROL = {
    "{": "{", "}": "}", "|": "‖", ",": " ", ":": " ", ";": " ", ">": " ", " ": " ", "!": "",
    "\\": " ", "\n": " ", "\t": " ",
}
_MATH_TOKEN = re.compile(r"\\(?:[A-Za-z]+\*?|[^A-Za-z]|$)|\s+|.", re.DOTALL)
_ATOMIC = re.compile(r"[-+]?[\w.′]+|.")
_POSTFIX_SCRIPTS = {"′": "′", "″": "″", "‴": "‴", "*": "*", "∗": "*", "⋆": "*", "†": "†",
                    "‡": "‡", "'": "′"}
_PAREN_SPACE_OPEN = re.compile(r"([(\[{])\s+")
_PAREN_SPACE_CLOSE = re.compile(r"\s+([)\]}])")
_SPACES = re.compile(r"\s+")


def math_symbol(name: str) -> str | None:
    """The Unicode character for a symbol command such as ``alpha`` or ``times``, or None."""
    symbol = _MATH_SYMBOL_OVERRIDES.get(name)
    if symbol is not None:
        return symbol
    code = _L2M_SYMBOLS.get("\\" + name)
    if code is None:
        return None
    try:
        return chr(int(code, 16))
    except ValueError:
        return None


def _wrap(text: str) -> str:
    text = text.strip()
    return text if _ATOMIC.fullmatch(text) else f"({text})"


class _MathPlain:
    """A small, forgiving LaTeX math reader that writes linear plain text."""

    def __init__(self, latex: str):
        self.toks = _MATH_TOKEN.findall(latex)
        self.n = len(self.toks)
        self.i = 0

    def _skip_spaces(self) -> int:
        j = self.i
        while j < self.n and self.toks[j].isspace():
            j += 1
        return j

    def seq(self, stop: str | None = None) -> str:
        out: list[str] = []
        while self.i < self.n:
            tok = self.toks[self.i]
            self.i += 1
            if stop is not None and tok == stop:
                break
            if tok.isspace():
                out.append(" ")
            elif tok == "{":
                out.append(self.seq("}"))
            elif tok == "}":
                continue  # stray closing brace
            elif tok in ("^", "_"):
                out.append(self.script(tok))
            elif tok in ("&", "~"):
                out.append(" ")
            elif tok[0] == "\\":
                text = self.command(tok)
                if (len(text) > 1 and text[0].isascii() and text[0].isalpha() and out
                        and out[-1][-1:].isalnum()):
                    out.append(" ")
                out.append(text)
            else:
                out.append(tok)
        return "".join(out)

    def arg(self) -> str:
        j = self._skip_spaces()
        if j >= self.n:
            self.i = j
            return ""
        tok = self.toks[j]
        if tok in ("}", "]"):
            self.i = j
            return ""
        self.i = j + 1
        if tok == "{":
            return self.seq("}")
        if tok[0] == "\\":
            return self.command(tok)
        return tok

    def optional(self) -> str | None:
        j = self._skip_spaces()
        if j < self.n and self.toks[j] == "[":
            self.i = j + 1
            return self.seq("]")
        return None

    def script(self, kind: str) -> str:
        text = self.arg().strip()
        if not text:
            return ""
        if text in ("⊤", "⊺"):
            text = "T"
        if kind == "^" and text in _POSTFIX_SCRIPTS:
            return _POSTFIX_SCRIPTS[text]
        if _ATOMIC.fullmatch(text):
            return kind + text
        return f"{kind}({text})"

    def command(self, tok: str) -> str:
        name = tok[1:]
        if name.endswith("*") and len(name) > 1:
            name = name[:-1]
        if not name:
            return ""
        if len(name) == 1 and not name.isalpha():
            return _MATH_CONTROL.get(name, name)
        if name in _MATH_DELIM_SIZERS:
            j = self._skip_spaces()
            if j < self.n and self.toks[j] == ".":
                self.i = j + 1
            return ""
        if name in _MATH_IGNORE:
            return ""
        if name in _MATH_SPACES:
            return " "
        if name in ("negthinspace", "negmedspace", "negthickspace"):
            return ""
        if name in _MATH_FRACS:
            num, den = self.arg(), self.arg()
            return f"{_wrap(num)}/{_wrap(den)}"
        if name in _MATH_BINOMS:
            top, bottom = self.arg(), self.arg()
            return f"({top.strip()} choose {bottom.strip()})"
        if name in ("sqrt", "surd"):
            index = self.optional()
            body = _wrap(self.arg())
            index = index.strip() if index else ""
            prefix = {"": "√", "2": "√", "3": "∛", "4": "∜"}.get(index, f"{index}√")
            return prefix + body
        if name in _MATH_DOUBLE_STRUCK:
            return self.arg().translate(_DOUBLE_STRUCK)
        if name in _MATH_KEEP_ARG:
            return self.arg()
        if name in _MATH_ACCENTS:
            body = self.arg()
            if len(body) == 1:
                return unicodedata.normalize("NFC", body + _MATH_ACCENTS[name])
            return body
        if name in _MATH_DROP_ARG:
            self.arg()
            return ""
        if name in _MATH_DROP_FIRST:
            self.arg()
            return self.arg()
        if name in ("overset", "stackrel"):
            self.arg()
            return self.arg()
        if name == "underset":
            below = self.arg().strip()
            base = self.arg()
            return base + (("_" + _wrap(below)) if below else "")
        if name == "not":
            body = self.arg()
            if len(body) == 1:
                return unicodedata.normalize("NFC", body + "\u0338")
            return "¬" + body
        if name in ("begin", "end"):
            env = self.arg().strip()
            if name == "begin" and env in ("array", "tabular", "subarray"):
                self.arg()
            return " "
        if name in ("operatorname", "mathop"):
            return self.arg()
        symbol = math_symbol(name)
        if symbol is not None:
            return " " if symbol.isspace() else symbol
        j = self._skip_spaces()
        if j < self.n and self.toks[j] == "{":
            return ""  # unknown command with an argument: keep the argument only
        if len(name) == 1:
            return name.translate(_DOUBLE_STRUCK)  # \R, \N, \Z: the usual macros for sets
        return name


@functools.lru_cache(maxsize=CACHE_SIZE)
def math_plain(latex: str) -> str:
    try:
        text = _MathPlain(latex).seq()
    except Exception:  # e.g. RecursionError on absurdly nested braces
        text = re.sub(r"\\([A-Za-z]+)", r"\1", latex)
        text = re.sub(r"[{}]", "", text)
    text = unicodedata.normalize("NFC", text)
    text = _SPACES.sub(" ", text).strip()
    text = _PAREN_SPACE_OPEN.sub(r"\1", text)
    return _PAREN_SPACE_CLOSE.sub(r"\1", text)
