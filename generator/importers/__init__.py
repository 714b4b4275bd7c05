"""Beside the pipeline: importers that write content files (paper and venue Markdown) from
seed text files and BibTeX, with tag suggestions from ``tags.toml``."""
