"""What the CLI prints: text from filings, file names and users is shown as text (never Rich markup), control
characters never reach the terminal, JSON is valid UTF-8, argument ranges are checked. Each case runs the real
CLI in a subprocess on a real (empty or tiny) warehouse."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from filings.output import dumps
from schema.text_safety import visible

REPO = Path(__file__).resolve().parents[2]


def cli(home: Path, *args: str | bytes, **env: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable.encode(), b"-m", b"filings.cli",
           *(a if isinstance(a, bytes) else a.encode() for a in args), b"--home", str(home).encode()]
    return subprocess.run(cmd, capture_output=True, timeout=180,
                          env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "80", **env})


def no_escape_bytes(out: bytes) -> bool:
    return b"\x1b" not in out and b"\x07" not in out and b"\xc2\x9b" not in out


HOSTILE_SQL = ("SELECT '[/b] [bold]x' AS markup, 'a' || chr(27) || ']0;pwned' || chr(7) || 'b' || chr(27) || '[2J' "
               "AS esc, chr(155) || '31m' AS csi, 'x' || chr(8238) || 'y' AS bidi")


def test_sql_output_shows_markup_as_text_and_no_control_characters(tmp_path):
    res = cli(tmp_path, "sql", HOSTILE_SQL)
    assert res.returncode == 0, res.stderr
    assert b"[/b] [bold]x" in res.stdout and no_escape_bytes(res.stdout)
    assert "\u241b]0;pwned\u2407".encode() in res.stdout  # ESC and BEL shown as their pictures


def test_sql_json_is_valid_and_escapes_controls(tmp_path):
    res = cli(tmp_path, "sql", HOSTILE_SQL, "--json")
    assert res.returncode == 0, res.stderr
    assert no_escape_bytes(res.stdout)
    rows = json.loads(res.stdout.decode("utf-8"))
    assert rows[0]["esc"] == "a\x1b]0;pwned\x07b\x1b[2J"  # the data itself is intact, escaped in the JSON text
    assert rows[0]["csi"] == "\x9b31m" and rows[0]["bidi"] == "x\u202ey"


@pytest.mark.parametrize("args", [
    ("search", "risk", "--company", "[/x]"),
    ("metrics", "[/x]"),
    ("metrics", "\x1b]0;pwned\x07"),
    ("sql", "SELECT * FROM [/x]"),
])
def test_user_input_with_markup_or_escapes_gives_one_clear_error(tmp_path, args):
    res = cli(tmp_path, *args)
    assert res.returncode in (1, 2), res.stderr
    err = res.stderr.decode("utf-8")
    assert "Traceback" not in err and "MarkupError" not in err and no_escape_bytes(res.stderr + res.stdout)
    assert "error" in err.lower() or "refused" in err.lower()


@pytest.mark.parametrize("k", ["-1", "0", "100000", "[/x]"])
def test_search_k_is_checked(tmp_path, k):
    res = cli(tmp_path, "search", "risk", "--k", k)
    assert res.returncode == 2 and b"Traceback" not in res.stderr
    assert b"--k" in res.stderr


def test_invalid_utf8_argument_gives_valid_json(tmp_path):
    res = cli(tmp_path, "search", b"risk \xff\xfe", "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout.decode("utf-8"))  # strict UTF-8: a lone surrogate would not decode
    assert data["query"].startswith("risk ") and data["hits"] == []


def test_visible_and_dumps_helpers():
    assert visible("a\x1b[2Jb\x00\r") == "a\u241b[2Jb\u2400\u240d"
    assert visible("x\u202ey\ud800") == "x\ufffdy\ufffd"
    assert visible("tab\tline\n") == "tab\tline\n"
    text = dumps({"s": "a\ud800b\x9b\u2028", "n": float("nan"), "b": b"\x00\x01"})
    assert json.loads(text) == {"s": "a\ufffdb\x9b\u2028", "n": "nan", "b": "0001"}
    text.encode("utf-8")
