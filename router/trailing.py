"""Trailing twelve months at query time: TTM = the last fiscal year + the latest year-to-date period - the
same year-to-date period a year earlier, every input a stored value with its own page. When the latest
stored period of a flow is a fiscal year, TTM is that year. Balance-sheet values have no TTM (the latest
stored value is the answer)."""

from __future__ import annotations

from router.calendar import QUARTER_ENDING, YTD_OF_QUARTER
from router.growth import derived_value
from router.sql_route import Value, is_instant, metric_at

YEAR_TO_DATE = ("9M", "H1", "Q1")  # year-to-date periods that a report prints, longest first


def latest_key(metric: str, keys: list[tuple], index: dict) -> tuple | None:
    """The key of the latest stored period end of a metric (FY wins a tie with its Q4)."""
    have = [(metric_at(metric, k, index), k) for k in keys]
    have = [(v, k) for v, k in have if v is not None and v.period_end is not None]
    if not have:
        return None
    return max(have, key=lambda vk: (vk[0].period_end, vk[1][3] == "FY"))[1]


def ytd_key(key: tuple) -> tuple:
    """The year-to-date period that ends with a period: Q2 -> H1, Q3 -> 9M, Q4 -> FY (Q1, H1, 9M, FY: itself)."""
    return (*key[:3], YTD_OF_QUARTER[QUARTER_ENDING[key[3]]])


def ttm(metric: str, keys: list[tuple], index: dict, at: tuple | None = None) -> tuple[Value | None, str | None]:
    """(the TTM value with its inputs, None) or (None, why not): to the latest stored period end, or to the
    end of the period ``at`` (a key the question named, e.g. Q2 of the company's fiscal 2026)."""
    if is_instant(metric):
        return None, f"{metric} is a balance-sheet value: trailing twelve months apply to flows"
    if at is not None:
        key = ytd_key(at)
        if metric_at(metric, key, index) is None:
            return None, f"TTM to {at[3]}{at[2]} needs {metric} for {key[3]}{key[2]}, not stored"
    else:
        key = latest_key(metric, [k for k in keys if k[3] in ("FY", *YEAR_TO_DATE)], index)
    if key is None:
        return None, f"no stored {metric}"
    cid, code, year, period = key
    latest = metric_at(metric, key, index)
    if period == "FY":
        v = derived_value(latest, f"{metric}_ttm", "ttm", latest.value, [latest], currency=latest.currency)
        v.fiscal_period = "TTM"
        return v, None
    last_fy = metric_at(metric, (cid, code, year - 1, "FY"), index)
    prior_ytd = metric_at(metric, (cid, code, year - 1, period), index)
    missing = [name for name, v in ((f"FY{year - 1}", last_fy), (f"{period}{year - 1}", prior_ytd)) if v is None]
    if missing:
        return None, f"TTM to {latest.period_end} needs {metric} for {' and '.join(missing)}, not stored"
    v = derived_value(latest, f"{metric}_ttm", "ttm", last_fy.value + latest.value - prior_ytd.value,
                 [last_fy, latest, prior_ytd], currency=latest.currency)
    v.fiscal_period = "TTM"
    v.note = f"FY{year - 1} + {period}{year} - {period}{year - 1}"
    return v, None
