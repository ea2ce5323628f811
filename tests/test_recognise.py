"""Recognition of every A-share and HK corpus PDF against the README tables of the corpus.

Expected values are read from ``cn/README.md`` and ``hk/README.md`` at test time (code, kind, period,
pages, language, currency); a few extra expectations (legal names, accounting standards, H codes)
were read from the documents themselves and cite the page."""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path

import pytest

from parsers.pdf_pages import read_pages
from parsers.recognise import recognise_pdf
from parsers.recognise_text import cn_number as _cn_number
from schema.errors import UnrecognisedDocument
from schema.models import Page
from conftest import corpus_root, require_corpus  # noqa: E402


def corpus() -> Path:
    return require_corpus()  # skips without the corpus; fails in CI


def _table(readme: Path) -> list[dict[str, str]]:
    rows, header = [], None
    for line in readme.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| "):
            if header and rows:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif not set(cells[0]) <= set("-: "):
            rows.append(dict(zip(header, cells)))
    return rows


_ROOT = corpus_root()
CN = _table(_ROOT / "cn" / "README.md") if (_ROOT / "cn" / "README.md").is_file() else []
HK = _table(_ROOT / "hk" / "README.md") if (_ROOT / "hk" / "README.md").is_file() else []
_cache: dict[str, list[Page]] = {}


def _pages(path: Path) -> list[Page]:
    if str(path) not in _cache:
        _cache[str(path)] = read_pages(path)
    return _cache[str(path)]


CN_KIND = {"annual": ("annual", "FY"), "summary": ("summary", "FY"), "interim": ("interim", "H1"),
           "interim summary": ("interim_summary", "H1"), "q1": ("q1", "Q1"), "q3": ("q3", "Q3")}
CN_END = {"FY": (12, 31), "H1": (6, 30), "Q1": (3, 31), "Q3": (9, 30)}
# legal names as printed on page 1 of the documents
CN_NAMES = {"600080": "金花企业（集团）股份有限公司", "000999": "华润三九医药股份有限公司",
            "603259": "无锡药明康德新药开发股份有限公司", "002821": "凯莱英医药集团（天津）股份有限公司",
            "300347": "杭州泰格医药科技股份有限公司", "000001": "平安银行股份有限公司",
            "600201": "金宇生物技术股份有限公司", "603339": "四方科技集团股份有限公司"}
# H codes printed in the documents: 药明康德 "H股 联交所 藥明康德 02359" (summary p3 / interim p7 table),
# 凯莱英 "股票代码 002821.SZ/06821.HK" (2024 summary p1, 2025 interim p6)
CN_H_PRINTED = {"603259_yaomingkangde_2024_summary.pdf": ["2359.HK"],
                "603259_yaomingkangde_2025_interim.pdf": ["2359.HK"],
                "002821_kailaiying_2024_summary.pdf": ["6821.HK"],
                "002821_kailaiying_2025_interim.pdf": ["6821.HK"]}


@pytest.mark.parametrize("row", CN, ids=[r["file"] for r in CN])
def test_a_share_files(row):
    path = corpus() / "cn" / row["file"]
    info = recognise_pdf(path, _pages(path))
    form, period = CN_KIND[row["kind"]]
    year = int(re.search(r"(\d{4})", row["fiscal period"]).group(1))
    assert info.market == "A"
    assert info.stock_code == row["stock code"]
    assert (info.form, info.fiscal_period, info.fiscal_year) == (form, period, year)
    assert info.period_end == dt.date(year, *CN_END[period])
    assert info.fiscal_year_end_month == 12
    assert info.pages == int(row["pages"])
    assert (info.currency, info.accounting_standard, info.language) == ("CNY", "CAS", "zh-Hans")
    assert info.company_name == CN_NAMES[row["stock code"]]
    h = re.search(r"HK (\d{4})", row["company"])
    assert set(info.other_codes) <= ({f"{h.group(1)}.HK"} if h else set())
    if row["file"] in CN_H_PRINTED:
        assert info.other_codes == CN_H_PRINTED[row["file"]]
    assert info.company_metrics


HK_KIND = [("fund", "fund_fs"), ("ETF", "fund_fs"), ("results announcement", "results_announcement"),
           ("MD&A", "mda_extract"), ("annual report (full)", "annual")]
HK_LANG = {"English": "en", "bilingual English + Traditional Chinese": "en+zh-Hant", "Traditional Chinese": "zh-Hant"}
HK_CUR = {"HK$": {"HKD"}, "RMB": {"CNY"}, "S$ (Singapore dollar)": {"SGD"}, "HK$ and RMB": {"HKD", "CNY"}}
# read from the documents: the standard the statements are said to comply with (auditor's report / basis
# of preparation note)
HK_STANDARD = {"0717": "HKFRS", "1161": "HKFRS", "1678": "HKFRS", "1721": "IFRS", "1741": "HKFRS",
               "2324": "HKFRS", "6068": "IFRS", "3012": "IFRS", "3073": "IFRS", "0328": "HKFRS"}
# names printed differently from the README: 0007's FY2020 report still carries its former name in the
# page footers ("WISDOM WEALTH RESOURCES INVESTMENT HOLDING GROUP LIMITED", p1-12); 3928's MD&A pages
# print no company name at all.
HK_NAME_FROM_DOC = {"0007": "WISDOM WEALTH RESOURCES INVESTMENT HOLDING GROUP LIMITED", "3928": None}


def _norm(name: str) -> str:
    name = re.sub(r"\(.*?\)", "", name.split(":")[0]).replace("Ltd", "Limited").replace("Co ", "Company ")
    return " ".join(name.lower().split())


@pytest.mark.parametrize("row", HK, ids=[r["file"] for r in HK])
def test_hk_files(row):
    path = corpus() / "hk" / row["file"]
    info = recognise_pdf(path, _pages(path))
    code = row["stock code"].split("/")[0].strip()
    form = next(f for key, f in HK_KIND if key in row["kind"])
    end = dt.date.fromisoformat(row["fiscal period end"])
    assert info.market == "HK"
    assert info.stock_code == f"{code}.HK"
    if "/" in row["stock code"]:
        assert info.other_codes == [f"{c.strip()}.HK" for c in row["stock code"].split("/")[1:]]
    assert info.form == form
    assert (info.fiscal_period, info.period_end, info.fiscal_year, info.fiscal_year_end_month) == (
        "FY", end, end.year, end.month)
    assert info.language == HK_LANG[row["language"]]
    assert info.currency in HK_CUR[row["reporting currency"]]
    assert info.pages == int(row["pages"])
    assert info.company_metrics == (form not in ("fund_fs", "mda_extract"))
    if code in HK_STANDARD:
        assert info.accounting_standard == HK_STANDARD[code]
    if code in HK_NAME_FROM_DOC:
        want = HK_NAME_FROM_DOC[code]
        assert (info.company_name or None) == want or (want and info.company_name.startswith(want))
    elif form == "fund_fs":
        assert "ETF" in info.company_name
    else:
        assert _norm(row["company"]) in _norm(info.company_name)


def test_unrecognisable_text_is_refused():
    pages = [Page(page=1, text="Minutes of the residents' association meeting\nAgenda: garden party")]
    with pytest.raises(UnrecognisedDocument):
        recognise_pdf("notes.pdf", pages)
    with pytest.raises(UnrecognisedDocument):
        recognise_pdf("blank.pdf", [Page(page=1, text="")])


def test_content_wins_over_file_name(tmp_path):
    # a user's file name says nothing; the pages do
    pages = _pages(corpus() / "cn" / "600080_jinhuagufen_2024_q3.pdf")
    info = recognise_pdf("download (3).pdf", pages)
    assert (info.market, info.stock_code, info.form, info.fiscal_year) == ("A", "600080", "q3", 2024)


def test_chinese_numerals():
    assert [_cn_number(s) for s in ("二零二五", "三", "三十一", "十二", "九")] == [2025, 3, 31, 12, 9]


def test_us_10k_fallback():
    path = corpus() / "us" / "financebench" / "pdfs" / "3M_2018_10K.pdf"
    if not path.is_file():
        pytest.skip("FinanceBench PDFs absent")
    pdf_pages = read_pages(path, ocr=False)
    info = recognise_pdf(path, pdf_pages[:5] + [Page(page=i, text="") for i in range(6, len(pdf_pages) + 1)])
    # cover: "FORM 10-K ... For the fiscal year ended December 31, 2018"
    assert (info.market, info.form, info.fiscal_year, info.fiscal_period, info.period_end) == (
        "US", "10-K", 2018, "FY", dt.date(2018, 12, 31))


# ------------------------------------------------------------------- pdf_report.parse (wiring)
def test_parse_calls_the_market_extractor_and_skips_funds(tmp_path):
    from parsers.pdf_report import PARSER, is_pdf, parse
    from schema.errors import ParseError
    from schema.models import Fact

    calls = []

    def fake(pages, info):
        calls.append((info.market, len(pages)))
        return [Fact(label="营业收入", value_text="1", page=1)]

    doc = parse(corpus() / "cn" / "600080_jinhuagufen_2025_q3.pdf", statement_extractors={"A": fake})
    assert doc.parser == PARSER == "pdf_report/1"
    assert calls == [("A", 11)] and len(doc.facts) == 1 and len(doc.pages) == 11
    # ETF statements carry no company metrics: no extraction; a missing extractor module gives no facts
    doc = parse(corpus() / "hk" / "3073_spdrgreaterchina_2021_annual-fund.pdf", statement_extractors={"HK": fake})
    assert calls == [("A", 11)] and doc.facts == [] and doc.info.company_metrics is False
    doc = parse(corpus() / "hk" / "8169_ecotek_2021_annual-mda-extract.pdf",
                statement_extractors={"HK": "parsers.no_such_module"})
    assert doc.facts == []
    doc = parse(corpus() / "hk" / "0328_alco_2025_annual-results.pdf", statement_extractors={"HK": "parsers.no_such_module"})
    assert doc.facts == [] and any("no statement extractor" in w for w in doc.warnings)
    junk = tmp_path / "x.pdf"
    junk.write_text("hello")
    assert not is_pdf(junk) and is_pdf(corpus() / "hk" / "8169_ecotek_2021_annual-mda-extract.pdf")
    with pytest.raises(ParseError):
        parse(junk)
