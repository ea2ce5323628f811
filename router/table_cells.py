"""Text helpers for reading a table's rows out of a page's text layer: a row's text column before its figures, a row
of many words that is still a table's, a table titled with its metric, a Chinese row name split round its figures, a
line of several parts' headings, the parts a Chinese name lists, and the heading of a table's year (used by
:mod:`router.part_rows`)."""

from __future__ import annotations

import re

from mappings.metrics import CJK
from router.part_names import _FIGURE, HEADING_MAX

_TEXT_CELL = re.compile(r"[^\S\n]+[A-Za-z][A-Za-z&'’,/() -]{1,80}?[^\S\n]*")
_CELLS_TO_LINE_END = re.compile(r"(?:[^\S\n]+(?:\$[^\S\n]*)?\(?-?\d[\d,]*(?:\.\d+)?\)?%?|[^\S\n]+—)+[^\S\n]*(?=\n|$)")
# a line that ends in two figures or more: a table's row, however many words its label and text columns hold
ROW_OF_CELLS = re.compile(r"(?:[^\S\n]+(?:\$[^\S\n]*)?\(?-?\d[\d,]*(?:\.\d+)?\)?%?){2,}[^\S\n]*$")
TITLE_LINES = 5  # a title over a table: among the first lines of a unit or page (after the page's running heads)


def titled(text: str, labels: list[str]) -> bool:
    """Does the text open with a title line that names the metric ("Significant Product Revenues" over a long table of
    products and their revenues): every row under it is the metric's?"""
    for line in text.split("\n", TITLE_LINES)[:TITLE_LINES]:
        if len(line) <= HEADING_MAX and not _FIGURE.search(line) and any(w in line.casefold() for w in labels):
            return True
    return False


def text_cell(text: str, label_end: int, figure: re.Match) -> bool:
    """Is what stands between a row's label and its first figure a table's text column ("Vyndaqel family" / "ATTR-CM
    and polyneuropathy" / "782 552 1,468 1,164"): words on the row's own line, then figures alone to the line's end
    (two or more), never a sentence's words around one figure?"""
    if not _TEXT_CELL.fullmatch(text, label_end, figure.start()):
        return False
    rest = _CELLS_TO_LINE_END.match(text, figure.end())
    return rest is not None and len(_FIGURE.findall(rest.group(0))) >= 1


def heading_columns(line: str, name: re.Pattern) -> int:
    """How many other parts' headings a heading line prints beside the part's, as a table's columns ("批发金融业务 零售金融业务
    其他业务 合计": 3); 0 for the part's heading alone ("Optical Communications segment")."""
    rest = name.sub(" ", line)
    if CJK.search(rest):
        others = re.findall(r"[\u4e00-\u9fff]{2,}", rest)
        return len(others) if len(others) >= 2 else 0
    others = re.findall(r"\b[A-Z][a-z]+", rest)
    return len(others) if len(others) >= 3 else 0


def rejoined(text: str, names: list[str]) -> str:
    """The text with a Chinese row name the text layer split round its figures put back together, the same length
    ("临床试验技术" / "1,469,530,239.35 ... 22.81% ..." / "服务" -> "临床试验技术服务 1,469,530,239.35 ... 22.81% ... "):
    only the asked name's own halves, so other rows' labels stay as printed."""
    for name in names:
        if not CJK.search(name):
            continue
        for cut in range(2, len(name) - 1):
            wrapped = re.compile(rf"(?m)^([^\S\n]*{re.escape(name[:cut])})\n([\d,.%()（）\-–\s]*\d[\d,.%()（）\-–\s]*?)\n"
                                 rf"({re.escape(name[cut:])})[^\S\n]*$")
            text = wrapped.sub(lambda m: f"{m.group(1)}{m.group(3)} {m.group(2)} ", text)
    return text


_LISTED = re.compile(r"\s*(?:和|与|及|以及|、|跟)\s*")


def listed(name: str) -> list[str]:
    """The parts a Chinese name lists ("冷冻设备和罐式集装箱": 冷冻设备, 罐式集装箱), each of two characters or more;
    [name] when it lists none. (An English "and" joins the words of one segment's name: "Food and Beverage".)"""
    if not CJK.search(name):
        return [name]
    pieces = [p for p in _LISTED.split(name) if p]
    return pieces if len(pieces) > 1 and all(len(p) >= 2 for p in pieces) else [name]


# a table's heading line that says whose year its figures are ("2023年度", "二零二三年", "Year ended 31 December 2023")
_YEAR_HEADING = re.compile(r"[^\S\n]*(?:(?:19|20)\d\d[^\S\n]*年度?|[二〇零一三四五六七八九]{4}年度?|(?:19|20)\d\d|(?:for[^\S\n]+)?(?:the[^\S\n]+)?"
                           r"(?:fiscal[^\S\n]+)?year[^\S\n]+ended[^\n]{0,30}(?:19|20)\d\d|截至[^\n]{0,20}(?:19|20)\d\d年[^\n]{0,12}止年度)[^\S\n]*",
                           re.I)


def with_year_heading(text: str, start: int) -> int:
    """A quote's start moved up to the heading of its year when one of the two lines above it is one (a comparative
    year's table printed under "2023年度" is read as that year's)."""
    at = start
    for _ in range(2):
        if at <= 0:
            break
        prev = text.rfind("\n", 0, at - 1) + 1
        if _YEAR_HEADING.fullmatch(text[prev: at - 1]):
            return prev
        at = prev
    return start
