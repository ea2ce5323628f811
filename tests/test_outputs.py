"""Outputs for models and notebooks: exact exports (csv, json, xlsx, parquet), the years x metrics pivot, an
answer as a DataFrame, a chart, "did you mean" for misspelt companies, tables readable at 80 columns.
Expected numbers are typed from the filings (Apple FY2024 10-K, NVIDIA FY2025 10-K)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from conftest import require_corpus
from filings import Filings
from schema.errors import FilingsError


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    h = tmp_path_factory.mktemp("outputs_home")
    with Filings(h) as f:
        report = f.ingest(require_corpus("us", "ixbrl", "aapl-10k-fy2024"), require_corpus("us", "ixbrl", "nvda-10k-fy2025"),
                          index=False)
        assert not report.failed
    return h


@pytest.fixture(scope="module")
def f(home):
    with Filings(home, read_only=True) as fx:
        yield fx


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "filings.cli", *args, "--home", str(home)], capture_output=True,
                          text=True, timeout=180, env={**os.environ, "COLUMNS": "80"})


def test_pivot_is_years_by_metrics_with_exact_values(f):
    p = f.pivot("AAPL", years=(2023, 2024), metrics=["revenue", "net_income_parent"])
    assert list(p["fiscal_year"]) == [2023, 2024]
    row = p[p.fiscal_year == 2024].iloc[0]
    # AAPL FY2024 10-K: total net sales $391,035 million, net income $93,736 million
    assert row["revenue"] == Decimal("391035000000") and isinstance(row["revenue"], Decimal)
    assert row["net_income_parent"] == Decimal("93736000000") and row["currency"] == "USD"


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx", "parquet"])
def test_cli_exports_keep_every_digit(home, tmp_path, fmt):
    out = tmp_path / f"aapl.{fmt}"
    res = _cli(home, "metrics", "AAPL", "--years", "2024", "--metric", "revenue,eps_diluted", "--period", "FY",
               "--format", fmt, "--output", str(out))
    assert res.returncode == 0, res.stderr
    if fmt == "csv":
        frame = pd.read_csv(out, dtype=str)
    elif fmt == "json":
        frame = pd.DataFrame(json.loads(out.read_text(encoding="utf-8")))
    elif fmt == "xlsx":
        frame = pd.read_excel(out, dtype={"value": str})
    else:
        table = pq.read_table(out)
        assert str(table.schema.field("value").type).startswith("decimal128")
        frame = table.to_pandas()
    values = {r["metric"]: Decimal(str(r["value"])) for r in frame.to_dict(orient="records")}
    assert values == {"revenue": Decimal("391035000000"), "eps_diluted": Decimal("6.08")}  # diluted EPS $6.08


def test_cli_pivot_table_fits_80_columns_and_binary_formats_need_a_file(home):
    res = _cli(home, "metrics", "AAPL", "--pivot", "--metric", "revenue,net_income_parent,eps_diluted,total_assets",
               "--period", "FY")
    assert res.returncode == 0, res.stderr
    assert max(len(line) for line in res.stdout.splitlines()) <= 80
    assert "391,035.00" in res.stdout  # revenue FY2024 in millions
    res = _cli(home, "metrics", "AAPL", "--format", "xlsx")
    assert res.returncode == 2 and "--output" in res.stderr and "Traceback" not in res.stderr


def test_cli_metrics_and_companies_tables_fit_80_columns_without_breaking_words(home):
    res = _cli(home, "metrics", "NVDA", "--metric", "revenue,net_income_parent", "--period", "FY")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    # NVDA FY2025 10-K: revenue $130,497 million; one row reads metric, period, value and source whole
    row = next(line for line in lines if "FY2025" in line and "revenue" in line)
    assert "130,497.00" in row and "net_income_p" not in res.stdout.replace("net_income_parent", "")
    res = _cli(home, "companies")
    assert res.returncode == 0 and max(len(line) for line in res.stdout.splitlines()) <= 80
    assert any(line.strip().startswith("activision_blizzard ") for line in res.stdout.splitlines())


def test_ask_suggests_a_misspelt_company(home):
    res = _cli(home, "ask", "Nvidai revenue in fiscal 2025")
    assert "did you mean Nvidia (NVDA)?" in res.stdout.replace("\n", " ")
    res = _cli(home, "ask", "Total gross sales of the company in 2024")
    assert "did you mean" not in res.stdout


def test_cli_sql_csv(home):
    res = _cli(home, "sql", "SELECT metric_value FROM financial_metrics WHERE stock_code = 'NVDA' AND fiscal_year = 2025 "
               "AND fiscal_period = 'FY' AND metric_name = 'revenue'", "--csv")
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines() == ["metric_value", "130497000000.000000"]  # NVDA FY2025 revenue $130,497 million


def test_did_you_mean_on_the_cli_and_the_facade(home, f):
    res = _cli(home, "metrics", "Nvidai")
    assert res.returncode == 1 and "did you mean Nvidia (NVDA)" in res.stderr.replace("\n", " ")
    with pytest.raises(FilingsError, match="did you mean Apple"):
        f.metrics("Aple")
    with pytest.raises(FilingsError) as exc:
        f.metrics("Tencent")
    assert "did you mean" not in str(exc.value)


def test_answer_to_frame_keeps_decimals(f):
    frame = f.ask("Compare Apple and Nvidia revenue in fiscal 2024").to_frame()
    values = {(r["company_id"], r["fiscal_year"]): r["value"] for r in frame.to_dict(orient="records")}
    assert values[("apple", 2024)] == Decimal("391035000000") and isinstance(values[("apple", 2024)], Decimal)
    assert values[("nvidia", 2024)] == Decimal("60922000000")  # NVDA FY2025 10-K comparative, FY2024 revenue


def test_plot_draws_one_line_per_listing(f, tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    ax = f.plot(["AAPL", "NVDA"], "revenue")
    assert len(ax.get_lines()) == 2 and "billions" in ax.get_ylabel()
    nvda = next(line for line in ax.get_lines() if line.get_label().startswith("NVDA"))
    assert dict(zip(nvda.get_xdata(), nvda.get_ydata()))[2025] == pytest.approx(130.497)
    with pytest.raises(FilingsError, match="no revenue stored"):
        f.plot(["AAPL"], "revenue", years=(2001, 2002))
