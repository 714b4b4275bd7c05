"""Imported text read as text, and tags by the venue's field (issue 36 items 3 and 5).

Records shaped as their sources write them — CVF's (abstracts in quotes), OpenReview's
notes and NeurIPS's CSL (LaTeX in the abstract), PMLR's BibTeX, arXiv's Atom feed — are
imported with the command into a catalog from ``papershelf new`` and built: the pages show
emphasis, MathML and links where the records had LaTeX, never the LaTeX itself, no quotes
around a whole abstract, and the import summary counts each repair; papers of a field's
venue carry a tag of that field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.content.loader import load_catalog
from generator.content.series import series_of

RAW_LATEX = re.compile(r"\\(?:emph|cite|textbf|textit|url|times|textendash|'|%)|\$\\|\{BERT\}")


def run(*args: str):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def catalog(tmp_path) -> Path:
    run("new", tmp_path / "cat")
    return tmp_path / "cat" / "content"


def page_of(site: Path, content: Path, title_words: str) -> str:
    """The HTML of the paper page whose title holds ``title_words``."""
    papers = [p for p in load_catalog(content).papers if title_words in p.title]
    assert len(papers) == 1, (title_words, [p.title for p in load_catalog(content).papers])
    paper = papers[0]
    return (site / "papers" / paper.venue / paper.slug / "index.html").read_text(encoding="utf-8")


def abstract_html(page: str) -> str:
    match = re.search(r'<section class="abstract">(.*?)</section>', page, re.S)
    assert match, "no abstract section"
    return re.sub(r"<h2>.*?</h2>", "", match.group(1))


def visible(html: str) -> str:
    return re.sub(r"<math.*?</math>", " MATH ", re.sub(r"<(?!math)[^>]+>", "", html), flags=re.S)


CVF_CSL = [
    {"id": "eccv1", "type": "paper-conference", "title": "Labyrinth Networks for Image Segmentation",
     "author": [{"given": "Ann", "family": "Lee"}, {"given": "Bo", "family": "Chen"}],
     "container-title": "European Conference on Computer Vision (ECCV)", "issued": {"date-parts": [[2022]]},
     "URL": "https://www.ecva.net/papers/eccv_2022/papers_ECCV/html/1234_ECCV_2022_paper.php",
     "abstract": "\"We present Labyrinth, a network that segments images. Its \"maze\" module "
                 "is 3$\\times$ faster than prior work.\""},
    {"id": "cvpr1", "type": "paper-conference", "title": "Diffusion Models Sample Faster",
     "author": [{"given": "Cara", "family": "Diaz"}],
     "container-title": "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
     "issued": {"date-parts": [[2023]]},
     "URL": "https://openaccess.thecvf.com/content/CVPR2023/html/Diaz_Diffusion_Models_CVPR_2023_paper.html",
     "abstract": "\u201cWe make a diffusion model sample in four steps, a generative model that keeps the "
                 "quality of the diffusion models it distils.\u201d"},
    {"id": "nips1", "type": "paper-conference", "title": "Fast \\emph{Mazes} in $O(n)$ Time",
     "author": [{"given": "Dan", "family": "Eve"}],
     "container-title": "Advances in Neural Information Processing Systems", "issued": {"date-parts": [[2021]]},
     "URL": "https://proceedings.neurips.cc/paper/2021/hash/0123456789abcdef0123456789abcdef-Abstract.html",
     "abstract": "We solve the \\emph{Labyrinth} task \\cite{Gregor10}, a 2$\\times$ speedup on 95\\% of "
                 "mazes---see \\url{https://example.org/maze}. \\textbf{Erd\\H{o}s} and R\\'enyi graphs as in "
                 "\\cite{ER59}."},
]

OPENREVIEW = {"notes": [{
    "id": "B184E5qee", "forum": "B184E5qee",
    "content": {
        "title": {"value": "Learning to Navigate with $\\times$ Fewer Steps"},
        "authors": {"value": ["Eli Fox", "Gia Hu"]},
        "abstract": {"value": "We train agents in the \\emph{Labyrinth} environment~\\cite{Gregor10} and reach "
                              "10$^{-3}$ error with \\textit{half} the samples."},
        "venue": {"value": "ICLR 2017 Poster"}, "venueid": {"value": "ICLR.cc/2017/Conference"}}}],
    "count": 1}

PMLR_BIB = r"""
@InProceedings{smith23a,
  title = {{BERT} Goes \textendash{} Deep: $\mathcal{O}(n)$ Attention},
  author = {Smith, Jo and Doe, Kim},
  booktitle = {Proceedings of the 40th International Conference on Machine Learning},
  pages = {1--10},
  year = {2023},
  volume = {202},
  series = {Proceedings of Machine Learning Research},
  publisher = {PMLR},
  url = {https://proceedings.mlr.press/v202/smith23a.html},
  abstract = {"We show that {BERT} attention runs in $\mathcal{O}(n)$ time \citep{vaswani17}, 4$\times$ faster with \emph{no} loss."}
}
"""

ARXIV = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <entry>
    <id>http://arxiv.org/abs/2301.01234v2</id>
    <published>2023-01-03T18:00:00Z</published>
    <title>Sparse $k$-Means with \\emph{Guarantees}</title>
    <summary>  We give a \\emph{sparse} $k$-means algorithm that is 5$\\times$ faster
than Lloyd's \\cite{lloyd82} on 90\\% of the data sets.
</summary>
    <author><name>Lia Moe</name></author>
    <arxiv:comment>Accepted at NeurIPS 2023</arxiv:comment>
  </entry>
</feed>
"""


def test_imported_latex_and_quotes_read_as_text_on_the_pages(catalog, tmp_path):
    (tmp_path / "cvf.json").write_text(json.dumps(CVF_CSL), encoding="utf-8")
    (tmp_path / "notes.json").write_text(json.dumps(OPENREVIEW), encoding="utf-8")
    (tmp_path / "pmlr.bib").write_text(PMLR_BIB, encoding="utf-8")
    (tmp_path / "feed.xml").write_text(ARXIV, encoding="utf-8")
    csl = run("import", "csl", "--content", catalog, tmp_path / "cvf.json")
    # Each kind of repair counted: 2 wrapping quotes, 2 citations (the one after "as in" is kept, marked).
    assert "wrapping quotes removed: 2" in csl and "citations dropped: 1, kept as [markers]: 1" in csl
    assert re.search(r"LaTeX commands converted: \d+ in 1 title and 2 abstracts \(", csl), csl
    openreview = run("import", "openreview", "--content", catalog, tmp_path / "notes.json")
    assert "citations dropped: 1" in openreview and "formulas shown as MathML: 2" in openreview
    bib = run("import", "bibtex", "--content", catalog, tmp_path / "pmlr.bib")
    assert "wrapping quotes removed: 1" in bib and "citations dropped: 1" in bib
    arxiv = run("import", "arxiv", "--content", catalog, tmp_path / "feed.xml")
    assert "citations dropped: 1" in arxiv
    site = tmp_path / "site"
    run("build", "--content", catalog, "--output", site)

    eccv = page_of(site, catalog, "Labyrinth Networks")
    text = visible(abstract_html(eccv))
    assert "We present Labyrinth" in text and not re.search(r"[\"“]\s*We present", text)
    assert "&quot;maze&quot;" in abstract_html(eccv)  # the quotes inside are kept
    assert abstract_html(eccv).count("<math") == 1  # 3$\times$: a formula next to a digit
    cvpr = visible(abstract_html(page_of(site, catalog, "Diffusion Models Sample")))
    assert cvpr.strip().startswith("We make") and "\u201d" not in cvpr

    nips = page_of(site, catalog, "Mazes")
    body = abstract_html(nips)
    assert "<em>Labyrinth</em>" in body and "<strong>Erdős</strong>" in body and "Rényi" in body
    assert '<a href="https://example.org/maze"' in body and "95%" in body and "\u2014" in body
    assert "Gregor10" not in body and '<cite class="latex-cite">[ER59]</cite>' in body
    assert re.search(r"<h1[^>]*>Fast <em>Mazes</em> in <math", nips)

    iclr = page_of(site, catalog, "Navigate")
    assert "<em>Labyrinth</em>" in abstract_html(iclr) and "<em>half</em>" in abstract_html(iclr)
    assert abstract_html(iclr).count("<math") == 1 and "Gregor10" not in iclr

    icml = page_of(site, catalog, "Goes")
    assert re.search(r"<h1[^>]*>BERT Goes – Deep: <math", icml)
    body = abstract_html(icml)
    assert visible(body).strip().startswith("We show that BERT") and "<em>no</em>" in body
    assert body.count("<math") == 2 and "vaswani17" not in body

    arxiv_page = page_of(site, catalog, "Sparse")
    body = abstract_html(arxiv_page)
    assert "<em>sparse</em>" in body and body.count("<math") == 2 and "90%" in body and "lloyd82" not in body

    for page in (eccv, nips, iclr, icml, arxiv_page):
        # What a reader sees (the BibTeX to copy is LaTeX, as it should be).
        shown = visible(re.sub(r"<script.*?</script>|<head>.*?</head>|<pre.*?</pre>", "", page, flags=re.S))
        assert not RAW_LATEX.search(shown), RAW_LATEX.search(shown)


# --------------------------------------------------------------------------- tags by the venue's field

# Titles whose phrases name a tag of another field (or none): the venue says the field.
FIELD_RECORDS = [
    ("cvpr", "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)", 2023,
     ["Generative Models with Diffusion", "Reinforcement Learning for Agents", "A Study of Things"], "vision"),
    ("acl", "Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics", 2023,
     ["Graph Neural Networks Revisited", "Diffusion Models for Tokens", "On Things"], "language"),
    ("corl", "Conference on Robot Learning", 2023,
     ["Diffusion Policies via Generative Models", "Transformers at Scale", "Things in Motion"], "robotics"),
    ("siggraph", "ACM SIGGRAPH 2023 Conference Proceedings", 2023,
     ["Neural Networks for Things", "Diffusion Models Everywhere", "Some Stuff"], "graphics"),
]


def test_papers_of_a_field_venue_carry_a_tag_of_its_field(catalog, tmp_path):
    items = [{"id": f"{sid}{n}", "type": "paper-conference", "title": title,
              "author": [{"given": "Ann", "family": f"Lee{sid}{n}"}], "container-title": container,
              "issued": {"date-parts": [[year]]}}
             for sid, container, year, titles, _ in FIELD_RECORDS for n, title in enumerate(titles)]
    (tmp_path / "fields.json").write_text(json.dumps(items), encoding="utf-8")
    output = run("import", "csl", "--content", catalog, tmp_path / "fields.json")
    placed = re.search(r"Tags placed: by phrase (\d+), by their venue's series (\d+) \((\d+) of them besides "
                       r"phrase tags of another field\), in the catch-all alone (\d+)\.", output)
    assert placed, output
    by_phrase, by_series, besides, alone = map(int, placed.groups())
    assert by_series == len(items) - by_phrase + besides and besides >= 4 and alone == 0
    tags = load_catalog(catalog).tags
    for paper in load_catalog(catalog).papers:
        found = series_of(paper.venue)
        fields = {sid: f for sid, _, _, _, f in FIELD_RECORDS}
        if found is None or found.series.id not in fields:
            continue  # the starter's example paper
        field = fields[found.series.id]
        assert any(field in tags[t].fields for t in paper.tags), (paper.title, paper.tags)
