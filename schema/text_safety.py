"""Characters that must not travel: one definition for what is cleaned where.

* Stored text (:func:`clean`, applied at the parser boundary to every string of a parsed document): NUL and
  the other C0 / C1 control characters (tab and newline excepted) and lone UTF-16 surrogates become U+FFFD.
  A lone surrogate cannot be encoded as UTF-8 (DuckDB refuses it); a NUL cuts strings in C libraries; an
  ESC in a transcript is a terminal escape sequence waiting to be printed.
* Shown text (:func:`visible`, for the terminal): control characters become their visible Unicode pictures
  (ESC -> U+241B), bidirectional overrides (which reorder what a terminal shows) and lone surrogates become
  U+FFFD, so nothing from a filing, a file name or a user can move the cursor, set the window title or clear
  the screen.
* JSON (:func:`json_text`): lone surrogates replaced so the output is valid UTF-8; control characters, DEL,
  C1 controls and bidirectional overrides escaped as ``\\uXXXX`` so the JSON stays valid and the data intact.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
_STORED_BAD = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_SHOWN_BAD = re.compile("[\x80-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_JSON_ESCAPE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def clean(text: str) -> tuple[str, int]:
    """(text with control characters and lone surrogates replaced by U+FFFD, number replaced)."""
    if not _STORED_BAD.search(text):
        return text, 0
    return _STORED_BAD.subn(REPLACEMENT, text)


def has_bad(text: str) -> bool:
    return _STORED_BAD.search(text) is not None


def visible(text: str) -> str:
    """Text safe to write to a terminal: controls as visible pictures (ESC -> U+241B), C1 controls, bidi
    overrides and lone surrogates as U+FFFD. Tab and newline stay."""
    text = _CONTROL.sub(_picture, text)
    return _SHOWN_BAD.sub(REPLACEMENT, text)


def _picture(m: re.Match) -> str:
    ch = m.group(0)
    return "\u2421" if ch == "\x7f" else chr(0x2400 + ord(ch))


def json_string(text: str) -> str:
    """A string for JSON output: lone surrogates replaced (the output must be valid UTF-8)."""
    return _SURROGATE.sub(REPLACEMENT, text) if _SURROGATE.search(text) else text


def json_text(dumped: str) -> str:
    """Escape DEL, C1 controls, bidi overrides and line separators in JSON text (``json.dumps`` with
    ``ensure_ascii=False`` leaves them raw; they can only occur inside strings, where an escape is the same
    character)."""
    return _JSON_ESCAPE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", dumped)
