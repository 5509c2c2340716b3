"""What travels on the socket: the message types both ways, one connection's writer, and the
uvicorn protocols that write frames directly and bound slow clients."""
