"""Rooms: the stored document and its changes, room codes, seat tokens, chat, the hub that
holds a room on this node."""
