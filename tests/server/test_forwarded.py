"""Forwarded headers name the client only when the socket's peer is a proxy the operator listed:
by default a local client saying `X-Forwarded-For: <anything>` is still counted as itself."""

from __future__ import annotations

import json
from contextlib import ExitStack, suppress

import pytest
from real_server import RealServer
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from codebreakers.cli import build_parser
from codebreakers.server.ops.proxies import NONE, TrustedProxies

LISTED = TrustedProxies.parse("10.0.0.1, 192.168.0.0/16, ::1")


def headers(**named: str) -> list[tuple[bytes, bytes]]:
    return [(k.replace("_", "-").encode(), v.encode()) for k, v in named.items()]


def test_no_proxy_is_trusted_by_default() -> None:
    args = build_parser().parse_args(["serve"])
    assert args.trusted_proxies == NONE  # read by the setting (server/ops/settings.py)
    for peer in ("127.0.0.1", "::1", "10.0.0.1"):
        assert NONE.client(peer, headers(x_forwarded_for="6.6.6.6")) == (peer, None)


def test_a_listed_proxy_names_the_nearest_untrusted_hop() -> None:
    # The client may write any chain; only what the trusted proxies appended is believed.
    chain = headers(x_forwarded_for="1.1.1.1, 203.0.113.9, 192.168.4.4", x_forwarded_proto="https")
    assert LISTED.client("10.0.0.1", chain) == ("203.0.113.9", "https")
    assert LISTED.client("::1", headers(x_forwarded_for="2001:db8::7")) == ("2001:db8::7", None)
    assert LISTED.client("10.0.0.2", chain) == ("10.0.0.2", None)  # not listed: itself


def test_rfc_7239_forwarded_wins_and_garbage_counts_the_proxy() -> None:
    both = headers(
        forwarded='for=198.51.100.3;proto=https, for="[2001:db8::1]:4711"',
        x_forwarded_for="7.7.7.7",
    )
    assert LISTED.client("10.0.0.1", both) == ("2001:db8::1", None)
    one = headers(forwarded="for=198.51.100.3:1234;proto=https")
    assert LISTED.client("10.0.0.1", one) == ("198.51.100.3", "https")
    assert LISTED.client("10.0.0.1", headers(x_forwarded_for="<script>")) == ("10.0.0.1", None)
    assert LISTED.client("10.0.0.1", []) == ("10.0.0.1", None)


def test_every_peer_with_a_star_and_typos_refused() -> None:
    assert TrustedProxies.parse("*").trusts("8.8.8.8")
    with pytest.raises(ValueError):
        TrustedProxies.parse("10.0.0.300")


def _first_answers(server: RealServer, forwarded_for: list[str]) -> list[str]:
    """Hold a socket open per name, each sending junk: the code each is answered."""
    with ExitStack() as held:
        codes = []
        for name in forwarded_for:
            ws = held.enter_context(
                connect(
                    f"ws://127.0.0.1:{server.port}/ws",
                    additional_headers={"X-Forwarded-For": name},
                    proxy=None,
                )
            )
            with suppress(ConnectionClosed):  # a refused socket may be closed already
                ws.send("{}")
            codes.append(json.loads(ws.recv(timeout=10))["code"])
        return codes


def test_a_local_client_cannot_pose_as_many_on_a_real_server(start_real_server) -> None:
    server = start_real_server("--per-ip-sockets", "2")
    codes = _first_answers(server, [f"10.9.0.{i}" for i in range(3)])
    assert codes == ["unknown_type", "unknown_type", "too_many_connections"]


def test_behind_a_listed_proxy_each_forwarded_client_has_its_own_cap(start_real_server) -> None:
    server = start_real_server("--per-ip-sockets", "2", "--trusted-proxies", "127.0.0.1")
    names = [f"10.9.0.{i}" for i in range(3)] + ["10.9.0.1"] * 2
    codes = _first_answers(server, names)
    assert codes == ["unknown_type"] * 4 + ["too_many_connections"], codes
