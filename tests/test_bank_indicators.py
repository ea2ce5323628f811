"""Bank indicators (capital adequacy, asset quality, margins) are ratios a bank prints and no statement holds: a
question about one is answered by quoting the printed figure, never by a longer or shorter indicator's figure.

Expected values are read from 平安银行's 2024 annual report: p16 (2.1 关键指标: 净息差 1.87%, 不良贷款率 1.06%,
拨备覆盖率 250.71%, 核心一级资本充足率 9.12%) and p20 (2.4.2 资本充足率, 本集团: 核心一级 9.12%, 一级 10.69%,
资本充足率 13.11%)."""

from __future__ import annotations

import pytest

from conftest import require_corpus
from filings import Filings
from router.fallback import figure_passages
from schema.models import Passage


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    home = tmp_path_factory.mktemp("bank")
    with Filings(home) as f:
        assert not f.ingest(require_corpus("cn", "000001_pinganyinhang_2024_annual.pdf"), dense=False).failed
    return home


def _quoted(answer) -> str:
    return " | ".join(p.text for p in answer.passages)


@pytest.mark.parametrize("question, metric, figure", [
    ("平安银行2024年末核心一级资本充足率", "cet1_ratio", "9.12%"),
    ("平安银行2024年末资本充足率", "capital_adequacy_ratio", "13.11%"),
    ("Ping An Bank tier 1 capital ratio at the end of 2024", "tier1_capital_ratio", "10.69%"),
    ("What was Ping An Bank's net interest margin in 2024?", "net_interest_margin", "1.87%"),
])
def test_a_bank_indicator_is_quoted_as_printed(bank, question, metric, figure):
    with Filings(bank, read_only=True) as f:
        answer = f.ask(question)
    assert answer.plan["metrics"] == [metric]
    assert answer.status == "answered" and answer.passages, answer.reason
    for p in answer.passages:  # every quote carries the indicator's own figure, none a longer label's
        assert figure in p.text.replace(" %", "%"), _quoted(answer)
    assert any("not a stored value" in c for c in answer.caveats)


def test_every_indicator_asked_for_is_quoted(bank):
    with Filings(bank, read_only=True) as f:
        answer = f.ask("平安银行2024年末不良贷款率和拨备覆盖率")
    assert answer.plan["metrics"] == ["npl_ratio", "provision_coverage_ratio"]
    text = _quoted(answer)
    assert "1.06%" in text and "250.71%" in text, text


def test_the_longest_label_names_the_figure():
    # one regulatory-table row prints two indicators; 资本充足率 is also the tail of 核心一级资本充足率
    row = "核心一级资本充足率 9.12% 8.86% 9.22% 8.97% 一级资本充足率 10.69% 10.44%\n资本充足率 13.11% 12.84%"
    p = Passage(text=row, company_id="c", source={"page": 20}, score=1.0)
    assert [q.text for q in figure_passages([p], "capital_adequacy_ratio")] == ["资本充足率 13.11%"]
    assert figure_passages([p], "tier1_capital_ratio")[0].text.endswith("一级资本充足率 10.69%")
    assert figure_passages([p], "cet1_ratio")[0].text == "核心一级资本充足率 9.12%"
    # in English too: "Tier 1 capital ratio" is the tail of "Common equity Tier 1 capital ratio"
    p = Passage(text="Common equity Tier 1 capital ratio 13.8 %\nTier 1 capital ratio 15.4 %", company_id="c",
                source={"page": 1}, score=1.0)
    assert [q.text for q in figure_passages([p], "tier1_capital_ratio")] == ["Tier 1 capital ratio 15.4 %"]


def test_what_a_company_expects_of_a_year_is_read_in_the_report_before_it(bank):
    # the warehouse holds the 2024 report only; its p53 (3.4.1 关于净息差) says what the bank expects of 2025
    with Filings(bank, read_only=True) as f:
        answer = f.ask("平安银行对2025年净息差走势怎么看？")
    assert answer.plan["intent"] == "mixed"  # the figure, and what the filing says of it
    assert any("预计" in p.text and "2025年净息差" in p.text.replace(" ", "") for p in answer.passages), _quoted(answer)


@pytest.mark.parametrize("question, row", [
    ("平安银行2024年末个人贷款余额是多少", "个人贷款 1,767,168"),  # p18 存贷款情况 (人民币百万元)
    ("平安银行2024年信贷成本是多少", "信贷成本 1.56"),  # p19 2.3 补充财务比率
])
def test_a_line_item_without_a_metric_is_quoted_from_its_row(bank, question, row):
    with Filings(bank, read_only=True) as f:
        answer = f.ask(question)
    assert answer.plan["metrics"] == [] and answer.status == "answered"
    assert answer.passages[0].text.startswith(row), _quoted(answer)


def test_several_years_of_an_indicator_are_quoted_from_the_row_that_prints_them_all(bank):
    """p19 (补充财务比率) prints "净息差 1.87 2.38 2.75" for 2024, 2023 and 2022; p16 and p26 print two years only. Asked
    for three years, the row of all three is quoted first."""
    with Filings(bank, read_only=True) as f:
        answer = f.ask("Ping An Bank net interest margin for 2022, 2023 and 2024?")
    assert answer.status == "answered" and answer.passages, answer.reason
    first = answer.passages[0]
    assert "1.87" in first.text and "2.38" in first.text and "2.75" in first.text, _quoted(answer)
