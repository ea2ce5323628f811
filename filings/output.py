"""How the CLI writes: every string from a filing, a file name or a user is shown as text, never as Rich
markup, with control characters made visible (``schema.text_safety``); JSON is valid UTF-8 with control
characters escaped; tables fold long cells instead of cutting them, and a report that is piped (stdout not
a terminal) is written as plain lines.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from schema.models import as_jsonable
from schema.text_safety import json_string, json_text, visible


def text(value: Any, style: str | None = None) -> Text:
    """Any value as Rich text that is never parsed as markup (``None`` -> empty)."""
    return Text("" if value is None else visible(str(value)), style=style or "")


def markup_safe(value: Any) -> str:
    """A value to embed in a markup string (progress descriptions): visible and markup-escaped."""
    return escape(visible("" if value is None else str(value)))


def line(console: Console, *parts: Any) -> None:
    """Print parts on one line: ``(str, style)`` tuples are styled, anything else is plain text."""
    out = Text()
    for part in parts:
        if isinstance(part, tuple):
            out.append_text(text(part[0], part[1]))
        else:
            out.append_text(text(part))
    console.print(out, soft_wrap=True)


def table(title: Any = None, *columns: str, right: set[str] | frozenset[str] = frozenset(),
          wide: dict[str, int] | None = None, lines: bool = False) -> Table:
    """A table whose cells fold (wrap) rather than being cut to 'add…'."""
    t = Table(title=text(title) if title is not None else None, show_lines=lines)
    for col in columns:
        t.add_column(col, justify="right" if col in right else "left", overflow="fold",
                     max_width=(wide or {}).get(col))
    return t


def add_row(t: Table, *cells: Any, style: str | None = None) -> None:
    t.add_row(*(c if isinstance(c, Text) else text(c) for c in cells), style=style)


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return json_string(value)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)  # NaN / Infinity are not JSON
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, dict):
        return {json_string(str(k)): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def dumps(data: Any) -> str:
    """JSON for machines: exact decimals as strings, dates ISO, valid UTF-8, control characters escaped."""
    return json_text(json.dumps(_clean(as_jsonable(data)), ensure_ascii=False, indent=2,
                                default=lambda o: json_string(str(o))))


def print_json(data: Any) -> None:
    sys.stdout.write(dumps(data) + "\n")
    sys.stdout.flush()
