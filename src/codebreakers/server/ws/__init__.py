"""The WebSocket endpoint: the handshake and one client's session, message by message."""
