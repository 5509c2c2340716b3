"""Ratings and results of finished games (docs/ratings.md): their tables (`schema.py`), the
port (`base.py`), what a game's end writes (`settle.py`, the same for both databases) and each
database's SQL (`sqlite.py`, `postgres.py`); `ratings_of(store)` in `open.py`."""
