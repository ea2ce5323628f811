"""Changes the way analysts write them, computed exactly from stored values.

- Amounts: year-over-year growth (current - previous) / previous when both are on the same side of zero
  with a positive base; from a zero or negative base, or across a change of sign, a percentage is not
  meaningful: "n.m." with the change in amount, worded 扭亏为盈 / 由盈转亏 / 亏损收窄 (profits) or
  由负转正 (other amounts) from ``mappings/analysis.yaml``.
- Ratios in percent: the change in percentage points (never a percent change of a percentage); ratios
  read as multiples or days: the change in the same unit.
- CAGR over N years: (last / first) ** (1 / N) - 1, n.m. unless both ends are positive.
- An N-year average: the mean of the yearly values (of a ratio: the mean of the yearly ratios)."""

from __future__ import annotations

from decimal import Decimal, localcontext

from mappings.analysis import analysis
from router.sql_route import Value, unique_sources, unit_of

_PRECISION = 28  # decimal digits for CAGR roots (Decimal's default context; results are shown rounded)


def derived_value(base: Value, metric: str, derived: str, value: Decimal, inputs: list[Value], currency=None) -> Value:
    v = Value(**{**base.__dict__, "components": {}, "inputs": list(inputs), "note": None, "first_year": None})
    v.metric, v.derived, v.value, v.currency = metric, derived, value, currency
    v.sources = unique_sources(inputs)
    v.source_kind = "derived" if any(i.source_kind == "derived" for i in inputs) else base.source_kind
    v.restated = any(i.restated for i in inputs)
    return v


def sign_change_word(metric: str, current: Decimal, previous: Decimal) -> str | None:
    """The key of ``change_words`` when a percentage change is not meaningful, else None."""
    if previous > 0 and current >= 0:
        return None
    profit = metric in analysis().profit_metrics
    if previous == 0:
        return "from_zero"
    if previous > 0 > current:
        return "turned_loss" if profit else "turned_negative"
    if current > 0:  # previous < 0
        return "turned_profit" if profit else "turned_positive"
    if abs(current) <= abs(previous):
        return "loss_narrowed" if profit else "negative_narrowed"
    return "loss_widened" if profit else "negative_widened"


def change(current: Value, previous: Value) -> Value:
    """The change from ``previous`` to ``current`` (same metric, same listing, one period earlier)."""
    unit = unit_of(current.metric)
    inputs = [current, previous]
    if unit == "percent":
        return derived_value(current, f"{current.metric}_change_pp", "pp", (current.value - previous.value) * 100, inputs)
    if unit in {"ratio", "days"}:
        return derived_value(current, f"{current.metric}_change", "change", current.value - previous.value, inputs)
    word = sign_change_word(current.metric, current.value, previous.value)
    if word is None:
        return derived_value(current, f"{current.metric}_yoy", "yoy",
                        (current.value - previous.value) / previous.value, inputs)
    v = derived_value(current, f"{current.metric}_change", "change", current.value - previous.value, inputs,
                 currency=current.currency)
    v.note = word
    return v


def cagr(first: Value, last: Value) -> Value:
    """Compound annual growth from ``first`` to ``last`` (fiscal years apart); n.m. unless both are positive."""
    years = last.fiscal_year - first.fiscal_year
    inputs = [first, last]
    if years <= 0 or first.value <= 0 or last.value <= 0:
        v = derived_value(last, f"{last.metric}_change", "change", last.value - first.value, inputs,
                     currency=last.currency if unit_of(last.metric) != "percent" else None)
        v.note = sign_change_word(last.metric, last.value, first.value) or "not_meaningful"
        v.first_year = first.fiscal_year
        return v
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        value = (last.value / first.value) ** (Decimal(1) / Decimal(years)) - 1
    v = derived_value(last, f"{last.metric}_cagr", "cagr", value, inputs)
    v.first_year = first.fiscal_year
    return v


def average(values: list[Value]) -> Value:
    """The mean of the values (one per fiscal year), exact."""
    ordered = sorted(values, key=lambda v: v.fiscal_year)
    last = ordered[-1]
    mean = sum((v.value for v in ordered), Decimal(0)) / len(ordered)
    currency = last.currency if unit_of(last.metric) in {"money", "per_share"} else None
    v = derived_value(last, f"{last.metric}_average", "average", mean, ordered, currency=currency)
    v.first_year = ordered[0].fiscal_year
    return v
