"""Each physical page of an SEC HTML / iXBRL filing as its own safe HTML, for showing a cited page.

:func:`page_fragments` walks the document with the same rules as :mod:`parsers.html_pages` (the same
page breaks, the same hidden parts skipped), so fragment ``n`` shows exactly the content whose text is
``Page.text`` of page ``n``. Elements cut by a page break are closed at the break and opened again on the
next page. The output is rebuilt, never copied: only presentational tags and attributes are emitted,
and the result goes through ``nh3`` (ammonia) with an allow-list, so a filing's ``<script>``, event
handlers, links, images, forms and external resources never reach a browser. Displayed XBRL facts
(``ix:nonFraction`` / ``ix:nonNumeric``) become ``<span class="ixf" id="fact-ID">`` so a cited fact can
be marked.

Character spans of ``Page.text`` map onto a fragment by counting the non-whitespace characters: both the
page text and the fragment's text nodes hold the same visible characters in the same order (the page text
only folds whitespace and joins cells and lines), see :func:`ink_offsets`.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import nh3

from parsers.html_pages import _WS, _Builder, _is_ix, walk_document

FACT_ID_PREFIX = "fact-"
_IX_FACTS = frozenset({"nonfraction", "nonnumeric"})
_TAGS = frozenset({
    "p", "div", "span", "table", "tbody", "thead", "tfoot", "tr", "td", "th", "br", "hr", "b", "i", "u", "s",
    "strong", "em", "sup", "sub", "font", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "center",
    "caption", "small", "big", "blockquote", "pre", "colgroup", "col", "dl", "dt", "dd", "section", "article",
    "header", "footer", "address", "mark",
})
_VOID = frozenset({"br", "hr", "col"})
_ATTRS = {
    "*": {"style", "align", "valign", "width"},
    "td": {"colspan", "rowspan"}, "th": {"colspan", "rowspan"}, "col": {"span"}, "colgroup": {"span"},
    "span": {"id", "class"}, "mark": {"class"},
}
# CSS properties a filing's layout needs; nothing that can load a resource (url(), @import) is allowed.
_STYLE = frozenset({
    "color", "background-color", "font", "font-family", "font-size", "font-style", "font-weight",
    "text-align", "text-decoration", "text-indent", "text-transform", "vertical-align", "line-height",
    "letter-spacing", "white-space", "width", "min-width", "max-width", "height", "margin", "margin-top",
    "margin-bottom", "margin-left", "margin-right", "padding", "padding-top", "padding-bottom",
    "padding-left", "padding-right", "border", "border-top", "border-bottom", "border-left", "border-right",
    "border-collapse", "border-spacing", "border-width", "border-style", "border-color", "display",
})
_SAFE_ID = re.compile(r"[^A-Za-z0-9_.:-]")


def sanitize(fragment: str) -> str:
    """The allow-list sanitizer every fragment passes through."""
    return nh3.clean(fragment, tags=set(_TAGS), clean_content_tags={"script", "style"},
                     attributes={k: set(v) for k, v in _ATTRS.items()}, url_schemes=set(),
                     filter_style_properties=set(_STYLE), strip_comments=True)


class _Fragments(_Builder):
    """A page builder that also writes each page's elements and text as HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.html: list[list[str]] = [[]]
        self.open: list[tuple[str, str]] = []  # (tag, attributes without id) of the emitted open elements
        self.entered: list[str | None] = []  # per entered element: the tag emitted for it (None: none)
        self.fact_pages: dict[str, int] = {}

    def text(self, s: str | None) -> None:
        super().text(s)
        if s:
            self.html[-1].append(html.escape(s, quote=False))

    def enter(self, el, ns: str, tag: str) -> None:
        fact_id = None
        if _is_ix(ns):
            if tag not in _IX_FACTS:
                self.entered.append(None)
                return
            fact_id = (el.get("id") or "").strip()
            out_tag, attrs = "span", ' class="ixf"'
        elif tag in _TAGS:
            out_tag, attrs = tag, "".join(
                f' {name}="{html.escape(value)}"' for name, value in sorted(el.attrib.items())
                if isinstance(name, str) and name in (_ATTRS["*"] | _ATTRS.get(tag, set())))
        else:
            self.entered.append(None)
            return
        ident = ""
        if fact_id:
            self.fact_pages.setdefault(fact_id, len(self.html))
            ident = f' id="{FACT_ID_PREFIX}{_SAFE_ID.sub("_", fact_id)}"'
        self.html[-1].append(f"<{out_tag}{ident}{attrs}>")
        if out_tag in _VOID:
            self.entered.append(None)
            return
        self.open.append((out_tag, attrs))
        self.entered.append(out_tag)

    def leave(self, el, ns: str, tag: str) -> None:
        out_tag = self.entered.pop()
        if out_tag is not None:
            self.open.pop()
            self.html[-1].append(f"</{out_tag}>")

    def page_break(self) -> None:
        super().page_break()
        self.html[-1].extend(f"</{t}>" for t, _ in reversed(self.open))
        self.html.append([f"<{t}{a}>" for t, a in self.open])


def page_fragments(path: str | Path) -> tuple[list[str], dict[str, int]]:
    """(safe HTML of every page, 1-based page of every displayed XBRL fact id) of an HTML / iXBRL filing.
    The pages are the pages of :func:`parsers.html_pages.html_pages` (same count, same order)."""
    b = _Fragments()
    pages = walk_document(path, b)
    fragments = [sanitize("".join(parts)) for parts in b.html[: len(pages)]]
    return fragments, {k: v for k, v in b.fact_pages.items() if v <= len(pages)}


def fact_element_id(fact_id: str) -> str:
    """The element id a displayed XBRL fact carries in a fragment."""
    return FACT_ID_PREFIX + _SAFE_ID.sub("_", fact_id)


def ink_offsets(text: str, start: int, end: int) -> tuple[int, int]:
    """(first, last) index among the non-whitespace characters of ``text`` that the span [start, end)
    covers, as a half-open range: the same range addresses the same characters in a fragment's text."""
    def ink(s: str) -> int:
        return len(_WS.sub("", s))
    first = ink(text[:start])
    return first, first + ink(text[start:end])
