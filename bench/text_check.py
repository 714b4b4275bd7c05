"""What a catalog's pages show of its titles and abstracts that is not text (issue 36 item 3).

Renders every paper's title and abstract of a content folder with the site's text layer
(``generator.text``: what the paper pages show) and counts the papers whose visible text
still shows LaTeX (``\\emph``, ``\\cite``, ``\\%``, a ``$…$`` formula as its source), a formula
shown as source because it did not convert (``math-source``), or an abstract wholly inside
quotes::

    python -m bench.text_check /tmp/cat/content [--examples 5]

To measure an older Papershelf's pages, put its checkout first:
``PYTHONPATH=/path/to/old python -m bench.text_check …`` (its ``generator`` is used).
"""

from __future__ import annotations

import argparse
import html
import re
from collections import Counter
from pathlib import Path

from generator.importers.common import paper_files
from generator.text import render_abstract, render_title

_MATH = re.compile(r"<math.*?</math>", re.S)
_TAG = re.compile(r"<[^>]+>")
_LATEX = re.compile(r"\\(?:[A-Za-z]+|[%&_#'\"])|\$[^$\s][^$]*\$")
_WRAPPED = re.compile(r"^\s*[\"\u201c].*[\"\u201d]\s*$", re.S)


def visible(rendered: str) -> str:
    return html.unescape(_TAG.sub("", _MATH.sub(" ", rendered)))


def check(content: Path, examples: int = 0) -> tuple[Counter, list[str]]:
    counts: Counter = Counter()
    shown: list[str] = []
    for slug, front in paper_files(content / "papers"):
        title = front.data.get("title")
        if not isinstance(title, str):
            continue
        counts["papers"] += 1
        title_html, abstract_html = render_title(title), render_abstract(front.body)
        for kind, rendered in (("title", title_html), ("abstract", abstract_html)):
            text = visible(rendered)
            raw = _LATEX.search(text)
            if raw:
                counts[f"{kind}s showing LaTeX"] += 1
                if len(shown) < examples:
                    shown.append(f"{slug} ({kind}): …{text[max(0, raw.start() - 30):raw.end() + 30]}…")
            if "math-source" in rendered:
                counts[f"{kind}s with a formula shown as source"] += 1
        if front.body.strip() and _WRAPPED.match(visible(abstract_html)):
            counts["abstracts inside quotes"] += 1
    return counts, shown


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("content", type=Path)
    parser.add_argument("--examples", type=int, default=0)
    args = parser.parse_args(argv)
    counts, shown = check(args.content, args.examples)
    for key in ("papers", "titles showing LaTeX", "abstracts showing LaTeX", "titles with a formula shown as source",
                "abstracts with a formula shown as source", "abstracts inside quotes"):
        print(f"{key}: {counts[key]:,}")
    for line in shown:
        print("  " + line)


if __name__ == "__main__":
    main()
