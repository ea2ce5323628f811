"""Walking a statement table: the lines of a titled region (up to a stop line or a page limit), and rows that
text alone cannot place (a two-column statement row printing one value, the other cell blank), placed by the
table's own arithmetic where exactly one placement satisfies it: a balance-sheet section sums to its subtotal,
a cash-flow statement's net change in cash is the sum of its activities' net flows.

Titled blocks (HK layouts, ``find_titled_blocks``): a page whose first lines carry a statement title
(``mappings/statements.yaml`` ``printed``) followed by a column header starts a block; the next page continues
it when it carries the same title (continued) or starts with a column header."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from mappings.statement_tables import cas_cash_identity, printed_titles
from parsers.statement_columns import hk_header_columns
from parsers.statement_lines import CAS_BLANK, CAS_NUMBER, parse_amount, split_languages
from parsers.statement_rows import Line
from schema.models import Page

TITLE_MAX_RANK = 8  # a consolidated statement's title is among the first lines of its page (deeper: prose, notes)
SUMMARY_TITLE_MAX_RANK = 3  # a five-year summary's title heads its page
HEADER_WITHIN_LINES = 15  # a statement prints its column header this close under its title (a contents page does not)
MAX_PLACED = 4  # one-value rows placed by arithmetic per section at most (2**4 placements tried)


def amounts(vals: list[str]) -> list[Decimal | None]:
    """Numbers of value cells, 0 for a blank cell, None for a cell that is not an amount."""
    return [parse_amount(v) if CAS_NUMBER.match(v) and not v.endswith("%") else (Decimal(0) if v in CAS_BLANK else None)
            for v in vals]


def placements(base: list[Decimal], single: list[Decimal], totals: list[Decimal]) -> list[int]:
    """Bit masks (bit b set: single value b in the second column) under which the columns sum to ``totals``."""
    hits = []
    for mask in range(1 << len(single)):
        acc = list(base)
        for b, v in enumerate(single):
            acc[(mask >> b) & 1] += v
        if acc == totals:
            hits.append(mask)
    return hits


def synthetic_line(sln: Line, second: bool) -> Line:
    """The line of a one-value row with its blank cell filled in ("-") on the other side."""
    tok = sln.values[0]
    synth = Line(sln.page, sln.idx, sln.text, sln.label, ["-", tok] if second else [tok, "-"])
    synth.src = sln
    return synth


def place_by_cash_identity(rows: list[tuple[str, Line]]) -> list[tuple[str, Line]]:
    """Net rows of a two-column cash-flow statement that print one value (the other cell blank), placed by the
    identity net change in cash = operating + investing + financing + exchange-rate effect when exactly one
    placement satisfies it in both columns (``cas_cash_identity`` in mappings/statement_tables.yaml)."""
    total_rx, part_rxs = cas_cash_identity()
    total = next(((lab, ln) for lab, ln in rows if total_rx.match(lab) and len(ln.values) == 2), None)
    if total is None:
        return []
    totals = amounts(total[1].values)
    if None in totals:
        return []
    base = [Decimal(0), Decimal(0)]
    single: list[tuple[str, Line, Decimal]] = []
    for rx in part_rxs:
        hit = next(((lab, ln) for lab, ln in rows if rx.match(lab)), None)
        if hit is None:
            continue
        nums = amounts(hit[1].values)
        if None in nums or len(nums) not in (1, 2):
            return []
        if len(nums) == 2:
            base = [base[0] + nums[0], base[1] + nums[1]]
        elif hit[1].values[0] not in CAS_BLANK:
            single.append((hit[0], hit[1], nums[0]))
    if not single or len(single) > MAX_PLACED:
        return []
    hits = placements(base, [v for _, _, v in single], totals)
    if len(hits) != 1:
        return []
    return [(lab, synthetic_line(sln, bool((hits[0] >> b) & 1))) for b, (lab, sln, _) in enumerate(single)]


# Balance-sheet sections whose subtotal is the plain sum of the rows above it (back to the previous total).
_SUBTOTALS = {"流动资产合计", "非流动资产合计", "流动负债合计", "非流动负债合计"}
_SUB_ITEM = {"应收股利", "应付股利", "永续债"}  # second line of a "其中：" group (其中：优先股 / 永续债)


def place_by_subtotals(rows: list[tuple[str, Line]]) -> list[tuple[str, Line]]:
    """Rows of a two-column balance sheet that print one value (the other cell blank) can't be placed from
    text. Place them only where the section's subtotal decides it: the rows between two totals sum to the
    subtotal row in both columns, for exactly one assignment of the one-value rows to columns (at most 4
    such rows per section; "其中" sub-items excluded). Returns synthetic lines with the blank cell as "-"."""
    out: list[tuple[str, Line]] = []
    placed: list[list[Decimal]] = []
    single: list[tuple[str, Line, Decimal]] = []
    prev_qizhong = False
    ok = True
    for label, ln in rows:
        norm = re.sub(r"[\s：:]", "", label)
        vals = [v for v in ln.values]
        if "合计" in norm or "总计" in norm:
            if norm in _SUBTOTALS and single and ok and len(vals) == 2 and len(single) <= MAX_PLACED:
                totals = [parse_amount(v) if CAS_NUMBER.match(v) else Decimal(0) for v in vals]
                base = [sum((r[c] for r in placed), Decimal(0)) for c in (0, 1)]
                hits = placements(base, [v for _, _, v in single], totals)
                if len(hits) == 1:
                    out += [(lab, synthetic_line(sln, bool((hits[0] >> b) & 1))) for b, (lab, sln, _) in enumerate(single)]
            placed, single, ok, prev_qizhong = [], [], True, False
            continue
        sub = norm.startswith("其中") or (prev_qizhong and norm in _SUB_ITEM)
        prev_qizhong = sub
        if sub:
            continue
        nums = amounts(vals)
        if any(x is None for x in nums):
            ok = False
        elif len(nums) == 2:
            placed.append(nums)
        elif len(nums) == 1 and vals[0] not in CAS_BLANK:
            single.append((label, ln, nums[0]))
        else:
            ok = False
    return out


def table_region(flat: list[tuple[int, int, str]], start: int, stop, max_pages: int) -> list[tuple[int, int, str]]:
    """The (page, line no, text) lines after ``flat[start]`` (a title) up to a ``stop`` line or ``max_pages``."""
    first_page = flat[start][0]
    out = []
    for k in range(start + 1, len(flat)):
        page, idx, text = flat[k]
        if page - first_page >= max_pages or stop(text):
            break
        out.append(flat[k])
    return out


# ------------------------------------------------------------------------------------ titled blocks

def compact_text(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


_CONTINUED = re.compile(r"(\(continued\)|（續）|\(續\)|續)$")
_LEAD_NUMBER = re.compile(r"^(\d{1,2}\.?|\([a-z]\))")
_TITLES = printed_titles()  # mappings/statements.yaml `printed` + statement_tables.yaml summary titles


def title_kind(line: str, nxt: str = "") -> tuple[str, bool] | None:
    """The statement a title line names, or None. Tries the line, then the line joined with the next
    (titles wrapped over two lines)."""
    for text in (line, f"{line} {nxt}" if nxt else None):
        if not text:
            continue
        en, zh = split_languages(text)
        en_c = _CONTINUED.sub("", _LEAD_NUMBER.sub("", compact_text(en)))
        zh_c = _CONTINUED.sub("", re.sub(r"^\d{1,2}\.", "", compact_text(zh)))
        if en_c:
            hit = _TITLES.get(en_c)
            if hit and (not zh_c or zh_c in _TITLES):
                return hit
        elif zh_c and zh_c in _TITLES:
            return _TITLES[zh_c]
    return None


NOISE_LINE = re.compile(
    r"^(?:[–—\-_=·.]+|–\s*\d+\s*–|-\s*\d+\s*-|B_table.*|N_table.*|\d{1,3}|\(restated\)(?:\s+\(restated\))*"
    r"|\*?\s*less than .*)$",
    re.IGNORECASE,
)


@dataclass
class TitledBlock:
    statement: str
    consolidated: bool
    segments: list[tuple[int, int]] = field(default_factory=list)  # (page index, start line)


def find_titled_blocks(pages: list[Page]) -> list[TitledBlock]:
    blocks: list[TitledBlock] = []
    prev: TitledBlock | None = None
    prev_page = -2
    for pi, page in enumerate(pages):
        lines = [ln.strip() for ln in page.text.split("\n")]
        meaningful = [i for i, ln in enumerate(lines) if ln and not NOISE_LINE.match(ln)]
        found: tuple[int, tuple[str, bool]] | None = None
        for rank, i in enumerate(meaningful):
            nxt = lines[meaningful[rank + 1]] if rank + 1 < len(meaningful) else ""
            kind = title_kind(lines[i], nxt)
            if not kind:
                continue
            consolidated = kind[1]
            if consolidated and rank > TITLE_MAX_RANK:
                continue  # consolidated titles head their page; deeper ones are prose or notes
            if kind[0] == "key_figures" and rank > SUMMARY_TITLE_MAX_RANK:
                continue
            # a statement has its column header soon after the title (tables of contents do not)
            window = meaningful[rank + 1 : rank + 1 + HEADER_WITHIN_LINES]
            if not any(hk_header_columns(lines[j]) for j in window):
                continue
            found = (i, kind)
            break
        if found:
            i, (statement, consolidated) = found
            if prev and prev.statement == statement and prev.consolidated == consolidated and prev_page == pi - 1:
                prev.segments.append((pi, i))
            else:
                prev = TitledBlock(statement, consolidated, [(pi, i)])
                blocks.append(prev)
            prev_page = pi
            continue
        # untitled continuation page (results announcements): starts with the column header
        if prev and prev_page == pi - 1 and meaningful and hk_header_columns(lines[meaningful[0]]):
            prev.segments.append((pi, meaningful[0]))
            prev_page = pi
            continue
        prev = None
    return blocks
