"""Which lines of a page are table rows: numeric lines, table pages, flattened grids, and the prose runs a table
page prints between its grids (``vectorstore.chunking`` decides each unit's kind with these)."""

from __future__ import annotations

import re

from schema.page_text import strip_span
from vectorstore.text_measure import CJK, CJK_WEIGHT, words

PROSE_RUN = 60.0  # word equivalents of consecutive non-numeric lines on a table page that make a prose passage
# a unit of a prose page whose non-space characters are at least this share figures is a table in disguise (a
# note's grid flattened by the text layer: "应收款项融资 5,071,356.73 1,502,056.10 ..."): kind "table", so it is
# searched by BM25 with the table pages and gets no dense vector (a vector of a grid of numbers carries no meaning
# a question can match). Prose that quotes figures stays well below: MD&A sentences run at 0.1-0.25.
FIGURE_SHARE = 0.4
_FIGURE_CHARS = frozenset("0123456789,.%()（）-–—，．")
_NON_SPACE = re.compile(r"\S")
_NUMERIC_TOKEN = re.compile(r"^[($€£¥\-–—+]*[\d][\d,.]*%?\)?$|^[-–—]+$|^\$$")
_SENTENCE_STOP = re.compile(r"[.?!;](?=\s)|[.?!;]$|[。！？；]")


def _numeric_line(line: str) -> bool:
    tokens = line.split()
    if not tokens:
        return False
    num = 0
    rest: list[str] = []
    for t in tokens:
        if _NUMERIC_TOKEN.match(t):
            num += 1
        else:
            rest.append(t)
    if num == 0:
        return False
    label = words(" ".join(rest)) if rest else 0.0
    return num >= label or (num >= 2 and label <= 8)


def is_table_page(text: str, min_lines: int = 5) -> bool:
    """True when most lines of the page are mostly numbers (a statement / table page).

    A line is numeric when its numeric tokens outnumber its label words, or it has two or more numbers
    and a label of at most 8 words. The page needs half of its lines numeric (0.35 on CJK pages, whose
    statement labels wrap onto number-less continuation lines)."""
    lines = [x for x in text.split("\n") if x.strip()]
    if len(lines) < min_lines:
        return False
    n = sum(1 for x in lines if _numeric_line(x))
    cjk = len(CJK.findall(text))
    share = 0.35 if cjk * CJK_WEIGHT > 0.5 * words(text) else 0.5
    return n >= share * len(lines)


def prose_runs(text: str, start: int, end: int, min_words: float = PROSE_RUN) -> list[tuple[int, int]]:
    """The spans of ``text[start:end]`` that are prose on a table page: runs of consecutive lines none of which is
    mostly numbers (``_numeric_line``), of at least ``min_words`` word equivalents and with at least one sentence
    end. An MD&A page prints its results table and then says what drove them; a note prints a grid and then
    explains it. Label lines between rows ("Assets:", a wrapped statement label) and a grid's column headings
    are short or have no sentence, and stay with their table. Figures left between or beside prose runs that are
    too few for a unit of their own (a subtotal line between two paragraphs) join the prose."""
    runs: list[list[int]] = []
    run_start, run_words, pos = None, 0.0, start
    for line in text[start:end].split("\n"):
        if line.strip() and _numeric_line(line):
            if run_start is not None and run_words >= min_words and _SENTENCE_STOP.search(text, run_start, pos):
                runs.append([run_start, pos])
            run_start, run_words = None, 0.0
        elif line.strip():
            run_start = pos if run_start is None else run_start
            run_words += words(line)
        pos += len(line) + 1
    if run_start is not None and run_words >= min_words and _SENTENCE_STOP.search(text, run_start, end):
        runs.append([run_start, end])
    merged: list[list[int]] = []
    for run in runs:
        if merged and words(text[merged[-1][1]:run[0]]) < min_words:
            merged[-1][1] = run[1]
        else:
            merged.append(run)
    if merged and words(text[start:merged[0][0]]) < min_words:
        merged[0][0] = start
    if merged and words(text[merged[-1][1]:end]) < min_words:
        merged[-1][1] = end
    return [strip_span(text, a, b) for a, b in merged]


def figure_share(text: str) -> float:
    """The share of a text's non-space characters that are digits or number punctuation (``,.%()-``)."""
    chars = _NON_SPACE.findall(text)
    return len([c for c in chars if c in _FIGURE_CHARS]) / len(chars) if chars else 0.0
