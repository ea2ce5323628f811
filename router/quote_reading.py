"""Reading a quote of a search unit with the page it is on: whether it gives what a filing expects (guidance, a
forecast) rather than what it reports, a quote that announces an outlook read on to its figure, a quote cut inside a
Chinese sentence (where its unit was cut) read on to the sentence's end. Each takes ``page_text(document_id, page)``;
a quote grows only along its own page, so it stays a page-exact citation."""

from __future__ import annotations

import re
from collections.abc import Callable

from mappings.vocabulary import fold, words
from router.reasons import with_cause
from schema.models import Passage

PageText = Callable[[str, int], "str | None"]

# accounting terms, and a figure measured against an earlier outlook ("well above our outlook of 32.5 billion")
_NO_OUTLOOK = re.compile(r"expected\s+credit\s+loss(?:es)?|预期信用损失|expected\s+to\s+be\s+settled|"
                         r"(?:above|below|exceed(?:ed|ing)?|beat|ahead\s+of|in\s+line\s+with|compared\s+(?:with|to)|"
                         r"versus|vs\.?)\s+(?:our\s+|the\s+|its\s+)?(?:prior\s+|previous\s+|earlier\s+)?"
                         r"(?:outlook|guidance|forecast)", re.I)
_SENTENCE = re.compile(r"[.!?。；](?=\s|$)")
_CHINESE_STOP = re.compile(r"[。；！？]|\n\s*\n")  # a Chinese sentence's end, or a paragraph's
_MID_SENTENCE = re.compile(r"[\u4e00-\u9fff，、（]\s*$")  # a quote that ends inside a Chinese sentence
# ... or inside an English one: at a semicolon or comma of a list, or at the word that joins its items
_MID_SENTENCE_EN = re.compile(r"[A-Za-z)][;,]\s*$|\b(?:and|or)\s*$")
_ENGLISH_STOP = re.compile(r"[.!?](?=\s|$)|\n\s*\n")
_LIST_END = re.compile(r"。|\n\s*\n")  # a Chinese list's sentence ends at its full stop, not at an item's semicolon
_NEXT_ITEM = re.compile(r"\s*(?:[②③④⑤⑥⑦⑧⑨⑩]|[（(][二三四五六七八九2-9][)）]|[2-9][、.)）])")  # a list's next item
FOLLOW = 300  # a quote that announces what a filing expects is read on to its figure: at most this many characters
LOOK_BACK = 300  # characters of the page before a quote read with it to tell guidance from what was reported
_RANGE = re.compile(r"\$\s?\d[\d.,]*\s*(?:[–—-]|to)\s*\$\s?\d|\bmid-?point\b", re.I)  # "$10.45 – $10.65"


_QUARTER_WORDS = {"Q1": "first", "Q2": "second", "Q3": "third", "Q4": "fourth"}


def names_quarter(text: str, quarters: set[str]) -> bool:
    """Does a quote name the quarter asked ("second quarter", "Q2", "QTD")? A quarter's row beside words about what
    is anticipated later is still the quarter's figure, not guidance."""
    return any(re.search(rf"\b(?:{q}|{_QUARTER_WORDS[q]}[\s-]+quarter|QTD|quarter[\s-]+to[\s-]+date)\b", text, re.I)
               for q in quarters if q in _QUARTER_WORDS)


def page_of(p: Passage, page_text: PageText) -> str | None:
    """The text of a quote's page, when the quote is an exact span of it (else there is nothing to read on along)."""
    start, end = p.source.get("char_start"), p.source.get("char_end")
    if start is None or end is None:
        return None
    page = page_text(p.source.get("document_id"), p.source.get("page")) or ""
    return page if page[start:end] == p.text else None


def _read_to(p: Passage, page: str, stop: int) -> Passage:
    """The quote read on along its page to ``stop`` (trailing space off); as it is when that adds nothing."""
    start = p.source["char_start"]
    text = page[start:stop].rstrip()
    if len(text) <= len(p.text):
        return p
    return p.model_copy(update={"text": text, "source": {**p.source, "char_end": start + len(text)}})


def to_sentence_end(p: Passage, page_text: PageText) -> Passage:
    """A quote that stops inside a sentence (its search unit was cut there: "本集團之溢利分別約" / "41,463,000港元
    及約56,018,000港元，...", "This was mainly due to (1) increases in ... expenses;" / "and (2) ..."), read on along its
    page to the sentence's end (at most FOLLOW characters)."""
    english = bool(_MID_SENTENCE_EN.search(p.text))
    listed = bool(re.search(r"[；;]\s*$", p.text))  # a list's item ends it: read on when the next item follows
    page = page_of(p, page_text) if english or listed or _MID_SENTENCE.search(p.text) else None
    if page is not None and listed and not english:
        if not _NEXT_ITEM.match(page, p.source["char_end"]):
            return p
        stop = _LIST_END.search(page, p.source["char_end"], p.source["char_end"] + 2 * FOLLOW)
    else:
        stop = (_ENGLISH_STOP if english else _CHINESE_STOP).search(page, p.source["char_end"],
                                                                    p.source["char_end"] + FOLLOW) if page else None
    if stop is None or page[stop.start()] == "\n":
        return p
    return _read_to(p, page, stop.end())


def with_reason(p: Passage, page_text: PageText) -> Passage:
    """A quote that gives a change without its cause, read on along its page to the end of the next sentence when that
    one gives it (:func:`router.reasons.with_cause`: "... an increase of 95%. The current year benefited from ...")."""
    page = page_of(p, page_text)
    if page is None:
        return p
    return _read_to(p, page, with_cause(page, p.source["char_start"], p.source["char_end"])[1])


TABLE_LINES = 16  # a table announced by a quote is read on for at most this many lines
# a table's line: its figures (two or more), its years, a units or period note, or a short label line of its own
# ("Memberships:", a label wrapped over two lines)
_TABLE_LINE = re.compile(r"[^\S\n]*(?:[^\n]{0,80}?(?:[$€£¥]?[^\S\n]?\(?-?\d[\d,]*(?:\.\d+)?\)?[^\S\n]?%?[^\S\n]*){2,}[^\n]{0,30}|"
                         r"[^\n]{0,40}(?:ended|in millions|in thousands|dollars in|千元|万元|百万元)[^\n]{0,60}|"
                         r"\(?\d{1,2}\)|[^\d\n.。]{1,50})[^\S\n]*", re.I)  # (a note's mark alone: "(1)")
_FOOTER = re.compile(r"\b(?:annual|interim|quarterly)\s+report\b|年度报告|年度報告|中期报告|中期報告|^\s*\d{1,3}\s*$", re.I)  # a page's foot
_FIGURES_LINE = re.compile(r"\d[\d,]*(?:\.\d+)?[^\d\n]{1,12}\d")
_HEADING_END = re.compile(r"(?:^|\n)[^\S\n]*[A-Z\u4e00-\u9fff][^\n.。:：;；,，]{2,58}[^\S\n]*$")  # "International Streaming Segment"


def _plain(line: str) -> str:
    """A table's line without a footnote's mark after a word ("Square feet(2)") or an abbreviation's stops ("U.S.")."""
    return re.sub(r"(?<=[A-Z])\.", "", re.sub(r"(?<=[A-Za-z])\(\d{1,2}\)", "", line))


def with_table(p: Passage, page_text: PageText) -> Passage:
    """A quote that ends by announcing a table ("The following table shows key hotel statistics for ...:"), at a
    heading the table follows ("International Streaming Segment") or at a row of a table it quotes from its header
    ("... / High school 15,303 22.0 13,534 22.5"), read on along its page through the table's header and rows (at most
    TABLE_LINES lines, to its last line of figures)."""
    lines = p.text.rstrip().split("\n")
    # (a row: figures, no sentence's end, under a line of the table too - a header or another row)
    in_table = len(lines) > 1 and all(_TABLE_LINE.fullmatch(x) for x in lines[-2:]) and bool(
        _FIGURES_LINE.search(lines[-1])) and not re.search(r"[。.;；!?！？]\s*$", lines[-1])
    announces = re.search(r"[:：]\s*$", p.text) or _HEADING_END.search(p.text) or in_table
    page = page_of(p, page_text) if announces else None
    if page is None:
        return p
    stop = at = p.source["char_end"]
    for _ in range(TABLE_LINES):
        nl = page.find("\n", at)
        if nl < 0 or nl != at and page[at:nl].strip():
            break
        line_end = page.find("\n", nl + 1)
        line_end = len(page) if line_end < 0 else line_end
        line = page[nl + 1: line_end]
        if not _TABLE_LINE.fullmatch(_plain(line)) or _FOOTER.search(line):
            break
        at = line_end
        if _FIGURES_LINE.search(line):
            stop = line_end  # (the table ends at its last line of figures)
    return _read_to(p, page, stop)


YEARS_ABOVE = 12  # lines above a printed row its table's line of years may be on
_ROW_FIGURE = re.compile(r"(?<![\w.])\(?-?\d[\d,]*(?:\.\d+)?\)?(?![\w.])")
# a table's line of years, or of its columns' dates ("30.09.2021 30.09.2020")
_YEARS_LINE = re.compile(r"[^\S\n]*(?:[A-Za-z][^\n\d]{0,60})?(?:(?:\d{1,2}[./-]\d{1,2}[./-])?(?:19|20)\d\d[^\S\n]*){2,6}[^\S\n]*")


def with_years(p: Passage, page_text: PageText) -> Passage:
    """A printed row of several years' figures ("Free cash flow (2,019,659) (1,659,755) (920,557) ..."), read from the
    line of years above it in its table ("2017 2016 2015 2014 2013"), so that each figure's year is seen; as it is
    when no such line is within YEARS_ABOVE lines above it on its page."""
    page = page_of(p, page_text)
    if page is None or "\n" in p.text.strip() or len(_ROW_FIGURE.findall(p.text)) < 2:
        return p  # (a row of one figure, or a sentence, has no columns of years)
    start = p.source["char_start"]
    at = start
    for _ in range(YEARS_ABOVE):
        if at <= 0:
            return p
        prev = page.rfind("\n", 0, at - 1) + 1
        if _YEARS_LINE.fullmatch(page[prev: at - 1]):
            text = page[prev: p.source["char_end"]]
            return p.model_copy(update={"text": text, "source": {**p.source, "char_start": prev}})
        at = prev
    return p


def read_on(p: Passage, page_text: PageText, why: bool) -> Passage:
    """A quote read on along its page where it stops short: inside a Chinese sentence, before the table it announces,
    and for a why question before the cause of the change it gives."""
    p = with_table(to_sentence_end(p, page_text), page_text)
    return to_sentence_end(with_reason(p, page_text), page_text) if why else p  # (a cause's list read whole)


def on_to_figure(p: Passage, page_text: PageText) -> Passage:
    """A quote whose last sentence speaks of what is expected without a figure, read on up to two sentences of
    its page to the first that gives one; else as it is."""
    ends = [m.end() for m in _SENTENCE.finditer(p.text.rstrip()[:-1])]
    last = p.text[ends[-1] if ends else 0:]  # the quote's last sentence
    page = None if re.search(r"\d", last) or not words("outlook").search(fold(last)) else page_of(p, page_text)
    if page is None:
        return p
    end = p.source["char_end"]
    for stop in [m.end() for m in _SENTENCE.finditer(page, end, end + FOLLOW)][:2]:
        if re.search(r"\d", page[end: stop]):
            return _read_to(p, page, stop)
    return p


def looks_ahead(p: Passage, page_text: PageText) -> bool:
    """Does a quote give what a filing expects (guidance, a forecast, a range with its mid-point), read with the
    lines before it on its page ("2023 Guidance: ... Adjusted EPS $10.45 – $10.65")?"""
    start = p.source.get("char_start")
    page = page_text(p.source.get("document_id"), p.source.get("page")) if start is not None else None
    context = (page[max(0, start - LOOK_BACK): start] if page else "") + " " + p.text
    context = _NO_OUTLOOK.sub(" ", fold(context))
    return bool(words("outlook").search(context) or _RANGE.search(p.text))
