"""A round in the default (simultaneous) order: transmissions, decodes, interceptions, reveals."""

from __future__ import annotations

import pytest
from decrypto_table import Table

from codebreakers.games.base import SYSTEM_SEAT


def test_a_transmission_is_final_and_public_at_once() -> None:
    table = Table()
    table.refuse("w2", {"type": "transmit", "clues": ["a1x", "b", "c"]}, "not_encryptor")
    table.refuse("b2", {"type": "transmit", "clues": ["a1x", "b", "c"]}, "not_encryptor")
    table.transmit("white", ["sun", "sea", "sky"])
    table.refuse("w1", {"type": "transmit", "clues": ["x", "y", "z"]}, "already_transmitted")
    table.refuse("w1", {"type": "draft", "clues": ["x", "y", "z"]}, "already_transmitted")
    for seat in ("w1", "w2", "b1", "b2", None):
        view = table.view(seat)
        assert view["rounds"][0]["transmissions"]["white"]["clues"] == ["sun", "sea", "sky"]
        assert view["rounds"][0]["transmissions"]["white"]["status"] == "decoding"


def test_blank_clues_are_refused_when_typed() -> None:
    table = Table()
    table.refuse("w1", {"type": "transmit", "clues": ["sun", "  ", "sky"]}, "blank_clue")


def test_round_one_has_no_interception() -> None:
    table = Table()
    table.transmit("white")
    table.transmit("black")
    table.refuse("b2", {"type": "lock", "target": "enemy", "code": [1, 2, 3]}, "no_interception")
    table.refuse("b1", {"type": "propose", "target": "enemy", "code": [1, 2, 3]}, "no_interception")
    table.decode("white", right=True)
    assert table.state.current.transmissions[0].revealed
    assert table.tokens("white") == (0, 0)
    table.decode("black", right=False)
    assert table.state.current.number == 2
    assert table.tokens("black") == (0, 1)


def test_decoding_waits_for_the_transmission() -> None:
    table = Table()
    table.refuse("w2", {"type": "lock", "target": "own", "code": [1, 2, 3]}, "not_transmitted")
    table.refuse("w2", {"type": "propose", "target": "own", "code": [1, 2, 3]}, "not_transmitted")


def test_proposals_by_teammates_and_locking_by_the_decider() -> None:
    table = Table(3, 2)
    table.transmit("white")
    table.refuse(
        "w1", {"type": "propose", "target": "own", "code": [1, 2, 3]}, "encryptor_cannot_decode"
    )
    table.do("w2", {"type": "propose", "target": "own", "code": [1, 2, 3]})
    table.do("w3", {"type": "propose", "target": "own", "code": [2, 1, 3]})
    table.do("w2", {"type": "propose", "target": "own", "code": [4, 1, 3]})
    assert table.t("white").decode.proposals == (("w3", (2, 1, 3)), ("w2", (4, 1, 3)))
    assert table.decider("white") == "w3"
    table.refuse("w2", {"type": "lock", "target": "own", "code": [1, 2, 3]}, "not_decider")
    table.refuse("w1", {"type": "lock", "target": "own", "code": [1, 2, 3]}, "not_decider")
    table.refuse("b1", {"type": "propose", "target": "own", "code": [1, 2, 3]}, "not_transmitted")
    table.decode("white")
    table.refuse("w2", {"type": "propose", "target": "own", "code": [1, 2, 3]}, "already_locked")
    table.refuse("w3", {"type": "lock", "target": "own", "code": [1, 2, 3]}, "already_locked")


def test_interception_from_round_two_after_the_own_decode() -> None:
    table = Table()
    table.play_round()
    table.transmit("white")
    table.transmit("black")
    # Black has not locked its own decode yet: it may not work on White's transmission.
    table.refuse(
        "b1", {"type": "propose", "target": "enemy", "code": [1, 2, 3]}, "own_decode_first"
    )
    table.refuse(
        table.decider("black"),
        {"type": "lock", "target": "enemy", "code": [1, 2, 3]},
        "own_decode_first",
    )
    table.decode("black")
    # The encryptor takes part in intercepting.
    encryptor = table.t("black").encryptor
    table.do(encryptor, {"type": "propose", "target": "enemy", "code": [1, 2, 3]})
    table.refuse(encryptor, {"type": "lock", "target": "enemy", "code": [1, 2, 3]}, "not_decider")


def test_reveal_only_when_decode_and_interception_are_locked() -> None:
    table = Table()
    table.play_round()
    table.transmit("white")
    table.transmit("black")
    table.decode("white", right=False)
    assert not table.t("white").revealed
    assert table.view("b1")["rounds"][1]["transmissions"]["white"]["code"] is None
    table.decode("black")
    table.intercept("black", right=True)
    white = table.state.rounds[1].transmissions[0]
    assert white is not None and white.revealed
    assert table.tokens("white") == (0, 1)
    assert table.tokens("black") == (1, 0)
    # White's transmission of round 2 is revealed: its code, not decoded, intercepted.
    shown = table.view("b1")["rounds"][1]["transmissions"]["white"]
    assert shown["code"] == list(white.code)
    assert (white.decoded, white.intercepted) == (False, True)
    assert table.state.current.number == 2  # Black's transmission is not revealed yet
    table.intercept("white", right=False)
    assert table.state.current.number == 3
    assert table.tokens("white") == (0, 1)


def test_tokens_for_each_result() -> None:
    table = Table()
    table.play_round()
    table.play_round(decoded=(True, False), intercepted=(True, False))
    assert table.tokens("white") == (1, 0)
    assert table.tokens("black") == (0, 1)


def test_the_encryptor_is_muted_in_every_channel_while_its_team_decodes() -> None:
    """Its teammates read all chat too: a straight face in every channel (RULES.md)."""
    table = Table(3, 2)
    assert can_chat(table, "w1", "team") and can_chat(table, "w1", "all")
    table.transmit("white")
    assert not can_chat(table, "w1", "team") and not can_chat(table, "w1", "all")
    assert can_chat(table, "w2", "team") and can_chat(table, "w2", "all")
    assert can_chat(table, "b1", "all")  # the enemy's encryptor hasn't transmitted yet
    assert table.view("w1")["you"]["can_team_chat"] is False
    assert table.view("w2")["you"]["can_team_chat"] is True
    table.decode("white")
    assert can_chat(table, "w1", "team") and can_chat(table, "w1", "all")


def can_chat(table: Table, seat: str, channel: str) -> bool:
    from codebreakers.games.decrypto import RULES

    return RULES.can_chat(table.state, seat, channel)


def test_chat_channels() -> None:
    from codebreakers.games.decrypto import RULES

    table = Table()
    assert RULES.can_chat(table.state, "spectator-1", "all")
    assert not RULES.can_chat(table.state, "spectator-1", "team")
    assert not RULES.can_chat(table.state, "w1", "whisper")
    assert RULES.seat_team(table.state, "b2") == "black"
    assert RULES.seat_team(table.state, "nobody") is None


def test_notes_are_private_and_any_player_may_write_them() -> None:
    table = Table()
    table.do("w2", {"type": "note", "number": 3, "text": "  something   about\tsea "})
    table.do("b1", {"type": "note", "number": 1, "text": "birds"})
    assert table.view("w2")["notes"] == {"3": "something about sea"}
    assert table.view("w1")["notes"] == {}
    assert table.view("b1")["notes"] == {"1": "birds"}
    table.do("w2", {"type": "note", "number": 3, "text": ""})
    assert table.view("w2")["notes"] == {}
    table.refuse("visitor", {"type": "note", "number": 1, "text": "x"}, "not_a_player")


@pytest.mark.parametrize("kind", ["draft", "transmit", "propose", "lock", "note", "review_done"])
def test_spectators_and_the_system_seat_cannot_play(kind: str) -> None:
    table = Table()
    raw = {
        "draft": {"type": "draft", "clues": ["a", "b", "c"]},
        "transmit": {"type": "transmit", "clues": ["a", "b", "c"]},
        "propose": {"type": "propose", "target": "own", "code": [1, 2, 3]},
        "lock": {"type": "lock", "target": "own", "code": [1, 2, 3]},
        "note": {"type": "note", "number": 1, "text": "x"},
        "review_done": {"type": "review_done"},
    }[kind]
    table.refuse("visitor", raw, "not_a_player")
    table.refuse(SYSTEM_SEAT, raw, "not_a_player")


def test_only_the_system_seat_sends_timeouts() -> None:
    table = Table(decide_limit_s=30)
    table.refuse("w1", {"type": "timeout"}, "system_only")
    table.refuse(SYSTEM_SEAT, {"type": "timeout"}, "no_deadline_passed")


def test_tiebreak_actions_during_a_round_are_refused() -> None:
    table = Table()
    table.refuse("w2", {"type": "guess_keywords", "words": ["a", "b", "c", "d"]}, "wrong_phase")
    table.refuse("w2", {"type": "accept_guess", "number": 1, "accept": True}, "wrong_phase")
    table.refuse("w2", {"type": "review_done"}, "wrong_phase")
