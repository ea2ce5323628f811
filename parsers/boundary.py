"""What every file passes before and after its parser: size limits per kind, then, on the parsed document,
clean text (``schema.text_safety.clean``: NUL, other control characters and lone surrogates become U+FFFD,
with one warning on the document), pages capped per kind, and facts bounded per document.

Kinds are those of ``parsers.detect``: 'pdf', 'xbrl' (iXBRL or classic instance), 'transcript', 'companyfacts'.
"""

from __future__ import annotations

import mmap
import re
from pathlib import Path

from pydantic import BaseModel

from schema import limits
from schema.limits import Limit
from schema.models import ParsedDocument
from schema.page_text import cap_text
from schema.text_safety import clean

FILE_BYTES: dict[str, Limit] = {"pdf": limits.PDF_BYTES, "xbrl": limits.XBRL_BYTES,
                                "transcript": limits.TRANSCRIPT_BYTES, "companyfacts": limits.COMPANYFACTS_BYTES}
PAGE_CHARS: dict[str, Limit] = {"pdf": limits.PDF_PAGE_CHARS, "xbrl": limits.HTML_PAGE_CHARS,
                                "transcript": limits.TRANSCRIPT_TURN_CHARS}
# Every XBRL fact, inline or in a classic instance, names its context: counting the attribute counts the facts.
_FACT_CONTEXT = re.compile(rb"\scontextRef\s*=")


def check_size(path: Path, kind: str) -> None:
    """LimitExceeded when the file is larger than its kind allows."""
    limit = FILE_BYTES.get(kind)
    if limit is None:
        return
    size = path.stat().st_size
    if size > limit.value():
        raise limit.exceeded(str(path), f"{limits.human_bytes(size)} file")


def check_xbrl_facts(path: Path) -> None:
    """Count the facts of an XBRL / iXBRL file in its bytes (no parse) and refuse a document with more than the
    limit, before arelle builds a model of every one of them."""
    limit = limits.DOCUMENT_FACTS
    with path.open("rb") as fh:
        try:
            data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file
            return
        with data:
            count = sum(1 for _ in _FACT_CONTEXT.finditer(data))
    if count > limit.value():
        raise limit.exceeded(str(path), f"{count:,} XBRL facts")


def cap_pages(parsed: ParsedDocument, kind: str) -> None:
    """Cut pages longer than the kind's limit (at a line break), one warning naming the pages."""
    limit = PAGE_CHARS.get(kind)
    if limit is None:
        return
    cap = limit.value()
    cut_pages = []
    for page in parsed.pages:
        if len(page.text) > cap:
            page.text, _ = cap_text(page.text, cap)
            cut_pages.append(page.page)
    if cut_pages:
        shown = ", ".join(map(str, cut_pages[:10])) + (" ..." if len(cut_pages) > 10 else "")
        parsed.warnings.append(f"text cut to {limit.describe()} on {len(cut_pages)} page(s): {shown}")


def check_facts(parsed: ParsedDocument, path: Path) -> None:
    limit = limits.DOCUMENT_FACTS
    if len(parsed.facts) > limit.value():
        raise limit.exceeded(str(path), f"{len(parsed.facts):,} facts")


def clean_document(parsed: ParsedDocument) -> None:
    """Replace NUL, control characters and lone surrogates in every string of the document (info, pages,
    facts, sections, warnings); one warning on the document says how many were replaced."""
    replaced = _clean_model(parsed)
    if replaced:
        parsed.warnings.append(f"{replaced:,} control character(s) or invalid code point(s) (NUL, ESC, lone "
                               "surrogates) replaced by U+FFFD")


def _clean_value(value, counter: list[int]):
    if isinstance(value, str):
        new, n = clean(value)
        counter[0] += n
        return new
    if isinstance(value, BaseModel):
        counter[0] += _clean_model(value)
        return value
    if isinstance(value, list):
        for i, item in enumerate(value):
            new = _clean_value(item, counter)
            if new is not item:
                value[i] = new
        return value
    if isinstance(value, dict):
        if any(isinstance(k, str) and clean(k)[1] for k in value):
            items = [(_clean_value(k, counter), _clean_value(v, counter)) for k, v in value.items()]
            value.clear()
            value.update(items)
        else:
            for k, v in value.items():
                new = _clean_value(v, counter)
                if new is not v:
                    value[k] = new
        return value
    return value


def _clean_model(model: BaseModel) -> int:
    counter = [0]
    for name in type(model).model_fields:
        value = getattr(model, name)
        new = _clean_value(value, counter)
        if new is not value:
            setattr(model, name, new)
    return counter[0]
