"""The small warehouse the viewer and MCP tests read (built once per pytest session, shared by modules):
Apple's FY2024 10-K (inline XBRL), 金花股份's 2025 Q3 report (A-share PDF), Amcor's FY2023 Q4 earnings
release (a FinanceBench PDF, indexed so that narrative questions return passages), and two generated
hostile documents whose text carries markup: an inline-XBRL filing with script, event handlers, links,
images and CSS urls, and a plain-text call transcript with ``<script>`` in its words."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import require_corpus
from test_us_xbrl import MINIMAL_IXBRL

APPLE = ("us", "ixbrl", "aapl-10k-fy2024", "aapl-20240928.htm")
JINHUA_Q3 = ("cn", "600080_jinhuagufen_2025_q3.pdf")
AMCOR_RELEASE = ("us", "financebench", "pdfs", "AMCOR_2023Q4_EARNINGS.pdf")
INDEXED = ["AMCOR_2023Q4_EARNINGS"]

# test_us_xbrl's minimal filing with hostile markup around its facts and a second page holding one more fact
HOSTILE_IXBRL = MINIMAL_IXBRL.replace(
    "<head><title>t</title></head><body>",
    '<head><title>t</title><script>alert(\'head\')</script><link rel="stylesheet" href="http://evil.example/x.css"/>'
    "</head><body onload=\"alert('body')\">",
).replace("</body>", """
<p onclick="alert('click')" style="color:red;background:url(http://evil.example/bg.png)">Risk text &lt;script&gt;alert('text')&lt;/script&gt; stays text.</p>
<script>alert('inline')</script>
<img src="http://evil.example/pixel.png" onerror="alert('img')"/>
<a href="javascript:alert('link')">a link</a>
<iframe src="http://evil.example/frame"></iframe>
<hr style="page-break-after:always"/>
<table><tr><td>Revenue</td><td><ix:nonFraction name="us-gaap:Revenues" contextRef="c1" unitRef="usd" decimals="-3" scale="3" format="ixt:num-dot-decimal" id="rev&quot;&gt;x">4,321</ix:nonFraction></td></tr></table>
<p>Second page <b onmouseover="alert('b')">bold</b>.</p>
</body>""")

HOSTILE_TRANSCRIPT = (
    "Good afternoon and welcome to the ZZQ first quarter 2025 earnings call. "
    "Our guidance said <script>alert('call')</script> and <img src=x onerror=alert(1)> in plain words. "
    "Revenue grew because customers kept ordering. Thank you, operator."
)


def build_store(tmp_path_factory) -> Path:
    """The shared warehouse home (built on first use in this pytest session)."""
    from filings.api import Filings

    home = tmp_path_factory.getbasetemp() / "viewer-store"
    ready = home / "READY"
    if ready.exists():
        return home
    files = tmp_path_factory.getbasetemp() / "viewer-files"
    files.mkdir(exist_ok=True)
    (files / "zzq-20241231.htm").write_text(HOSTILE_IXBRL, encoding="utf-8")
    (files / "ZZQ_2025_Q1.txt").write_text(HOSTILE_TRANSCRIPT, encoding="utf-8")
    paths = [require_corpus(*APPLE), require_corpus(*JINHUA_Q3), require_corpus(*AMCOR_RELEASE),
             files / "zzq-20241231.htm", files / "ZZQ_2025_Q1.txt"]
    with Filings(home) as f:
        report = f.ingest(*paths, index=False)
        failed = [r.reason for r in report.results if r.status == "failed"]
        assert not failed, failed
        assert f.index_missing(only=INDEXED) == len(INDEXED)
    ready.write_text("ok")
    return home


def artifacts_dir(tmp_path: Path) -> Path:
    """Where screenshots go: $FILINGS_ARTIFACTS when set (e.g. a git-ignored folder), else the test's tmp dir."""
    folder = Path(os.environ.get("FILINGS_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
