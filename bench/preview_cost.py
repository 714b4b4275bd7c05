"""What link previews (issue 34: OpenGraph, a Twitter card, the meta description) cost: builds
bench/synth/'s 300-paper catalog (the size budget's, tests/outputs/test_output_budget.py)
into FOLDER and prints a paper page's average size, the bytes of its preview tags, the chrome
of a page and the tar a paper. Run it on a checkout before and after to compare:

    .venv/bin/python -m bench.preview_cost /tmp/preview-cost
"""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path


def main(root: Path, papers: int = 300) -> None:
    from bench import synth
    from bench.harness import sizes as size
    from generator.build import BuildOptions, build

    content = synth.generate(papers, root / "content", seed=0)
    build(BuildOptions(content=content, output=root / "site", base_url="https://example.org/catalog/", cache=None))
    pages = [p.read_bytes() for p in (root / "site" / "papers").glob("*/*/index.html") if "page" not in p.parts]
    tags = re.compile(rb'<meta (?:property="og:[^"]*"|name="twitter:card"|name="description")[^>]*>\n')
    preview = [sum(map(len, tags.findall(page))) for page in pages]
    text = (root / "site" / "404.html").read_text(encoding="utf-8")
    chrome = text[: text.index("<main")] + text[text.index("</main>"):]
    report = size.size_report(root / "site")
    print(f"paper pages: {len(pages)}, {statistics.mean(map(len, pages)):,.0f} bytes on average, of which preview "
          f"tags {statistics.mean(preview):,.0f} (at most {max(preview):,})")
    print(f"chrome of a page: {len(chrome.encode('utf-8')):,} bytes; tar a paper: {report['tar'] / papers:,.0f} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
