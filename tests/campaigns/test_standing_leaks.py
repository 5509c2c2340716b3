"""The leak campaign's check of the standings' routes (leaderboard, profiles, their pages and
the replay page) catches a secret planted in such a body, and passes the real shapes clean."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import httpx
import pytest

from codebreakers.campaigns.leaks import Identities, Standings, standing_leaks
from codebreakers.campaigns.secrets import Truth
from codebreakers.server.http import static
from codebreakers.server.http.profile_summary import summary
from codebreakers.server.http.routes import WEB_DIR
from codebreakers.server.rooms.tokens import token_hash
from codebreakers.store.ratings.base import ProfileRecord, RatingRow, ResultRow, StatsRow

SECRET = "s3cr3t-identity-value-of-forty-three-chars"
PROFILE = "Pr0f1leId_xy"
GAME = "g-running"
TRUTH = Truth(
    seed=8_431_205_771_930_112_345,
    keywords={
        "white": ["APPLE", "RIVER", "CLOCK", "TIGER"],
        "black": ["MOON", "SALT", "BELL", "FOX"],
    },
    seat_team={"p1": "white", "p2": "white", "p3": "black", "p4": "black"},
    notes={"p1": {"note qwrtp"}},
    drafts={"p3": {"zzkrt"}},
    tokens={"p2": "seat-token-of-p2-0123456789"},
    custom_words=frozenset({"listwordabc", "APPLE"}),
    codes={(3, 1, 4), (2, 4, 1)},
)


def _known() -> Identities:
    known = Identities()
    known.secrets.append(SECRET)
    known.profile_ids.append(PROFILE)
    return known


def _profile(**extra: Any) -> str:
    """A profile body as the route serves it (profile_summary.summary), one finished game."""
    result = ResultRow(
        "g-done",
        "p1",
        PROFILE,
        "decrypto",
        "standard",
        "white",
        "win",
        {"decoded": 3},
        True,
        1512.0,
        1_700_000_000.0,
    )
    record = ProfileRecord(
        PROFILE,
        "Player 1234",
        1_699_000_000.0,
        False,
        [result],
        [RatingRow("decrypto", 27.0, 7.0, 1512.0, 5)],
        [StatsRow("decrypto", "standard", 1, 1, 0, 0, {"decoded": 3})],
        [result],
    )
    return json.dumps({**summary(record), **extra}, ensure_ascii=False)


def _board(**extra: Any) -> str:
    entry = {"rank": 1, "profile_id": PROFILE, "name": "Player 1234", "rating": 1512, "games": 5}
    body = {"game": "decrypto", "page": 1, "page_size": 50, "min_games": 5, "more": False}
    return json.dumps({**body, "entries": [{**entry, **extra}]}, ensure_ascii=False)


def _page(planted: str = "") -> str:
    """The real page every HTML route serves, with `planted` in an inline script."""
    page = static.index_page(WEB_DIR).decode()
    return page.replace("</body>", f"<script>window.boot = {planted or '{}'};</script></body>")


def test_the_real_bodies_pass_clean() -> None:
    for route, text in (("profile", _profile()), ("leaderboard", _board()), ("page", _page())):
        assert standing_leaks(route, text, TRUTH, _known()) == {}, route


PLANTED = [
    ({"secret": SECRET}, "identity_secret"),
    ({"owner": token_hash(SECRET)}, "identity_secret"),
    ({"seat": TRUTH.tokens["p2"]}, "p2's token"),
    ({"clue": "MOON"}, "black keyword in bytes"),
    ({"clue": "TIGER"}, "white keyword in bytes"),
    ({"code": [3, 1, 4]}, "code in bytes"),
    ({"last": "[2,4,1]"}, "code in bytes"),
    ({"memo": "note qwrtp"}, "p1's note"),
    ({"draft": "zzkrt"}, "p3's draft"),
    ({"seed": TRUTH.seed}, "seed"),
    ({"word": "listwordabc"}, "custom word list"),
]


@pytest.mark.parametrize(("plant", "leak"), PLANTED)
def test_a_planted_secret_is_caught_in_every_kind_of_body(plant: dict[str, Any], leak: str) -> None:
    bodies = {
        "profile": _profile(**plant),
        "leaderboard": _board(**plant),
        "profile page": _page(json.dumps(plant)),
        "game page": _page(json.dumps(plant, separators=(",", ":"))),
    }
    for route, text in bodies.items():
        assert f"{route}: {leak}" in standing_leaks(route, text, TRUTH, _known()), (route, text)


def test_fetched_bodies_are_what_is_checked_and_refusals_count() -> None:
    """Through Standings.fetch, as the campaign asks: a profile route that echoed the cookie's
    secret is caught; a route that refuses is counted, not passed as an empty clean body."""

    def serve(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == f"/api/profiles/{PROFILE}":
            return httpx.Response(200, text=_profile(you=request.headers.get("cookie")))
        if path == "/api/leaderboard":
            return httpx.Response(200, text=_board())
        if path == "/leaderboard":
            return httpx.Response(500, text="oops")
        return httpx.Response(200, text=_page())

    standings = Standings(f"cb_id={SECRET}", _known())

    async def go() -> None:
        transport = httpx.MockTransport(serve)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            await standings.fetch(http, standings.cookie, GAME, page=1)
            await standings.fetch(http, None, GAME, page=1)

    asyncio.run(go())
    found = sum(
        (standing_leaks(r, t, TRUTH, standings.known) for r, t in standings.bodies), start=Counter()
    )
    assert found == {"profile: identity_secret": 1}  # the browser's ask, not the anonymous one
    assert standings.wrong == {"leaderboard page answered 500": 2}
    assert standings.checked["profile"] == 2 and standings.checked["game page"] == 2


def test_a_rated_game_missing_from_a_profile_is_counted() -> None:
    standings = Standings("", _known())
    standings.check_listed("g-done", [("profile", _profile())])
    assert not standings.wrong
    standings.check_listed("g-other", [("profile", _profile()), ("leaderboard", _board())])
    assert standings.wrong == {"rated game not on a profile": 1}
