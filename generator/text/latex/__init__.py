"""LaTeX in content text, read by one tokenizer (``tokens``): written out as BibTeX values
(``encode``) and read back from BibTeX (``decode``)."""

from .decode import bib_text_to_content, decode_url
from .encode import latex_value, strip_latex
from .tokens import Tok, clean_text, tokenize

__all__ = ["Tok", "bib_text_to_content", "clean_text", "decode_url", "latex_value", "strip_latex", "tokenize"]
