"""Stage 4, outputs: every file of the site as text: pages planned and rendered with Jinja2,
citations (BibTeX, RIS, COinS, Highwire, JSON-LD), the search index, feeds, sitemap, venues'
BibTeX and the whole catalog's yearly gzip files with their index ``papers.json`` (``catalog``)."""
