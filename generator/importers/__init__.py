"""Importers: seed text files (``seeds``), and the record formats — BibTeX, CSL-JSON,
OpenReview notes, arXiv feeds, ``papershelf add`` — whose readers share one core
(``records``) for venues, links, tags, slugs, checks and atomic writes."""
