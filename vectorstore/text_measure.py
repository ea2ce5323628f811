"""Text size in word equivalents: Latin words plus CJK characters at ``CJK_WEIGHT`` each (~220 words make as many
tokens as ~400 CJK characters)."""

from __future__ import annotations

import re

CJK_WEIGHT = 220.0 / 400.0  # one CJK character in word equivalents
_CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
CJK = re.compile(f"[{_CJK_CLASS}]")
# A Latin "word": a run of characters that are neither whitespace, CJK ideographs nor CJK / full-width
# punctuation.
_WORD = re.compile(f"[^\\s{_CJK_CLASS}\u3000-\u303f\uff00-\uffef]+")


def words(text: str) -> float:
    """Size of ``text`` in word equivalents: Latin words + 0.55 per CJK character."""
    if not text:
        return 0.0
    n_cjk = len(CJK.findall(text))
    n_words = len(_WORD.findall(text))
    return n_words + CJK_WEIGHT * n_cjk
