"""Papershelf: a static-site generator for research-paper reading catalogs."""

__version__ = "0.1.0"
