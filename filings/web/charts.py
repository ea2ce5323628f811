"""Bar charts of a metric series, as geometry for the company page's inline SVG (no plotting library, no
script). Floats are used for drawing only; every value shown as text is the exact Decimal."""

from __future__ import annotations

from decimal import Decimal

from mappings.metrics import metrics as metric_catalogue

WIDTH, HEIGHT = 360, 150  # SVG user units of one chart (a card in a two-column grid)
PLOT_TOP, PLOT_BOTTOM, PLOT_LEFT, PLOT_RIGHT = 18, 126, 8, 352
LABEL_Y = 142  # baseline of the period labels under the bars
MAX_BAR = 56  # widest bar (user units), so one or two periods do not fill the card
# Display scales for money axes: the largest whose unit the biggest bar reaches at least once.
SCALES = [(Decimal(10) ** 12, "trillion"), (Decimal(10) ** 9, "billion"), (Decimal(10) ** 6, "million"),
          (Decimal(10) ** 3, "thousand")]
PERIOD_GROUPS = {"FY": "annual", "H1": "interim", "9M": "nine months", "Q1": "quarterly", "Q2": "quarterly",
                 "Q3": "quarterly", "Q4": "quarterly"}


def _scale(values: list[Decimal], money: bool) -> tuple[Decimal, str]:
    top = max((abs(v) for v in values), default=Decimal(0))
    if money:
        for factor, name in SCALES:
            if top >= factor:
                return factor, name
    return Decimal(1), ""


def series_charts(metric: str, rows: list[dict]) -> list[dict]:
    """One chart per listing, currency and period group (annual, interim, quarterly), in period order."""
    kind = getattr(metric_catalogue().get(metric), "kind", "money")
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        if r.get("value") is None:
            continue
        key = (r["stock_code"], r.get("currency") or "", PERIOD_GROUPS.get(r["fiscal_period"], r["fiscal_period"]))
        groups.setdefault(key, []).append(r)
    charts = []
    for (code, currency, group), items in groups.items():
        items = sorted(items, key=lambda r: (r.get("period_end") or r["fiscal_year"], r["fiscal_period"]))
        values = [Decimal(str(r["value"])) for r in items]
        factor, unit = _scale(values, kind == "money")
        low, high = min(min(values), Decimal(0)), max(max(values), Decimal(0))
        span = float(high - low) or 1.0
        height = PLOT_BOTTOM - PLOT_TOP
        zero_y = PLOT_TOP + float(high) / span * height
        slot = min((PLOT_RIGHT - PLOT_LEFT) / len(items), MAX_BAR / 0.7)
        bar = slot * 0.7
        bars = []
        for i, (r, v) in enumerate(zip(items, values)):
            y_value = PLOT_TOP + float(high - v) / span * height
            shown = v / factor
            bars.append({
                "x": round(PLOT_LEFT + i * slot + (slot - bar) / 2, 2), "w": round(bar, 2),
                "y": round(min(y_value, zero_y), 2), "h": round(max(abs(zero_y - y_value), 0.5), 2),
                "negative": v < 0, "label": f"{r['fiscal_period']} {r['fiscal_year']}",
                "text": f"{shown:,.2f}" if factor != 1 else format(v, ",f"),
                "restated": bool(r.get("restated")), "cx": round(PLOT_LEFT + (i + 0.5) * slot, 2),
            })
        charts.append({"title": f"{code} · {group}", "currency": currency, "unit": unit, "bars": bars,
                       "zero_y": round(zero_y, 2), "width": WIDTH, "height": HEIGHT, "label_y": LABEL_Y,
                       "x0": PLOT_LEFT, "x1": PLOT_RIGHT,
                       "axis": f"{currency} {unit}".strip() if kind == "money" else (currency or kind)})
    return charts
