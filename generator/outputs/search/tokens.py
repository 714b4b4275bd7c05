"""The words search sees beyond the shared fold (``content.words``: ``fold``, ``tokenize``,
``stem``): Lunr's stop words, and the German spellings of umlauts in author names.

Text is never handed to Lunr's own tokenizer or trimmer: lunr.py and lunr.js differ there
(the tokenizer's separators, the trimmer's idea of a word character). The page tokenizes
queries exactly as ``content.words`` tokenizes documents, with the table ``build_search``
writes to ``meta.json`` (``static/js/search-engine.js``); ``tests/outputs/test_search_parity.py``
runs the two sides on the same inputs.
"""

from __future__ import annotations

from lunr.stop_word_filter import WORDS as LUNR_STOP_WORDS

STOP_WORDS = frozenset(LUNR_STOP_WORDS)

# German spellings of umlauts, added to author names only (Müller is also found as Mueller).
UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"}
