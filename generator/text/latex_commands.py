"""The tables of the text-mode LaTeX rewriter: what each command becomes (a tag, a symbol,
an accent, nothing, or its argument) and the few patterns it reads as typed rather than as
tokens (optional arguments, environment names, blanks)."""

from __future__ import annotations

import re

# A bare URL typed with LaTeX escapes (https://github.com/a\_b): the backslash is not meant.
LATEX_URL_ESCAPE = re.compile(r"%5C(?=[_%#&~$])", re.IGNORECASE)
BLANKS = re.compile(r"[ \t]*")
# Optional arguments, read as typed up to the first "]": \footnote[a]{...}, \cite[pre][post]{...}
OPT_ARGS = re.compile(r"[ \t]*(?:\[[^\]\n]*\][ \t]*)*")
CITE_NOTES = re.compile(r"[ \t]*(?:\[([^\]\n]*)\][ \t]*)?(?:\[([^\]\n]*)\][ \t]*)?")
ENV_ARG = re.compile(r"[ \t]*\{[^{}\n]*\}")  # \begin{name}: the name as typed
ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

ARG_TAGS: dict[str, str] = {
    "emph": "em", "textit": "em", "textsl": "em", "mathit": "em",
    "textbf": "strong", "mathbf": "strong", "boldsymbol": "strong", "bm": "strong",
    "texttt": "code", "mathtt": "code",
    "textsuperscript": "sup", "textsubscript": "sub",
    "underline": "u", "uline": "u",
}
SWITCH_TAGS = {
    "bf": "strong", "bfseries": "strong", "it": "em", "em": "em", "itshape": "em", "sl": "em",
    "slshape": "em", "tt": "code", "ttfamily": "code",
}
SILENT = frozenset(
    "rm sf sc scshape normalfont upshape mdseries rmfamily sffamily small large Large LARGE huge "
    "Huge tiny scriptsize footnotesize normalsize noindent indent centering raggedright "
    "raggedleft hfill vfill bigskip medskip smallskip maketitle relax protect xspace null "
    "nobreak clearpage newpage selectfont displaystyle textstyle scriptstyle ignorespaces "
    "unskip phantomsection frenchspacing sloppy fussy leavevmode hline toprule midrule "
    "bottomrule appendix tableofcontents nolinebreak allowbreak footnotemark".split()
)
BREAKS = frozenset({"par", "newline", "linebreak", "break", "cr", "vskip", "smallbreak"})
DROP_ARG = frozenset(
    "label nocite vspace hspace index bibliographystyle bibliography thanks pagestyle "
    "thispagestyle input include includegraphics usepackage documentclass color textcolor "
    "colorbox fcolorbox pagecolor hypersetup phantom hphantom vphantom keywords "
    "addcontentsline markboth markright".split()
)
DROP_TWO_ARGS = frozenset(
    "newcommand renewcommand providecommand setlength addtolength setcounter addtocounter "
    "DeclareMathOperator newenvironment".split()
)
WRAP_ARG = {"footnote": (" (", ")")}
CITE_COMMANDS = frozenset(
    "cite citep citet citealp citealt citeauthor citeyear citeyearpar parencite textcite "
    "autocite autocites footcite fullcite smartcite supercite Cite Citep Citet Parencite "
    "Textcite Autocite citenum".split()
)
# Commands that read a ``{`` after them (blanks, and optional ``[...]`` arguments where the
# command takes them, between) as the opening of their argument: that brace never starts a
# template tag, so ``\emph{{\em x}}`` is emphasis, not the text "{{\em x}}".
ARGUMENT_COMMANDS = frozenset(ARG_TAGS) | frozenset(WRAP_ARG) | DROP_ARG | DROP_TWO_ARGS | CITE_COMMANDS | {"url", "href"}
OPTIONAL_ARGUMENT_COMMANDS = frozenset(WRAP_ARG) | DROP_ARG | DROP_TWO_ARGS | CITE_COMMANDS
TEXT_SYMBOLS = {
    "LaTeX": "LaTeX", "LaTeXe": "LaTeX2ε", "TeX": "TeX", "BibTeX": "BibTeX", "ldots": "…",
    "dots": "…", "textellipsis": "…", "textendash": "–", "textemdash": "—",
    "textasciitilde": "~", "textasciicircum": "^", "textbackslash": "\\", "textbar": "|",
    "textless": "<", "textgreater": ">", "textbullet": "•", "textperiodcentered": "·",
    "textdegree": "°", "degree": "°", "textregistered": "®", "texttrademark": "™",
    "copyright": "©", "textcopyright": "©", "S": "§", "P": "¶", "dag": "†", "ddag": "‡",
    "pounds": "£", "textsterling": "£", "euro": "€", "texteuro": "€", "textyen": "¥",
    "textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“",
    "textquotedblright": "”", "textquotedbl": '"', "guillemotleft": "«", "guillemotright": "»",
    "textunderscore": "_", "textdollar": "$", "textdagger": "†", "checkmark": "✓",
    "i": "ı", "j": "ȷ", "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "o": "ø",
    "O": "Ø", "aa": "å", "AA": "Å", "l": "ł", "L": "Ł", "item": "•",
    "eg": "e.g.", "Eg": "E.g.", "ie": "i.e.", "Ie": "I.e.", "cf": "cf.", "Cf": "Cf.",
    "etc": "etc.", "vs": "vs.", "wrt": "w.r.t.", "dof": "d.o.f.", "etal": "et al.",
}
LETTER_ACCENTS = {
    "H": "\u030b", "c": "\u0327", "k": "\u0328", "v": "\u030c", "u": "\u0306", "r": "\u030a",
    "d": "\u0323", "b": "\u0331",
}
SYMBOL_ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307",
}
MAX_GROUPS = 32  # nested LaTeX groups that still produce tags
LATEX_GROUPS = frozenset({"brace", "arg", "drop"})  # _Entry kinds inside which "{" is a group
TEMPLATE_CLOSERS = {"{": "}}", "%": "%}", "#": "#}"}  # {{ x }}, {% x %}, {# x #}
TEXT_QUOTES = {"``": "\u201c", "`": "\u2018", "''": "\u201d"}
CONTROL_SYMBOLS = {"\\": " ", " ": " ", "\t": " ", "\n": " ", ",": "\u202f", ";": " ",
                    ":": " ", ">": " ", "@": "", "{": "{", "}": "}"}
