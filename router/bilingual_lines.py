"""The Chinese column of a bilingual page read as one text: many HK reports print the English and the Chinese
version of a paragraph side by side, so each text line holds a piece of each ("of HK$939.3 million (2020: HK$1,327.3
million) was recognised. 值」）確認為939,300,000港元（2020年："). A Chinese label and its figure are then split over
lines with English between them; joined, the Chinese column reads "...墊款之減值撥備（「減值」）確認為939,300,000港元".

:func:`chinese_column` returns that text with each character's offset on the page, so a span found in it maps back
to an exact span of the page (quotes stay substrings of their page)."""

from __future__ import annotations

import re
from collections.abc import Callable

from mappings.metrics import CJK as _CJK
_LATIN_WORDS = re.compile(r"(?:[A-Za-z][A-Za-z’'&.-]*\s+){2,}[A-Za-z]")  # a run of English words (three or more)
INTERLEAVED_LINES = 3  # lines holding both an English and a Chinese piece that make a page bilingual side by side


def _pieces(line: str) -> tuple[int, int] | None:
    """(start, end) of a line's Chinese piece: from its first Chinese character to the end of the line, or to
    where a run of English words starts after it (the Chinese column printed first); None without Chinese."""
    first = _CJK.search(line)
    if first is None:
        return None
    # a figure of the Chinese text may start the piece, printed against its first character ("50,200,000港元")
    glued = re.search(r"(?<![\w$.,])[\d,.]*\d$", line[: first.start()])
    start = glued.start() if glued else first.start()
    english = _LATIN_WORDS.search(line, first.start())
    return start, english.start() if english else len(line)


def interleaved(text: str) -> bool:
    """Is the page printed in two columns, English and Chinese, line by line?"""
    both = sum(1 for line in text.split("\n") if _CJK.search(line) and _LATIN_WORDS.search(line))
    return both >= INTERLEAVED_LINES


def chinese_column(text: str) -> tuple[str, list[int]]:
    """(the Chinese pieces of the page's lines joined, each character's offset in ``text``)."""
    chars: list[str] = []
    offsets: list[int] = []
    at = 0
    for line in text.split("\n"):
        piece = _pieces(line)
        if piece:
            start, end = piece
            chars += line[start:end]
            offsets += range(at + start, at + end)
        at += len(line) + 1
    return "".join(chars), offsets


def page_span(offsets: list[int], start: int, end: int) -> tuple[int, int]:
    """A span of the joined column as the span of the page that holds it (from its first to its last character)."""
    return offsets[start], offsets[end - 1] + 1


def column_span(text: str, labels: list[str], find: Callable[[str, list[str]], tuple[int, int] | None]
                ) -> tuple[int, int] | None:
    """``find(text, labels)`` run on the Chinese column of a page printed side by side, with the Chinese labels, its
    span given back as the span of the page; None on other pages or without a Chinese label."""
    chinese = [w for w in labels if _CJK.search(w)]
    if not chinese or not interleaved(text):
        return None
    column, offsets = chinese_column(text)
    span = find(column, chinese)
    if not span:
        return None
    start, end = page_span(offsets, *span)
    # the figure read must be the Chinese text's own, not an English fragment left in a line's piece ("HK$30.1 million")
    figure = re.search(r"[\d,.]+\s*(?:港元|人民币|元|美元|%|％)?$", text[start:end])
    before = text[:end - len(figure.group(0))] if figure else ""
    if figure is None or re.search(r"[A-Za-z$]\s*$", before) or re.match(r"\s*[A-Za-z]", text[end:]):
        return None
    return start, end
