"""Stage 2, text: Markdown with LaTeX (titles and abstracts) to safe HTML with MathML, and
to plain text for search, metadata and citations."""
