"""Views list what each viewer may see: checked on the serialised JSON that leaves the server."""

from __future__ import annotations

import json

from decrypto_table import Table


def rnd(view: dict[str, object], number: int, team: str) -> dict[str, object]:
    return view["rounds"][number - 1]["transmissions"][team]  # type: ignore[index, no-any-return]


def test_keywords_to_the_own_team_only() -> None:
    table = Table()
    white, black = table.state.table.keywords
    assert table.view("w2")["teams"]["white"]["keywords"] == list(white)
    assert table.view("w2")["teams"]["black"]["keywords"] is None
    assert table.view("b1")["teams"]["black"]["keywords"] == list(black)
    for viewer in ("w1", "w2"):
        text = json.dumps(table.view(viewer))
        assert not any(word in text for word in black)
    spectator = json.dumps(table.view(None))
    assert not any(word in spectator for word in white + black)
    assert table.view(None, open_spectator=True)["teams"]["black"]["keywords"] == list(black)


def test_a_player_is_never_an_open_spectator() -> None:
    table = Table()
    view = table.view("w1", open_spectator=True)
    assert view["teams"]["black"]["keywords"] is None
    assert rnd(view, 1, "black")["code"] is None


def test_custom_words_and_seed_never_listed() -> None:
    table = Table()
    for seat in ("w1", "b1", None):
        view = table.view(seat)
        assert view["options"]["custom_words"] is None
        assert view["options"]["custom_word_count"] == 12
        assert "seed" not in json.dumps(view)
    assert "seed" not in json.dumps(table.view(None, open_spectator=True))


def test_the_code_goes_to_its_encryptor_until_the_reveal() -> None:
    table = Table(3, 2)
    code = table.code("white")
    assert rnd(table.view("w1"), 1, "white")["code"] == code
    for seat in ("w2", "w3", "b1", "b2", None):
        assert rnd(table.view(seat), 1, "white")["code"] is None
    assert rnd(table.view(None, open_spectator=True), 1, "white")["code"] == code
    table.transmit("white")
    table.decode("white", right=False)
    for seat in ("w2", "b1", None):
        assert rnd(table.view(seat), 1, "white")["code"] == code
        assert rnd(table.view(seat), 1, "white")["result"] == {
            "decoded": False,
            "intercepted": None,
        }


def test_answers_visibility() -> None:
    table = Table()
    table.play_round()
    table.transmit("white")
    table.transmit("black")
    table.do("w1", {"type": "propose", "target": "own", "code": [4, 3, 2]})
    table.decode("white")
    table.do("w2", {"type": "propose", "target": "enemy", "code": [1, 2, 3]})
    white_seen_by_white = rnd(table.view("w1"), 2, "white")["decode"]
    assert white_seen_by_white == {
        "proposals": {"w1": [4, 3, 2]},
        "locked": True,
        "code": table.code("white"),
    }
    for seat in ("b1", "b2", None):
        decode = rnd(table.view(seat), 2, "white")["decode"]
        assert decode == {"proposals": None, "locked": True, "code": None}
    black_by_white = rnd(table.view("w1"), 2, "black")["interception"]
    assert black_by_white == {
        "due": True,
        "proposals": {"w2": [1, 2, 3]},
        "locked": False,
        "code": None,
    }
    assert rnd(table.view("b1"), 2, "black")["interception"]["proposals"] is None
    table.decode("black")
    table.intercept("black")
    table.intercept("white")
    # Revealed: locked answers are public, proposals stay with their team.
    revealed = rnd(table.view("b1"), 2, "white")["decode"]
    assert revealed["code"] == list(table.state.rounds[1].transmissions[0].code)  # type: ignore[union-attr]
    assert revealed["proposals"] is None


def test_roles_and_waiting_for() -> None:
    table = Table(3, 2)
    view = table.view("w3")
    assert view["you"] == {"seat": "w3", "team": "white", "role": "decider", "can_team_chat": True}
    assert table.view("w2")["you"]["role"] == "member"
    assert table.view("w1")["you"]["role"] == "encryptor"
    assert table.view(None)["you"] == {
        "seat": None,
        "team": None,
        "role": None,
        "can_team_chat": False,
    }
    assert view["waiting_for"] == [
        {"seat": "w1", "task": "transmit"},
        {"seat": "b1", "task": "transmit"},
    ]
    table.play_round()
    table.transmit("white")
    table.transmit("black")
    table.decode("white")
    assert table.view(None)["waiting_for"] == [
        {"seat": "b1", "task": "lock_own"},
        {"seat": "w1", "task": "lock_enemy"},
    ]


def test_everything_is_shown_after_the_game() -> None:
    table = Table()
    table.play_round(decoded=(False, True))
    table.transmit("white")
    table.transmit("black")
    code = table.code("black")
    table.decode("white", right=False)
    table.decode("black")
    table.intercept("black")
    table.intercept("white")
    view = table.view(None)
    assert view["phase"] == "over"
    assert view["teams"]["black"]["keywords"] == list(table.state.table.keywords[1])
    assert rnd(view, 2, "black")["code"] == code
    assert view["outcome"]["winner"] == "black"
