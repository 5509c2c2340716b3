"""Matching by skill, as players meet it: browsers that played rated games quick-join and are
seated by rating, the window widening as a table waits; the open-tables list says each
table's level (issue 22, point 5)."""

from __future__ import annotations

from typing import Any

from server_harness import Clock
from starlette.testclient import TestClient
from test_identity import as_browser
from test_ratings_flow import browsers, play_game, profile

from codebreakers.server.rooms import levels


def rated_players(http: TestClient) -> tuple[list[str], list[str], dict[str, float]]:
    """Four browsers after five rated games Black won: (winners' secrets, losers' secrets,
    shown rating by secret)."""
    people = browsers(http)
    for _ in range(5):
        teams = play_game(http, people, public=True)
    rating = {s: profile(http, p)["ratings"][0]["rating"] for p, s in people}
    winners = [s for p, s in people if teams[p] == "black"]
    losers = [s for p, s in people if teams[p] == "white"]
    gap = min(rating[w] for w in winners) - max(rating[v] for v in losers)
    assert gap > levels.WINDOW + 100  # far enough apart for the tests below
    return winners, losers, rating


def quick_join(http: TestClient, secret: str | None, name: str) -> dict[str, Any]:
    as_browser(http, secret)
    answer = http.post("/api/quick-join", json={"name": name, "game": "decrypto"})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def listed(http: TestClient) -> dict[str, Any]:
    return {r["code"]: r for r in http.get("/api/rooms").json()["rooms"]}


def test_players_are_seated_with_players_of_their_level(server_with) -> None:
    server = server_with(ports={"clock": Clock()})
    winners, losers, rating = rated_players(server)
    strong = quick_join(server, winners[0], "S1")
    assert strong["created"] is True
    weak = quick_join(server, losers[0], "W1")
    assert weak["created"] is True and weak["code"] != strong["code"]  # too far apart, for now
    # Each of the others goes to the table of their level, whichever came first.
    assert quick_join(server, losers[1], "W2")["code"] == weak["code"]
    assert quick_join(server, winners[1], "S2")["code"] == strong["code"]
    rooms = listed(server)
    assert rooms[strong["code"]]["rating"] == levels.around(
        (rating[winners[0]] + rating[winners[1]]) / 2
    )
    assert rooms[weak["code"]]["rating"] == levels.around(
        (rating[losers[0]] + rating[losers[1]]) / 2
    )
    assert rooms[strong["code"]]["rating"] % levels.SHOWN_STEP == 0


def test_a_table_that_waited_takes_anyone(server_with) -> None:
    clock = Clock()
    server = server_with(ports={"clock": clock})
    winners, losers, rating = rated_players(server)
    strong = quick_join(server, winners[0], "S1")
    far = rating[winners[0]] - rating[losers[0]]
    clock.now += (far - levels.WINDOW) / levels.WIDENING_PER_S + 1  # the window now reaches
    weak = quick_join(server, losers[0], "W1")
    assert weak["created"] is False and weak["code"] == strong["code"]


def test_visitors_without_a_rating_join_any_table(server) -> None:
    winners, _losers, _rating = rated_players(server)
    strong = quick_join(server, winners[0], "S1")
    assert quick_join(server, None, "Anonymous")["code"] == strong["code"]  # no profile
    as_browser(server, None)
    assert listed(server)[strong["code"]]["rating"] is not None
