"""Printed lines -> table rows, for statement pages whose cells wrap (A-share layouts): page furniture
(repeated page headers, page-number footers) dropped, labels wrapped over several lines joined to the line with
the values, numbers cut inside narrow cells ("18,079,461,4" / "82.75") joined. Every width rule compares a
label's display width (a CJK character counts two) with the widest label of the table."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from mappings.statement_tables import cas_label_tail
from parsers.statement_columns import is_cas_header_text
from parsers.statement_lines import display_width, split_cas_cells
from schema.models import Page

EDGE_TOP_LINES = 3  # lines at the top of a page that may be a running header
EDGE_BOTTOM_LINES = 2  # lines at the bottom of a page that may be a running footer or page number
REPEATED_SHARE = 0.4  # an edge line printed on at least this share of the pages is page furniture
MIN_REPEATS = 2  # ... and on at least this many pages
FULL_WIDTH_SHARE = 0.8  # a label at least this share of the widest label fills its cell (it may wrap)
SHORT_WIDTH_SHARE = 0.5  # a label fragment at most this share of the widest label is a short wrapped tail
WRAP_LOOKAHEAD = 2  # a number cut short is completed from the next line or the one after it
_PAGE_NUMBER = re.compile(r"^(\d+\s*/\s*\d+|\d{1,3}|第\s*\d+\s*页.*|-\s*\d+\s*-)$")


@dataclass
class Line:
    page: int
    idx: int  # 1-based line number on the page
    text: str
    label: str = ""
    values: list[str] = field(default_factory=list)
    # change-column cells ("16.31%") printed on a line of their own between the two halves of a row whose
    # numbers wrap (see join_wrapped_numbers): they belong to the table's pct columns, the values to the others
    floating: list[str] = field(default_factory=list)
    src: "Line | None" = None  # the printed line a synthetic line (blank cell filled in) stands for

    @property
    def kind(self) -> str:
        if self.values and not self.label:
            return "V"
        if self.values:
            return "LV"
        return "L"


def strip_page_furniture(pages: list[Page]) -> dict[int, list[tuple[int, str]]]:
    """Page -> [(1-based line no, text)] without repeated page headers and page-number footers."""
    split = {p.page: p.text.split("\n") for p in pages}
    counts: Counter[str] = Counter()
    for lines in split.values():
        for t in set(lines[:EDGE_TOP_LINES] + lines[-EDGE_BOTTOM_LINES:]):
            counts[t.strip()] += 1
    limit = max(MIN_REPEATS, len(pages) * REPEATED_SHARE)
    out: dict[int, list[tuple[int, str]]] = {}
    for page, lines in split.items():
        kept = []
        n = len(lines)
        for i, t in enumerate(lines):
            s = t.strip()
            if not s:
                continue
            edge = i < EDGE_TOP_LINES or i >= n - EDGE_BOTTOM_LINES
            if edge and counts[s] >= limit:
                continue
            if i >= n - EDGE_BOTTOM_LINES and _PAGE_NUMBER.match(s):
                continue
            kept.append((i + 1, s))
        out[page] = kept
    return out


def join_wrapped_labels(lines: list[Line], sandwich: bool = False,
                        known: Callable[[str], bool] | None = None) -> list[tuple[str, Line]]:
    """Join wrapped labels: returns (label, values line) for every line that carries values. ``known`` tells a
    printed label of the market's label vocabulary: a value line's label that is not one, followed by one or two
    label-only lines that complete it into one ("购建固定资产、无形资产和其他 228,315,572.28 ..." / "长期资产支付的
    现金"), takes those lines."""
    widths = [display_width(ln.label) for ln in lines if ln.label]
    maxw = max(widths) if widths else 0
    used: set[int] = set()
    rows: list[tuple[str, Line]] = []

    def label_only(i: int) -> bool:
        return 0 <= i < len(lines) and lines[i].kind == "L" and i not in used

    def fragment_start(t: str) -> bool:  # a line that can be the first part of a wrapped label
        return not t.endswith(("：", ":")) and not is_cas_header_text(t) and not _LABEL_TAIL.match(t)

    def tail_of_above(i: int) -> bool:  # a label-only line that ends the label of the value line above it
        return label_only(i) and bool(_LABEL_TAIL.match(lines[i].label))

    def suffix_ok(t: str) -> bool:
        return not t.endswith(("：", ":")) and not re.match(
            r"^([一二三四五六七八九十]+、|[（(][一二三四五六七八九十\d]+[)）]|\d+[.．、]|其中|减：|加：)", t
        ) and not is_cas_header_text(t)

    def unbalanced(t: str) -> bool:
        return t.count("（") + t.count("(") > t.count("）") + t.count(")") or t.count("“") > t.count("”")

    def completing(i: int) -> list[int]:
        """The one or two label-only lines under value line ``i`` that complete its label into a known one
        (SSE cells wrap downwards: "归属于上市公司股东的 392,188,209.82 ..." / "扣除非经常性损益的净" / "利润")."""
        text = lines[i].label
        for j in (i + 1, i + 2):
            if not (label_only(j) and suffix_ok(lines[j].label)):
                return []
            text += lines[j].label
            if known(text):
                return list(range(i + 1, j + 1))
        return []

    def full(t: str) -> bool:
        return maxw > 0 and display_width(t) >= FULL_WIDTH_SHARE * maxw

    for i, ln in enumerate(lines):
        if not ln.values:
            continue
        parts = [ln.label] if ln.label else []
        if ln.kind == "V":
            if label_only(i - 1) and fragment_start(lines[i - 1].label):
                parts.insert(0, lines[i - 1].label)
                used.add(i - 1)
            if label_only(i + 1) and suffix_ok(lines[i + 1].label):
                parts.append(lines[i + 1].label)
                used.add(i + 1)
        else:
            prev_frag = (
                label_only(i - 1)
                and fragment_start(lines[i - 1].label)
                and (unbalanced(lines[i - 1].label) or full(lines[i - 1].label) or (
                    sandwich and label_only(i + 1) and suffix_ok(lines[i + 1].label)
                    and not (i + 2 < len(lines) and lines[i + 2].kind == "V")))
            )
            if prev_frag:
                parts.insert(0, lines[i - 1].label)
                used.add(i - 1)
            below = completing(i) if known is not None and not prev_frag and not known(ln.label) else []
            if below:
                parts += [lines[j].label for j in below]
                used.update(below)
            elif tail_of_above(i + 1):
                parts.append(lines[i + 1].label)
                used.add(i + 1)
            elif (
                label_only(i + 1)
                and suffix_ok(lines[i + 1].label)
                and (unbalanced(ln.label) or (prev_frag and (full(ln.label) or sandwich))
                     or (full(ln.label) and display_width(lines[i + 1].label) <= SHORT_WIDTH_SHARE * maxw))
                and not (i + 2 < len(lines) and lines[i + 2].kind == "V")
            ):
                parts.append(lines[i + 1].label)
                used.add(i + 1)
        if sandwich and i - 1 in used and i + 1 in used:
            # labels wrapped over more lines, centred on the value line (narrow SZSE cells: 归属于上市 /
            # 公司股东的 / 扣除非经常 123.45 / 性损益的净 / 利润): take further lines pairwise, one above and
            # one below, while both are free label fragments and the next row keeps a line of its own
            k = 2
            while (label_only(i - k) and label_only(i + k) and fragment_start(lines[i - k].label)
                   and suffix_ok(lines[i + k].label) and not (i + k + 1 < len(lines) and lines[i + k + 1].kind == "V")):
                parts.insert(0, lines[i - k].label)
                parts.append(lines[i + k].label)
                used.update((i - k, i + k))
                k += 1
        label = "".join(parts).strip()
        if label:
            rows.append((label, ln))
    return rows


# Numbers wrapped inside narrow cells: "18,079,461,4" on one line, "82.75" on the next. A head is a prefix
# that cannot be a number by itself (its last digit group is cut short, or it ends in a point).
_WELL_FORMED = re.compile(r"^-?\d{1,3}(?:,\d{3})*(?:\.\d+)?$")
_BROKEN_HEAD = re.compile(r"^-?\d{1,3}(?:,\d{3})*(?:,\d{0,2}|\.)$")
_OPEN_HEAD = re.compile(r"^-?[\d,]+\.?$")  # any head without decimals (it may be cut at a group boundary)
_TAIL = re.compile(r"^[\d,]*\d(?:\.\d+)?$")
_MONEYISH = re.compile(r"^[(（]?-?[\d,]*\d[\d,]*\.?\d*[)）]?$")


def join_wrapped_numbers(lines: list[Line]) -> list[Line]:
    """Reassemble numbers split over two lines of one table row.

    A line with at least one broken head ("2,448,802,10") is joined with the next line (or the one after
    it, when the line between holds only a label fragment and/or change cells such as "19.16%") whose value
    cells are all bare digit tails and complete the heads one for one, in order: either exactly the broken
    heads, or every head without decimals. Every joined piece must be a well-formed number, otherwise
    nothing is joined. Change cells of the line between become ``floating`` (placed on pct columns).
    """
    out: list[Line] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        merged = None
        if any(_BROKEN_HEAD.match(t) for t in ln.values):
            for j in range(i + 1, i + 1 + WRAP_LOOKAHEAD):
                if j >= len(lines):
                    break
                mids = lines[i + 1:j]
                if any(_MONEYISH.match(t) for m in mids for t in m.values):
                    break
                tail = lines[j]
                if not tail.values or not all(_TAIL.match(t) for t in tail.values):
                    continue
                broken = [k for k, t in enumerate(ln.values) if _BROKEN_HEAD.match(t)]
                heads = broken if len(broken) == len(tail.values) else [
                    k for k, t in enumerate(ln.values) if _OPEN_HEAD.match(t)]
                if len(heads) != len(tail.values):
                    continue
                vals = list(ln.values)
                for k, t in zip(heads, tail.values):
                    vals[k] = vals[k] + t
                if not all(_WELL_FORMED.match(vals[k]) for k in heads):
                    continue
                label = "".join(x.label for x in (ln, *mids, tail) if x.label)
                text = " / ".join(x.text for x in (ln, *mids, tail))
                merged = Line(ln.page, ln.idx, text, label, vals, [t for m in mids for t in m.values])
                i = j + 1
                break
        if merged is None:
            out.append(ln)
            i += 1
        else:
            out.append(merged)
    return out


def to_lines(seq: list[tuple[int, int, str]]) -> list[Line]:
    out = []
    for page, idx, text in seq:
        label, vals = split_cas_cells(text)
        out.append(Line(page, idx, text, label, vals))
    return out


_LABEL_TAIL = cas_label_tail()  # "（或股东权益）合计" under a value row ends that row's label
