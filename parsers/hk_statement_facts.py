"""One value row of an HK statement block -> facts: each value with its column's period, unit and scale.

``row_facts`` gives one :class:`Fact` per value token: durations for profit or loss and cash flows, instants
for the financial position (a key-figures row by its label, else by its section), cash at the end / beginning
of the year as instants (the beginning one at the prior year end); money scaled to base units from the
block's unit line (``HK$'000`` ...), per-share values unscaled with cents divided by 100 (``original_unit``
keeps "HK cents"), a sub-column's group as the ``segment`` dimension.
"""

from __future__ import annotations

import re
from decimal import Decimal

from parsers import statement_periods as periods
from parsers.hk_statement_block import BlockState, YearEnd
from parsers.statement_lines import parse_hk_amount
from schema.models import DocumentInfo, Fact


def row_facts(info: DocumentInfo, year_end: YearEnd, st: BlockState, page_no: int, row: int, label: str | None,
              tokens: list[str], per_share: bool) -> list[Fact] | None:
    """The facts of one value row (``tokens`` the values printed on line ``row`` of page ``page_no``), or None
    when the block has no unit line and the row is not per share: the scale is never guessed."""
    cols = st.columns if len(tokens) == len(st.columns) else st.total_columns()
    printed_unit, ccy, scale = st.unit or ("", info.currency, None)
    if scale is None and not per_share:
        return None  # no unit line found: refuse to guess the scale
    ccy = ccy or info.currency
    if st.statement in ("income", "cashflow"):
        kind = "duration"
    elif st.statement == "balance":
        kind = "instant"
    else:
        kind = _key_kind(label, st.key_kind)
    if per_share:
        kind = "instant" if st.statement == "balance" else "duration"
    opening = False
    if st.statement == "cashflow" and label:
        if re.search(r"at (?:the )?end of|年終|年末|期末", label, re.IGNORECASE):
            kind = "instant"
        elif re.search(r"at (?:the )?beginning of|年初|期初", label, re.IGNORECASE):
            kind, opening = "instant", True
    made: list[Fact] = []
    for ci, (tok, col) in enumerate(zip(tokens, cols)):
        parsed = parse_hk_amount(tok)
        if parsed.value is None:
            continue
        start, end, ptype = year_end.period(col, kind)
        if opening:  # cash at the beginning of the year: the prior year end
            end = periods.fy_end(end.year - 1, end.month, year_end.day) if col.date is None else end.replace(year=end.year - 1)
        if per_share:
            cents = parsed.cents or bool(re.search(r"cents|港仙", label or "", re.IGNORECASE))
            value = parsed.value / 100 if cents else parsed.value
            unit = f"{ccy}/share"
            if cents:
                m = re.search(r"(Singapore cents|HK cents|RMB cents|cents|港仙)", f"{tok} {label}", re.IGNORECASE)
                orig = m.group(1) if m else "cents"
                if orig.casefold() == "cents" and ccy == "HKD" and "HK" in tok:
                    orig = "HK cents"
            else:
                m = re.search(r"\((HK\$|RMB|S\$|US\$|港元|人民幣)\)|（(港元|人民幣)）", label or "")
                orig = (m.group(1) or m.group(2)) if m else {"HKD": "HK$", "CNY": "RMB", "SGD": "S$"}.get(ccy, ccy)
            sc = -2 if cents else 0
        else:
            value = parsed.value * (Decimal(10) ** scale)
            unit, orig, sc = ccy, printed_unit, scale
        dims = {"segment": col.group} if col.group else {}
        made.append(
            Fact(
                label=label,
                value=value,
                value_text=tok,
                unit=unit,
                scale=sc,
                original_unit=orig,
                period_start=start,
                period_end=end,
                period_type=ptype,
                dimensions=dims,
                statement=st.statement,
                consolidated=st.consolidated,
                page=page_no,
                locator=f"p{page_no} r{row} c{ci + 1}",
                column=col.header,
            )
        )
    return made


def _key_kind(label: str | None, section: str) -> str:
    """'duration' or 'instant' for a key-figures row: by its label's words, else its section's kind."""
    low = (label or "").casefold()
    if re.search(r"profit|loss|revenue|turnover|income|expense|per share|taxation|cost|溢利|虧損|收入|收益|營業額|稅", low):
        return "duration"
    if re.search(r"assets|liabilities|equity|financial position|capital|reserves|資產|負債|權益|虧絀", low):
        return "instant"
    return section
