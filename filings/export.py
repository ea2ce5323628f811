"""Frames and files for models and notebooks: tidy metric rows as a DataFrame of exact ``Decimal`` values, the
years x metrics pivot, and writers for csv / json / xlsx / parquet that keep every digit (Decimal is written
as its exact text in csv and json, as a decimal128 column in parquet, as a number cell in xlsx)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pandas as pd

from schema.errors import FilingsError
from schema.models import as_jsonable

FORMATS = ("table", "csv", "json", "xlsx", "parquet")
PIVOT_INDEX = ["stock_code", "fiscal_year", "fiscal_period", "period_end", "currency"]


def tidy(rows: list[dict]) -> pd.DataFrame:
    """One row per listing, fiscal year, fiscal period and metric; ``value`` holds Decimal (object dtype)."""
    frame = pd.DataFrame.from_records(rows)
    if not frame.empty and "value" in frame:
        frame["value"] = frame["value"].astype(object)
    return frame


def pivot(frame: pd.DataFrame) -> pd.DataFrame:
    """Years x metrics: one row per listing and period, one column per metric, exact values."""
    if frame.empty:
        return frame
    index = [c for c in PIVOT_INDEX if c in frame]
    # per-share and share metrics carry their own unit; a pivot row keeps the money currency of the period
    wide = frame.pivot_table(index=[c for c in index if c != "currency"], columns="metric", values="value",
                             aggfunc="first")
    wide.columns.name = None
    currencies = frame.groupby([c for c in index if c != "currency"])["currency"].agg(
        lambda s: ", ".join(sorted({c for c in s if isinstance(c, str) and c})))
    wide.insert(0, "currency", currencies)
    return wide.reset_index().sort_values(["stock_code", "fiscal_year", "fiscal_period"], ignore_index=True)


def _exact(value):
    if isinstance(value, Decimal):
        return format(value, "f")
    return value


def to_csv_text(frame: pd.DataFrame) -> str:
    return frame.map(_exact).to_csv(index=False)


def to_json_text(frame: pd.DataFrame) -> str:
    records = [{k: as_jsonable(v) for k, v in r.items()} for r in frame.to_dict(orient="records")]
    return json.dumps(records, ensure_ascii=False, indent=2, default=str) + "\n"


def _arrow_table(frame: pd.DataFrame):
    import pyarrow as pa

    columns = {}
    for name in frame.columns:
        values = list(frame[name])
        if any(isinstance(v, Decimal) for v in values):
            decimals = [v if isinstance(v, Decimal) else (None if v is None or v != v else Decimal(str(v)))
                        for v in values]
            scale = max((-(d.as_tuple().exponent) for d in decimals if d is not None), default=0)
            columns[name] = pa.array(decimals, type=pa.decimal128(38, max(0, min(scale, 18))))
        else:
            columns[name] = pa.array([None if (v is None or (isinstance(v, float) and v != v)) else v for v in values])
    return pa.table(columns)


def write(frame: pd.DataFrame, fmt: str, path: str | Path | None) -> str | None:
    """Write ``frame`` as ``fmt`` to ``path`` (csv / json also to stdout: returns the text when no path)."""
    if fmt not in FORMATS or fmt == "table":
        raise FilingsError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if fmt in {"xlsx", "parquet"} and path is None:
        raise FilingsError(f"--format {fmt} writes a file: give --output PATH (e.g. --output metrics.{fmt})")
    if fmt == "csv":
        text = to_csv_text(frame)
    elif fmt == "json":
        text = to_json_text(frame)
    else:
        text = None
    if path is None:
        return text
    path = Path(path)
    try:
        if text is not None:
            path.write_text(text, encoding="utf-8")
        elif fmt == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(_arrow_table(frame), path)
        else:
            frame.to_excel(path, index=False, engine="openpyxl")  # Decimal cells are numbers in openpyxl
    except OSError as exc:
        raise FilingsError(f"cannot write {path}: {exc.strerror or exc}") from None
    return None
