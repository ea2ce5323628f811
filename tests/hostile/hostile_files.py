"""Generators of hostile and broken input files. Nothing here is committed as data: every test writes the
files it needs into its own temporary folder with pikepdf, json and plain bytes."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pikepdf

ESC_TEXT = "Good\x1b]0;pwned\x07 morning\x1b[2J and [/b] welcome [bold]x[/bold]"
CALL_OPENING = ("Good afternoon and welcome to the Example Q4 Fiscal Year 2024 Earnings Conference Call. Today's call is "
                "being recorded. Please note forward-looking statements. Thank you for joining us. ")


def _image(pdf: pikepdf.Pdf, width: int, height: int, gray_bits: int = 8) -> pikepdf.Stream:
    """A flate-compressed gray image of zeros (a tiny file for any pixel size)."""
    row = b"\x00" * ((width * gray_bits + 7) // 8)
    co = zlib.compressobj(9)
    data = b"".join(co.compress(row) for _ in range(height)) + co.flush()
    img = pikepdf.Stream(pdf, data)
    img.Type, img.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    img.Width, img.Height, img.BitsPerComponent = width, height, gray_bits
    img.ColorSpace = pikepdf.Name.DeviceGray
    img.Filter = pikepdf.Name.FlateDecode
    return img


def image_page_pdf(path: Path, size_pt: float = 612, image_px: tuple[int, int] = (300, 300), gray_bits: int = 8,
                   user_unit: float | None = None, pages: int = 1) -> Path:
    """Pages without text showing one image: the OCR path. ``size_pt`` 14,400 is the memory bomb of issue 17."""
    pdf = pikepdf.new()
    img = _image(pdf, *image_px, gray_bits=gray_bits)
    for _ in range(pages):
        content = pikepdf.Stream(pdf, b"q 200 0 0 200 0 0 cm /Im0 Do Q")
        page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, size_pt, size_pt], Contents=content,
                                  Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=img)))
        if user_unit:
            page.UserUnit = user_unit
        pdf.pages.append(pikepdf.Page(page))
    pdf.save(path)
    return path


def text_pdf(path: Path, lines: list[str], pages: int = 1, javascript: bool = False,
             password: str | None = None) -> Path:
    """A PDF with a text layer (Helvetica): each page shows ``lines``."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    ops = [b"BT /F1 10 Tf 40 760 Td 12 TL"]
    for text in lines:
        safe = text.encode("latin-1", "replace").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        ops.append(b"(" + safe + b") Tj T*")
    ops.append(b"ET")
    for _ in range(pages):
        content = pikepdf.Stream(pdf, b"\n".join(ops))
        page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792], Contents=content,
                                  Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)))
        pdf.pages.append(pikepdf.Page(page))
    if javascript:
        js = pdf.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.JavaScript, JS=pikepdf.String("app.alert('x');")))
        pdf.Root.OpenAction = js
        pdf.Root.Names = pikepdf.Dictionary(JavaScript=pikepdf.Dictionary(Names=[pikepdf.String("x"), js]))
    if password:
        pdf.save(path, encryption=pikepdf.Encryption(user=password, owner=password + "o"))
    else:
        pdf.save(path)
    return path


def truncated_pdf(path: Path, source: Path) -> Path:
    data = source.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def json_transcript(path: Path, turns: list[tuple[str, str]], qa: list[tuple[str, str]] | None = None,
                    raw_escapes: bool = True) -> Path:
    """A speaker-turn JSON transcript. With ``raw_escapes`` the JSON keeps \\u escapes as written (lone
    surrogates like \\ud800 included), as a hostile file would."""
    obj = {"prepared_remarks": [{"speaker": s, "speech": t} for s, t in turns],
           "q_and_a": [{"speaker": s, "speech": t} for s, t in (qa or [])],
           "participants": ["Jane Doe--Chief Executive Officer", "John Smith--Example Bank -- Analyst"]}
    text = json.dumps(obj, ensure_ascii=True)
    path.write_text(text, encoding="ascii")
    return path


def text_transcript(path: Path, body: str) -> Path:
    path.write_text(CALL_OPENING + body, encoding="utf-8")
    return path


def exchanges_transcript(path: Path, megabytes: float) -> Path:
    """A plain-text call of ``megabytes`` MB made of short analyst exchanges (the worst case for a parser that
    scans the whole call once per exchange)."""
    head = CALL_OPENING + "Revenue grew strongly this quarter. " * 30 + "We will now open the call to questions. "
    ex = ("Our next question comes from John Smith with Example Bank. Thanks for taking my question. How is demand? "
          "Demand is strong and we are pleased with the quarter. ")
    target = int(megabytes * 1024 * 1024)
    body = head + ex * ((target - len(head)) // len(ex) + 1)
    path.write_text(body[:target], encoding="utf-8")
    return path


IX_HEAD = ('<?xml version="1.0" encoding="utf-8"?>{doctype}\n'
           '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" '
           'xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:us-gaap="http://fasb.org/us-gaap/2024" '
           'xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:iso4217="http://www.xbrl.org/2003/iso4217">'
           '<head><title>t</title></head><body>'
           '<div style="display:none"><ix:header><ix:resources>'
           '<xbrli:context id="c1"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001'
           '</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate>'
           '<xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>'
           '<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>'
           '</ix:resources></ix:header></div>')


def ixbrl(path: Path, facts: int = 3, body: str = "", doctype: str = "") -> Path:
    """A minimal inline-XBRL document with ``facts`` numeric facts and ``body`` text (no page breaks)."""
    parts = [IX_HEAD.format(doctype=doctype),
             '<p>Document type <ix:nonNumeric name="dei:DocumentType" contextRef="c1">10-K</ix:nonNumeric></p>']
    for i in range(facts):
        parts.append(f'<p>Revenue <ix:nonFraction name="us-gaap:Revenues" contextRef="c1" unitRef="usd" '
                     f'decimals="0" id="f{i}">{1000 + i}</ix:nonFraction></p>')
    parts.append(body)
    parts.append("</body></html>")
    path.write_text("".join(parts), encoding="utf-8")
    return path


XXE_DOCTYPE = '<!DOCTYPE html [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
LAUGHS_DOCTYPE = ('<!DOCTYPE html [<!ENTITY a "lollollollollollollollollollol">'
                  + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9)) + "]>")
