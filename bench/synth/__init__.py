"""Synthetic archives for benchmarks and tests (the API of ``catalog``; ``python -m bench.synth``)."""

from .archive import build_archive
from .catalog import (FORMS, MARKER, MAX_RANK, SOURCES, SYLLABLES, TAGS_TOML, generate, load_corpus, main,
                      pseudo_word, write_content, write_records, write_seed_files)

__all__ = ["FORMS", "MARKER", "MAX_RANK", "SOURCES", "SYLLABLES", "TAGS_TOML", "build_archive", "generate",
           "load_corpus", "main", "pseudo_word", "write_content", "write_records", "write_seed_files"]
