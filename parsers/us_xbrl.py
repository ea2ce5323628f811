"""US SEC XBRL: inline-XBRL 10-K/10-Q primary documents and classic XBRL instances -> ParsedDocument.

A pure function module: ``parse(path)`` reads one file (plus the company schema / label linkbase beside
it when present) and returns a :class:`schema.models.ParsedDocument`; it never touches a store.

How it reads a filing (strictly offline):

* arelle loads the entry document with ``internetConnectivity='offline'`` and ``skipDTS=True``: the
  standard taxonomies (us-gaap, dei, srt) are remote and never available here, so concept definitions
  are never used; values, units, contexts and decimals are read from the markup itself. Skipping DTS
  discovery also avoids loading the company pre/def/cal linkbases we do not need.
* iXBRL values: the displayed text is transformed with arelle's registry (``ixt:``) or our own SEC
  registry (``ixt-sec:``, see :mod:`parsers.xbrl_transforms`), then ``scale`` and ``sign`` applied.
* Periods come from the context XML as written (arelle's datetimes put end dates / instants at the
  next midnight).
* Labels: the company label linkbase (standard role, else terse), parsed with lxml; else the printed row
  label of the iXBRL table row that holds the fact.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from parsers.issuer_names import dei_names
from schema.errors import ParseError
from schema.models import DocumentInfo, Fact, ParsedDocument

PARSER = "us_xbrl/1"
TEXT_CAP = 2000
SNIFF_BYTES = 65536

_XBRLI = "http://www.xbrl.org/2003/instance"
_XBRLDI = "http://xbrl.org/2006/xbrldi"
_LINK = "http://www.xbrl.org/2003/linkbase"
_XLINK = "http://www.w3.org/1999/xlink"
_XHTML = "http://www.w3.org/1999/xhtml"
_IX_NS = ("http://www.xbrl.org/2013/inlineXBRL", "http://www.xbrl.org/2008/inlineXBRL")
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_ROLE_LABEL = "http://www.xbrl.org/2003/role/label"
_ROLE_TERSE = "http://www.xbrl.org/2003/role/terseLabel"

_WS = re.compile(r"\s+")
_TICKER_PREFIX = re.compile(r"^([a-z][a-z0-9.]{0,9})-\d{8}", re.I)
_ORIGINAL_UNIT = {3: "thousands", 6: "millions", 9: "billions", 12: "trillions"}
_BLOCK_TAGS = frozenset({"p", "div", "br", "tr", "td", "th", "li", "table", "h1", "h2", "h3", "h4", "h5", "h6",
                         "ul", "ol", "section"})
_ANNUAL_FORMS = ("10-K", "20-F", "40-F", "10-KT", "20-FR", "N-CSR")


# ============================================================================ sniffing


def _root_tag(head: bytes) -> str | None:
    """The first element's tag (with prefix) of an XML byte prefix, skipping declarations and comments."""
    text = head.decode("utf-8", "ignore")
    pos = 0
    while True:
        i = text.find("<", pos)
        if i < 0 or i + 1 >= len(text):
            return None
        nxt = text[i + 1]
        if nxt == "?":
            pos = text.find("?>", i) + 2
        elif text.startswith("<!--", i):
            end = text.find("-->", i)
            if end < 0:
                return None
            pos = end + 3
        elif nxt == "!":
            pos = text.find(">", i) + 1
        else:
            m = re.match(r"<([A-Za-z_][\w.\-]*(?::[\w.\-]+)?)", text[i:])
            return m.group(1) if m else None
        if pos <= 0:
            return None


def _sniff(path: Path) -> str | None:
    """'ixbrl', 'xbrl' or None, from the first 64 KB."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError:
        return None
    suffix = path.suffix.lower()
    if suffix in (".htm", ".html", ".xhtml"):
        if any(ns.encode() in head for ns in _IX_NS) or b"<ix:header" in head or b"<ix:nonFraction" in head:
            return "ixbrl"
        return None
    if suffix == ".xml":
        tag = _root_tag(head)
        if tag is None or tag.rsplit(":", 1)[-1] != "xbrl":
            return None  # linkbases (link:linkbase), schemas, anything else
        if _XBRLI.encode() in head:
            return "xbrl"
    return None


def is_xbrl(path: str | Path) -> bool:
    """Cheap check used by the ingest dispatcher: an inline XBRL document or a classic XBRL instance.

    The company schema (.xsd) and the _cal/_def/_lab/_pre.xml linkbases beside an instance are not
    documents and answer False."""
    return _sniff(Path(path)) is not None


# ============================================================================ arelle


_LOG_CODES = r"^(xmlSchema:syntax|IOerror|FileNotLoadable|arelleOpenFileError|exception|arelle:.*)$"


def _load(path: Path) -> tuple[Any, Any, list[dict]]:
    """Load with arelle, offline, no DTS discovery. Returns (session, modelXbrl, log records)."""
    from arelle.api.Session import Session
    from arelle.RuntimeOptions import RuntimeOptions

    session = Session()
    try:
        session.run(
            RuntimeOptions(
                entrypointFile=str(path),
                internetConnectivity="offline",
                keepOpen=True,
                disablePersistentConfig=True,
                skipDTS=True,
                validate=False,
                # keep only what decides success: syntax / file errors. The hundreds of
                # missingReferences / invalidTransformation records would cost more than our own
                # post-processing to serialise.
                logCodeFilter=_LOG_CODES,
            ),
            logFileName="logToBuffer",
        )
        models = session.get_models()
        try:
            logs = json.loads(session.get_logs("json")).get("log", [])
        except Exception:
            logs = []
    except BaseException:
        session.close()
        raise
    return session, (models[0] if models else None), logs


def _log_text(rec: dict) -> str:
    msg = rec.get("message", {})
    return (msg.get("text") if isinstance(msg, dict) else str(msg)) or rec.get("code", "")


# ============================================================================ helpers


def _fold(text: str) -> str:
    return _WS.sub(" ", text.replace("\xa0", " ")).strip()


def _date(text: str | None) -> dt.date | None:
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
    period = ctx.find(f"{{{_XBRLI}}}period")
    if period is not None:
        inst = period.find(f"{{{_XBRLI}}}instant")
        if inst is not None:
            end = _date(inst.text)
            ptype = "instant"
        else:
            s = period.find(f"{{{_XBRLI}}}startDate")
            e = period.find(f"{{{_XBRLI}}}endDate")
            if s is not None or e is not None:
                start = _date(s.text if s is not None else None)
                end = _date(e.text if e is not None else None)
                ptype = "duration"
            elif period.find(f"{{{_XBRLI}}}forever") is not None:
                ptype = "duration"
    dims: dict[str, str] = {}
    for container in ("entity/{x}segment", "{x}scenario"):
        path = container.replace("entity/", "{x}entity/").replace("{x}", f"{{{_XBRLI}}}")
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
                dims[dim] = _fold("".join(mem.itertext()))
    return start, end, ptype, dims


def _unit_from_xml(unit: Any) -> str | None:
    """"USD", "shares", "USD/shares", "pure": measure local names as written in the unit XML."""
    if unit is None:
        return None

    def measures(el: Any) -> str:
        names = [(m.text or "").strip().rsplit(":", 1)[-1] for m in el.iterchildren(f"{{{_XBRLI}}}measure")]
        return "*".join(n for n in names if n)

    div = unit.find(f"{{{_XBRLI}}}divide")
    if div is not None:
        num = div.find(f"{{{_XBRLI}}}unitNumerator")
        den = div.find(f"{{{_XBRLI}}}unitDenominator")
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


# ----------------------------------------------------------------------- labels


def _label_files(path: Path, root: Any) -> list[Path]:
    """Local label linkbases of the filing: via schemaRef -> the .xsd's linkbaseRefs, plus direct refs."""
    from lxml import etree

    found: list[Path] = []
    schema_refs = [e.get(f"{{{_XLINK}}}href") for e in root.iter(f"{{{_LINK}}}schemaRef")]
    direct = [e for e in root.iter(f"{{{_LINK}}}linkbaseRef")]
    for e in direct:
        href = e.get(f"{{{_XLINK}}}href") or ""
        if "://" not in href and (path.parent / href).is_file():
            found.append(path.parent / href)
    for href in schema_refs:
        if not href or "://" in href:
            continue
        xsd = path.parent / href
        if not xsd.is_file():
            continue
        try:
            tree = etree.parse(str(xsd), etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
        except Exception:
            continue
        for e in tree.iter(f"{{{_LINK}}}linkbaseRef"):
            lhref = e.get(f"{{{_XLINK}}}href") or ""
            role = e.get(f"{{{_XLINK}}}role") or ""
            if "://" in lhref:
                continue
            if role.endswith("labelLinkbaseRef") or re.search(r"_lab\.xml$", lhref, re.I):
                p = xsd.parent / lhref
                if p.is_file():
                    found.append(p)
        guess = xsd.with_name(xsd.stem + "_lab.xml")
        if guess.is_file():
            found.append(guess)
    out: list[Path] = []
    for p in found:
        if p.resolve() not in [q.resolve() for q in out]:
            out.append(p)
    return out


def _read_labels(files: list[Path]) -> dict[str, str]:
    """concept fragment id ("us-gaap_Revenues") -> label (standard role, else terse; en preferred)."""
    from lxml import etree

    best: dict[str, tuple[int, str]] = {}
    for f in files:
        try:
            tree = etree.parse(str(f), etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
        except Exception:
            continue
        for link in tree.iter(f"{{{_LINK}}}labelLink"):
            locs: dict[str, list[str]] = {}
            labels: dict[str, list[tuple[int, str]]] = {}
            arcs: list[tuple[str, str]] = []
            for el in link:
                tag = el.tag
                if tag == f"{{{_LINK}}}loc":
                    href = el.get(f"{{{_XLINK}}}href") or ""
                    frag = href.rsplit("#", 1)[-1]
                    locs.setdefault(el.get(f"{{{_XLINK}}}label"), []).append(frag)
                elif tag == f"{{{_LINK}}}label":
                    role = el.get(f"{{{_XLINK}}}role") or _ROLE_LABEL
                    if role == _ROLE_LABEL:
                        rank = 0
                    elif role == _ROLE_TERSE:
                        rank = 2
                    else:
                        continue
                    lang = (el.get(_XML_LANG) or "").lower()
                    if not lang.startswith("en"):
                        rank += 1 if not lang else 5
                    text = _fold("".join(el.itertext()))
                    if text:
                        labels.setdefault(el.get(f"{{{_XLINK}}}label"), []).append((rank, text))
                elif tag == f"{{{_LINK}}}labelArc":
                    arcs.append((el.get(f"{{{_XLINK}}}from"), el.get(f"{{{_XLINK}}}to")))
            for frm, to in arcs:
                for frag in locs.get(frm, ()):
                    for rank, text in labels.get(to, ()):
                        cur = best.get(frag)
                        if cur is None or rank < cur[0]:
                            best[frag] = (rank, text)
    return {k: v[1] for k, v in best.items()}


def _label_for(concept: str, labels: dict[str, str], by_local: dict[str, str | None]) -> str | None:
    if not labels:
        return None
    prefix, _, local = concept.rpartition(":")
    hit = labels.get(f"{prefix}_{local}")
    if hit is None:
        hit = by_local.get(local)
    return hit


# ----------------------------------------------------------------------- iXBRL text


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
            if ns in _IX_NS and local == "exclude":
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
        text = _fold("".join(cell.itertext()))
        if not text:
            continue
        # a first cell holding a number or a fact is not a label
        has_fact = any(
            isinstance(d.tag, str) and d.tag.startswith("{") and d.tag[1:].partition("}")[0] in _IX_NS
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


def _inline_facts(m: Any, path: Path, warnings: list[str], labels: dict[str, str]) -> list[Fact]:
    from parsers.xbrl_transforms import TransformError, transform

    contexts: dict[str, tuple] = {}
    units: dict[str, str | None] = {}
    row_cache: dict[int, str | None] = {}
    by_local = _by_local(labels)
    failed: Counter[str] = Counter()
    undeclared = 0
    out: list[Fact] = []
    roots = list(getattr(m, "ixdsHtmlElements", None) or []) or [m.modelDocument.xmlRootElement]
    fact_tags = [f"{{{ns}}}{t}" for ns in _IX_NS for t in ("nonFraction", "nonNumeric", "fraction")]
    cont_tags = [f"{{{ns}}}continuation" for ns in _IX_NS]
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
                shown = _fold(_ix_text(f, False))
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
                value_text = _fold(_ix_text(f, False))
                n = d = None
                for ch in f.iterdescendants():
                    if isinstance(ch.tag, str) and ch.tag.endswith("}numerator"):
                        n = _to_decimal(_fold(_ix_text(ch, False)))
                    elif isinstance(ch.tag, str) and ch.tag.endswith("}denominator"):
                        d = _to_decimal(_fold(_ix_text(ch, False)))
                if n is not None and d:
                    value = n / d
                    if f.get("sign") == "-":
                        value = -value
            else:  # nonNumeric
                escaped = (f.get("escape") or "").strip() in ("true", "1")
                shown = _fold(_ix_text(f, escaped, continuations))
                value_text = shown
                if fmt is not None and not nil:
                    try:
                        value_text = transform(fmt[0], fmt[1], shown)
                    except TransformError as err:
                        failed[f"{concept}: {err}"] += 1
                if value_text and len(value_text) > TEXT_CAP:
                    value_text = value_text[:TEXT_CAP]
            label = _label_for(concept, labels, by_local) or _row_label(f, row_cache)
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


def _instance_facts(m: Any, path: Path, warnings: list[str], labels: dict[str, str]) -> list[Fact]:
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
        value_text = None if nil else _fold(text)
        if value is None and value_text and len(value_text) > TEXT_CAP:
            value_text = value_text[:TEXT_CAP]
        decimals = _decimals(decimals_raw)
        out.append(
            Fact(
                concept=concept,
                label=_label_for(concept, labels, by_local),
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


# ============================================================================ document info


def _nominal(d: dt.date) -> tuple[int, int]:
    """(year, month) a 52/53-week period end stands for: an end in the first week of a month belongs to
    the previous month (Home Depot's 2025-02-02 is a January year end)."""
    if d.day <= 7:
        first = d.replace(day=1) - dt.timedelta(days=1)
        return first.year, first.month
    return d.year, d.month


def _dei(facts: list[Fact], name: str) -> list[Fact]:
    return [f for f in facts if f.concept is not None and f.concept.endswith(":" + name)
            and f.concept.split(":", 1)[0].startswith("dei")]


def _first_text(facts: list[Fact], name: str) -> str | None:
    cands = _dei(facts, name)
    cands.sort(key=lambda f: len(f.dimensions))
    for f in cands:
        if f.value_text:
            return f.value_text.strip()
    return None


def _document_info(path: Path, facts: list[Fact], warnings: list[str]) -> DocumentInfo:
    company = _first_text(facts, "EntityRegistrantName")
    cik_raw = _first_text(facts, "EntityCentralIndexKey")
    cik = None
    if cik_raw and re.fullmatch(r"\d{1,10}", cik_raw.strip()):
        cik = cik_raw.strip().zfill(10)

    m = _TICKER_PREFIX.match(path.name)
    file_ticker = m.group(1).upper() if m else None
    symbols = [(len(f.dimensions), (f.value_text or "").strip().upper()) for f in _dei(facts, "TradingSymbol")]
    symbols = [s for s in symbols if s[1] and re.fullmatch(r"[A-Z0-9.\-]{1,12}", s[1])]
    stock_code = None
    if symbols:
        if file_ticker and any(s == file_ticker for _, s in symbols):
            stock_code = file_ticker
        else:
            stock_code = sorted(symbols)[0][1]
    if stock_code is None:
        stock_code = file_ticker

    form = _first_text(facts, "DocumentType")
    form = form.strip().upper() if form else None

    period_end = None
    pe_facts = _dei(facts, "DocumentPeriodEndDate")
    for f in pe_facts:
        period_end = _date(f.value_text)
        if period_end is None and f.period_end is not None:
            period_end = f.period_end
        if period_end:
            break
    if period_end is None:
        for f in _dei(facts, "DocumentType"):
            if f.period_end:
                period_end = f.period_end
                break
    # the cover's period end should match the document context's end; trust the context when the cover
    # text is off by more than a week (typos in old filings)
    for f in _dei(facts, "DocumentType"):
        if f.period_end and period_end and abs((f.period_end - period_end).days) > 7:
            warnings.append(f"DocumentPeriodEndDate {period_end} differs from the document context end {f.period_end}")
            period_end = f.period_end
        break

    fye_month = None
    fye = _first_text(facts, "CurrentFiscalYearEndDate")
    if fye:
        mm = re.search(r"--(\d{2})-(\d{2})", fye)
        if mm:
            month, day = int(mm.group(1)), int(mm.group(2))
            if 1 <= month <= 12:
                if day <= 7:
                    month = 12 if month == 1 else month - 1
                fye_month = month
    focus_period = (_first_text(facts, "DocumentFiscalPeriodFocus") or "").upper() or None
    focus_year_raw = _first_text(facts, "DocumentFiscalYearFocus")
    focus_year = int(focus_year_raw[:4]) if focus_year_raw and re.match(r"\d{4}", focus_year_raw) else None

    annual = bool(form) and any(form.startswith(a) for a in _ANNUAL_FORMS)
    fiscal_period = None
    fiscal_year = None
    if period_end is not None:
        ny, nm = _nominal(period_end)
        if annual:
            fiscal_period = "FY"
            if fye_month is None:
                fye_month = nm
            elif fye_month != nm:
                warnings.append(f"CurrentFiscalYearEndDate month {fye_month} differs from period end {period_end}")
            fiscal_year = period_end.year if not (period_end.month == 1 and period_end.day <= 7) else period_end.year - 1
        else:
            if fye_month is None and focus_period in ("Q1", "Q2", "Q3"):
                fye_month = (nm - 1 + (4 - int(focus_period[1])) * 3) % 12 + 1
            if fye_month is not None:
                to_end = (fye_month - nm) % 12
                end_year = ny + (1 if nm + to_end > 12 else 0)
                fiscal_year = end_year
                q = (12 - to_end) // 3 if to_end % 3 == 0 else None
                if q in (1, 2, 3):
                    fiscal_period = f"Q{q}"
                elif q == 4 or to_end == 0:
                    fiscal_period = "FY" if form is None else None
            if fiscal_period is None and focus_period in ("Q1", "Q2", "Q3", "Q4", "H1", "FY"):
                fiscal_period = focus_period
    if fiscal_year is None:
        fiscal_year = focus_year
    if focus_year is not None and fiscal_year is not None and focus_year != fiscal_year:
        warnings.append(
            f"dei:DocumentFiscalYearFocus {focus_year} differs from the year the fiscal year ends ({fiscal_year}); "
            "using the latter")
    if focus_period and fiscal_period and focus_period != fiscal_period:
        warnings.append(f"dei:DocumentFiscalPeriodFocus {focus_period} differs from derived {fiscal_period}")

    currencies: Counter[str] = Counter()
    standards: Counter[str] = Counter()
    for f in facts:
        if f.unit and re.fullmatch(r"[A-Z]{3}", f.unit) and f.value is not None:
            currencies[f.unit] += 2 if not f.dimensions else 1
        if f.concept:
            p = f.concept.split(":", 1)[0]
            if p.startswith("ifrs"):
                standards["IFRS"] += 1
            elif p.startswith("us-gaap"):
                standards["US_GAAP"] += 1
    standard = "IFRS" if standards["IFRS"] > standards["US_GAAP"] else "US_GAAP"
    return DocumentInfo(
        file_name=path.name,
        market="US",
        company_name=company,
        stock_code=stock_code,
        cik=cik,
        form=form,
        fiscal_year=fiscal_year,
        fiscal_period=fiscal_period,
        period_end=period_end,
        fiscal_year_end_month=fye_month,
        language="en",
        currency=currencies.most_common(1)[0][0] if currencies else None,
        accounting_standard=standard,
        pages=None,
    )


# ============================================================================ entry point


def _precheck(path: Path) -> str:
    if not path.exists():
        raise ParseError(str(path), "file not found")
    if not path.is_file():
        raise ParseError(str(path), "not a file")
    try:
        with open(path, "rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError as err:
        raise ParseError(str(path), f"cannot read file: {err.strerror or err}") from None
    if not head.strip():
        raise ParseError(str(path), "empty file")
    if head.startswith(b"%PDF"):
        raise ParseError(str(path), "a PDF file, not XBRL")
    if head.startswith(b"PK\x03\x04"):
        raise ParseError(str(path), "a zip archive, not an XBRL document")
    kind = _sniff(path)
    if kind is None:
        if path.suffix.lower() in (".htm", ".html", ".xhtml"):
            raise ParseError(str(path), "HTML page with no inline XBRL (no ix: namespace or facts)")
        if path.suffix.lower() == ".xml":
            raise ParseError(str(path), "XML file is not an XBRL instance (root element is not xbrli:xbrl)")
        raise ParseError(str(path), "not an XBRL instance or inline XBRL document")
    return kind


def parse(path: str | Path) -> ParsedDocument:
    """Parse one iXBRL primary document (.htm) or classic XBRL instance (.xml) into a ParsedDocument.

    Raises ParseError (never an arelle traceback) for a missing, empty, truncated or malformed file, an
    HTML page without XBRL facts, a PDF or any other non-XBRL file."""
    path = Path(path)
    kind = _precheck(path)
    warnings: list[str] = []
    try:
        session, m, logs = _load(path.resolve())
    except ParseError:
        raise
    except Exception as err:
        raise ParseError(str(path), f"XBRL load failed: {type(err).__name__}: {err}") from None
    try:
        syntax = [r for r in logs if str(r.get("code", "")).startswith("xmlSchema:syntax")
                  or r.get("code") in ("arelleOpenFileError", "FileNotLoadable")]
        if syntax:
            raise ParseError(str(path), "malformed or truncated XML: " + _log_text(syntax[0])[:300])
        if m is None or m.modelDocument is None:
            errs = [r for r in logs if r.get("level") in ("error", "critical")]
            reason = _log_text(errs[0])[:300] if errs else "arelle could not load the document"
            raise ParseError(str(path), reason)
        root = m.modelDocument.xmlRootElement
        labels = _read_labels(_label_files(path.resolve(), root))
        if kind == "ixbrl":
            facts = _inline_facts(m, path, warnings, labels)
        else:
            facts = _instance_facts(m, path, warnings, labels)
        if not facts:
            raise ParseError(str(path), "no XBRL facts in the document")
        info = _document_info(path, facts, warnings)
        info.names = dei_names(facts)  # the cover's registrant name, symbols, CIK: names of the issuer
        return ParsedDocument(info=info, facts=facts, parser=PARSER, warnings=warnings)
    except ParseError:
        raise
    except Exception as err:
        raise ParseError(str(path), f"XBRL processing failed: {type(err).__name__}: {err}") from None
    finally:
        try:
            session.close()
        except Exception:
            pass
