"""The node: its rooms, the bus and the store; catching up with other nodes; shutting down."""
