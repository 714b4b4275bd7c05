"""Stage 2, text: Markdown with LaTeX (titles and abstracts) to safe HTML with MathML, and
to plain text for search, metadata and citations."""

from .markdown import excerpt, plain_text, render_abstract, render_title

__all__ = ["excerpt", "plain_text", "render_abstract", "render_title"]
