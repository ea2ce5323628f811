"""Converting answers' money values across currencies at the rate of their period.

A balance-sheet value (an instant) is converted at the closing rate of its period end; a flow (revenue,
profit, cash flows, a money ratio of flows) at the average rate over its fiscal period. The rate, its kind,
its date (and first fixing for averages) and source travel with the converted value; a value whose period
the FX history does not cover is not converted and the answer says why (``mappings.fx``)."""

from __future__ import annotations

from decimal import Decimal

from mappings.fx import FxRefused, FxTable, Rate
from router.calendar import period_start
from router.sql_route import Value, is_instant, is_money

TARGET = "USD"  # the currency a cross-currency answer is converted to


def rate_for(v: Value, target: str, table: FxTable) -> Rate:
    """The rate for one value: units of its currency per one ``target`` unit, closing or average by its kind."""
    if v.period_end is None:
        raise FxRefused(f"{v.company_id} {v.metric}: no period end to choose a rate for")
    if is_instant(v.metric):
        return table.closing(target, v.currency, v.period_end)
    return table.average(target, v.currency, period_start(v.period_end, v.fiscal_period), v.period_end)


def converted_dict(amount: Decimal, rate: Rate, target: str) -> dict:
    return {"value": f"{amount.quantize(Decimal('0.01')):,}", "currency": target, "fx_rate": f"{rate.rate:f}",
            "fx_pair": f"{rate.base}/{rate.quote}", "fx_kind": rate.kind, "fx_date": rate.date.isoformat(),
            "fx_start": rate.start.isoformat() if rate.start else None, "fx_fixings": rate.fixings,
            "fx_source": rate.source}


def convert_values(values: list[Value], table: FxTable | None, target: str = TARGET) -> tuple[dict[int, dict], list[str]]:
    """{id(value): converted} for money values in other currencies than ``target`` when the answer mixes
    currencies, and the caveats (the conversion itself, every refusal with its reason)."""
    money = [v for v in values if v.currency and is_money(v.metric)]
    currencies = {v.currency for v in money}
    if len(currencies) <= 1:
        return {}, []
    if table is None:
        table = FxTable()
    out: dict[int, dict] = {}
    refused: list[str] = []
    for v in money:
        if v.currency == target:
            continue
        try:
            rate = rate_for(v, target, table)
        except FxRefused as exc:
            refused.append(f"{v.company_id} {v.metric} {v.fiscal_period}{v.fiscal_year} shown in {v.currency} only: {exc}")
            continue
        # the rate is quote (the value's currency) per one target unit: value / rate
        out[id(v)] = converted_dict(v.value / rate.rate, rate, target)
    caveats = [f"different currencies ({', '.join(sorted(currencies))}): converted to {target} at query time, "
               "balance-sheet values at the closing rate of their period end, flows at the average rate of their "
               "period; original values kept"]
    return out, caveats + [f"not converted: {r}" for r in refused]
