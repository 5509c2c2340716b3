"""A view's frame with its envelope encoded once per action (`messages.encode_views`) is, byte
for byte, the frame `encode(View(...))` gives, whatever the game id and version."""

from __future__ import annotations

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from codebreakers.server.wire.messages import View, encode, encode_views

views = st.lists(
    st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=20), max_size=4),
    max_size=7,
)


@given(st.text(max_size=40), st.integers(min_value=0, max_value=2**53), views)
def test_the_spliced_frames_are_the_encoded_messages(
    game_id: str, version: int, listed: list[dict[str, object]]
) -> None:
    encoded = [msgspec.json.encode(view) for view in listed]
    expected = [encode(View(game_id, version, msgspec.Raw(view))) for view in encoded]
    assert encode_views(game_id, version, encoded) == expected
