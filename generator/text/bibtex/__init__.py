"""Content text to and from BibTeX, read by the one LaTeX tokenizer (``text.tokens``):
written out as BibTeX values (``to_bibtex``) and read back from BibTeX (``from_bibtex``)."""

from .from_bibtex import bib_text_to_content, decode_url
from .to_bibtex import latex_value, strip_latex
from ..tokens import Tok, clean_text, tokenize

__all__ = ["Tok", "bib_text_to_content", "clean_text", "decode_url", "latex_value", "strip_latex", "tokenize"]
