"""Fetch settings: base URLs per source, the SEC User-Agent, request rates, retries.

Read from ``$FILINGS_HOME/fetch.toml`` when it exists, then from the environment (which wins):

    user_agent = "Jane Analyst jane@example.com"    # FILINGS_SEC_USER_AGENT; required for SEC EDGAR
    since = "2023-01-01"                             # FILINGS_FETCH_SINCE; default: three years back
    [sec]      base_url, data_url, rate              # FILINGS_SEC_URL, FILINGS_SEC_DATA_URL, FILINGS_SEC_RATE
    [cninfo]   base_url, static_url, rate            # FILINGS_CNINFO_URL, FILINGS_CNINFO_STATIC_URL, FILINGS_CNINFO_RATE
    [hkex]     base_url, rate                        # FILINGS_HKEX_URL, FILINGS_HKEX_RATE
    retries = 5, backoff = 1.0, timeout = 60         # FILINGS_FETCH_RETRIES, FILINGS_FETCH_BACKOFF

Base URLs are configuration so that tests point every source at a server on loopback.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from schema.errors import ConfigError

CONFIG_FILE = "fetch.toml"
# SEC fair access: at most 10 requests per second in total (sec.gov "Accessing EDGAR Data").
SEC_MAX_RATE = 10.0
# cninfo and HKEXnews publish no limit; the scrapers whose recordings we replay wait about 1 s between requests.
POLITE_RATE = 1.0
# Without --since, a first fetch looks this many years back: three annual reports, enough for a 3-year trend.
DEFAULT_LOOKBACK_YEARS = 3
_UA = re.compile(r"\S.*\s\S+@\S+\.\S+")


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SecSettings(_Section):
    base_url: str = "https://www.sec.gov"
    data_url: str = "https://data.sec.gov"
    rate: float = SEC_MAX_RATE

    @field_validator("rate")
    @classmethod
    def _fair(cls, v: float) -> float:
        if not 0 < v <= SEC_MAX_RATE:
            raise ValueError(f"SEC allows at most {SEC_MAX_RATE:g} requests per second (got {v:g})")
        return v


class CninfoSettings(_Section):
    base_url: str = "https://www.cninfo.com.cn"
    static_url: str = "https://static.cninfo.com.cn"
    rate: float = POLITE_RATE


class HkexSettings(_Section):
    base_url: str = "https://www1.hkexnews.hk"
    rate: float = POLITE_RATE


class FetchConfig(_Section):
    user_agent: str | None = None
    since: dt.date | None = None
    timeout: float = 60.0  # seconds per request (connect and between bytes)
    retries: int = 5  # attempts per request, the first included
    backoff: float = 1.0  # first wait before a retry when the server gives no Retry-After (then 2x, 4x ...)
    sec: SecSettings = SecSettings()
    cninfo: CninfoSettings = CninfoSettings()
    hkex: HkexSettings = HkexSettings()

    @field_validator("retries")
    @classmethod
    def _positive(cls, v: int) -> int:
        if v < 1:
            raise ValueError("retries must be at least 1")
        return v

    def default_since(self, today: dt.date | None = None) -> dt.date:
        if self.since:
            return self.since
        today = today or dt.date.today()
        return today.replace(year=today.year - DEFAULT_LOOKBACK_YEARS, month=1, day=1)

    def sec_user_agent(self) -> str:
        """The declared User-Agent SEC requires ("Name email"); a clear error saying how to set it otherwise."""
        ua = (self.user_agent or "").strip()
        if not _UA.fullmatch(ua):
            got = f" (got {ua!r})" if ua else ""
            raise ConfigError(
                "SEC EDGAR requires a declared User-Agent with a name and an email address"
                f"{got}: set FILINGS_SEC_USER_AGENT=\"Jane Analyst jane@example.com\" or "
                f"user_agent = \"...\" in $FILINGS_HOME/{CONFIG_FILE}")
        return ua


_ENV = {
    "FILINGS_SEC_USER_AGENT": ("user_agent",),
    "FILINGS_FETCH_SINCE": ("since",),
    "FILINGS_SEC_URL": ("sec", "base_url"),
    "FILINGS_SEC_DATA_URL": ("sec", "data_url"),
    "FILINGS_SEC_RATE": ("sec", "rate"),
    "FILINGS_CNINFO_URL": ("cninfo", "base_url"),
    "FILINGS_CNINFO_STATIC_URL": ("cninfo", "static_url"),
    "FILINGS_CNINFO_RATE": ("cninfo", "rate"),
    "FILINGS_HKEX_URL": ("hkex", "base_url"),
    "FILINGS_HKEX_RATE": ("hkex", "rate"),
    "FILINGS_FETCH_RETRIES": ("retries",),
    "FILINGS_FETCH_BACKOFF": ("backoff",),
}


def load_config(home: Path, environ: dict[str, str] | None = None) -> FetchConfig:
    """Settings from ``<home>/fetch.toml`` and the environment; a bad file or value is one clear error."""
    environ = os.environ if environ is None else environ
    path = Path(home) / CONFIG_FILE
    data: dict = {}
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
    for var, keys in _ENV.items():
        if environ.get(var):
            target = data
            for key in keys[:-1]:
                target = target.setdefault(key, {})
            target[keys[-1]] = environ[var]
    try:
        return FetchConfig.model_validate(data)
    except ValidationError as exc:
        where = path if path.is_file() else "the environment"
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"fetch settings ({where}): {problems}") from None
