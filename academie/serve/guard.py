"""What stands between the network and the games of ``academie serve``
(docs/security.md, "academie serve"): the checks every request passes before
the app sees it, the headers every answer carries, the bounded reading of a
request's body, and the connection limits given to uvicorn.

* ``Guard`` (an ASGI middleware): the ``Host`` must be a name the server is
  served under (a foreign one is DNS rebinding), an ``Origin``, when sent, must
  be the origin the page was served from, and a ``POST`` must say
  ``Content-Type: application/json`` (a form or a ``text/plain`` post from
  another site needs no preflight; a JSON one does). Every answer gets the
  security headers; an exception becomes a plain 500 with no traceback, told
  on standard error in one line.
* ``read_json``: a body is read as it streams and refused (413) at
  ``MAX_BODY`` without reading more, within ``BODY_SECONDS``; its JSON nesting
  is bounded (``MAX_JSON_DEPTH``) before it is parsed.
* ``Protocol``: uvicorn's h11 protocol with a deadline for a request's head
  (``HEADER_SECONDS``) and at most ``MAX_CONNECTIONS`` open connections (the
  oldest idle one is closed to admit a new one).
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import sys
import time
import traceback
from typing import Any

import anyio

MAX_BODY = 64 * 1024  # bytes of a request's body
BODY_SECONDS = 10.0  # to send a whole body
HEADER_SECONDS = 10.0  # to send a request's head, from the connection or the end of the last answer
KEEP_ALIVE_SECONDS = 5  # an idle kept-alive connection is closed after this
MAX_HEADER_BYTES = 16 * 1024  # a request's head (h11's max incomplete event size)
MAX_CONNECTIONS = 400  # open connections (a process has 1,024 files by default)
MAX_JSON_DEPTH = 16  # nesting of a request's JSON (the API's own is 2)

LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1"}

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


class Refused(Exception):
    """A request refused with a status and a short reason (no traceback, no path)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _is_wildcard(host: str) -> bool:
    return host.strip("[]") in ("0.0.0.0", "::", "")


def _ip_literal(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        return False


class Hosts:
    """The host names a request may address the server by, given the address it is bound to:
    that address, the loopback names when it is a loopback address, and for a wildcard
    address (0.0.0.0, ::) the loopback names, this machine's name and any IP address (an
    address, unlike a name, cannot be rebound to another machine by DNS)."""

    def __init__(self, bound: str):
        b = bound.strip("[]").lower()
        self.wildcard = _is_wildcard(b)
        self.names = {b}
        if self.wildcard or is_loopback(b):
            self.names |= LOOPBACK_NAMES
        if self.wildcard:
            for n in (socket.gethostname(), socket.getfqdn()):
                self.names.add(n.lower())

    def allows(self, host_header: str) -> bool:
        name = _host_name(host_header)
        if name is None:
            return False
        return name in self.names or (self.wildcard and _ip_literal(name))


def _host_name(value: str) -> str | None:
    """The name of a Host header's ``name[:port]`` (``[v6]:port`` too), lowercased; None if malformed."""
    v = value.strip().lower()
    if not v or len(v) > 300:
        return None
    if v.startswith("["):
        end = v.find("]")
        if end < 0 or (v[end + 1 :] and not (v[end + 1] == ":" and v[end + 2 :].isdigit())):
            return None
        return v[1:end]
    name, _, port = v.partition(":")
    if port and not port.isdigit():
        return None
    return name


def _header(scope: dict, name: bytes) -> str | None:
    for k, v in scope.get("headers") or ():
        if k == name:
            return v.decode("latin-1")
    return None


async def _send_json(send: Any, status: int, body: dict, close: bool = False) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers + SECURITY_HEADERS})
    await send({"type": "http.response.body", "body": data})


class Guard:
    """The ASGI middleware that checks Host, Origin and Content-Type, adds the
    security headers to every answer and turns any exception into a plain 500."""

    def __init__(self, app: Any, hosts: Hosts):
        self.app = app
        self.hosts = hosts
        self.state = app.state  # the app's (``state.server``: the games)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_secure(message: dict) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                have = {k.lower() for k, _ in message.get("headers") or ()}
                extra = [h for h in SECURITY_HEADERS if h[0] not in have]
                message = {**message, "headers": list(message.get("headers") or ()) + extra}
            await send(message)

        try:
            self.check(scope)
            await self.app(scope, receive, send_secure)
        except Refused as e:
            if not started:
                await _send_json(send, e.status, {"error": e.message}, close=e.status == 413)
        except Exception as e:  # a bug: said in one line on the server, a plain 500 to the client
            print(f"academie serve: internal error: {type(e).__name__} (please report it)", file=sys.stderr)
            if os.environ.get("ACADEMIE_DEBUG"):
                traceback.print_exc()
            if not started:
                await _send_json(send, 500, {"error": "internal error"}, close=True)

    def check(self, scope: dict) -> None:
        host = _header(scope, b"host")
        if host is None or not self.hosts.allows(host):
            raise Refused(421, "this server is not served under that host name")
        origin = _header(scope, b"origin")
        if origin is not None and origin.strip().lower() != "http://" + host.strip().lower():
            raise Refused(403, "a request from another site is refused")
        if scope.get("method") == "POST":
            ctype = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                raise Refused(415, "a request's body is JSON (Content-Type: application/json)")


async def read_body(receive: Any, headers: Any) -> bytes:
    """The body of a request, read as it comes: refused (413) as soon as it is
    longer than ``MAX_BODY`` (or says so in Content-Length), without reading the
    rest, and (408) if it is not all sent within ``BODY_SECONDS``."""
    length = headers.get("content-length")
    if length is not None:
        if not length.strip().isdigit() or len(length) > 18:
            raise Refused(400, "a bad Content-Length")
        if int(length) > MAX_BODY:
            raise Refused(413, f"a request's body is at most {MAX_BODY} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        with anyio.fail_after(BODY_SECONDS):
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    raise Refused(400, "the client went away")
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > MAX_BODY:
                    raise Refused(413, f"a request's body is at most {MAX_BODY} bytes")
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
    except TimeoutError:
        raise Refused(408, f"a request's body must be sent within {BODY_SECONDS:g} s") from None
    return b"".join(chunks)


def json_depth_ok(raw: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the brackets of ``raw`` (outside strings) nest at most ``limit`` deep: checked
    before parsing, which recurses once per level."""
    depth = 0
    in_string = escaped = False
    for b in raw:
        if in_string:
            if escaped:
                escaped = False
            elif b == 0x5C:  # backslash
                escaped = True
            elif b == 0x22:
                in_string = False
        elif b == 0x22:
            in_string = True
        elif b in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return False
        elif b in (0x5D, 0x7D):
            depth -= 1
    return True


def parse_json(raw: bytes) -> dict:
    if not json_depth_ok(raw):
        raise Refused(400, f"the request's JSON nests more than {MAX_JSON_DEPTH} deep")
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise Refused(400, "the request is not JSON") from None
    if not isinstance(body, dict):
        raise Refused(400, "the request is a JSON object")
    return body


def uvicorn_protocol() -> type:
    """uvicorn's h11 protocol with a deadline for a request's head and a bound on open connections."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._opened = time.monotonic()
            self._head_timer = self.loop.call_later(HEADER_SECONDS, self._head_late)
            if len(self.connections) > MAX_CONNECTIONS:
                idle: list[Any] = [
                    c for c in self.connections if c is not self and isinstance(c, Protocol) and c._waiting()
                ]
                victim = min(idle, key=lambda c: c._opened) if idle else self
                victim.transport.close()

        def _waiting(self) -> bool:
            """Waiting for a request's head (no request in hand), and not being closed already."""
            return (
                self.conn.their_state is h11.IDLE
                and (self.cycle is None or self.cycle.response_complete)
                and not self.transport.is_closing()
            )

        def _head_late(self) -> None:
            if self._waiting() and not self.transport.is_closing():
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._head_timer.cancel()
            self._head_timer = self.loop.call_later(HEADER_SECONDS, self._head_late)

        def connection_lost(self, exc: Exception | None) -> None:
            self._head_timer.cancel()
            super().connection_lost(exc)

    return Protocol


def uvicorn_settings() -> dict:
    """The limits given to uvicorn (docs/security.md says what each bounds)."""
    return {
        "http": uvicorn_protocol(),
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "limit_concurrency": MAX_CONNECTIONS + 50,  # requests in hand (connections are bounded by Protocol)
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "backlog": 128,
        "timeout_graceful_shutdown": 2,
        "log_level": "warning",
        "server_header": False,
        "date_header": False,
        "access_log": False,
    }
