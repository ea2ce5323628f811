"""A-share (CAS) statement rows -> facts: each value of a row with its column's period and the row's unit.

``emit`` turns one printed row (its label and value cells) into one :class:`Fact` per value column: the
period from the column's role (current / prior period, year-to-date or single quarter, year, date, 期初 /
期末) and the report's fiscal year, instants for balances and balance-like key figures, opening and closing
cash of the cash-flow statement as instants; money scaled to base units from the unit line, per-share
amounts, share counts and percentages unscaled. ``ReadState`` collects the facts of one report.
Used by the statement reader (``parsers.cn_statements``) and the key-figures reader (``parsers.cn_key_figures``).
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from mappings.metrics import label_index, market_label
from parsers import statement_periods as periods
from parsers.statement_columns import CasColumn
from parsers.statement_lines import CAS_BLANK, CAS_NUMBER, parse_amount
from parsers.statement_rows import Line
from schema.models import DocumentInfo, Fact

_INSTANT_KF = re.compile(r"(总资产|资产总额|资产总计|净资产|所有者权益|股东权益|股本|负债总额|负债合计|总负债)")


def _fye(info: DocumentInfo) -> int:
    return info.fiscal_year_end_month or 12


def fy_start_of(info: DocumentInfo, year: int) -> dt.date:
    """The first day of fiscal year ``year`` of the report's company."""
    return periods.fy_start(year, _fye(info))


def _fy_end(info: DocumentInfo, year: int) -> dt.date:
    return periods.fy_end(year, _fye(info))


def _period_end(info: DocumentInfo) -> dt.date:
    if info.period_end:
        return info.period_end
    fy = info.fiscal_year or 1900
    months = {"Q1": 3, "H1": 6, "Q3": 9, "9M": 9}.get(info.fiscal_period or "FY")
    if months:
        return periods.month_end(fy, months)
    return _fy_end(info, fy)


def _duration(info: DocumentInfo, role: str, offset: int) -> tuple[dt.date, dt.date]:
    end = periods.shift_years(_period_end(info), offset)
    fy = (info.fiscal_year or end.year) - offset
    if role == "q":  # the quarter ending at period end (本报告期 in a Q3 report)
        m = end.month - 2
        return dt.date(end.year, m, 1), end
    return fy_start_of(info, fy), end


def is_known_label(label: str) -> bool:
    """A label of mappings/labels_cn.yaml (any statement), compared as the label map compares."""
    return market_label("A", label) in _KNOWN_LABELS


_KNOWN_LABELS = frozenset(label for _statement, label in label_index("A"))


def _unit_of(label: str, statement: str) -> str:
    if re.search(r"[（(]股[)）]|股数", label):
        return "shares"
    if "每股" in label and ("收益" in label or "净资产" in label or "元" in label or "现金流量" in label):
        return "CNY/share"
    if "%" in label or "％" in label or "收益率" in label or "比率" in label:
        return "pure"
    return "money"


class ReadState:
    """The facts read from one report so far, and why the last statement gave no rows (when known)."""

    def __init__(self, info: DocumentInfo):
        self.info = info
        self.facts: list[Fact] = []
        self.reason = ""  # why the last statement gave no rows, when it is known


def emit(ctx: ReadState, label: str, ln: Line, cols: list[CasColumn], statement: str, consolidated: bool,
         scale: int, unit_word: str, ccy: str, kf_block_instant: bool | None = None) -> None:
    """One fact per value cell of ``ln`` under ``cols`` (see the module docstring); a row whose cells cannot be
    placed on the columns gives none."""
    info = ctx.info
    vals = list(ln.values)
    if len(vals) > len(cols):  # bare note numbers (bank: "现金及存放中央银行款项 1 268,973 274,663")
        extra = vals[: len(vals) - len(cols)]
        if all(re.fullmatch(r"\d{1,3}", x) for x in extra):
            vals = vals[len(extra):]
    if ln.floating and len(vals) + len(ln.floating) == len(cols):
        pct_cols = [c for c in cols if c.role == "pct"]
        if len(pct_cols) != len(ln.floating):
            return
        rest, flo = iter(vals), iter(ln.floating)
        vals = [next(flo) if c.role == "pct" else next(rest) for c in cols]
    if len(vals) != len(cols):
        return
    kind = _unit_of(label, statement)
    for ci, (tok, col) in enumerate(zip(vals, cols)):
        if col.role == "pct" or tok in CAS_BLANK or not CAS_NUMBER.match(tok):
            continue
        if tok.endswith("%") and kind != "pure":
            continue
        v = parse_amount(tok)
        if v is None:
            continue
        p_start = p_end = None
        ptype = "duration"
        instant = statement == "balance" or (statement == "key_figures" and bool(_INSTANT_KF.search(label))
                                                 and "每股收益" not in label and "收益率" not in label)
        pe = _period_end(info)
        fy = info.fiscal_year or pe.year
        role = col.role
        if role == "qtr":
            p_start, p_end = col.start, col.date
        elif role == "date":
            ptype, p_end = "instant", col.date
        elif role in ("end", "open"):
            ptype = "instant"
            p_end = pe if role == "end" else _fy_end(info, fy - 1)
        elif role == "year":
            off = fy - (col.year or fy)
            if instant:
                ptype, p_end = "instant", _fy_end(info, fy - off)
            else:
                p_start, p_end = fy_start_of(info, fy - off), _fy_end(info, fy - off)
        elif statement == "balance":
            ptype = "instant"
            p_end = pe if role in ("cur", "q_cur") else _fy_end(info, fy - 1)
        else:
            off = 0 if role in ("cur", "q", "ytd", "q_cur") else 1
            if instant and statement == "key_figures":
                ptype = "instant"
                p_end = pe if off == 0 else _fy_end(info, fy - 1)
            else:
                span = "q" if role in ("q", "q_cur", "q_prior") else "ytd"
                p_start, p_end = _duration(info, span, off)
        if statement == "cashflow" and ptype == "duration" and re.search(r"(期末|年末|期初|年初)现金及现金等价物余额", label):
            ptype = "instant"
            if re.search(r"期初|年初", label):
                p_end = p_start - dt.timedelta(days=1)
        if kind == "money":
            value, unit, sc, ou = v * (Decimal(10) ** scale), ccy, scale, unit_word
        elif kind == "CNY/share":
            value, unit, sc, ou = v, f"{ccy}/share", 0, "元/股"
        elif kind == "shares":
            value, unit, sc, ou = v, "shares", 0, "股"
        else:
            value, unit, sc, ou = v, "pure", 0, "%"
        dims = {"restatement": "before"} if col.before else {}
        ctx.facts.append(Fact(
            label=label, value=value, value_text=tok, unit=unit, scale=sc, original_unit=ou,
            period_start=p_start if ptype == "duration" else None, period_end=p_end, period_type=ptype,
            dimensions=dims, statement=statement, consolidated=consolidated, page=ln.page,
            locator=f"p{ln.page} r{ln.idx} c{ci + 1}", column=col.name,
        ))
