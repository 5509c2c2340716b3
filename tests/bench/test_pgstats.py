"""Which PostgreSQL the bench measures, and which of its processes count as the benchmark's."""

from __future__ import annotations

from urllib.parse import urlsplit

from codebreakers.bench.pgstats import (
    DEFAULT_PORT,
    _listening_ports,
    _ours,
    _postmasters,
    local_postgres,
)


def test_only_a_postgresql_on_this_machine_is_measured() -> None:
    assert local_postgres("postgresql://postgres@127.0.0.1:5432/cb") == (
        "postgresql://postgres@127.0.0.1:5432/cb",
        "cb",
    )
    # SQLAlchemy's driver spelling is given to asyncpg without it
    assert local_postgres("postgresql+asyncpg://u@localhost/x") == (
        "postgresql://u@localhost/x",
        "x",
    )
    assert local_postgres("postgresql://u@db.example.org/x") is None
    assert local_postgres("sqlite:///tmp/bench.db") is None
    assert local_postgres(None) is None


def test_backends_of_other_databases_are_left_out() -> None:
    ours = "postgres: 15/main: postgres cb_bench_1 127.0.0.1(40112) idle"
    other = "postgres: 15/main: postgres cb_campaign_9 127.0.0.1(40113) idle"
    prefix = "postgres: 15/main: postgres cb_bench_10 127.0.0.1(40114) idle"
    assert _ours(ours, "cb_bench_1")
    assert not _ours(other, "cb_bench_1")
    assert not _ours(prefix, "cb_bench_1")  # a name that only starts like ours
    assert _ours("postgres: 15/main: walwriter", "cb_bench_1")  # the server's own processes
    assert _ours("postgres: 15/main: checkpointer", "cb_bench_1")


def test_the_server_listening_on_the_urls_port_is_the_one_measured(postgres_url: str) -> None:
    port = urlsplit(postgres_url).port or DEFAULT_PORT
    masters = _postmasters(port)
    assert len(masters) == 1 and port in _listening_ports(masters[0])
    # a port nothing listens on: every PostgreSQL of the machine, as before
    assert len(_postmasters(1)) >= 1
