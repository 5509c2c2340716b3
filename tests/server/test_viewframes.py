"""View frames: each viewer's frame holds exactly its view, its kind's part encoded once."""

from __future__ import annotations

import random

import msgspec

from codebreakers.games.base import Viewer, ViewParts
from codebreakers.games.decrypto import RULES as DECRYPTO
from codebreakers.server.viewframes import ViewFrames, view_body
from codebreakers.sim.random_decrypto import play, teams_for


def test_own_fields_are_spliced_before_the_shared_ones() -> None:
    assert msgspec.json.decode(view_body({"you": 1}, b'{"a":[2]}')) == {"you": 1, "a": [2]}
    assert msgspec.json.decode(view_body({}, b'{"a":2}')) == {"a": 2}
    assert msgspec.json.decode(view_body({"you": 1}, b"{}")) == {"you": 1}


def test_every_viewer_gets_its_own_view_with_kinds_encoded_once() -> None:
    teams, three = teams_for(6)
    setup = {"options": {"three_player": three}, "teams": teams, "seed": 5, "now": 0.0}
    states: list[object] = []
    play(setup, random.Random(3), after_each=states.append)
    eyes = [Viewer(s) for seats in teams.values() for s in seats] + [Viewer(None)]
    for version, state in enumerate(states[::7], start=1):
        asked: list[object] = []

        def parts(viewer: Viewer, state: object = state, asked: list[object] = asked) -> ViewParts:
            found = DECRYPTO.view_parts(state, viewer)  # type: ignore[arg-type]
            asked.append(found.kind)
            return found

        frames = ViewFrames(parts, "g", version)
        for viewer in eyes:
            frame = msgspec.json.decode(frames.frame(viewer))
            assert frame["type"] == "view" and frame["version"] == version
            assert frame["view"] == DECRYPTO.view(state, viewer)  # type: ignore[arg-type]
        assert len(set(asked)) < len(eyes)  # team members share a kind
        assert len(frames._encoded) == len(set(asked))
