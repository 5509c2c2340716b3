"""Names at a table: no two players of a room go by the same name (compared folded), and a name
holds no line or paragraph separator nor any invisible format character."""

from __future__ import annotations

import pytest
from server_harness import SCRIPTED_BOTS, Client, new_room

from codebreakers.server.errors import Refused
from codebreakers.server.rooms import document


def test_names_compare_folded() -> None:
    same = ["Ann", "ann", "ANN", "ａｎｎ", "A\ufe0fnn", "Ann\u3164"]
    assert {document.name_key(name) for name in same} == {"ann"}
    assert document.name_key("Jo  Ann") == document.name_key("jo ann")
    assert document.name_key("Straße") == document.name_key("STRASSE")
    assert document.name_key("Anna") != document.name_key("Ann")


@pytest.mark.parametrize(
    "name",
    ["Ann\u2028Bob", "Ann\u2029Bob", "Ann\u0085Bob", "A\u00adnn", "A\u200bnn", "\u202eA", "\ufe0f"],
)
def test_separators_format_characters_and_invisible_names_are_refused(name: str) -> None:
    with pytest.raises(Refused) as refused:
        document.clean_name(name)
    assert refused.value.code == "bad_name"


def test_emoji_with_their_selectors_stay_allowed() -> None:
    assert document.clean_name("❤\ufe0f Ann") == "❤\ufe0f Ann"


def test_a_player_cannot_join_or_rename_to_another_players_name(server) -> None:
    code = new_room(server)
    ann, bob = Client(server, code), Client(server, code)
    ann.join("Ann")
    bob.send({"type": "join", "id": "j", "name": "ａｎｎ"})
    assert bob.expect("error")["code"] == "name_taken"
    bob.join("Bob")
    assert bob.request({"type": "rename", "name": "ANN"})["code"] == "name_taken"
    assert bob.request({"type": "rename", "name": "A\ufe0fnn"})["code"] == "name_taken"
    assert [p["name"] for p in bob.room["players"]] == ["Ann", "Bob"]
    ann.ok({"type": "rename", "name": "ann"})  # one's own name, written otherwise: fine
    bob.ok({"type": "rename", "name": "Bobby"})
    assert bob.request({"type": "rename", "name": "Bob\u2028by"})["code"] == "bad_name"


def test_a_bots_name_is_taken_too(server_with) -> None:
    server = server_with(SCRIPTED_BOTS)
    code = new_room(server)
    host = Client(server, code)
    host.join("Host")
    host.ok({"type": "add_bot", "team": "black", "index": 0, "level": "easy"})
    bot = next(p["name"] for p in host.room["players"] if p["kind"] == "bot")
    newcomer = Client(server, code)
    newcomer.send({"type": "join", "id": "j", "name": bot.upper()})
    assert newcomer.expect("error")["code"] == "name_taken"
