"""What browsers are told about the site, and what other sites may not make them do.

Every HTTP response carries the security headers: the page's Content-Security-Policy (the meta
tag in index.html cannot say `frame-ancestors`, so without the header any site could frame the
table), `nosniff`, no referrer (a room's link is its code: it must not travel to other sites),
and `X-Frame-Options: DENY` for browsers older than `frame-ancestors`.

A state-changing request (any method but GET, HEAD and OPTIONS) must come from the site's own
pages: a foreign `Origin` (or `Sec-Fetch-Site: cross-site` without one) is refused with 403
`bad_origin`, and a body that is not `application/json` with 415 `bad_content_type`, since an
HTML form or a `text/plain` fetch crosses origins without asking (a JSON one needs the CORS
preflight the server never grants). Tools that send no `Origin` are served as before.
`same_origin` is also the WebSocket's check (server/ws/endpoint.py): scheme, host and port must
match.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from codebreakers.server.errors import ErrorCode, Refused
from codebreakers.server.http.routes import error_response

# The page's own policy (index.html's meta tag), plus what only a header can say.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}
WEB_SCHEME = {"http": "http", "https": "https", "ws": "http", "wss": "https"}


def _origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL or origin; None for anything else (`null`)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    try:
        port = parts.port or DEFAULT_PORTS[scheme]
    except ValueError:
        return None
    return scheme, parts.hostname.lower(), port


def same_origin(origin: str, public_url: str | None, scheme: str, host: str | None) -> bool:
    """Whether `origin` is the site's own: the public URL's, or else the request's own scheme
    (`ws` counts as `http`) with the `Host` it asked for."""
    got = _origin_of(origin)
    if got is None:
        return False
    if public_url:
        return got == _origin_of(public_url)
    return host is not None and got == _origin_of(f"{WEB_SCHEME.get(scheme, scheme)}://{host}")


def _refusal(scope: Any, public_url: str | None) -> Refused | None:
    """Why this state-changing request is refused, if it is."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    origin = headers.get("origin")
    if origin is not None:
        if not same_origin(origin, public_url, scope["scheme"], headers.get("host")):
            return Refused(ErrorCode.BAD_ORIGIN, "this site's pages only")
    elif headers.get("sec-fetch-site") == "cross-site":
        return Refused(ErrorCode.BAD_ORIGIN, "this site's pages only")
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return Refused(ErrorCode.BAD_CONTENT_TYPE, "send the body as application/json")
    return None


class SecurityMiddleware:
    """Adds HEADERS to every HTTP response and refuses cross-site writes (module docstring)."""

    def __init__(self, app: Any, public_url: str | None) -> None:
        self.app = app
        self.public_url = public_url

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        refused = None if scope["method"] in SAFE_METHODS else _refusal(scope, self.public_url)
        if refused is not None:
            await error_response(refused)(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)
