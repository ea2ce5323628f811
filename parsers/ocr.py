"""Offline OCR for PDF pages without a text layer (scans, image-only pages).

A page is rendered with pypdfium2 (``DPI`` = 170 by default), an :class:`OcrEngine` returns word/line
boxes, and :func:`boxes_to_lines` groups the boxes into rows the same way the text layer is read
(``parsers.pdf_pages``): one line per visual row, boxes left to right joined by one space, no space
between two CJK characters. So an OCR'd statement row still reads "营业收入 123,456.78 100,000.00".

Engines (pluggable; anything with ``name`` and ``recognise(image) -> list[Box]``):

* :class:`RapidOcrEngine` (default): ``rapidocr`` 3.10 with onnxruntime and the PP-OCR det/rec/cls
  ONNX models bundled inside the wheel (``rapidocr/models``): fully offline, no model download at run
  time (we pass the bundled paths explicitly, and check they exist). Reads Simplified and
  Traditional Chinese, English and digits.
* :class:`TesseractEngine` (optional): the Debian ``tesseract-ocr`` binary with ``tesseract-ocr-chi-sim``
  / ``-chi-tra`` language packs, called through ``subprocess`` (TSV output); slower (~5-6 s per half
  page) and used only when asked for. Not installed by default.
* ``unstructured``'s ``hi_res`` strategy is NOT usable here: it downloads a layout model from the
  Hugging Face hub at first use, which an offline install cannot do (and ``fast`` only reads the text
  layer, which a scanned page does not have).

:class:`OcrUnavailable` is raised when the engine cannot run (missing package or binary).
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from schema import limits

DPI = 170


class OcrUnavailable(RuntimeError):
    """The OCR engine cannot run here (package, model or binary missing)."""


class PageTooLarge(ValueError):
    """The page would need a render under ``limits.OCR_MIN_DPI`` to stay within ``limits.OCR_RENDER_PIXELS``."""


@dataclass
class Box:
    x0: float
    y0: float  # top (image pixels, y grows downwards)
    x1: float
    y1: float  # bottom
    text: str
    score: float = 1.0


class OcrEngine(Protocol):
    name: str

    def recognise(self, image) -> list[Box]:  # image: PIL.Image.Image (RGB)
        ...


class RapidOcrEngine:
    """rapidocr (PP-OCR ONNX models bundled in the wheel, onnxruntime CPU)."""

    name = "rapidocr"

    def __init__(self, min_score: float = 0.5):
        try:
            import rapidocr
            from rapidocr import RapidOCR
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise OcrUnavailable(f"rapidocr is not installed ({exc})") from None
        models = Path(rapidocr.__file__).parent / "models"
        det = sorted(models.glob("*det*.onnx"))
        rec = sorted(models.glob("*rec*.onnx"))
        cls = sorted(models.glob("*cls*.onnx"))
        if not (det and rec):
            raise OcrUnavailable(f"rapidocr's bundled models are missing in {models}")
        params = {
            "Global.log_level": "error",
            "Global.text_score": min_score,
            "Det.model_path": str(det[-1]),
            "Rec.model_path": str(rec[-1]),
        }
        if cls:
            params["Cls.model_path"] = str(cls[-1])
        try:
            self._ocr = RapidOCR(params=params)
        except Exception:  # older/newer config keys: fall back to the package defaults (bundled)
            self._ocr = RapidOCR(params={"Global.log_level": "error"})
        self._lock = threading.Lock()

    def recognise(self, image) -> list[Box]:
        import numpy as np

        with self._lock:
            res = self._ocr(np.asarray(image.convert("RGB")))
        boxes = getattr(res, "boxes", None)
        if boxes is None:
            return []
        out = []
        for quad, text, score in zip(boxes, res.txts, res.scores):
            xs = [float(p[0]) for p in quad]
            ys = [float(p[1]) for p in quad]
            if text and text.strip():
                out.append(Box(min(xs), min(ys), max(xs), max(ys), text.strip(), float(score)))
        return out


class TesseractEngine:
    """Tesseract through its CLI (``apt-get install tesseract-ocr tesseract-ocr-chi-sim
    tesseract-ocr-chi-tra``). Word boxes from TSV output; words of one tesseract line become one box."""

    name = "tesseract"

    def __init__(self, langs: str = "chi_sim+chi_tra+eng"):
        self.binary = shutil.which("tesseract")
        if not self.binary:
            raise OcrUnavailable("tesseract binary not found (apt-get install tesseract-ocr)")
        self.langs = langs

    def recognise(self, image) -> list[Box]:
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "page.png")
            image.save(png)
            proc = subprocess.run(
                [self.binary, png, "stdout", "-l", self.langs, "--psm", "3", "tsv"],
                capture_output=True,
                text=True,
                check=False,
            )
        if proc.returncode != 0:
            raise OcrUnavailable(f"tesseract failed: {proc.stderr.strip()[:200]}")
        lines: dict[tuple, list] = {}
        for row in proc.stdout.splitlines()[1:]:
            f = row.split("\t")
            if len(f) < 12 or not f[11].strip() or f[0] != "5":
                continue
            key = (f[1], f[2], f[3], f[4])
            x, y, w, h = (int(v) for v in f[6:10])
            lines.setdefault(key, []).append((x, y, x + w, y + h, f[11].strip(), float(f[10]) / 100))
        out = []
        for words in lines.values():
            text = ""
            for w in words:
                text = text + ("" if text and _is_cjk(text[-1]) and _is_cjk(w[4][0]) else " ") + w[4]
            out.append(
                Box(min(w[0] for w in words), min(w[1] for w in words), max(w[2] for w in words),
                    max(w[3] for w in words), text.strip(), min(w[5] for w in words))
            )
        return out


_default: OcrEngine | None = None
_default_lock = threading.Lock()


def default_engine() -> OcrEngine:
    """The process-wide default engine (rapidocr; loading the models takes ~1 s, done once)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = RapidOcrEngine()
        return _default


def _is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"


def boxes_to_lines(boxes: list[Box]) -> list[str]:
    """Group OCR boxes into visual rows (top to bottom) and join each row's boxes left to right.

    A box joins the current row when its vertical centre lies within 0.5 of the row's median box
    height of the row's centre; boxes of a row are joined by one space (none between CJK)."""
    rows: list[list[Box]] = []
    for b in sorted(boxes, key=lambda b: (b.y0 + b.y1) / 2):
        mid, h = (b.y0 + b.y1) / 2, b.y1 - b.y0
        if rows:
            row = rows[-1]
            rmid = sum((x.y0 + x.y1) / 2 for x in row) / len(row)
            rh = sorted(x.y1 - x.y0 for x in row)[len(row) // 2]
            if abs(mid - rmid) <= 0.5 * min(rh, h):
                row.append(b)
                continue
        rows.append([b])
    lines = []
    for row in rows:
        text = ""
        for b in sorted(row, key=lambda b: b.x0):
            t = " ".join(b.text.split())
            if text and not (_is_cjk(text[-1]) and _is_cjk(t[0])):
                text += " "
            text += t
        if text.strip():
            lines.append(text.strip())
    return lines


def render_dpi(width_pt: float, height_pt: float, dpi: int = DPI) -> float:
    """The resolution a page of this size is rendered at: ``dpi``, lowered so that the render stays within
    ``limits.OCR_RENDER_PIXELS``; PageTooLarge when that would be under ``limits.OCR_MIN_DPI``."""
    area_in = max(width_pt, 1.0) * max(height_pt, 1.0) / (72 * 72)
    budget = limits.OCR_RENDER_PIXELS.value()
    fit = math.sqrt(budget / area_in)
    if fit >= dpi:
        return float(dpi)
    if fit < limits.OCR_MIN_DPI.value():
        raise PageTooLarge(f"a {width_pt:,.0f} x {height_pt:,.0f} pt page would need {area_in * dpi * dpi:,.0f} pixels "
                           f"at {dpi} dpi; {limits.OCR_RENDER_PIXELS.describe()} leaves only {fit:.0f} dpi, under "
                           f"{limits.OCR_MIN_DPI.describe()}")
    return fit


def render(page, dpi: int = DPI):
    """A pypdfium2 page rendered to a PIL RGB image at ``dpi`` (lower for a page too large to render at ``dpi``
    within the pixel limit: see :func:`render_dpi`)."""
    width, height = page.get_size()
    return page.render(scale=render_dpi(width, height, dpi) / 72).to_pil().convert("RGB")


def ocr_page(page, engine: OcrEngine | None = None, dpi: int = DPI) -> str:
    """OCR text of a pypdfium2 page, one line per visual row."""
    engine = engine or default_engine()
    return "\n".join(boxes_to_lines(engine.recognise(render(page, dpi))))
