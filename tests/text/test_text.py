"""Tests for generator.text: Markdown + LaTeX -> safe HTML, MathML, plain text."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.text import excerpt, plain_text, render_abstract, render_title

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"
COMMAND = re.compile(r"\\[A-Za-z]+")


# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------

ALLOWED_TAGS = set(
    "p em strong code a cite sup sub u br div h1 h2 h3 h4 h5 h6 ul ol li blockquote pre hr "
    "math mrow mi mn mo mtext mspace ms mfrac msqrt mroot mstyle merror mpadded mphantom "
    "mfenced menclose msub msup msubsup munder mover munderover mmultiscripts mprescripts "
    "none mtable mtr mlabeledtr mtd semantics".split()
)
VOID_TAGS = {"br", "hr"}


class _Html(HTMLParser):
    """Collects visible text (outside code.math-source), tags, attributes and nesting errors."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.hidden = 0
        self.text: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag in VOID_TAGS:
            return
        if tag == "code" and attributes.get("class") == "math-source":
            self.hidden += 1
            tag = "code.math-source"
        self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1].split(".")[0] != tag:
            self.errors.append(f"unexpected </{tag}> with open {self.stack}")
            return
        if self.stack.pop() == "code.math-source":
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.text.append(data)


def parse_html(html: str) -> _Html:
    parser = _Html()
    parser.feed(html)
    parser.close()
    return parser


def visible_text(html: str) -> str:
    return "".join(parse_html(html).text)


def assert_safe_html(html: str) -> None:
    parsed = parse_html(html)
    assert not parsed.errors, (parsed.errors, html)
    assert not parsed.stack, (parsed.stack, html)
    for tag, attrs in parsed.tags:
        assert tag in ALLOWED_TAGS, (tag, html)
        for name, value in attrs.items():
            assert not name.startswith("on"), (name, html)
            assert name not in {"style", "src", "srcset", "formaction", "id"}, (name, html)
            if name == "href":
                assert re.match(r"(https?://|mailto:)", value or "", re.IGNORECASE), (value, html)


def links(html: str) -> list[dict[str, str | None]]:
    return [attrs for tag, attrs in parse_html(html).tags if tag == "a"]


# ---------------------------------------------------------------------------------------
# Math
# ---------------------------------------------------------------------------------------


def test_inline_math_becomes_mathml():
    html = render_abstract("We study $K$-means with $\\mathcal{O}(n^2)$ cost.")
    assert html.count('<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">') == 2
    assert "<mi>K</mi>" in html
    assert "<msup><mi>n</mi><mn>2</mn></msup>" in html
    assert "$" not in visible_text(html)


def test_display_math_becomes_block_mathml():
    html = render_abstract("Text.\n\n$$\\sum_{i=1}^n x_i$$\n\nMore text with $$a+b$$ inline.")
    assert html.count('display="block"') == 2
    assert '<div class="math-block"><math' in html
    assert "<mo>∑</mo>" in html


def test_paren_delimited_math():
    html = render_abstract(r"Let \(x^2\) be given.")
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in html
    assert plain_text(r"Let \(x^2\) be given.") == "Let x^2 be given."


@pytest.mark.parametrize(
    "formula",
    [r"D = \mathrm{diag}( \exp(QK^\top) {\bf 1}_n )", r"\exp()", r"{\boldsymbol{\Im}}(\boldsymbol{w}, n_k)",
     r"K_1 \oslash K_2 \in \mathbb{R}^{n^2 \times d}", r"o(\sqrt[3]{\log n})",
     r"\exp\left(-\Omega\left(\alpha^2 T\right)\right)", r"x-\text{sign}(x)\tau"],
)
def test_constructs_from_the_seeds_convert(formula):
    html = render_abstract(f"${formula}$")
    assert "<math" in html and "math-source" not in html
    assert not COMMAND.search(visible_text(html))


def test_common_author_macros_are_rendered():
    html = render_abstract(r"$\R^n$, $\E[X]$, $\tr(A)$, $\softmax(z)$")
    assert "math-source" not in html
    assert "ℝ" in html and "<mo>tr</mo>" in html and "<mo>softmax</mo>" in html


@pytest.mark.parametrize(
    "formula", [r"\frac{a}{", r"x^", r"\norm{x}", r"\left( x", r"\def\a{\a\a}\a", "{"]
)
def test_failed_formula_is_shown_as_escaped_source(formula):
    html = render_abstract(f"Before ${formula}$ after.")
    assert "<math" not in html
    match = re.search(r'<code class="math-source">(.*?)</code>', html)
    assert match, html
    assert match.group(1) == f"${formula}$".replace("&", "&amp;").replace("<", "&lt;")
    assert "Before" in html and "after." in html


def test_mathml_is_sanitised():
    html = render_abstract(
        r'$\text{<script>alert(1)</script>}$ $\href{javascript:alert(1)}{x}$ '
        r'$\style{color:red}{y}$ $\class{evil}{z}$ $\color{red" onmouseover="alert(1)}{w}$ '
        r"$\text{&amp; <b>}$"
    )
    assert_safe_html(html)
    assert "<script" not in html and "<b>" not in html
    assert "&lt;script&gt;" in html
    assert "javascript" not in html and "onmouseover" not in html and "evil" not in html
    assert "&amp;amp;" in html  # a typed "&amp;" shows as typed


def test_title_math_is_inline_even_when_displayed():
    html = render_title("A $$x^2$$ title")
    assert 'display="block"' not in html and 'display="inline"' in html


# ---------------------------------------------------------------------------------------
# Safety: raw HTML, links
# ---------------------------------------------------------------------------------------


def test_script_tag_is_inert_text():
    html = render_abstract("Hello <script>alert('x')</script> <img src=x onerror=alert(1)>")
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;" in html
    assert_safe_html(html)


@pytest.mark.parametrize(
    "source",
    [
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](java\tscript:alert(1))",
        "[click](vbscript:msgbox)",
        "[click](data:text/html;base64,PHNjcmlwdD4=)",
        "[click](file:///etc/passwd)",
        "[click](/relative/path)",
        "[click](//evil.example.com)",
        "<javascript:alert(1)>",
        "[click][r]\n\n[r]: javascript:alert(1)",
        r"\href{javascript:alert(1)}{click}",
        r"\url{javascript:alert(1)}",
        "ftp://files.example.com/x",
    ],
)
def test_unsafe_links_are_plain_text(source):
    html = render_abstract(source)
    assert "<a" not in html
    assert_safe_html(html)
    if "click" in source:
        assert "click" in visible_text(html)


def test_markdown_link_gets_noopener():
    html = render_abstract("See our [project website](https://scg.example.io/).")
    assert links(html) == [{"href": "https://scg.example.io/", "rel": "noopener"}]
    assert ">project website</a>" in html


def test_mailto_links_survive():
    html = render_abstract("Write to <mailto:team@example.org> or team@example.org.")
    assert [a["href"] for a in links(html)] == ["mailto:team@example.org"] * 2


def test_linkify_excludes_trailing_dot():
    html = render_abstract("Our code is available at https://github.com/mtics/FedRAP.")
    assert '<a href="https://github.com/mtics/FedRAP" rel="noopener">https://github.com/mtics/FedRAP</a>.' in html


def test_linkify_keeps_parentheses_and_excludes_closing_one():
    html = render_abstract("(see https://example.org/a_(b)) and https://example.org/x, y")
    assert [a["href"] for a in links(html)] == ["https://example.org/a_(b)", "https://example.org/x"]


def test_bare_url_with_latex_escapes():
    html = render_abstract(r"Code: https://github.com/a\_b/c\_d.")
    assert [a["href"] for a in links(html)] == ["https://github.com/a_b/c_d"]
    assert "\\" not in visible_text(html)


def test_no_nested_links():
    html = render_abstract(r"\href{https://a.example}{see https://b.example and [c](https://c.example)}")
    assert [a["href"] for a in links(html)] == ["https://a.example"]
    assert_safe_html(html)


def test_no_fuzzy_links():
    html = render_abstract("We ship model.py and see www.example.com.It works.")
    assert "<a" not in html


def test_images_become_their_alt_text():
    html = render_abstract("![a diagram](https://example.org/tracker.png)")
    assert "<img" not in html and "a diagram" in html


# ---------------------------------------------------------------------------------------
# Text-mode LaTeX
# ---------------------------------------------------------------------------------------


def test_escaped_dollar_is_not_math():
    html = render_abstract(r"It costs \$5 and \$10 per run.")
    assert "<math" not in html
    assert "It costs $5 and $10 per run." in html


def test_currency_dollars_are_not_math():
    assert "<math" not in render_abstract("It costs $5 and $10 per run.")


@pytest.mark.parametrize("source, formulas", [
    ("$K$-means in 2024", 1),  # a paragraph that starts with "$" and ends with a digit
    ("$K$-means and $O(n)$ time, 2024", 2),
    ("costs 5$ or 6$", 0),
    ("a $x$2 b", 0),
    ("2$x$ b", 0),
    ("$x$", 1),
])
def test_a_digit_outside_a_dollar_is_currency_wherever_the_formula_stands(source, formulas):
    assert render_title(source).count("<math") == formulas
    assert render_abstract(source).count("<math") == formulas


def test_emph_and_bold():
    html = render_abstract(r"We propose \emph{mean-field Langevin averaged gradient} and \textbf{MFL-ABR}.")
    assert "<em>mean-field Langevin averaged gradient</em>" in html
    assert "<strong>MFL-ABR</strong>" in html
    html = render_abstract(r"A {\bf bold} and {\em emphasised} {\it italic} word.")
    assert "<strong>bold</strong>" in html and "<em>emphasised</em>" in html and "<em>italic</em>" in html


def test_emph_around_math_and_markdown():
    html = render_abstract(r"\emph{the $K$ means *really*} done")
    assert re.search(r"<em>the <math.*</math> means <em>really</em></em> done", html)


def test_url_command_becomes_link():
    html = render_abstract(r"Code: \url{https://github.com/Hritikbansal/sparse_feedback}.")
    assert links(html) == [{"href": "https://github.com/Hritikbansal/sparse_feedback", "rel": "noopener"}]
    assert html.endswith("</a>.</p>\n")
    assert "url" not in visible_text(html)


def test_href_command():
    html = render_abstract(r"Visit \href{https://example.org/a\_b}{our site}.")
    assert links(html) == [{"href": "https://example.org/a_b", "rel": "noopener"}]
    assert ">our site</a>" in html


def test_cite_becomes_marker():
    html = render_abstract(r"Recent work \cite{sht23} and \citep[p.~5]{a, b} agree.")
    assert '<cite class="latex-cite">[sht23]</cite>' in html
    assert '<cite class="latex-cite">[a, b, p.\u00a05]</cite>' in html
    assert plain_text(r"Recent work \cite{sht23} has shown \citet{a,b}.") == "Recent work has shown."


def test_escaped_characters():
    html = render_abstract(r"An improvement of 22\% with A\&B on x\_y \#1 \{set\}.")
    assert "An improvement of 22% with A&amp;B on x_y #1 {set}." in html


def test_tilde_is_a_tie_only_between_words():
    html = render_abstract(r"Fig.~3 shows ~10% gains, see https://example.org/~user")
    assert "Fig.\u00a03" in html
    assert " ~10%" in html
    assert links(html)[0]["href"] == "https://example.org/~user"


def test_accents_and_quotes():
    html = render_abstract(r"""Erd\H{o}s--R\'enyi and Schr\"odinger and \c{c}a, ``tensor-type'' and `sufficient statistic'.""")
    assert "Erdős–Rényi and Schrödinger and ça, “tensor-type” and ‘sufficient statistic’." in html
    assert render_abstract(r'He said \"hello\".') == '<p>He said &quot;hello&quot;.</p>\n'


def test_unknown_commands_lose_their_name():
    html = render_abstract(r"A model induced with \eft and \mymacro{kept text} and \alpha.")
    text = visible_text(html)
    assert "A model induced with eft and kept text and α." in text
    assert not COMMAND.search(text)


def test_layout_commands_vanish():
    html = render_abstract(r"\noindent Text\label{sec:x} with \vspace{2pt}space \ldots{} \LaTeX.")
    assert visible_text(html).strip() == "Text with space … LaTeX."


def test_unbalanced_braces_do_not_break_html():
    for source in [r"\emph{open", r"close} \textbf{a *b} c*", r"*\emph{a* b}", r"{\bf x", "}}}{{{"]:
        assert_safe_html(render_abstract(source))
        assert_safe_html(render_title(source))


def test_code_spans_are_untouched():
    html = render_abstract(r"Use `\emph{x}` literally.")
    assert r"<code>\emph{x}</code>" in html


# ---------------------------------------------------------------------------------------
# Titles
# ---------------------------------------------------------------------------------------


def test_title_is_inline_without_links():
    html = render_title("Statistically Optimal $K$-means via [Low-rank](https://x.example) *SDP* https://y.example")
    assert "<p>" not in html and "<a" not in html
    assert html.startswith("Statistically Optimal <math")
    assert "Low-rank" in html and "<em>SDP</em>" in html and "https://y.example" in html


def test_title_latex_and_block_syntax():
    html = render_title("# 1. A \\emph{neat} \\url{https://a.example} title\nwith a break")
    assert html == "# 1. A <em>neat</em> https://a.example title with a break"


# ---------------------------------------------------------------------------------------
# Plain text
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("$K$-means clustering", "K-means clustering"),
        (r"Runs in $\mathcal{O}(\cdot)$ time", "Runs in O(·) time"),
        (r"$\mathcal{O}(n \log n)$", "O(n log n)"),
        (r"the $\ell_2$ norm", "the ℓ_2 norm"),
        (r"with $\alpha$ and $n \times d$", "with α and n × d"),
        (r"$X \in \mathbb{R}^{n \times k}$", "X ∈ ℝ^(n × k)"),
        (r"$n^2$ and $n^{3-o(1)}$ and $XX^\top$ and $M^*$", "n^2 and n^(3-o(1)) and XX^T and M*"),
        (r"$\exp\left(-\Omega\left(T\right)\right)$", "exp(-Ω(T))"),
        (r"$\frac{a}{b+c}$ and $\sqrt{n}$", "a/(b+c) and √n"),
        (r"$D = \mathrm{diag}( \exp(QK^\top) {\bf 1}_n )$", "D = diag(exp(QK^T) 1_n)"),
        (r"We propose \emph{mean-field} (MFL)", "We propose mean-field (MFL)"),
        (r"See \url{https://a.example/x}.", "See https://a.example/x."),
        ("A [project website](https://a.example) and *emphasis* and __strong__", "A project website and emphasis and strong"),
        ("Code: https://github.com/x/y.", "Code: https://github.com/x/y."),
        ("  lots \n of\t\tspace  \n\n  here ", "lots of space here"),
        ("A &amp; B &lt;tag&gt; &copy;", "A & B <tag> ©"),
        (r"22\% and \$5 and Fig.~3", "22% and $5 and Fig. 3"),
        ("<script>alert(1)</script> text", "<script>alert(1)</script> text"),
        ("", ""),
    ],
)
def test_plain_text_examples(source, expected):
    assert plain_text(source) == expected


def test_plain_text_has_no_commands_or_entities():
    text = plain_text(r"\textbf{Bold} \unknown{x} \weird $\foo + \bar{x}$ `\code` A&B")
    assert not COMMAND.search(text)
    assert "&amp;" not in text and "<" not in text


# ---------------------------------------------------------------------------------------
# Excerpt
# ---------------------------------------------------------------------------------------


def test_excerpt_short_text_is_unchanged():
    assert excerpt("A short abstract.", 200) == "A short abstract."


def test_excerpt_cuts_at_word_boundary():
    text = "Metagenomics studies genomic material derived from mixed microbial communities"
    cut = excerpt(text, 30)
    assert cut == "Metagenomics studies genomic…"
    assert len(cut) <= 30


def test_excerpt_long_word_is_hard_cut():
    assert excerpt("x" * 50, 10) == "x" * 9 + "…"


def test_excerpt_strips_trailing_punctuation():
    assert excerpt("alpha beta, gamma delta epsilon", 13) == "alpha beta…"


@given(st.text(max_size=300), st.integers(min_value=1, max_value=250))
def test_excerpt_length_property(text, limit):
    cut = excerpt(text, limit)
    assert len(cut) <= limit
    if not cut.endswith("…"):
        assert cut == " ".join(text.split())


# ---------------------------------------------------------------------------------------
# Determinism
# ---------------------------------------------------------------------------------------


DETERMINISM_SOURCES = [
    r"We use $K$-means \cite{x} and https://a.example.",
    r"Sets $\{a, b\} \cup \{c\}$, $\mathcal{O}(n^2)$, $\sum_{i=1}^n \alpha_i \leq \beta$ and $\mathbb{R}^d$.",
    r"\emph{Caf\'e} na\"ive \textbf{bold} \url{https://b.example/x} $\frac{a}{b}$ -- ``quoted'' \& more~text.",
    "A list:\n\n- one *two* **three**\n- [a link](https://c.example) and `code`\n\n> quoted $x_1^2$",
    r"$$\begin{aligned} f(x) &= \int_0^1 g \\ h &= \lim_{t \to 0} k_t \end{aligned}$$ Then $\unknown{x}$.",
]
DETERMINISM_CODE = """
import json, sys
from generator.text import excerpt, plain_text, render_abstract, render_title, set_strict
set_strict(True)
print(json.dumps([[render_abstract(s), render_title(s), plain_text(s), excerpt(plain_text(s), 40)]
                  for s in json.loads(sys.argv[1])]))
"""


def test_functions_are_deterministic():
    """The same source gives the same bytes: again in this process after other texts (warm
    caches, counters), and in fresh processes whose hash seeds differ (set and dict order)."""
    import os
    import subprocess
    import sys

    def rendered() -> list[list[str]]:
        return [[render_abstract(s), render_title(s), plain_text(s), excerpt(plain_text(s), 40)]
                for s in DETERMINISM_SOURCES]

    first = rendered()
    for source in reversed(DETERMINISM_SOURCES):  # other texts in between, in another order
        render_abstract(source + " $y$"), render_title("Other " + source), plain_text(source[::-1])
    assert rendered() == first
    runs = [subprocess.Popen([sys.executable, "-c", DETERMINISM_CODE, json.dumps(DETERMINISM_SOURCES)],
                             env={**os.environ, "PYTHONHASHSEED": seed}, stdout=subprocess.PIPE, text=True)
            for seed in ("1", "2")]
    for run in runs:
        out, _ = run.communicate(timeout=120)
        assert run.returncode == 0
        assert json.loads(out) == first


def test_non_string_input_does_not_raise():
    assert render_abstract(None) == ""  # type: ignore[arg-type]
    assert render_title(None) == ""  # type: ignore[arg-type]
    assert plain_text(None) == ""  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# The seed catalogue
# ---------------------------------------------------------------------------------------


def _seed_abstracts() -> list:
    if not SEEDS.is_dir():
        return []
    params = []
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        paragraphs = [p.strip() for p in text.split("\n\n")[1:] if p.strip()]
        params += [pytest.param(p, id=f"{path.stem}-{i}") for i, p in enumerate(paragraphs, 1)]
    return params


def _seed_titles() -> list:
    if not (SEEDS / "metadata").is_dir():
        return []
    params = []
    for path in sorted((SEEDS / "metadata").glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")):
            if entry.get("title"):
                params.append(pytest.param(entry["title"], id=f"{path.stem}-{entry.get('index')}"))
    return params


SEED_ABSTRACTS = _seed_abstracts()
SEED_TITLES = _seed_titles()
needs_seeds = pytest.mark.skipif(not SEED_ABSTRACTS, reason=f"seed catalogue not found at {SEEDS}")


@needs_seeds
def test_seed_catalogue_is_complete():
    assert len(SEED_ABSTRACTS) == 76


@needs_seeds
@pytest.mark.parametrize("abstract", SEED_ABSTRACTS or [""])
def test_seed_abstract_renders_cleanly(abstract):
    html = render_abstract(abstract)
    assert_safe_html(html)
    assert not COMMAND.search(visible_text(html)), visible_text(html)
    assert "math-source" not in html  # every seed formula converts
    assert html.count("<math") == len(re.findall(r"(?<!\\)\$[^$]+\$", abstract))
    text = plain_text(abstract)
    assert not COMMAND.search(text), text
    assert "<" not in text or not re.search(r"</?[A-Za-z]", text)
    assert "  " not in text and text == text.strip()
    assert "$" not in text  # the seeds have no literal dollars


@needs_seeds
@pytest.mark.parametrize("title", SEED_TITLES or [""])
def test_seed_title_renders_cleanly(title):
    html = render_title(title)
    assert "<p>" not in html and "<a" not in html
    assert_safe_html(html)
    assert not COMMAND.search(visible_text(html))
    assert not COMMAND.search(plain_text(title))


@needs_seeds
def test_seed_title_with_math():
    title = "Statistically Optimal $K$-means Clustering via Nonnegative Low-rank Semidefinite Programming"
    assert plain_text(title).startswith("Statistically Optimal K-means Clustering")
    assert "<math" in render_title(title)


# ---------------------------------------------------------------------------------------
# Properties: never raise, always safe
# ---------------------------------------------------------------------------------------

_PIECES = st.sampled_from(
    list("$\\{}_^[]()*`'\"~&<>#%!:/.- \n\tabxyzAB019") + [
        "\\emph{", "\\textbf{", "\\url{", "\\href{", "\\cite{", "\\cite[p.~1]{", "{\\bf ",
        "\\label{", "\\H{", "\\'", '\\"', "\\\\", "\\$", "\\%", "$$", "\\(", "\\)", "\\frac",
        "\\left(", "\\right)", "\\mathbb{R}", "\\text{", "\\def\\a", "\\foo", "\\alpha", "~",
        "https://x.example/a_b", "javascript:alert(1)", "](", "![", "<script>", "&amp;", "&#92;",
        "\n\n", "    ", "- ", "1. ", "> ", "# ", "``", "''", "\u00a0", "\ud800", "\x00",
    ]
)
LATEXISH = st.lists(_PIECES, max_size=50).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(LATEXISH, st.text(max_size=120)))
def test_never_raises_and_stays_safe(source):
    """Strict mode (tests/text/conftest.py): an error anywhere in the Markdown, LaTeX or math
    code raises here instead of hiding behind the fallback to escaped text."""
    html = render_abstract(source)
    assert isinstance(html, str)
    assert_safe_html(html)
    title = render_title(source)
    assert_safe_html(title)
    assert "<p>" not in title and "<a" not in title
    text = plain_text(source)
    assert not COMMAND.search(text)
    assert text == " ".join(text.split())
    assert len(excerpt(text, 40)) <= 40


# ---------------------------------------------------------------------------------------
# Regressions from the robustness review: text that looks like HTML or a template,
# braces, deep nesting, noncharacters, pathological input
# ---------------------------------------------------------------------------------------

HOSTILE_TITLES = [
    '<script>alert("t1")</script> <img src=x onerror=alert(2)> </script><script>alert(3)</script>',
    "</script><script>alert(4)</script><!-- </SCRIPT > <!--<script>",
    "{{ 'EVAL' ~ 'UATED' }} and {% if false %}shown-only-if-printed{% endif %} {# comment #}",
    "A <b>bold</b> claim about {a, b} and {\"key\": 1} and <x-y z=1>",
    "Set {x : x > 0} and dict {} and }{ and {{ and }}",
]


def normalized(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_plain_text_of_a_title_is_what_its_heading_shows(title):
    """Metadata, the search index and the page name a paper the same way: as text."""
    heading = render_title(title)
    assert_safe_html(heading)
    assert normalized(visible_text(heading)) == normalized(title)
    assert plain_text(title) == normalized(title)


def test_plain_text_keeps_text_that_looks_like_html_with_latex_and_math_around_it():
    assert plain_text(r"<b>$x^2$</b> \emph{y} &lt;i&gt;") == "<b>x^2</b> y <i>"
    assert plain_text("<!-- not a comment --> ]]> <![CDATA[ x ]]>") == "<!-- not a comment --> ]]> <![CDATA[ x ]]>"
    # Every "<" of the source is still there (nothing between two of them was cut out).
    source = "a <b <c> d> e </f> <<g>> h"
    assert plain_text(source) == source


_HTML_LIKE = st.text(alphabet="<>/=\" abcxyz", max_size=80).map(lambda s: "x" + s)


@settings(max_examples=200, deadline=None)
@given(_HTML_LIKE)
def test_html_like_text_is_kept_as_typed(source):
    assert plain_text(source) == normalized(source)
    assert normalized(visible_text(render_title(source))) == normalized(source)
    assert normalized(visible_text(render_abstract(source))) == normalized(source)


@pytest.mark.parametrize(
    "source",
    [
        "Printed, not run: {{ 7*191 }} and {% for x in range(3) %}loop{% endfor %} and {{ config }}.",
        "{% if false %}shown-only-if-printed{% endif %} {# a comment #}",
        "{{ a~b }} {{ x or '' }} {{ \"x\" ~ y|e }} {% set y = {'k': 1} %}",
        r"{{ \emph{x} }} and {# \cite{k} #} and {% if a\_b %}",
    ],
)
def test_template_syntax_is_printed_exactly_as_typed(source):
    for html in (render_abstract(source), render_title(source)):
        assert_safe_html(html)
        assert normalized(visible_text(html)) == source
    if "\\" not in source:  # plain text never shows LaTeX commands
        assert plain_text(source) == source


def test_only_the_template_tags_are_verbatim():
    html = render_abstract(r"{% raw %}\textbf{y} ~x{% endraw %} and {{ \textbf{z} }}")
    assert html == "<p>{% raw %}<strong>y</strong> ~x{% endraw %} and {{ \\textbf{z} }}</p>\n"


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        # Braces that are not LaTeX are text.
        ("the set {a, b} and the map {\"key\": 1}", "the set {a, b} and the map {\"key\": 1}"),
        ("{Vision-language models (VLMs) can", "{Vision-language models (VLMs) can"),
        ("stray } and { unclosed", "stray } and { unclosed"),
        # Command arguments, groups that start with a command, and groups inside those are LaTeX.
        (r"\mycmd{x}{y} and \LaTeX{} and \ldots{} and \S{}3", "xy and LaTeX and … and §3"),
        (r"\emph{a {b} c} d", "a b c d"),
        (r"{\bf x {y} z} and {\'e}t{\'e}", "x y z and été"),
        (r"\textbf{a}{b}", "ab"),
    ],
)
def test_braces_are_latex_groups_only_where_latex_is_written(source, shown):
    html = render_abstract(source)
    assert_safe_html(html)
    assert visible_text(html).strip() == shown
    assert plain_text(source) == shown


def test_bold_and_emphasis_groups_still_make_tags():
    html = render_abstract(r"{\bf bold {\em both}} and \emph{em {x}}")
    assert html == "<p><strong>bold <em>both</em></strong> and <em>em x</em></p>\n"


def test_braces_around_a_formula_are_the_set_they_stand_for():
    """A seed abstract writes a set as ``$K:=${$\\theta \\in ...$}``: both formulas convert."""
    source = r"a polytope $K:=${$\theta \in \mathbb{R}^d: A\theta \leq b$}, where"
    html = render_abstract(source)
    assert html.count("<math") == 2 and "math-source" not in html
    assert re.search(r"</math>\{<math .*</math>\}, where", html)
    assert plain_text(source) == "a polytope K:={θ ∈ ℝ^d: Aθ ≤ b}, where"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="{}%# abc", max_size=60).map(lambda s: "x" + s))
def test_braces_in_prose_are_kept_exactly(source):
    assert plain_text(source) == normalized(source)
    assert normalized(visible_text(render_abstract(source))) == normalized(source)
    assert normalized(visible_text(render_title(source))) == normalized(source)


def _nested_quotes(depth: int) -> str:
    return "> " * depth + "quoted $x^2$ words"


def _nested_list(depth: int) -> str:
    return "".join("  " * i + f"- item{i}\n" for i in range(depth))


@pytest.mark.parametrize("depth", [1, 8, 18, 19, 20, 21, 60, 300])
@pytest.mark.parametrize("make", [_nested_quotes, _nested_list], ids=["quotes", "lists"])
def test_deep_nesting_keeps_every_word(make, depth):
    source = "First paragraph.\n\n" + make(depth) + "\n\nTHE-END with $y$.\n\n- a normal list"
    html = render_abstract(source)
    assert_safe_html(html)
    words = ["First paragraph.", "THE-END", "a normal list"]
    if make is _nested_quotes:
        words.append("quoted")
        assert "<math" in html.split("THE-END")[0], "math in the deep part still converts"
    else:
        words += [f"item{i}" for i in range(depth)]
    for text in (visible_text(html), plain_text(source)):
        for word in words:
            assert word in text, (word, depth)
        if make is _nested_list:
            assert len(re.findall(r"\bitem\d+\b", text)) == depth


def test_nesting_within_the_limit_keeps_its_structure():
    html = render_abstract(_nested_quotes(10) + "\n\n" + _nested_list(5) + "\nafter")
    assert html.count("<blockquote>") == 10 and html.count("<ul>") == 5
    assert "&gt;" not in html


def test_too_deep_blocks_are_shown_as_source_only_where_too_deep():
    html = render_abstract("- shallow list\n\n" + _nested_quotes(30) + "\n\nafter")
    assert html.startswith("<ul>\n<li>shallow list</li>\n</ul>\n")
    assert "<p>" + "&gt; " * 30 + "quoted <math" in html
    assert html.endswith("<p>after</p>\n")


@pytest.mark.parametrize(
    "char", ["\ufdd0", "\ufdef", "\ufffe", "\uffff", "\U0001fffe", "\U0001ffff", "\U0010fffe", "\U0010ffff"]
)
def test_noncharacters_are_dropped(char):
    source = f"a{char}b *c{char}* ${char}x$"
    for out in (render_abstract(source), render_title(source), plain_text(source)):
        assert char not in out
    assert plain_text(source) == "ab c x"


def test_characters_next_to_the_noncharacters_are_kept():
    source = "\ufdcf \ufdf0 \ufffd \U0001fffd \U0010fffd"
    assert plain_text(source) == source
    assert "\ufdd0" not in render_abstract("&#xFDD0; &#xFFFF; &#x1FFFE;")


@pytest.mark.parametrize(
    ("unit", "shown"),
    [("22\\% ", {"%": 1}), ("A\\&B ", {"&": 1}), ("x~y ", {"\u00a0": 1}), ("\\( a ", {"(": 1, "a": 1}),
     ("{{ a ", {"{": 2, "a": 1}), ("{% b ", {"{": 1, "%": 1}), ("\\emph{a ", {"a": 1}), ("{", {"{": 1}),
     ("}", {"}": 1}), ("{}~", {"{": 1, "}": 1, "\u00a0": 1})],
)
def test_long_repetitive_text_is_kept_whole(unit, shown):
    """Text of many tiny pieces (shapes that used to take quadratic time) keeps every piece."""
    repeat = 3000
    source = unit * repeat
    html = render_abstract(source)
    assert_safe_html(html)
    for text, plain in ((plain_text(source), True), (visible_text(html), False)):
        for char, count in shown.items():
            if char.isspace() and plain:  # plain text has plain spaces
                assert "~" not in text
                continue
            assert text.count(char) == count * repeat, (char, text[:80])


def test_paren_math_after_an_unclosed_one_in_a_link_label():
    html = render_abstract(r"[a \( b](https://x.example) and \(x^2\)")
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in html
    html = render_abstract("\\( " * 50 + r"and later \(y\)")
    assert html.count("<math") == 1


# ---------------------------------------------------------------------------------------
# The fast path for simple text must give exactly what the parser gives
# ---------------------------------------------------------------------------------------

_SIMPLE_ALPHABET = "aZé½ .,;:?!()/\"'%^+=#-19\n≤—“”\u00a0\t\u2028\u0301\U0001F600\ufffd\u0663" + "xyzw" * 4
_SIMPLE_PIECES = st.sampled_from(
    ["word", "Title", " ", "\n", "\n\n", "- ", "1. ", "2) ", "+ ", "# ", "=", "==", "---", "  ", "''", "'",
     "://", "http", ":", "a:b", "%", "50%", "!", "(", ")", "\"", "x\n===", "z \n", "é", "1", "12."]
)


def _simple_vs_parsed(source: str) -> None:
    from generator.text import render as text

    if not text._is_simple(source):
        return
    assert text._tidy_plain(source) == text._plain_text_parsed(source)
    assert text._render_abstract.__wrapped__(source) == text._render_abstract_parsed(source)
    assert text._render_title.__wrapped__(source) == text._render_title_parsed(source.strip())


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(alphabet=_SIMPLE_ALPHABET, max_size=60),
                 st.lists(_SIMPLE_PIECES, max_size=25).map("".join)))
def test_simple_text_fast_path_matches_the_parser(source):
    _simple_vs_parsed(source)


@pytest.mark.parametrize("source", [
    "A title", "Two\nlines", "Two\n\nparagraphs\n\n\nhere\n", "\nLeading newline", "Quote \"x\" 50% (a/b): c?",
    "Don't stop", "- list", "1. list", "Text\n2. list", "Text\n===", "Text\n---", "# Heading", "Text\n# heading",
    "Text  \nhard break", "Tab\there", "No\u00a0break", "http://example.org", "Mail a@b.org", "x '' y", " lead",
    "trail ", "",
])
def test_simple_text_examples_match_the_parser(source):
    _simple_vs_parsed(source)


def test_simple_text_is_recognised():
    from generator.text import render as text

    assert text._is_simple("A Study of Graphs: Methods, Results (and 50% More)!")
    assert text._is_simple("First paragraph.\n\nSecond one,\nover two lines.")
    for source in ["", "\n", "$x$", "a_b", "*a*", "- a", "a\n1. b", "a\n===", "http://x.org", "a  \nb", "a\tb",
                   "x\u00a0y", "``q''", "a & b", "a <b>", "{x}", "\\emph{x}", "a ~ b", "[a](b)", "a@b.org"]:
        assert not text._is_simple(source), source


def test_latex_dashes_read_as_dashes_except_in_math_code_urls_and_html_lookalikes():
    assert render_abstract("generalization---generalizing and Burer--Monteiro, pages 3--5") == \
        "<p>generalization\u2014generalizing and Burer\u2013Monteiro, pages 3\u20135</p>\n"
    assert plain_text("Burer--Monteiro---fast") == "Burer\u2013Monteiro\u2014fast"
    assert render_title("A--B") == "A\u2013B"
    html = render_abstract("Run `--jobs 2` at http://x.org/a--b with $a--b$ or ---- and <!-- x -->.")
    assert "<code>--jobs 2</code>" in html and 'href="http://x.org/a--b"' in html and ">http://x.org/a--b<" in html
    assert "----" in html and "&lt;!-- x --&gt;" in html and "\u2013" not in html


def test_bracket_display_math_as_in_latex():
    html = render_abstract(r"The bound \[ \sum_i x_i \le 1 \] holds; a lone \[ stays.")
    assert html.count("<math") == 1 and 'display="block"' in html and "<mo>∑</mo>" in html
    assert "a lone [ stays." in html
    assert plain_text(r"Bound \[x^2\] here") == "Bound x^2 here"
    assert render_abstract(r"\[\]") == "<p>[]</p>\n"  # nothing inside: Markdown's escaped brackets


def test_math_environments_outside_dollars_are_display_math():
    html = render_abstract("We minimise \\begin{align*} a &= b \\\\ c &= d \\end{align*} and "
                           "\\begin{equation} x^2 \\end{equation} here.")
    assert html.count('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">') == 2
    assert "<mtable" in html and "\\begin" not in html and "&amp;" not in html
    assert plain_text("Then \\begin{equation} x^2 \\end{equation} holds.") == "Then x^2 holds."
    assert 'display="inline"' in render_abstract("a \\begin{math}x\\end{math} b")
    # not math environments, or never closed: text as before
    assert "<math" not in render_abstract("\\begin{itemize} x \\end{itemize} and \\begin{align} y")


def test_escaped_brackets_without_math_stay_brackets():
    """HTML-to-Markdown converters escape every bracket: "\\[1\\]" is a citation, not math."""
    assert render_abstract(r"Results \[in press\] and \[1\], \[2\]; a\[i\]") == \
        "<p>Results [in press] and [1], [2]; a[i]</p>\n"
    assert plain_text(r"see \[1\]") == "see [1]"


def test_dashes_in_urls_paths_and_options_stay_as_typed():
    html = render_abstract("[https://example.org/a--b](https://example.org/a--b), doi:10.1000/a--b, "
                           "www.x.org/a--b and the --verbose flag; pages 3--5.")
    assert ">https://example.org/a--b</a>" in html and "doi:10.1000/a--b" in html
    assert "www.x.org/a--b" in html and "--verbose" in html and "pages 3\u20135" in html
