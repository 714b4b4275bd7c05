"""Content text to HTML: the Markdown parser (``markdown``) with text-mode LaTeX
(``latex_rule``, writing through ``latex_writer``), math found in Markdown (``math_rules``)
and written as MathML (``mathml``), and the link targets allowed (``links``)."""
