"""Playing a game: the runner over the stored log, timers, bot seats, retries, the
translation warning."""
