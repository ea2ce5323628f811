"""Quotes of what a filing expects (guidance, an outlook, 预计 / 展望), read the way an analyst reads them: a guidance
sentence with the outlook sentences right after it ("公司预计 ... 增速从 13-17%上调至 17-18%。公司预计全年整体收入从
... 上调至 ... 435-440 亿元。"), a sentence that refers back to the outlook above it (上述提及的 ... 展望, "The foregoing
outlook ...") with the sentences it refers to, and the newest report's guidance first: a later report updates the
outlook an earlier one gave (the third quarter's report raises the range the annual report set).

Each quote grows only along its own page (``page_text(document_id, page)``), so it stays a page-exact citation."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

import duckdb

from mappings.vocabulary import fold, words
from router.fallback import figure_span
from router.quote_reading import PageText, looks_ahead, on_to_figure, page_of
from schema.models import Passage

FOLLOW = 300  # characters of the page after (or before) a quote its read on (or back) may take in
MORE_SENTENCES = 2  # outlook sentences read on after a quote's last one
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。；！？]")
# a sentence that refers back to what the text above says (上述提及的 2025年全年经营业绩展望, "The foregoing outlook")
_REFERS_BACK = re.compile(r"^\s*(?:上述|前述|上文|以上|上列|the\s+(?:foregoing|above|aforementioned)\b)", re.I)


def _with_span(p: Passage, page: str, start: int, end: int) -> Passage:
    text = page[start:end].strip()
    start += len(page[start:end]) - len(page[start:end].lstrip())
    return p.model_copy(update={"text": text, "source": {**p.source, "char_start": start, "char_end": start + len(text)}})


def _says_ahead(text: str) -> bool:
    """Does the text itself say what is expected (预计 printed over a line break too: "预\n计")?"""
    return bool(words("outlook").search(fold(re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", "", text))))


def _outlook_sentence(sentence: str) -> bool:
    return bool(re.search(r"\d", sentence)) and _says_ahead(sentence)


def with_outlook(p: Passage, page_text: PageText) -> Passage:
    """A guidance quote read on to the figure it announces, then through the outlook sentences right after it (at
    most MORE_SENTENCES, each with a figure and an outlook word); a quote that refers back to the outlook above it read
    back from its start through the sentences before it (within FOLLOW characters, to a sentence's start)."""
    p = on_to_figure(p, page_text)
    page = page_of(p, page_text)
    if page is None:
        return p
    start, end = p.source["char_start"], p.source["char_end"]
    if _REFERS_BACK.match(p.text):  # back over at most two sentences, to the earliest outlook sentence of them
        before = page[max(0, start - FOLLOW): start]
        stops = [0, *(m.end() for m in _SENTENCE_END.finditer(before.rstrip()[:-1]))][-MORE_SENTENCES - 1:]
        back = [at for at, nxt in zip(stops, [*stops[1:], len(before)]) if _outlook_sentence(before[at:nxt])]
        if back and (back[0] or start <= FOLLOW):  # (from the window's edge only where the page starts there)
            start -= len(before) - back[0]
    for _ in range(MORE_SENTENCES):
        stop = _SENTENCE_END.search(page, end + 1, end + FOLLOW)
        if stop is None or not _outlook_sentence(page[end: stop.end()]) or "\n\n" in page[end: stop.end()]:
            break
        end = stop.end()
    return _with_span(p, page, start, end)


def period_ends(con: duckdb.DuckDBPyConnection, passages: list[Passage]) -> dict[str, date]:
    """Each passage's document's period end."""
    ids = sorted({p.source.get("document_id") for p in passages if p.source.get("document_id")})
    if not ids:
        return {}
    return {d: end for d, end in con.execute(
        "SELECT document_id, period_end FROM documents WHERE list_contains(?, document_id)", [ids]).fetchall() if end}


def outlook_quotes(passages: list[Passage], labels: list[str], page_text: PageText,
                   ends: Callable[[list[Passage]], dict[str, date]]) -> list[Passage]:
    """What a filing expects, quoted: each quote read on (:func:`with_outlook`); the quotes that print a figure of
    the asked metric's labels ahead of time first, the newest report's first among them (``ends``: each passage's
    document's period end)."""
    read = [with_outlook(p, page_text) for p in passages]
    if not labels:
        return read
    period_end = ends(read)

    def rank(p: Passage) -> tuple[int, int]:
        lower = p.text.casefold()
        if _says_ahead(p.text) and re.search(r"\d", p.text) and any(label in lower for label in labels):
            level = 0  # says itself what is expected of the metric, with a figure ("公司预计全年整体收入从 ... 上调至 ...")
        elif figure_span(p.text, labels) and looks_ahead(p, page_text):
            level = 1  # the metric's figure under an outlook's heading ("Diluted earnings per share $24.70 to $25.40")
        else:
            return 2, 0
        return level, -period_end.get(p.source.get("document_id"), date.min).toordinal()

    return sorted(read, key=rank)
