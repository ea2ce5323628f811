"""A line chart of one metric across listings and fiscal years (``Filings.plot``), drawn from tidy frames."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd

from warehouse import lookup


def draw(frames: list[pd.DataFrame], metric_id: str, period: str, ax=None):
    """One line per listing and currency (the legend says which), values scaled to thousands / millions /
    billions of the currency for money metrics; returns the matplotlib Axes. The exact values stay in the frames:
    a chart needs floats."""
    import matplotlib.pyplot as plt

    ax = ax or plt.subplots(figsize=(7, 4))[1]
    spec = lookup.metric_catalogue()[metric_id]
    largest = max(abs(v) for fr in frames for v in fr["value"])
    scale, word = next(((s, w) for s, w in ((9, "billions"), (6, "millions"), (3, "thousands"))
                        if spec.kind == "money" and largest >= Decimal(10) ** s), (0, ""))
    for frame in frames:
        for (code, currency), part in frame.groupby(["stock_code", "currency"], dropna=False):
            part = part.sort_values("fiscal_year")
            ax.plot(part["fiscal_year"], [float(lookup.scaled(v, scale)) for v in part["value"]], marker="o",
                    label=f"{code} ({currency if isinstance(currency, str) else 'units'})")
    ax.set_ylabel(f"{word} of the currency shown" if word else ("%" if spec.kind == "percent" else ""))
    ax.set_title(f"{spec.name_en}, {period}")
    ax.set_xlabel("fiscal year")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend()
    return ax
