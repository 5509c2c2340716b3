"""Which reverse proxies may name the client: `--trusted-proxies`, and the ASGI layer that obeys.

A client's address is what the per-address limits count (server/ops/ipguard.py), and any client can
send `X-Forwarded-For: <anything>`; so a forwarded address is believed only when the socket's
peer is a proxy the operator listed, and none is listed by default (a local process is not a
proxy: uvicorn's own default trusts 127.0.0.1, which let one local client pose as many; serve
turns uvicorn's handling off and uses this instead, for granian too). Behind a chain of proxies
the client is the nearest address that is not a trusted proxy, read from the right, since only
the entries the trusted proxies appended can be believed. `Forwarded` (RFC 7239) wins over
`X-Forwarded-For` when both come; the scheme comes from its `proto` or `X-Forwarded-Proto`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
SCHEMES = {"http": ("http", "ws"), "https": ("https", "wss")}  # proto -> (http, websocket) scheme


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """Addresses and networks whose forwarded headers are believed; `*` trusts every peer."""

    networks: tuple[Network, ...] = ()
    everyone: bool = False

    @classmethod
    def parse(cls, text: str) -> TrustedProxies:
        """A comma-separated list of addresses and CIDRs (`10.0.0.0/8`), or `*`; ValueError on
        anything else, so a typo stops the server instead of trusting nobody silently."""
        items = [item.strip() for item in text.split(",") if item.strip()]
        if "*" in items:
            return cls(everyone=True)
        return cls(tuple(ipaddress.ip_network(item, strict=False) for item in items))

    def trusts(self, peer: str) -> bool:
        if self.everyone:
            return True
        address = _address(peer)
        return address is not None and any(address in net for net in self.networks)

    def client(self, peer: str, headers: Iterable[tuple[bytes, bytes]]) -> tuple[str, str | None]:
        """The client's address and the scheme it used (None: the socket's own), as the request
        from `peer` with these headers tells them."""
        if not self.trusts(peer):
            return peer, None
        found: dict[bytes, list[str]] = {}
        for name, value in headers:
            found.setdefault(name.lower(), []).append(value.decode("latin-1"))
        if b"forwarded" in found:
            hops = [_forwarded_element(e) for e in ",".join(found[b"forwarded"]).split(",")]
            chain = [hop.get("for", "") for hop in hops]
            protos = [hop.get("proto") for hop in hops]
        else:
            chain = [e.strip() for e in ",".join(found.get(b"x-forwarded-for", [])).split(",")]
            first = found.get(b"x-forwarded-proto", [""])[0].split(",")[0].strip()
            protos = [first or None] * len(chain)
        for hop, proto in zip(reversed(chain), reversed(protos), strict=True):
            if not hop:
                continue
            if _address(hop) is None:
                return peer, None  # a garbled chain: count the proxy, not a made-up name
            if not self.trusts(hop):
                return hop, proto
        return (chain[0] or peer, protos[0]) if chain else (peer, None)


def _forwarded_element(element: str) -> dict[str, str]:
    """One hop of `Forwarded`: `for=1.2.3.4;proto=https`, `for="[2001:db8::1]:4711"`."""
    pairs: dict[str, str] = {}
    for pair in element.split(";"):
        key, _, value = pair.partition("=")
        pairs[key.strip().lower()] = value.strip().strip('"')
    node = pairs.get("for", "")
    if node.startswith("["):  # [v6] or [v6]:port
        node = node[1 : node.find("]")] if "]" in node else ""
    elif node.count(":") == 1:  # v4:port
        node = node.partition(":")[0]
    pairs["for"] = node
    return pairs


class ForwardedMiddleware:
    """Sets each request's `client` (and scheme) from the forwarded headers of a trusted proxy."""

    def __init__(self, app: Any, proxies: TrustedProxies) -> None:
        self.app = app
        self.proxies = proxies
        self.active = proxies != NONE  # trusting no one, every request passes untouched

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if self.active and kind in ("http", "websocket") and scope.get("client"):
            peer, port = scope["client"]
            address, proto = self.proxies.client(peer, scope["headers"])
            scope = {**scope, "client": (address, port)}
            if proto in SCHEMES:
                scope["scheme"] = SCHEMES[proto][kind == "websocket"]
        await self.app(scope, receive, send)


NONE = TrustedProxies()
