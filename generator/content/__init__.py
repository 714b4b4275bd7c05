"""Stage 1, read: the content folder's files, their front matter and schemas (tags.toml
included), validated into the frozen catalog model (``model``), with every problem
collected and reported once."""
