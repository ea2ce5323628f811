"""A metric asked for and not stored, answered with its stated stand-in (``router.metric_answer.FALLBACKS``): a
filer that prints one consolidated net income (Ulta Beauty's FY2022 earnings release, cash flow statement p8:
"Net income $ 1,242,408" in thousands, 52 weeks ended January 28, 2023) has no separate parent's share."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import require_corpus
from filings import Filings


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = tmp_path_factory.mktemp("fallback_home")
    with Filings(home) as fx:
        report = fx.ingest(require_corpus("us", "financebench", "pdfs", "ULTABEAUTY_2023Q4_EARNINGS.pdf"), index=False)
        assert not report.failed
    fx = Filings(home, read_only=True)
    yield fx
    fx.close()


def test_net_income_asked_is_answered_with_the_consolidated_figure_and_says_so(f):
    a = f.ask("Ulta Beauty net income for the year ended January 28, 2023")
    assert a.status == "answered" and a.route == "sql"
    rows = [(r.metric, Decimal(r.value), r.source["page"]) for r in a.rows]
    assert rows == [("net_income", Decimal("1242408000"), 8)]
    assert any("net_income_parent" in c and "net_income shown instead" in c for c in a.caveats)
