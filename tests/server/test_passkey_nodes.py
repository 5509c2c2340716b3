"""Passkey ceremonies across nodes (issue 22): the challenge is in the store, so a ceremony begun
on one node is answered on another sharing the database (no load balancer affinity), once, and
not after it expired."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from soft_passkey import SoftPasskey
from starlette.testclient import TestClient

from codebreakers.bus import open_bus
from codebreakers.games.registry import RULES_BY_NAME
from codebreakers.server.app import create_app
from codebreakers.server.http.identity import COOKIE
from codebreakers.server.http.passkeys import CHALLENGE_TTL_S
from codebreakers.server.ops.config import Ports, ServerConfig
from codebreakers.store import open_store

REGISTER, SIGN_IN = "/api/passkeys/register", "/api/passkeys/sign-in"


@pytest.fixture
def nodes(shared_db: str) -> Iterator[tuple[list[TestClient], list[float]]]:
    """Two nodes on one database (each its own in-process bus: passkeys need none), on one
    settable clock."""
    now = [1_000_000.0]
    clock: Callable[[], float] = lambda: now[0]  # noqa: E731
    apps = [
        TestClient(
            create_app(
                Ports(open_store(shared_db), open_bus(None), RULES_BY_NAME, clock=clock),
                ServerConfig(bot_delay_s=0),
            )
        )
        for _ in range(2)
    ]
    for app in apps:
        app.__enter__()
    try:
        yield apps, now
    finally:
        for app in apps:
            app.__exit__(None, None, None)


def browse(node: TestClient, secret: str | None) -> TestClient:
    """`node`, its cookie jar made that of the browser holding `secret` (None: a new one)."""
    node.cookies.clear()
    if secret is not None:
        node.cookies.set(COOKIE, secret)
    return node


def new_browser(node: TestClient) -> tuple[str, str]:
    """A first visit through `node`: (the profile id, the browser's secret)."""
    answer = browse(node, None).get("/api/me")
    secret = answer.cookies.get(COOKIE)
    assert answer.status_code == 200 and secret
    return answer.json()["profile_id"], secret


def test_a_ceremony_begun_on_one_node_is_answered_on_the_other(
    nodes: tuple[list[TestClient], list[float]],
) -> None:
    (a, b), _ = nodes
    profile, secret = new_browser(a)
    passkey = SoftPasskey("testserver", "http://testserver")
    options = browse(a, secret).post(f"{REGISTER}/options", json={}).json()
    registered = browse(b, secret).post(REGISTER, json=passkey.create(options))
    assert registered.status_code == 200, registered.text
    assert registered.json()["passkeys"] == 1
    # Another browser signs in: options from B, the assertion to A.
    other_profile, other = new_browser(b)
    assert other_profile != profile
    options = browse(b, other).post(f"{SIGN_IN}/options", json={}).json()
    signed_in = browse(a, other).post(SIGN_IN, json=passkey.get(options))
    assert signed_in.status_code == 200, signed_in.text
    assert signed_in.json()["profile_id"] == profile
    new_secret = signed_in.cookies.get(COOKIE)
    assert new_secret and new_secret != other
    assert browse(b, new_secret).get("/api/me").json()["profile_id"] == profile


def test_an_answer_is_taken_once_across_nodes_and_refused_after_expiry(
    nodes: tuple[list[TestClient], list[float]],
) -> None:
    (a, b), now = nodes
    _, secret = new_browser(a)
    passkey = SoftPasskey("testserver", "http://testserver")
    options = browse(a, secret).post(f"{REGISTER}/options", json={}).json()
    credential = passkey.create(options)
    assert browse(b, secret).post(REGISTER, json=credential).status_code == 200
    again = browse(a, secret).post(REGISTER, json=credential).json()  # replayed on the issuer
    assert again["error"]["code"] == "passkey_challenge"
    # A challenge past CHALLENGE_TTL_S is refused on either node.
    options = browse(b, secret).post(f"{SIGN_IN}/options", json={}).json()
    now[0] += CHALLENGE_TTL_S + 1
    late = browse(a, secret).post(SIGN_IN, json=passkey.get(options)).json()
    assert late["error"]["code"] == "passkey_challenge"
    # Asked again in time, the same browser's sign-in passes (to its own profile).
    options = browse(a, secret).post(f"{SIGN_IN}/options", json={}).json()
    now[0] += CHALLENGE_TTL_S - 1
    assert browse(b, secret).post(SIGN_IN, json=passkey.get(options)).status_code == 200


def test_a_challenge_is_bound_to_its_browser_and_ceremony(
    nodes: tuple[list[TestClient], list[float]],
) -> None:
    (a, b), _ = nodes
    _, secret = new_browser(a)
    _, thief = new_browser(b)
    passkey = SoftPasskey("testserver", "http://testserver")
    options = browse(a, secret).post(f"{REGISTER}/options", json={}).json()
    credential = passkey.create(options)
    stolen = browse(b, thief).post(REGISTER, json=credential).json()  # another browser's
    assert stolen["error"]["code"] == "passkey_challenge"
    other_ceremony = browse(b, secret).post(SIGN_IN, json=passkey.get(options)).json()
    assert other_ceremony["error"]["code"] == "passkey_challenge"
    assert browse(b, secret).post(REGISTER, json=credential).status_code == 200
