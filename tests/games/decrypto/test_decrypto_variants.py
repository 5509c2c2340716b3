"""The 3-player variant (pair against solo) and the classic order of play."""

from __future__ import annotations

from decrypto_table import Table

from codebreakers.games.decrypto import RULES


def test_three_player_pair_transmits_and_alternates() -> None:
    table = Table(three_player=True)
    assert table.state.current.transmissions[1] is None
    assert (table.t("white").encryptor, table.t("white").decider) == ("w1", "w2")
    view = table.view("b1")
    assert view["max_rounds"] == 5
    assert view["teams"]["black"]["transmits"] is False
    assert view["rounds"][0]["transmissions"]["black"] is None
    assert view["you"]["role"] == "decider"
    table.refuse("b1", {"type": "transmit", "clues": ["a", "b", "c"]}, "not_encryptor")
    table.play_round()
    assert (table.t("white").encryptor, table.t("white").decider) == ("w2", "w1")


def test_three_player_solo_intercepts_from_round_two_and_scores_the_pairs_misses() -> None:
    table = Table(three_player=True)
    table.transmit("white")
    table.refuse("b1", {"type": "lock", "target": "enemy", "code": [1, 2, 3]}, "no_interception")
    table.refuse("b1", {"type": "propose", "target": "own", "code": [1, 2, 3]}, "not_transmitted")
    table.decode("white", right=False)
    assert table.tokens("black") == (1, 0) and table.tokens("white") == (0, 0)
    table.transmit("white")
    # The solo has no transmission of its own to decode first.
    table.do("b1", {"type": "propose", "target": "enemy", "code": table.code("white")})
    table.intercept("black", right=True)
    assert not table.t("white").revealed
    table.decode("white", right=True)
    result = RULES.outcome(table.state)
    assert result is not None
    assert result["winner"] == "black" and result["reason"] == "solo_interceptions"
    assert result["rounds"] == 2


def test_three_player_miss_and_interception_give_two_white_tokens_at_once() -> None:
    table = Table(three_player=True)
    table.play_round()
    table.play_round(decoded=(False, True), intercepted=(False, True))
    assert table.tokens("black") == (2, 0)
    assert RULES.outcome(table.state)["reason"] == "solo_interceptions"  # type: ignore[index]


def test_three_player_pair_survives_five_rounds() -> None:
    table = Table(three_player=True)
    for _ in range(4):
        table.play_round()
    table.play_round(decoded=(False, True))
    result = RULES.outcome(table.state)
    assert result is not None
    assert result["winner"] == "white" and result["reason"] == "pair_survived"
    assert result["rounds"] == 5 and table.tokens("black") == (1, 0)


def test_classic_order_reads_white_first_then_black() -> None:
    table = Table(order="classic")
    table.transmit("white", ["sun", "sea", "sky"])
    # Not read out before both encryptors have written.
    assert table.view("w2")["rounds"][0]["transmissions"]["white"]["clues"] is None
    assert table.view("w1")["rounds"][0]["transmissions"]["white"]["clues"] == ["sun", "sea", "sky"]
    table.refuse("w2", {"type": "lock", "target": "own", "code": [1, 2, 3]}, "not_transmitted")
    table.transmit("black", ["cat", "dog", "cow"])
    view = table.view("w2")["rounds"][0]["transmissions"]
    assert view["white"]["clues"] == ["sun", "sea", "sky"] and view["white"]["read_out"]
    assert view["black"]["clues"] is None and not view["black"]["read_out"]
    assert table.view("b2")["rounds"][0]["transmissions"]["black"]["clues"] is None
    assert table.view("b1")["rounds"][0]["transmissions"]["black"]["clues"] == ["cat", "dog", "cow"]
    table.refuse("b2", {"type": "lock", "target": "own", "code": [1, 2, 3]}, "not_transmitted")
    table.decode("white")
    view = table.view("w2")["rounds"][0]["transmissions"]
    assert view["white"]["status"] == "revealed" and view["black"]["clues"] == ["cat", "dog", "cow"]
    table.decode("black")
    assert table.state.current.number == 2


def test_classic_order_intercepts_before_the_own_decode() -> None:
    table = Table(order="classic")
    table.play_round()
    table.transmit("white")
    table.transmit("black")
    # Black intercepts White's transmission before its own is even read out.
    table.intercept("black", right=True)
    table.refuse("w2", {"type": "propose", "target": "enemy", "code": [1, 2, 3]}, "not_transmitted")
    table.decode("white")
    assert table.tokens("black") == (1, 0)
    table.intercept("white", right=False)
    table.decode("black", right=False)
    assert table.tokens("black") == (1, 1)
    assert table.state.current.number == 3


def test_classic_three_player() -> None:
    table = Table(three_player=True, order="classic")
    table.transmit("white")
    assert table.view("b1")["rounds"][0]["transmissions"]["white"]["clues"] is not None
    table.decode("white")
    assert table.state.current.number == 2
