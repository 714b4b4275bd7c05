"""Stage 2, text: Markdown with LaTeX (titles and abstracts) to safe HTML with MathML, and
to plain text for search, metadata and citations.

Titles and abstracts are written the way researchers write them: Markdown with inline LaTeX
math (``$K$-means``, ``$\\mathcal{O}(n^2)$``) and text-mode LaTeX that leaked in from the
paper (``\\emph{...}``, ``\\url{...}``, ``\\cite{...}``, ``22\\%``, ``{\\bf x}``).

Public API (all pure and deterministic; results are memoised; see "When rendering fails"):

``render_abstract(source)``
    Block HTML. Markdown via markdown-it-py (CommonMark, raw HTML **off**, typographer off),
    bare ``http(s)://`` URLs and e-mail addresses linkified (trailing punctuation excluded;
    no "fuzzy" links, so ``model.py`` or ``www.example.org`` stay text),
    ``$...$`` / ``\\(...\\)`` inline math and ``$$...$$`` / ``\\[...\\]`` display math converted to MathML at
    build time with latex2mathml. A formula latex2mathml cannot convert (or that uses
    commands it does not know, or macro definitions) is shown as its source in
    ``<code class="math-source">`` (escaped). Only ``http``, ``https`` and ``mailto`` links
    survive; any other target (``javascript:``, ``data:``, relative paths, ...) is rendered as
    its text. External links get ``rel="noopener"``. Images are shown as their alt text (no
    hot-linked images in a catalogue). ``$`` followed or preceded by a digit ("costs $5 and
    $10") does not start math, unless the formula starts with a command or a script
    (``a 2$\\times$ speedup``, ``10$^{-3}$``); ``\\[...\\]`` holding a command or an operator is display
    math, as in LaTeX (otherwise Markdown's escaped brackets: ``\\[1\\]``), and so are the
    environments ``equation``, ``align``, ``gather``, ``multline``, ``eqnarray`` (starred too).
``render_title(source)``
    Inline HTML for a title (no ``<p>``, no ``<a>``: links become their text).
``plain_text(source)``
    Readable plain text for meta descriptions and the search index. Text that looks like
    HTML (``<b>``, ``<script>``) is kept as typed, as the page shows it: every consumer
    escapes plain text or sets it as ``textContent``.
``excerpt(plain, limit=200)``
    Cut plain text at a word boundary, adding "…" when cut; the result is at most ``limit``
    characters long, the ellipsis included.

Text-mode LaTeX (outside math), as a reader would expect it:

* ``\\emph``/``\\textit``/``\\textsl``/``{\\em x}``/``{\\it x}`` -> ``<em>``; ``\\textbf``/``{\\bf x}``
  -> ``<strong>``; ``\\texttt`` -> ``<code>``; ``\\textsuperscript``/``\\textsubscript`` ->
  ``<sup>``/``<sub>``; ``\\underline`` -> ``<u>``; ``\\footnote{x}`` -> " (x)".
* ``\\url{u}`` -> a link to ``u``; ``\\href{u}{text}`` -> a link on ``text`` (only if the target
  is http/https/mailto, never in titles or inside another link).
* **Citations**: there is no bibliography, so ``\\cite{a,b}`` (and ``\\citep``, ``\\citet``,
  ``\\parencite``, ...) becomes a visible marker with the keys,
  ``<cite class="latex-cite">[a, b]</cite>``; optional notes are kept the way LaTeX prints
  them (``\\cite[p.~5]{a}`` -> ``[a, p. 5]``). ``\\nocite`` disappears. In plain text
  citations are removed (with the space before them).
* ``\\$ \\% \\& \\_ \\# \\{ \\}`` -> the character (an escaped dollar never starts math);
  ``~`` between two non-space characters -> no-break space (a ``~`` next to a space, as in
  "~10%", stays a tilde); ``\\,`` -> narrow no-break space; ``\\\\`` -> a space; accents
  (``Erd\\H{o}s``, ``R\\'enyi``, ``Schr\\"odinger``) -> the accented letter; ````x''`` ->
  "x"; ``\\LaTeX``, ``\\ldots``, ``\\S``, ``\\ss``, ``\\eg``, ``\\ie``, ``\\etal``... -> their text;
  ``--``/``---`` -> en/em dash, as LaTeX prints them (not in math, code or URLs).
* Layout commands (``\\noindent``, ``\\small``, ``\\vspace{..}``, ``\\label{..}``...) vanish.
  Unknown commands followed by an argument keep the argument and lose the name
  (``\\mycmd{x}`` -> ``x``); unknown commands without an argument that name a math symbol
  become the symbol (``\\alpha`` -> α) and otherwise show their name without the backslash
  (``\\eft`` -> ``eft``: such commands are usually an author's macro for a method name).
* Braces are LaTeX groups, which lose their braces, only where LaTeX is being written: a
  command's arguments (``\\mycmd{x}{y}``, ``\\LaTeX{}``), a group that starts with a command
  (``{\\bf x}``, ``{\\"o}``) and any group inside those. Other braces are text
  (``{a, b}``, ``{"key": 1}``, the set in ``$K:=${$x \\in A$}``). Text that looks like a
  template tag, ``{{ x }}``, ``{% x %}`` or ``{# x #}``, is shown exactly as typed (it is
  never evaluated: templates print it as text).

Blocks nested deeper than markdown-it goes (20 levels of quotes or lists) are shown as their
source, in plain paragraphs that keep inline Markdown, LaTeX and math, instead of losing text.
Control characters, the byte-order mark and Unicode noncharacters are dropped.

The conversion works on markdown-it tokens after parsing (math spans are separate tokens, so
it never touches math), emits only text tokens and fixed tags, and every text token is escaped
by the renderer: there is no way for input to reach the HTML unescaped.

Plain-text math is written in a linear, searchable form: commands become their Unicode symbol
(``\\alpha`` -> α, ``\\times`` -> ×, ``\\cdot`` -> ·, ``\\ell`` -> ℓ, ``\\mathbb{R}`` -> ℝ), font
commands keep their letters (``\\mathcal{O}`` -> O), operator names stay words (``\\log n`` ->
log n), ``\\left``/``\\right``/spacing commands and braces disappear, and scripts keep ASCII
``^``/``_`` with parentheses only when needed: ``$n^2$`` -> ``n^2``, ``$n_k$`` -> ``n_k``,
``$\\ell_2$`` -> ``ℓ_2``, ``$n^{3-o(1)}$`` -> ``n^(3-o(1))``, ``$X^\\top$`` -> ``X^T``,
``$M^*$`` -> ``M*``, ``\\frac{a}{b}`` -> ``a/b``, ``\\sqrt{x}`` -> ``√x``. So ``$K$-means`` is
``K-means`` and ``$\\mathcal{O}(n)$`` is ``O(n)``, which is what people type into a search box.

When rendering fails (a bug, since no string is meant to make it fail), the public functions
show the text escaped instead and record a ``TextFallback`` for each open
``collect_fallbacks()`` block, whose owner reports it (a build names the file in a note);
in strict mode (``set_strict(True)`` or ``PAPERSHELF_STRICT_TEXT=1``) they raise instead.
See ``fallbacks``.

The modules, by what each makes:

* ``tokens``: LaTeX source as tokens, the one reader of LaTeX, shared by everything below;
  ``latex_commands``: what each LaTeX command means (tables).
* ``html/``, text to HTML: ``markdown`` (the parser), ``latex_rule`` and ``latex_writer``
  (text-mode LaTeX in Markdown), ``math_rules`` (math in Markdown), ``mathml`` (formulas
  to MathML), ``links`` (link targets).
* ``math_text``: formulas to plain text (search, metadata).
* ``bibtex/``, to and from BibTeX: ``to_bibtex`` (field values), ``markdown_marks``
  (Markdown emphasis and bare URLs in LaTeX's terms), ``from_bibtex`` (values read back).
* ``render``: the public functions; ``hygiene`` (characters), ``fallbacks``, ``settings``.
"""

from .fallbacks import TextFallback, collect_fallbacks, set_strict
from .render import excerpt, plain_text, render_abstract, render_title

__all__ = ["TextFallback", "collect_fallbacks", "excerpt", "plain_text", "render_abstract", "render_title",
           "set_strict"]
