"""Facts of an XBRL filing: contexts, units, decimals and values read from the markup (iXBRL displayed text through
the transform registries, scale and sign; classic instance values), with their labels and printed row labels."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from parsers.xbrl_labels import fold, label_for
from schema.models import Fact

TEXT_CAP = 2000
XBRLI = "http://www.xbrl.org/2003/instance"
_XBRLDI = "http://xbrl.org/2006/xbrldi"
_XHTML = "http://www.w3.org/1999/xhtml"
IX_NS = ("http://www.xbrl.org/2013/inlineXBRL", "http://www.xbrl.org/2008/inlineXBRL")
_ORIGINAL_UNIT = {3: "thousands", 6: "millions", 9: "billions", 12: "trillions"}
_BLOCK_TAGS = frozenset({"p", "div", "br", "tr", "td", "th", "li", "table", "h1", "h2", "h3", "h4", "h5", "h6",
                         "ul", "ol", "section"})


def parse_date(text: str | None) -> dt.date | None:
    if not text:
        return None
    text = text.strip()
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


def _qname_str(qn: Any) -> str:
    if qn is None:
        return ""
    prefix = getattr(qn, "prefix", None)
    return f"{prefix}:{qn.localName}" if prefix else str(qn.localName)


def _context_info(ctx: Any) -> tuple[dt.date | None, dt.date | None, str | None, dict[str, str]]:
    """(start, end, period_type, dims) as written in the context XML (dates are not arelle's
    next-midnight datetimes; dimension and member qnames keep the document's prefixes)."""
    start = end = None
    ptype = None
    period = ctx.find(f"{{{XBRLI}}}period")
    if period is not None:
        inst = period.find(f"{{{XBRLI}}}instant")
        if inst is not None:
            end = parse_date(inst.text)
            ptype = "instant"
        else:
            s = period.find(f"{{{XBRLI}}}startDate")
            e = period.find(f"{{{XBRLI}}}endDate")
            if s is not None or e is not None:
                start = parse_date(s.text if s is not None else None)
                end = parse_date(e.text if e is not None else None)
                ptype = "duration"
            elif period.find(f"{{{XBRLI}}}forever") is not None:
                ptype = "duration"
    dims: dict[str, str] = {}
    for container in ("entity/{x}segment", "{x}scenario"):
        path = container.replace("entity/", "{x}entity/").replace("{x}", f"{{{XBRLI}}}")
        holder = ctx.find(path)
        if holder is None:
            continue
        for mem in holder:
            if not isinstance(mem.tag, str):
                continue
            dim = (mem.get("dimension") or "").strip()
            if not dim:
                continue
            if mem.tag == f"{{{_XBRLDI}}}explicitMember":
                dims[dim] = (mem.text or "").strip()
            elif mem.tag == f"{{{_XBRLDI}}}typedMember":
                dims[dim] = fold("".join(mem.itertext()))
    return start, end, ptype, dims


def _unit_from_xml(unit: Any) -> str | None:
    """"USD", "shares", "USD/shares", "pure": measure local names as written in the unit XML."""
    if unit is None:
        return None

    def measures(el: Any) -> str:
        names = [(m.text or "").strip().rsplit(":", 1)[-1] for m in el.iterchildren(f"{{{XBRLI}}}measure")]
        return "*".join(n for n in names if n)

    div = unit.find(f"{{{XBRLI}}}divide")
    if div is not None:
        num = div.find(f"{{{XBRLI}}}unitNumerator")
        den = div.find(f"{{{XBRLI}}}unitDenominator")
        n = measures(num) if num is not None else ""
        d = measures(den) if den is not None else ""
        return f"{n or '1'}/{d}" if d else (n or None)
    return measures(unit) or None


def _decimals(raw: str | None) -> int | None:
    if raw is None:
        return None
    raw = raw.strip()
    if raw == "INF":
        return None
    try:
        return int(raw)
    except ValueError:
        return None


def _to_decimal(text: str | None) -> Decimal | None:
    if text is None:
        return None
    try:
        d = Decimal(text.strip())
    except (InvalidOperation, ValueError):
        return None
    return d if d.is_finite() else None


def _ix_text(el: Any, escape_blocks: bool, continuations: dict[str, Any] | None = None) -> str:
    """Displayed text of an inline fact: nested ix:exclude skipped, continuations followed; block
    elements separated by spaces when ``escape_blocks`` (text blocks)."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        if node.text:
            parts.append(node.text)
        for child in node.iterchildren():
            tag = child.tag if isinstance(child.tag, str) else ""
            ns, _, local = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
            if ns in IX_NS and local == "exclude":
                pass
            else:
                block = escape_blocks and local in _BLOCK_TAGS
                if block:
                    parts.append(" ")
                walk(child)
                if block:
                    parts.append(" ")
            if child.tail:
                parts.append(child.tail)

    node = el
    seen: set[int] = set()
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        walk(node)
        nxt = node.get("continuedAt")
        node = continuations.get(nxt.strip()) if (nxt and continuations) else None
        if node is not None:
            parts.append(" ")
    return "".join(parts)


def _row_label(el: Any, cache: dict[int, str | None]) -> str | None:
    """Text of the first non-empty cell of the <tr> holding the fact (None when that cell is the fact)."""
    tr = None
    for anc in el.iterancestors():
        tag = anc.tag
        if tag == f"{{{_XHTML}}}tr" or tag == "tr":
            tr = anc
            break
        if tag in (f"{{{_XHTML}}}table", f"{{{_XHTML}}}body", "table", "body"):
            return None
    if tr is None:
        return None
    key = id(tr)
    if key in cache:
        return cache[key]
    label = None
    for cell in tr:
        if not isinstance(cell.tag, str) or cell.tag.rsplit("}", 1)[-1] not in ("td", "th"):
            continue
        text = fold("".join(cell.itertext()))
        if not text:
            continue
        # a first cell holding a number or a fact is not a label
        has_fact = any(
            isinstance(d.tag, str) and d.tag.startswith("{") and d.tag[1:].partition("}")[0] in IX_NS
            for d in cell.iterdescendants()
        )
        if not has_fact and not re.fullmatch(r"[\d$€£¥(),.\-–— %]*", text):
            label = text.rstrip(":").strip() or None
        break
    cache[key] = label
    # keep tr alive in the cache key space: ids are only valid while the tree lives (it does, during parse)
    return label


# ============================================================================ facts


def _fact_common(f: Any, m: Any, contexts: dict[str, tuple], units: dict[str, str | None]) -> dict[str, Any]:
    ctx_id = f.get("contextRef")
    if ctx_id not in contexts:
        ctx = m.contexts.get(ctx_id)
        contexts[ctx_id] = _context_info(ctx) if ctx is not None else (None, None, None, {})
    start, end, ptype, dims = contexts[ctx_id]
    unit_id = f.get("unitRef")
    unit = None
    if unit_id:
        if unit_id not in units:
            units[unit_id] = _unit_from_xml(m.units.get(unit_id))
        unit = units[unit_id]
    return {
        "period_start": start,
        "period_end": end,
        "period_type": ptype,
        "dimensions": dict(dims),
        "unit": unit,
    }


_SEC_TRANSFORM_NS = "http://www.sec.gov/inlineXBRL/transformation/2015-08-31"
_IXT_DEFAULT_NS = "http://www.xbrl.org/inlineXBRL/transformation/2020-02-12"


def _format_of(f: Any) -> tuple[str, str] | None:
    """(namespace, localName) of the fact's ``format``; undeclared ixt / ixt-sec prefixes (seen in
    reformatted fixtures) fall back to the current registries."""
    raw = (f.get("format") or "").strip()
    if not raw:
        return None
    prefix, _, local = raw.rpartition(":")
    ns = f.nsmap.get(prefix or None)
    if ns is None:
        ns = _SEC_TRANSFORM_NS if prefix == "ixt-sec" else _IXT_DEFAULT_NS
    return ns, local


def inline_facts(m: Any, path: Path, warnings: list[str], labels: dict[str, str]) -> list[Fact]:
    from parsers.xbrl_transforms import TransformError, transform

    contexts: dict[str, tuple] = {}
    units: dict[str, str | None] = {}
    row_cache: dict[int, str | None] = {}
    by_local = _by_local(labels)
    failed: Counter[str] = Counter()
    undeclared = 0
    out: list[Fact] = []
    roots = list(getattr(m, "ixdsHtmlElements", None) or []) or [m.modelDocument.xmlRootElement]
    fact_tags = [f"{{{ns}}}{t}" for ns in IX_NS for t in ("nonFraction", "nonNumeric", "fraction")]
    cont_tags = [f"{{{ns}}}continuation" for ns in IX_NS]
    continuations: dict[str, Any] = {}
    for root in roots:
        for c in root.iter(*cont_tags):
            if c.get("id"):
                continuations[c.get("id").strip()] = c
    i = -1
    for root in roots:
        for f in root.iter(*fact_tags):
            i += 1
            kind = f.tag.rsplit("}", 1)[-1]
            if kind == "fraction" and isinstance(f.getparent().tag, str) and f.getparent().tag.endswith("}fraction"):
                continue  # nested fraction parts belong to the outer one
            qn = getattr(f, "qname", None)
            concept = _qname_str(qn) if qn is not None else (f.get("name") or "").strip()
            if not concept:
                continue
            if qn is None:
                undeclared += 1
            common = _fact_common(f, m, contexts, units)
            nil = f.get("{http://www.w3.org/2001/XMLSchema-instance}nil") in ("true", "1")
            fmt = _format_of(f)
            value: Decimal | None = None
            decimals = _decimals(f.get("decimals"))
            scale_raw = f.get("scale")
            scale = None
            if scale_raw is not None:
                try:
                    scale = int(scale_raw.strip())
                except ValueError:
                    scale = None
            if kind == "nonFraction":
                shown = fold(_ix_text(f, False))
                value_text = shown
                if not nil:
                    try:
                        v = transform(fmt[0], fmt[1], shown) if fmt is not None else shown
                        num = _to_decimal(v)
                        if num is None:
                            raise TransformError(f"not a number: {v!r}")
                        if scale:
                            num = num * (Decimal(10) ** scale)
                        if f.get("sign") == "-":
                            num = -num
                        value = num
                    except TransformError as err:
                        failed[f"{concept}: {err}"] += 1
            elif kind == "fraction":
                value_text = fold(_ix_text(f, False))
                n = d = None
                for ch in f.iterdescendants():
                    if isinstance(ch.tag, str) and ch.tag.endswith("}numerator"):
                        n = _to_decimal(fold(_ix_text(ch, False)))
                    elif isinstance(ch.tag, str) and ch.tag.endswith("}denominator"):
                        d = _to_decimal(fold(_ix_text(ch, False)))
                if n is not None and d:
                    value = n / d
                    if f.get("sign") == "-":
                        value = -value
            else:  # nonNumeric
                escaped = (f.get("escape") or "").strip() in ("true", "1")
                shown = fold(_ix_text(f, escaped, continuations))
                value_text = shown
                if fmt is not None and not nil:
                    try:
                        value_text = transform(fmt[0], fmt[1], shown)
                    except TransformError as err:
                        failed[f"{concept}: {err}"] += 1
                if value_text and len(value_text) > TEXT_CAP:
                    value_text = value_text[:TEXT_CAP]
            label = label_for(concept, labels, by_local) or _row_label(f, row_cache)
            out.append(
                Fact(
                    concept=concept,
                    label=label,
                    value=value,
                    value_text=None if nil else value_text,
                    decimals=decimals,
                    scale=scale,
                    original_unit=_ORIGINAL_UNIT.get(scale) if scale else None,
                    locator=(f.get("id") or "").strip() or f"{path.name}#fact{i}",
                    consolidated=True,
                    **common,
                )
            )
    if undeclared:
        warnings.append(f"{undeclared} facts use an undeclared namespace prefix; concept kept as written")
    for msg, n in failed.most_common(20):
        warnings.append(f"untransformed value ({n}x) {msg}")
    return out


def _by_local(labels: dict[str, str]) -> dict[str, str | None]:
    by_local: dict[str, str | None] = {}
    for frag, text in labels.items():
        local = frag.split("_", 1)[-1]
        by_local[local] = None if local in by_local else text
    return by_local


def instance_facts(m: Any, path: Path, warnings: list[str], labels: dict[str, str]) -> list[Fact]:
    contexts: dict[str, tuple] = {}
    units: dict[str, str | None] = {}
    by_local = _by_local(labels)
    out: list[Fact] = []
    skipped_tuples = 0
    for i, f in enumerate(m.facts):
        if f.get("contextRef") is None:
            skipped_tuples += 1
            continue
        concept = _qname_str(f.qname)
        common = _fact_common(f, m, contexts, units)
        nil = f.get("{http://www.w3.org/2001/XMLSchema-instance}nil") in ("true", "1")
        text = "".join(f.itertext())
        value = None
        decimals_raw = f.get("decimals")
        if common["unit"] is not None and not nil:
            value = _to_decimal(text)
        value_text = None if nil else fold(text)
        if value is None and value_text and len(value_text) > TEXT_CAP:
            value_text = value_text[:TEXT_CAP]
        decimals = _decimals(decimals_raw)
        out.append(
            Fact(
                concept=concept,
                label=label_for(concept, labels, by_local),
                value=value,
                value_text=value_text,
                decimals=decimals,
                scale=None,
                original_unit=_ORIGINAL_UNIT.get(-decimals) if decimals is not None and decimals < 0 else None,
                locator=f.get("id") or f"{path.name}#fact{i}",
                consolidated=True,
                **common,
            )
        )
    if skipped_tuples:
        warnings.append(f"{skipped_tuples} tuple facts skipped")
    return out
