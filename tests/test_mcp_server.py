"""`filings mcp` through the SDK's own client over stdio: the session initialises, lists the tools and the
page resources, and every tool answers a good call and refuses a bad one with a tool error (no traceback).
Expected figures come from the documents (金花股份 2025 Q3 revenue 142,615,399.97 yuan, printed on page 1 of
its report; Apple FY2024 total net sales $391,035 million, SEC companyfacts)."""

from __future__ import annotations

import json
import os
import sys
from decimal import Decimal
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from viewer_store import build_store

REPO = Path(__file__).resolve().parents[1]
TOOLS = {"ask", "search", "metrics", "compare", "sql", "companies", "coverage"}


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return build_store(tmp_path_factory)


def _session(home: Path, script):
    """Run ``script(client)`` in one stdio session with a `filings mcp` subprocess; its result."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "filings.cli", "mcp", "--home", str(home)],
                                   env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=str(REPO))

    async def main():
        async with Client(params, read_timeout_seconds=300) as client:
            return await script(client)

    return anyio.run(main)


def _payload(result) -> dict:
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def _error(result) -> str:
    assert result.is_error
    text = result.content[0].text
    assert "Traceback" not in text
    return text


def test_mcp_session_tools_and_resources(home):
    good = {
        "ask": {"question": "金花股份2025年第三季度营业收入"},
        "search": {"query": "Amcor share repurchases", "k": 3},
        "metrics": {"company": "AAPL", "metrics": ["revenue"], "year_from": 2024, "year_to": 2024, "periods": ["FY"]},
        "compare": {"companies": ["AAPL", "600080"], "metric": "revenue"},
        "sql": {"query": "SELECT count(*) AS n FROM documents"},
        "companies": {"market": "A"},
        "coverage": {"company": "600080"},
    }
    bad = {
        "ask": {"question": "x" * 5000},
        "search": {"query": "volumes", "k": 1000},
        "metrics": {"company": "NO SUCH COMPANY"},
        "compare": {"companies": ["AAPL"], "metric": "no_such_metric"},
        "sql": {"query": "DELETE FROM documents"},
        "companies": {"market": "Mars"},
        "coverage": {"document": "no_such_document"},
    }

    async def script(client):
        tools = (await client.list_tools()).tools
        templates = (await client.list_resource_templates()).resource_templates
        resources = (await client.list_resources()).resources
        calls = {}
        for name in good:
            calls[name] = (await client.call_tool(name, good[name]), await client.call_tool(name, bad[name]))
        wrong_type = await client.call_tool("metrics", {"company": 5})
        calls["sql_big"] = (await client.call_tool("sql", {"query": "SELECT fact_no FROM facts"}), None)
        unknown_tool = await client.call_tool("drop_everything", {})
        docs = json.loads((await client.read_resource("filings://documents")).contents[0].text)
        jinhua = next(d for d in docs["documents"] if d["doc_name"] == "600080_jinhuagufen_2025_q3")
        page = (await client.read_resource(f"filings://doc/{jinhua['document_id']}/page/1")).contents[0].text
        refusals = []
        for uri in ("filings://doc/../../etc/passwd/page/1", f"filings://doc/{jinhua['document_id']}/page/99",
                    "filings://doc/" + "0" * 64 + "/page/1"):
            try:
                await client.read_resource(uri)
                refusals.append(None)
            except Exception as exc:  # the SDK raises the server's error
                refusals.append(str(exc))
        return tools, templates, resources, calls, wrong_type, unknown_tool, page, refusals

    tools, templates, resources, calls, wrong_type, unknown_tool, page, refusals = _session(home, script)
    names = {t.name for t in tools}
    assert TOOLS <= names
    for t in tools:  # every description says what it covers, its units or limits
        assert len(t.description or "") > 150 and t.annotations and t.annotations.read_only_hint, t.name
    assert "filings://doc/{document_id}/page/{page}" in [t.uri_template for t in templates]
    assert "filings://documents" in [str(r.uri) for r in resources]

    ask = _payload(calls["ask"][0])
    assert ask["status"] == "answered" and ask["rows"][0]["value"] == "142615399.97"
    assert ask["rows"][0]["currency"] == "CNY" and ask["rows"][0]["source"]["page"] in (1, "1")
    hits = _payload(calls["search"][0])["hits"]
    assert hits and all(h["doc_name"] == "AMCOR_2023Q4_EARNINGS" for h in hits)
    rows = _payload(calls["metrics"][0])["rows"]
    assert [Decimal(r["value"]) for r in rows] == [Decimal("391035000000")]
    compared = _payload(calls["compare"][0])["rows"]
    assert Decimal(next(r for r in compared if r["stock_code"] == "AAPL")["values"]["2024"]) == Decimal("391035000000")
    assert _payload(calls["sql"][0])["rows"] == [[5]]
    big = _payload(calls["sql_big"][0])  # Apple's 10-K alone holds 1,127 facts: more than one call returns
    assert big["truncated"] and big["row_count"] == len(big["rows"]) == 500
    assert "600080" in json.dumps(_payload(calls["companies"][0]))

    assert "too long" in _error(calls["ask"][1])
    assert "k must be" in _error(calls["search"][1])
    assert "unknown company" in _error(calls["metrics"][1])
    assert "unknown metric" in _error(calls["compare"][1])
    assert "refused" in _error(calls["sql"][1]) and "read-only" in _error(calls["sql"][1])
    assert "market must be" in _error(calls["companies"][1])
    cov = _payload(calls["coverage"][0])
    assert "600080_jinhuagufen_2025_q3" in json.dumps(cov, ensure_ascii=False)
    assert "unknown document" in _error(calls["coverage"][1])
    assert "valid string" in _error(wrong_type)
    assert unknown_tool.is_error

    assert page.startswith("source: 600080_jinhuagufen_2025_q3 page 1 of 11")
    assert "142,615,399.97" in page
    assert refusals[0] is not None and "passwd" not in refusals[0].replace("etc/passwd", "")
    assert refusals[1] is not None and "pages 1-11" in refusals[1]
    assert refusals[2] is not None and "unknown document" in refusals[2]


def test_mcp_streamable_http_on_loopback(home):
    import socket
    import subprocess
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "filings.cli", "mcp", "--http", "--port", str(port), "--home",
                             str(home)], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(url, timeout=5)
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < deadline, "filings mcp --http did not start"
                time.sleep(0.5)

        async def main():
            async with Client(url) as client:
                names = {t.name for t in (await client.list_tools()).tools}
                return names, await client.call_tool("sql", {"query": "SELECT count(*) FROM documents"})

        names, result = anyio.run(main)
        assert TOOLS <= names and _payload(result)["rows"] == [[5]]
        # another Host (DNS rebinding from a web page) is refused
        assert httpx.post(url, headers={"host": "evil.example"}, json={}).status_code in (400, 421)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
