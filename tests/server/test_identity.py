"""Identity without friction (issue 22): `GET /api/me` makes a profile on the first visit and
sets its secret in an HttpOnly cookie; changes are validated; sign-out forgets the browser;
the WebSocket join, chat and game start record the profile; a seat token gives a seat, never a
profile; and no frame, record or view carries a secret."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, Table, join_all, make_ports, new_room
from starlette.testclient import TestClient

from codebreakers.server.app import create_app
from codebreakers.server.http.identity import COOKIE
from codebreakers.server.ops.config import ServerConfig
from codebreakers.server.ops.ipguard import IpLimits
from codebreakers.server.rooms.tokens import token_hash

JSON = {"content-type": "application/json"}


def visit(http: TestClient, **headers: str) -> tuple[dict[str, Any], str | None]:
    """GET /api/me as the jar's browser: (body, the secret it was given, if any)."""
    answer = http.get("/api/me", headers=headers)
    assert answer.status_code == 200, answer.text
    cookie = answer.headers.get("set-cookie")
    secret = None
    if cookie is not None:
        found = re.match(rf"{COOKIE}=([^;]+);", cookie)
        assert found is not None
        secret = found.group(1)
    return answer.json(), secret


def as_browser(http: TestClient, secret: str | None) -> None:
    """Make the test client's jar that of the browser holding `secret` (None: a new one)."""
    http.cookies.clear()
    if secret is not None:
        http.cookies.set(COOKIE, secret)


def stored_room(db: Path, code: str) -> dict[str, Any]:
    with sqlite3.connect(db) as conn:
        (data,) = conn.execute("SELECT data FROM rooms WHERE code = ?", (code,)).fetchone()
    return json.loads(data)  # type: ignore[no-any-return]


def test_the_first_visit_makes_a_profile_and_a_lasting_httponly_cookie(server: TestClient) -> None:
    me, secret = visit(server)
    assert secret is not None and len(secret) == 43
    cookie = server.get("/api/me").headers.get("set-cookie")
    assert cookie is None  # known now: no new cookie
    again = server.get("/api/me").json()
    assert again == me
    assert set(me) >= {"profile_id", "name", "language", "created", "hidden", "passkeys"}
    assert me["language"] == "en" and re.fullmatch(r"Player \d{4}", me["name"])
    assert me["hidden"] is False and me["passkeys"] == 0
    assert secret not in json.dumps(me) and token_hash(secret) not in json.dumps(me)


def test_the_cookie_is_httponly_samesite_and_long_lived(server: TestClient) -> None:
    as_browser(server, None)
    cookie = server.get("/api/me").headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "max-age=34560000" in cookie
    assert "secure" not in cookie  # plain http here; https adds Secure (next test)


def test_over_https_the_cookie_is_secure(tmp_path: Path) -> None:
    app = create_app(make_ports(tmp_path / "s.db"), ServerConfig(bot_delay_s=0.0))
    with TestClient(app, base_url="https://testserver") as http:
        assert "; secure" in http.get("/api/me").headers["set-cookie"].lower()


def test_the_default_name_speaks_the_visitors_language(server: TestClient) -> None:
    as_browser(server, None)
    me, _ = visit(server, **{"accept-language": "de-DE, ru;q=0.8, en;q=0.5"})
    assert me["language"] == "ru" and re.fullmatch(r"Игрок \d{4}", me["name"])


def test_patch_changes_name_language_and_hidden_and_refuses_bad_input(server: TestClient) -> None:
    me, _ = visit(server)
    changed = server.patch("/api/me", json={"name": "  Ana  ", "language": "ko", "hidden": True})
    assert changed.status_code == 200, changed.text
    assert changed.json() == {**me, "name": "Ana", "language": "ko", "hidden": True}
    for body, code in [
        ({"name": ""}, "bad_name"),
        ({"name": "x" * 33}, "bad_name"),
        ({"language": "de"}, "bad_language"),
        ({"hidden": "yes"}, "bad_message"),
        ({"nick": "Bo"}, "bad_message"),
    ]:
        refused = server.patch("/api/me", json=body)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == code, body
    bad_json = server.patch("/api/me", content=b"{", headers=JSON)
    assert bad_json.json()["error"]["code"] == "bad_json"
    assert server.get("/api/me").json()["name"] == "Ana"  # nothing changed by the refusals
    cross = server.patch(
        "/api/me", json={"name": "Eve"}, headers={"origin": "https://evil.example"}
    )
    assert cross.status_code == 403 and cross.json()["error"]["code"] == "bad_origin"
    assert server.get("/api/me").json()["name"] == "Ana"
    as_browser(server, None)
    unknown = server.patch("/api/me", json={"name": "Eve"})
    assert unknown.status_code == 401 and unknown.json()["error"]["code"] == "no_profile"


def test_a_cookie_that_is_not_a_secret_the_server_gave_is_a_new_visitor(
    server: TestClient,
) -> None:
    me, secret = visit(server)
    assert secret is not None
    for forged in ["x", secret[:-1] + ("A" if secret[-1] != "A" else "B"), "!" * 43]:
        server.cookies.clear()
        server.cookies.set(COOKIE, forged)
        assert server.patch("/api/me", json={"name": "Eve"}).status_code == 401
        other, given = visit(server)
        assert other["profile_id"] != me["profile_id"] and given is not None


def test_sign_out_forgets_the_browser_and_the_next_visit_is_someone_new(
    server: TestClient,
) -> None:
    me, secret = visit(server)
    out = server.post("/api/me/sign-out", json={})
    assert out.status_code == 200 and out.json() == {"signed_out": True}
    assert f'{COOKIE}=""' in out.headers["set-cookie"] or "max-age=0" in (
        out.headers["set-cookie"].lower()
    )
    as_browser(server, secret)  # the old secret, sent again: it names no one now
    assert server.patch("/api/me", json={"name": "Eve"}).status_code == 401
    fresh, _ = visit(server)
    assert fresh["profile_id"] != me["profile_id"]


def test_the_join_chat_and_game_record_the_profile_of_each_browser(
    server: TestClient, tmp_path: Path
) -> None:
    code = new_room(server)
    profiles, clients = [], []
    for name in "ABCD":
        as_browser(server, None)
        me, _ = visit(server)
        profiles.append(me["profile_id"])
        client = Client(server, code)
        client.join(name)
        clients.append(client)
    as_browser(server, None)
    anonymous = Client(server, code)  # a browser that never asked /api/me: no profile
    anonymous.join("E")
    db = tmp_path / "t0.db"
    players = stored_room(db, code)["players"]
    assert [players[c.you]["profile_id"] for c in clients] == profiles
    assert players[anonymous.you]["profile_id"] is None
    clients[0].ok({"type": "chat", "channel": "all", "text": "hello"})
    clients[0].ok({"type": "start"})
    Table(clients).sync(0)
    with sqlite3.connect(db) as conn:
        chat = conn.execute("SELECT seat, profile_id FROM chat WHERE text = 'hello'").fetchall()
        seated = dict(conn.execute("SELECT player_id, profile_id FROM game_players").fetchall())
        listed = conn.execute("SELECT count(*) FROM room_players").fetchone()[0]
    assert chat == [(clients[0].you, profiles[0])]
    assert seated == {
        **{c.you: p for c, p in zip(clients, profiles, strict=True)},
        anonymous.you: None,  # seated too: a player without a profile
    }
    assert listed == 4  # the anonymous joiner is nobody's room


def test_a_stolen_seat_token_gives_the_seat_but_never_the_profile(
    server: TestClient, tmp_path: Path
) -> None:
    code = new_room(server)
    victim_me, victim_secret = visit(server)
    victim = Client(server, code)
    victim.join("Ana")
    assert victim.token is not None
    as_browser(server, None)
    thief_me, thief_secret = visit(server)
    thief = Client(server, code, token=victim.token)  # the stolen token, the thief's cookie
    assert thief.you == victim.you  # the seat, as a token gives
    thief.ok({"type": "chat", "channel": "all", "text": "it's me"})
    # The thief's browser is still the thief: its profile, its (empty) games.
    assert server.get("/api/me").json()["profile_id"] == thief_me["profile_id"]
    assert server.get("/api/me/games").json()["rooms"] == []
    # The seat keeps the profile that joined; no frame the thief got names a secret.
    players = stored_room(tmp_path / "t0.db", code)["players"]
    assert players[victim.you]["profile_id"] == victim_me["profile_id"]
    assert victim_secret is not None and thief_secret is not None
    for raw in thief.raw + victim.raw:
        for secret in (victim_secret, thief_secret):
            assert secret not in raw and token_hash(secret) not in raw
        assert "profile_id" not in raw and victim_me["profile_id"] not in raw


def test_no_frame_view_or_record_carries_an_identity_secret_or_its_hash(
    server: TestClient,
) -> None:
    code = new_room(server)
    secrets_given = []
    clients = []
    for name in "ABCD":
        as_browser(server, None)
        _, secret = visit(server)
        assert secret is not None
        secrets_given.append(secret)
        client = Client(server, code)
        client.join(name)
        clients.append(client)
    clients[0].ok({"type": "chat", "channel": "all", "text": "gl"})
    clients[0].ok({"type": "start"})
    table = Table(clients)
    table.sync(0)
    table.play_out()
    game_id = clients[0].room["game_id"]
    record = server.get(f"/api/games/{game_id}/record").text
    description = server.get(f"/api/rooms/{code}").text
    texts = [record, description] + [raw for c in clients for raw in c.raw]
    for secret in secrets_given:
        for text in texts:
            assert secret not in text and token_hash(secret) not in text


def test_your_games_lists_open_rooms_and_finished_games(server: TestClient) -> None:
    as_browser(server, None)
    empty = server.get("/api/me/games")
    assert empty.status_code == 401 and empty.json()["error"]["code"] == "no_profile"
    me, secret = visit(server)
    waiting = new_room(server)
    Client(server, waiting).join("Ana")
    code = new_room(server)
    clients = [Client(server, code)]
    clients[0].join("Ana")
    as_browser(server, None)
    clients += join_all(server, code, "BCD")  # three anonymous browsers
    clients[0].ok({"type": "start"})
    table = Table(clients)
    table.sync(0)
    table.play_out()
    as_browser(server, secret)
    mine = server.get("/api/me/games").json()
    assert [r["code"] for r in mine["rooms"]] == [waiting]  # the other one is over
    assert mine["rooms"][0]["url"] == f"/r/{waiting}" and mine["rooms"][0]["status"] == "waiting"
    (game,) = mine["games"]
    assert game["game_id"] == clients[0].room["game_id"] and game["url"].startswith("/g/")
    assert game["result"] in ("win", "loss", "draw") and game["side"] in ("white", "black")
    assert me["profile_id"] not in json.dumps(mine)


def test_a_browser_of_the_profile_without_the_seat_token_gets_its_seat_back(
    server: TestClient, tmp_path: Path
) -> None:
    """Another browser of the profile (its cookie, no seat token: a passkey's device, cleared
    storage) is given a new token for the player the profile joined as; the old token opens
    no socket any more; nobody else gets a seat this way, and a refusal changes nothing."""
    code = new_room(server)
    _, secret = visit(server)
    ana = Client(server, code)
    ana.join("Ana")
    assert ana.token is not None
    back = server.post(f"/api/me/rooms/{code.lower()}/seat", json={})
    assert back.status_code == 200, back.text
    body = back.json()
    assert (body["code"], body["you"], body["url"]) == (code, ana.you, f"/r/{code}")
    assert body["token"] != ana.token and secret is not None and secret not in back.text
    again = Client(server, code, token=body["token"])
    assert again.you == ana.you  # the same seat, as the same player
    stale = Client(server, code, token=ana.token)
    assert stale.you is None and stale.errors == ["bad_token"]
    before = stored_room(tmp_path / "t0.db", code)
    as_browser(server, None)
    visit(server)  # a stranger with a profile of its own
    refused = server.post(f"/api/me/rooms/{code}/seat", json={})
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_your_room")
    as_browser(server, None)  # no profile at all
    nobody = server.post(f"/api/me/rooms/{code}/seat", json={})
    assert (nobody.status_code, nobody.json()["error"]["code"]) == (401, "no_profile")
    as_browser(server, secret)
    for unknown in ("ZZZZZZ", "not-a-code"):
        missing = server.post(f"/api/me/rooms/{unknown}/seat", json={})
        assert (missing.status_code, missing.json()["error"]["code"]) == (404, "room_not_found")
    assert stored_room(tmp_path / "t0.db", code) == before


@pytest.mark.parametrize(
    "path", ["/api/passkeys/register/options", "/api/passkeys/sign-in/options"]
)
def test_passkey_ceremonies_need_a_profile_and_a_fresh_challenge(
    server: TestClient, path: str
) -> None:
    as_browser(server, None)
    assert server.post(path, json={}).json()["error"]["code"] == "no_profile"
    visit(server)
    options = server.post(path, json={})
    assert options.status_code == 200
    body = options.json()
    assert body["challenge"] and body.get("rpId", body.get("rp", {}).get("id")) == "testserver"
    finish = path.removesuffix("/options")
    fake = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}
    first = server.post(finish, json=fake).json()["error"]["code"]
    assert first in ("passkey_refused", "unknown_passkey")
    again = server.post(finish, json=fake).json()["error"]["code"]
    assert again == "passkey_challenge"  # used once: gone


@pytest.mark.parametrize("path", ["/api/passkeys/register", "/api/passkeys/sign-in"])
def test_a_passkey_answer_that_is_no_credential_is_refused_with_a_code(
    server: TestClient, path: str
) -> None:
    visit(server)
    headers = {"content-type": "application/json"}
    for body, code in (
        (b"{", "bad_json"),
        (b"[1]", "bad_message"),
        (b'{"id": 1}', "bad_message"),
        (b'{"a":' * 5000 + b"1" + b"}" * 5000, "bad_message"),  # nested past msgspec's depth
    ):
        refused = server.post(path, content=body, headers=headers)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == code


def test_first_visits_from_one_address_are_bounded_and_known_browsers_still_served(
    server_with: Any,
) -> None:
    server: TestClient = server_with(per_ip=IpLimits(profile_burst=2, profiles_per_s=0.001))
    _, kept = visit(server)
    as_browser(server, None)
    visit(server)
    as_browser(server, None)
    refused = server.get("/api/me")
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    assert "set-cookie" not in refused.headers
    as_browser(server, kept)
    assert server.get("/api/me").status_code == 200  # a known browser makes nothing


def test_play_now_and_quick_join_record_the_visitors_profile(
    server_with: Any, tmp_path: Path
) -> None:
    from test_quickplay import BOTS

    server: TestClient = server_with(ports=BOTS)
    me, _ = visit(server)
    played = server.post("/api/play-now", json={"name": "Ann", "game": "decrypto"}).json()
    quick = server.post("/api/quick-join", json={"name": "Ann", "game": "decrypto"}).json()
    for answer in (played, quick):
        players = stored_room(tmp_path / "t0.db", answer["code"])["players"]
        assert players[answer["you"]]["profile_id"] == me["profile_id"]
    mine = {r["code"] for r in server.get("/api/me/games").json()["rooms"]}
    assert mine == {played["code"], quick["code"]}
    with sqlite3.connect(tmp_path / "t0.db") as conn:
        seated = conn.execute(
            "SELECT profile_id, human FROM game_players WHERE player_id = ?", (played["you"],)
        ).fetchall()
    assert seated == [(me["profile_id"], 1)]  # the game play now started at once
