"""What every request to the viewer passes through: read-only methods, size limits, safe headers."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

# Longest question or search query accepted (characters). FinanceBench's longest dev question is ~400
# characters and a pasted paragraph ~1,000; beyond that it is not a question, and the planner's cost grows
# with the text.
MAX_QUERY_CHARS = 2_000
# Longest raw query string and path accepted (bytes, percent-encoded): a 2,000-character CJK question is
# ~18,000 encoded bytes.
MAX_QUERY_STRING_BYTES = 24_000
MAX_PATH_BYTES = 2_048
READ_METHODS = frozenset({"GET", "HEAD"})

# No script at all, nothing loaded from elsewhere; inline styles for the filings' own page layout.
CONTENT_SECURITY_POLICY = ("default-src 'none'; img-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware: refuses writes (405) and oversized URLs (414) before routing; adds the security
    headers to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = None
        if scope["method"] not in READ_METHODS:
            refusal = (405, "the viewer is read-only: only GET requests are served")
        elif len(scope.get("query_string", b"")) > MAX_QUERY_STRING_BYTES:
            refusal = (414, f"query string longer than {MAX_QUERY_STRING_BYTES:,} bytes")
        elif len(scope.get("raw_path") or scope["path"].encode()) > MAX_PATH_BYTES:
            refusal = (414, f"path longer than {MAX_PATH_BYTES:,} bytes")

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0].lower() not in dict(SECURITY_HEADERS)]
                message = {**message, "headers": headers + SECURITY_HEADERS}
            await send(message)

        if refusal is not None:
            status, text = refusal
            body = f"{status}: {text}\n".encode()
            headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
            if status == 405:
                headers.append((b"allow", b"GET, HEAD"))
            await send_with_headers({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send_with_headers)


def text_param(request: Request, name: str, api: bool = False) -> str:
    """A query parameter as stripped text, refused (413) when longer than MAX_QUERY_CHARS."""
    value = (request.query_params.get(name) or "").strip()
    if len(value) > MAX_QUERY_CHARS:
        raise HTTPException(413, f"{'question' if name == 'q' else name} too long: {len(value):,} characters "
                                 f"(the limit is {MAX_QUERY_CHARS:,}); ask a shorter question")
    if "\x00" in value:
        raise HTTPException(400, f"{name} contains a NUL character")
    return value
