"""What a Decrypto bot reads off its seat's view (docs/views.md), and nothing else.

Only public facts and the seat's own secrets are here: our keywords, our encryptor's code when
we are the encryptor, every revealed clue placed under its keyword number, every clue given.
"""

from __future__ import annotations

from dataclasses import dataclass

from codebreakers.bots.base import JSON
from codebreakers.bots.interceptor import History

TEAMS = ("white", "black")


@dataclass(frozen=True, slots=True)
class Table:
    view: JSON
    seat: str
    team: str
    enemy: str

    @classmethod
    def of(cls, view: JSON) -> Table | None:
        you = view.get("you") or {}
        seat, team = you.get("seat"), you.get("team")
        if seat is None or team not in TEAMS:
            return None
        return cls(view, seat, team, TEAMS[1 - TEAMS.index(team)])

    @property
    def keywords(self) -> list[str]:
        return list(self.view["teams"][self.team]["keywords"] or [])

    @property
    def round(self) -> int:
        return int(self.view["round"])

    def current(self, team: str) -> JSON | None:
        """The team's transmission of the current round (None if that team doesn't transmit)."""
        rounds = self.view["rounds"]
        return rounds[-1]["transmissions"].get(team) if rounds else None

    def tasks(self) -> set[str]:
        """What the game waits for from this seat."""
        return {w["task"] for w in self.view["waiting_for"] if w["seat"] == self.seat}

    def team_waited_for(self, task: str) -> bool:
        """Whether the game waits for someone of our team to do `task` (so it is open)."""
        seats = set(self.view["teams"][self.team]["seats"])
        return any(w["task"] == task and w["seat"] in seats for w in self.view["waiting_for"])

    def history(self, team: str) -> History:
        """The team's revealed clues by keyword number, oldest first."""
        columns: dict[int, list[str]] = {1: [], 2: [], 3: [], 4: []}
        for rnd in self.view["rounds"]:
            t = rnd["transmissions"].get(team)
            if t and t["status"] == "revealed" and t["clues"] and t["code"]:
                for clue, digit in zip(t["clues"], t["code"], strict=True):
                    if clue:
                        columns[int(digit)].append(clue)
        return columns

    def used_clues(self) -> list[str]:
        """Every clue given so far in the game, by either team."""
        used: list[str] = []
        for rnd in self.view["rounds"]:
            for t in rnd["transmissions"].values():
                if t and t["clues"]:
                    used += [c for c in t["clues"] if c]
        return used
