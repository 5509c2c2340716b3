"""Timers as data: deadlines from the state's times, and what a timeout does."""

from __future__ import annotations

from decrypto_table import Table

from codebreakers.games.decrypto import RULES


def deadlines(table: Table) -> list[dict[str, object]]:
    return table.view(None)["deadlines"]  # type: ignore[no-any-return]


def test_no_timers_by_default() -> None:
    table = Table()
    table.transmit("white")
    assert RULES.next_deadline(table.state) is None and deadlines(table) == []


def test_sand_timer_gives_the_late_encryptor_30_seconds() -> None:
    table = Table(sand_timer=True)
    assert RULES.next_deadline(table.state) is None
    table.do("b1", {"type": "draft", "clues": ["late", "", "zork1a"]})
    table.transmit("white", ["zork1a", "sea", "sky"])
    sent = table.state.current.transmissions[0].transmitted_at  # type: ignore[union-attr]
    assert deadlines(table) == [
        {"at": sent + 30, "kind": "sand", "team": "black", "target": None, "seconds": 30}
    ]
    table.refuse("system", {"type": "timeout"}, "no_deadline_passed")  # one second later
    table.timeout(sent + 30)
    black = table.t("black")
    # What was typed is sent; the empty slot and the clue White already gave become blanks.
    assert black.clues == ("late", "", "")
    assert black.draft is None and black.transmitted_at == sent + 30  # sent by the timer
    assert RULES.next_deadline(table.state) is None


def test_sand_timer_without_a_draft_sends_blanks() -> None:
    table = Table(sand_timer=True)
    table.transmit("black")
    table.timeout(2000)
    assert table.t("white").clues == ("", "", "")
    table.decode("white")
    table.decode("black")
    assert table.state.current.number == 2


def test_clue_limit_forces_both_transmissions() -> None:
    table = Table(clue_limit_s=120)
    assert RULES.next_deadline(table.state) == 1000 + 120
    pie = table.state.table.keywords[0][1] + " pie"  # an own keyword as a word
    table.do("w1", {"type": "draft", "clues": [pie, "ok", ""]})
    view = table.view("w1")["rounds"][0]["transmissions"]["white"]
    assert view["draft"] == [pie, "ok", ""]
    assert view["clue_warnings"] == [["clue_is_keyword"], [], []]
    assert table.view("w2")["rounds"][0]["transmissions"]["white"]["draft"] is None
    table.timeout(1120)
    assert table.t("white").clues == ("", "ok", "")
    assert table.t("black").clues == ("", "", "")


def test_decide_limit_locks_the_latest_proposal() -> None:
    table = Table(decide_limit_s=60)
    table.transmit("white")
    sent = table.now
    table.do("w2", {"type": "propose", "target": "own", "code": table.wrong("white")})
    table.do("w2", {"type": "propose", "target": "own", "code": table.code("white")})
    assert {
        "at": sent + 60,
        "kind": "decide",
        "team": "white",
        "target": "own",
        "seconds": 60,
    } in deadlines(table)
    table.timeout(sent + 60)
    assert table.t("white").revealed and table.tokens("white") == (0, 0)


def test_decide_limit_without_proposal_counts_as_wrong() -> None:
    table = Table(decide_limit_s=60)
    table.transmit("white")
    table.transmit("black")
    table.timeout(table.now + 60)
    assert table.state.current.number == 2
    assert table.tokens("white") == (0, 1) and table.tokens("black") == (0, 1)


def test_decide_limit_for_an_interception_opens_after_the_own_decode() -> None:
    table = Table(decide_limit_s=60)
    table.play_round()
    table.transmit("white")
    table.transmit("black")
    table.decode("black")
    opened = table.now
    expected = {
        "at": opened + 60,
        "kind": "decide",
        "team": "black",
        "target": "enemy",
        "seconds": 60,
    }
    assert expected in deadlines(table)
    assert not any(d["target"] == "enemy" and d["team"] == "white" for d in deadlines(table))
    table.decode("white")
    table.intercept("white", right=True)
    table.timeout(opened + 60)  # Black's interception: not tried, costs nothing
    assert table.state.current.number == 3
    assert table.tokens("black") == (0, 0) and table.tokens("white") == (1, 0)
    view = table.view("w1")["rounds"][1]["transmissions"]["white"]
    assert view["interception"]["locked"] and view["interception"]["code"] is None
    assert view["result"] == {"decoded": True, "intercepted": False}


def test_a_timeout_that_ends_the_round_does_not_touch_the_next() -> None:
    table = Table(decide_limit_s=60, clue_limit_s=60)
    table.transmit("white")
    table.transmit("black")
    table.timeout(table.now + 100)
    assert table.state.current.number == 2
    assert table.t("white").clues is None
    assert RULES.next_deadline(table.state) == table.now + 60


def test_tiebreak_deadlines() -> None:
    table = Table(decide_limit_s=60)
    for _ in range(8):
        table.play_round()
    assert table.state.phase == "tiebreak_guess"
    started = table.now
    assert RULES.next_deadline(table.state) == started + 60
    table.do(
        table.decider("white"),
        {"type": "guess_keywords", "words": list(table.state.table.keywords[1])},
    )
    table.timeout(started + 60)
    assert table.state.phase == "tiebreak_review"
    table.timeout(started + 120)
    result = RULES.outcome(table.state)
    assert result is not None and result["winner"] == "white" and result["reason"] == "keywords"
