"""A whole game through the engine with people and bots on both teams, as the server runs it.

The "people" are scripted: they write hand-made clues for their keywords, and as deciders they
lock what their bot teammates proposed (trusting them), so the game also checks that bots
read people's clues and that people can rely on bots' proposals in team chat.
"""

from __future__ import annotations

from typing import Any

from codebreakers.bots.base import BotMove
from codebreakers.bots.registry import make_bot
from codebreakers.games.base import Applied, Rejection, Viewer
from codebreakers.games.decrypto import RULES
from codebreakers.games.decrypto.clues import clue_key

HUMAN_CLUES = {
    "ocean": "waves,whale,tide,shark,atlantic,sailor,coral reef,seagull,beach,deep sea",
    "piano": "keyboard,pedals,concert hall,mozart,sonata,recital,musician,melody,symphony,keys",
    "dragon": "fire breathing,legend,wings,treasure hoard,fairy tale,lizard,claws,myth,monster",
    "winter": "snow,december,cold,ski,frost,ice,christmas,scarf,blizzard,snowman",
    "doctor": "hospital,nurse,medicine,stethoscope,surgery,patient,clinic,pills,diagnosis,cure",
    "bread": "toast,bakery,flour,sandwich,loaf,butter,yeast,baguette,crumbs,dough",
    "castle": "moat,king,tower,fortress,throne,drawbridge,palace,queen,knight,walls",
    "rocket": "space,launch,nasa,astronaut,moon landing,fuel,countdown,orbit,liftoff,missile",
}
WORDS = list(HUMAN_CLUES)


class ScriptedPerson:
    """A person at the table: hand-written clues; locks what a teammate proposed."""

    def __init__(self, seat: str) -> None:
        self.seat = seat

    def decide(self, view: dict[str, Any]) -> BotMove | None:
        tasks = {w["task"] for w in view["waiting_for"] if w["seat"] == self.seat}
        team = view["you"]["team"]
        enemy = "black" if team == "white" else "white"
        current = view["rounds"][-1]["transmissions"]
        if "transmit" in tasks:
            used = {
                clue_key(c)
                for r in view["rounds"]
                for t in r["transmissions"].values()
                if t and t["clues"]
                for c in t["clues"]
            }
            keywords = view["teams"][team]["keywords"]
            clues = []
            for digit in current[team]["code"]:
                options = HUMAN_CLUES[keywords[digit - 1]].split(",")
                clue = next(c for c in options if clue_key(c) not in used)
                used.add(clue_key(clue))
                clues.append(clue)
            return BotMove({"type": "transmit", "clues": clues})
        for target, side in (("own", team), ("enemy", enemy)):
            if f"lock_{target}" in tasks:
                answer = current[side]["decode" if target == "own" else "interception"]
                proposals = list((answer["proposals"] or {}).values())
                code = proposals[0] if proposals else [1, 2, 3]
                return BotMove({"type": "lock", "target": target, "code": code})
        if "guess_keywords" in tasks:
            return BotMove({"type": "guess_keywords", "words": ["sun", "cat", "car", "tree"]})
        if "review" in tasks:
            return BotMove({"type": "review_done"})
        return None


def test_people_and_bots_play_a_game_together() -> None:
    teams = {"white": ["w1", "w2", "w3"], "black": ["b1", "b2", "b3"]}
    setup = {
        "options": {"words": "custom", "custom_words": WORDS},
        "teams": teams,
        "seed": 7,
        "now": 0.0,
    }
    state = RULES.new_game(setup)
    assert not isinstance(state, Rejection)
    bots = {
        "w1": make_bot("decrypto", level="hard", lang="custom", seed=1, seat="w1"),
        "w3": make_bot("decrypto", level="easy", lang="custom", seed=2, seat="w3"),
        "b2": make_bot("decrypto", level="normal", lang="custom", seed=3, seat="b2"),
        "b3": make_bot("decrypto", level="hard", lang="custom", seed=4, seat="b3"),
    }
    people = {seat: ScriptedPerson(seat) for seat in ("w2", "b1")}
    chat_lines = 0
    hard_readings: list[tuple[int, str, list[int]]] = []  # (round, team, code) of people's clues
    now = 0.0
    for _ in range(1000):
        if RULES.is_over(state):
            break
        moved = False
        # Bots are quick; people act when no bot has anything left to do.
        for group in (bots, people):
            for seat, player in group.items():
                move = player.decide(RULES.view(state, Viewer(seat)))
                if move is None:
                    continue
                action = move.action
                if (
                    seat in ("w1", "b3")
                    and action["type"] == "propose"
                    and action["target"] == "own"
                ):
                    team = "white" if seat[0] == "w" else "black"
                    hard_readings.append((state.current.number, team, action["code"]))
                if move.chat is not None:
                    assert RULES.can_chat(state, seat, move.channel)
                    chat_lines += 1
                parsed = RULES.parse_action(move.action)
                assert not isinstance(parsed, Rejection), (seat, move.action, parsed)
                now += 1.0
                applied = RULES.apply(state, seat, parsed, now)
                assert isinstance(applied, Applied), (seat, move.action, applied)
                state = applied.state
                moved = True
                break
            if moved:
                break
        assert moved, "nobody can move but the game is not over"
    assert RULES.is_over(state)
    final = RULES.view(state, Viewer(None))
    sent_by_people = {
        (rnd["number"], team): t["code"]
        for rnd in final["rounds"]
        for team, t in rnd["transmissions"].items()
        if t and t["result"] and t["encryptor"] in people
    }
    read = [
        code == sent_by_people[r, t] for r, t, code in hard_readings if (r, t) in sent_by_people
    ]
    assert read, "no hard bot read a person's transmission"
    assert 2 * sum(read) >= len(read)  # hard bots read most of the people's clues right
    results = [
        t["result"]["decoded"]
        for rnd in final["rounds"]
        for t in rnd["transmissions"].values()
        if t and t["result"]
    ]
    assert sum(results) >= 0.6 * len(results)
    assert chat_lines > 0
