"""Leak campaign: no keyword, code, seat token or private note reaches anyone who may not see it.

Two parts, both checked with secrets.py on the bytes that would leave (or did leave) the server:

- engine: thousands of random games (every table size, both orders, open spectators or not);
  after every action each seat's, a spectator's and (when the room opens them) an open
  spectator's view is serialized as the server's `view` frame, and a record is exported for
  each of them as the HTTP route would before the end.
- live: tables of scripted humans plus a spectator tab play on a real server (every other one
  with a host's custom list); every frame each tab received, the room description and each
  player's record fetched mid-game are checked against the game's secrets read from the store
  afterwards. Every other table's tabs are browsers with a profile (issue 22: an identity
  cookie from `GET /api/me`, carried by the socket): no frame, description or record of any
  table (the anonymous tables' and the spectators' too), nor any tab's own `/api/me` or
  `/api/me/games`, may hold a regular's identity secret or its hash, and no frame or
  description names a regular's profile id; each browser's `/api/me` is its own
  profile and `/api/me/games` lists its room. While the game runs its replay is refused
  (`game_not_over`, whoever asks); once it is over, every step of each seat's and the
  spectator's replay (`/api/games/{id}/replay`) is checked like a view frame of that moment.
  The browsers with a profile are four regulars who come back to every such table, whose
  rooms are rated, so their profiles fill with results and, from their fifth game, the
  leaderboard lists them. Mid-game (polled, a regular's browser and an anonymous visitor in
  turn) and again after the end (both), the standings' routes are fetched: `GET
  /api/leaderboard?game=decrypto&page=N`, `GET /api/profiles/{id}` and the pages `/u/{id}` of
  every regular, `/leaderboard` and `/g/{game_id}` of the game being played. Each body must
  answer 200 and hold no identity secret or its hash, no seat token, and none of the game's
  keywords, codes (as a JSON list), notes, drafts, seed or undealt custom words
  (`standing_leaks`); after a rated game, every regular's profile lists it, rated.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec

from codebreakers.campaigns import report
from codebreakers.campaigns.client import Tab
from codebreakers.campaigns.killable_nodes import Cluster, cluster
from codebreakers.campaigns.players import Ledger, identity_cookie, open_table
from codebreakers.campaigns.secrets import (
    Seen,
    Truth,
    bytes_leaks,
    code_leaks,
    shown_guesses,
    view_leaks,
)
from codebreakers.games.base import Rejection, Viewer
from codebreakers.games.decrypto import RULES
from codebreakers.games.records import export_record, replay
from codebreakers.server.rooms.tokens import token_hash
from codebreakers.server.wire.messages import View, encode
from codebreakers.sim.random_decrypto import play, teams_for
from codebreakers.store import open_store

JSON = dict[str, Any]


def _custom_list(rng: random.Random) -> list[str]:
    """A host's list of words no scripted player would type (24, the least a host may set)."""
    return [f"listword{rng.getrandbits(40):010x}" for _ in range(24)]


def _truth(setup: JSON, state: Any, actions: list[JSON]) -> Truth:
    full = RULES.view(state, Viewer(None, True))
    truth = Truth(
        seed=setup["seed"],
        keywords={t: full["teams"][t]["keywords"] for t in ("white", "black")},
        seat_team={s: t for t, seats in setup["teams"].items() for s in seats},
        custom_words=frozenset(setup["options"].get("custom_words") or ()),
    )
    for rnd in full["rounds"]:
        for transmission in rnd["transmissions"].values():
            if transmission is not None and transmission["code"] is not None:
                truth.codes.add(tuple(transmission["code"]))
    for entry in actions:
        action, seat = entry["action"], entry["seat"]
        if action["type"] == "note" and action["text"]:
            truth.notes.setdefault(seat, set()).add(action["text"])
        if action["type"] == "draft":
            truth.drafts.setdefault(seat, set()).update(action["clues"])
    return truth


def _check_frame(text: str, who: Seen, truth: Truth, leaks: Counter[str]) -> None:
    frame = json.loads(text)
    view, room = frame.get("view"), frame.get("room")
    over = (isinstance(view, dict) and view.get("phase") == "over") or (
        isinstance(room, dict) and room.get("status") == "over"  # then the host's list is back
    )
    if isinstance(view, dict) and "teams" in view:
        leaks.update(view_leaks(view, who, truth))
    leaks.update(bytes_leaks(text, who, truth, over, shown_guesses(view)))


def engine_part(games: int, seed: int) -> JSON:
    rng = random.Random(seed)
    leaks: Counter[str] = Counter()
    views = records = 0
    for _ in range(games):
        players = rng.choice([3, 4, 5, 6, 7, 8])
        teams, three = teams_for(players)
        order = rng.choice(["simultaneous", "classic"])
        open_spectators = rng.random() < 0.3
        options: JSON = {"three_player": three, "order": order, "open_spectators": open_spectators}
        if rng.random() < 0.3:
            options.update(words="custom", custom_words=_custom_list(rng))
        game_seed = rng.getrandbits(62)
        setup = {"options": options, "teams": teams, "seed": game_seed, "now": 0.0}
        seats = [s for team in teams.values() for s in team]
        eyes = [Seen(s) for s in seats] + [Seen(None, open_spectators)]
        history: list[Any] = []
        played = play(setup, random.Random(game_seed), after_each=history.append)
        truth = _truth(setup, played.state, played.actions)
        probe = rng.randrange(len(history))
        for index, state in enumerate(history):
            rng.shuffle(eyes)  # whoever comes first fills the kept encodings of finished rounds
            watching = [Viewer(w.seat, w.open_spectators and w.seat is None) for w in eyes]
            # The bytes a server sends: the rules' own serialisation for all viewers at once.
            sent = RULES.views_json(state, watching)
            for who, viewer, view_bytes in zip(eyes, watching, sent, strict=True):
                text = encode(View("g", index + 1, msgspec.Raw(view_bytes))).decode()
                _check_frame(text, who, truth, leaks)
                views += 1
                if index == probe and not RULES.is_over(state):
                    doc = export_record("decrypto", setup, played.actions[: index + 1], [], viewer)
                    records += 1
                    if not who.open_spectators and (doc["actions"] is not None):
                        leaks["replayable record before the end"] += 1
                    view = doc.get("view") or {}
                    text = json.dumps(doc, ensure_ascii=False)
                    opened = who.open_spectators and who.seat is None
                    leaks.update(bytes_leaks(text, who, truth, False, shown_guesses(view), opened))
    return {"games": games, "views_checked": views, "records_checked": records, "leaks": leaks}


async def _spy(
    c: Cluster,
    tabs: list[Tab],
    spectator: Tab,
    found: list[tuple[Seen, str]],
    standings: Standings,
) -> None:
    """While the game runs: the room description and each player's record, as HTTP serves them,
    and the standings' routes (by a browser with a profile and by an anonymous one in turn)."""
    async with httpx.AsyncClient(base_url=c.http, timeout=30) as http:
        for n in itertools.count():
            game_id = tabs[0].game_id  # set before the spy starts (open_table waits for it)
            if game_id is not None:  # first thing: the game has only just started
                cookie = standings.cookie if n % 2 == 0 else None
                await standings.fetch(http, cookie, game_id, page=1 + n // 2 % 2)
            await asyncio.sleep(0.7)
            room = (await http.get(f"/api/rooms/{spectator.room}")).text
            found.append((Seen(None), room))
            for tab in tabs:
                if tab.game_id and tab.view and tab.view["phase"] != "over":
                    assert tab.token is not None  # every tab of the table joined (open_table)
                    got = await http.get(
                        f"/api/games/{tab.game_id}/record", headers={"X-Seat-Token": tab.token}
                    )
                    found.append((Seen(tab.you), got.text))
                    replay = await http.get(f"/api/games/{tab.game_id}/replay?as={tab.you}")
                    if replay.status_code != 409 and not _replay_over(replay.text):
                        found.append((Seen(tab.you), "replay of a running game"))


def _replay_over(text: str) -> bool:
    """Whether a replay answer is of a finished game (the spy may ask as the game ends)."""
    try:
        steps = json.loads(text)["steps"]
    except (ValueError, KeyError, TypeError):
        return False
    return bool(steps) and steps[-1]["view"]["phase"] == "over"


async def _replay_leaks(http: str, game_id: str | None, tabs: list[Tab], truth: Truth) -> JSON:
    """Every step of each seat's replay, and a spectator's, checked as that viewer's frames."""
    leaks: Counter[str] = Counter()
    steps = 0
    async with httpx.AsyncClient(base_url=http, timeout=60) as client:
        for seat in [*(tab.you for tab in tabs if tab.you in truth.seat_team), None]:
            got = await client.get(f"/api/games/{game_id}/replay?as={seat or 'spectator'}")
            if got.status_code != 200:
                leaks[f"replay refused after the end: {got.status_code}"] += 1
                continue
            who = Seen(seat)  # the replay's spectator has no secrets, whatever the room said
            for step in got.json()["steps"]:
                steps += 1
                view = step["view"]
                leaks.update(f"replay: {leak}" for leak in view_leaks(view, who, truth))
                text = json.dumps(view, ensure_ascii=False)
                over = view["phase"] == "over"
                leaks.update(
                    f"replay: {leak}"
                    for leak in bytes_leaks(text, who, truth, over, shown_guesses(view))
                )
    return {"steps": steps, "leaks": leaks}


async def live_part(c: Cluster, tables: int, seed: int) -> JSON:
    rng = random.Random(seed)
    ledger = Ledger()
    leaks: Counter[str] = Counter()
    frames = http_bodies = profiles = replay_steps = standing_mid_game = 0
    regulars = [await identity_cookie(c.http) for _ in range(4)]  # the same four come back
    standings = Standings(regulars[0])
    async with httpx.AsyncClient(base_url=c.http, timeout=30) as http:
        for cookie in regulars:
            standings.known.secrets.append(cookie.split("=", 1)[1])
            me = await http.get("/api/me", headers={"Cookie": cookie})
            standings.known.profile_ids.append(me.json()["profile_id"])
    for i in range(tables):
        options: JSON = {
            "open_spectators": i % 3 == 2,
            "order": rng.choice(["simultaneous", "classic"]),
        }
        if i % 2 == 1:  # the host's list: its room frames only
            options.update(words="custom", custom_words=_custom_list(rng))
        with_profiles = i % 2 == 0
        if with_profiles:
            options["rated"] = True  # so their profiles have results and, at five, a ranking
        table = await open_table(
            c.http,
            c.ws_urls,
            ledger,
            rng,
            options=options,
            cookies=rng.sample(regulars, 4) if with_profiles else None,
        )
        spectator = Tab(c.ws_urls, table.code, rng=random.Random(rng.getrandbits(64)), raw=[])
        await spectator.open()
        await spectator.join("Watcher")
        for tab in table.tabs:
            tab.raw = []
        fetched: list[tuple[Seen, str]] = []
        standings.bodies = []
        spy = asyncio.create_task(_spy(c, table.tabs, spectator, fetched, standings))
        stop = asyncio.Event()
        await asyncio.gather(*(table.play_seat(tab, stop) for tab in table.tabs))
        spy.cancel()
        await asyncio.gather(spy, return_exceptions=True)
        truth = await _live_truth(c.db, table.tabs[0].game_id, [*table.tabs, spectator])
        truth.host = table.tabs[0].you
        mid_game, standings.bodies = standings.bodies, []
        standing_mid_game += len(mid_game)
        game_id = table.tabs[0].game_id
        assert game_id is not None
        async with httpx.AsyncClient(base_url=c.http, timeout=30) as http:
            player = table.tabs[0].cookie if with_profiles else standings.cookie
            for visitor in (player, None):  # a browser with a profile, then an anonymous one
                await standings.fetch(http, visitor, game_id, page=1)
        if with_profiles:
            standings.check_listed(game_id, standings.bodies)
        for route, text in [*mid_game, *standings.bodies]:
            http_bodies += 1
            leaks.update(standing_leaks(route, text, truth, standings.known))
        leaks.update(standings.wrong)
        standings.wrong.clear()
        replayed = await _replay_leaks(c.http, table.tabs[0].game_id, table.tabs, truth)
        replay_steps += replayed["steps"]
        leaks.update(replayed["leaks"])
        opened = options["open_spectators"]
        identities = await _identities(c.http, table.tabs) if with_profiles else None
        for tab in [*table.tabs, spectator]:
            who = Seen(tab.you, opened)
            for text in tab.raw or []:
                frames += 1
                _check_frame(text, who, truth, leaks)
                # Every tab, at a table of the regulars or not: none of their secrets or ids.
                leaks.update(standings.known.leaks(text, named_ok=False))
            await tab.close()
        if identities is not None:
            profiles += len(identities.profile_ids)
            http_bodies += len(identities.bodies)
            for text in identities.bodies:
                leaks.update(identities.leaks(text, named_ok=True))
            leaks.update(identities.wrong)
        for who, text in fetched:
            leaks.update(standings.known.leaks(text, named_ok=False))
            http_bodies += 1
            if text == "replay of a running game":
                leaks[text] += 1
                continue
            doc = json.loads(text)
            if "view" in doc and doc.get("complete") is False:
                leaks.update(view_leaks(doc["view"], Seen(who.seat, opened), truth))
            spectating = opened and who.seat not in truth.seat_team
            full = doc.get("complete") is True and (spectating or _over(doc))
            # A record fetched as the game ended is whole: every secret is public by then.
            leaks.update(bytes_leaks(text, Seen(who.seat, opened), truth, full, seed_allowed=full))
    return {
        "tables": tables,
        "frames_checked": frames,
        "http_checked": http_bodies,
        "browsers_with_profiles": profiles,
        "profiles": len(standings.known.profile_ids),
        "standings_checked": dict(sorted(standings.checked.items())),
        "standings_mid_game": standing_mid_game,
        "leaderboard_entries_checked": standings.entries,
        "replay_steps_checked": replay_steps,
        "leaks": leaks,
    }


class Identities:
    """The identity secrets of a table's browsers, their profile ids, and what each browser's
    own `/api/me` and `/api/me/games` answered (checked like the frames)."""

    def __init__(self) -> None:
        self.secrets: list[str] = []
        self.profile_ids: list[str] = []
        self.bodies: list[str] = []
        self.wrong: Counter[str] = Counter()  # a browser shown another profile, or no room

    def leaks(self, text: str, *, named_ok: bool) -> Counter[str]:
        """Secrets (or their hashes) in `text`; profile ids too unless `named_ok` (a browser's
        own /api/me names its profile: `wrong` checks that it is its own)."""
        found: Counter[str] = Counter()
        for secret in self.secrets:
            if secret in text or token_hash(secret) in text:
                found["identity_secret"] += 1
        if not named_ok and any(p in text for p in self.profile_ids):
            found["profile_id_in_frame"] += 1
        return found


STANDING_ROUTES = ("leaderboard", "leaderboard page", "profile", "profile page", "game page")


@dataclass
class Standings:
    """The routes that show players rather than a game: `GET /api/leaderboard`,
    `/api/profiles/{id}` and the pages `/leaderboard`, `/u/{id}` and `/g/{game_id}`, asked for
    the regulars' profiles (`known` holds their secrets and ids). `cookie` is the browser with a
    profile that asks in turn with the anonymous visitor."""

    cookie: str
    known: Identities = field(default_factory=Identities)
    bodies: list[tuple[str, str]] = field(default_factory=list)  # (route, text) to check
    checked: Counter[str] = field(default_factory=Counter)  # route -> bodies fetched
    entries: int = 0  # leaderboard rows seen (the regulars appear at five rated games)
    wrong: Counter[str] = field(default_factory=Counter)  # refused, or a game missing

    async def fetch(
        self, http: httpx.AsyncClient, cookie: str | None, game_id: str, page: int
    ) -> None:
        """Each route once as this visitor (no cookie: anonymous), into `bodies`."""
        asks = [
            ("leaderboard", f"/api/leaderboard?game=decrypto&page={page}"),
            ("leaderboard page", "/leaderboard"),
            ("game page", f"/g/{game_id}"),
            *(("profile", f"/api/profiles/{p}") for p in self.known.profile_ids),
            *(("profile page", f"/u/{p}") for p in self.known.profile_ids),
        ]
        for route, path in asks:
            http.cookies.clear()  # the anonymous visitor keeps none; a browser sends its own
            got = await http.get(path, headers={"Cookie": cookie} if cookie else None)
            if got.status_code != 200:  # a refusal's body would pass every check, vacuously
                self.wrong[f"{route} answered {got.status_code}"] += 1
                continue
            self.checked[route] += 1
            if route == "leaderboard":
                self.entries += len(got.json()["entries"])
            self.bodies.append((route, got.text))

    def check_listed(self, game_id: str, bodies: list[tuple[str, str]]) -> None:
        """After a rated game of the regulars, every profile fetched lists it, rated: the
        profiles checked have results (docs/ratings.md, last_games)."""
        for route, text in bodies:
            if route == "profile":
                listed = {g["game_id"]: g for g in json.loads(text)["last_games"]}
                if game_id not in listed:
                    self.wrong["rated game not on a profile"] += 1
                elif not listed[game_id]["rated"]:
                    self.wrong["rated game unrated on a profile"] += 1


def standing_leaks(route: str, text: str, truth: Truth, known: Identities) -> Counter[str]:
    """What a leaderboard, profile or page body must never hold, whoever asks, mid-game or
    after: an identity secret or its hash (profile ids are rightly there), a seat token, and
    none of the game's secrets (keywords, codes, notes, drafts, seed, the host's list)."""
    found: Counter[str] = Counter()
    found.update(f"{route}: {leak}" for leak in known.leaks(text, named_ok=True))
    found.update(f"{route}: {leak}" for leak in bytes_leaks(text, Seen(None), truth, False))
    found.update(f"{route}: {leak}" for leak in code_leaks(text, truth))
    return found


async def _identities(http: str, tabs: list[Tab]) -> Identities:
    """Each browser's own profile and games, asked with its cookie after the game."""
    known = Identities()
    async with httpx.AsyncClient(base_url=http, timeout=30) as client:
        for tab in tabs:
            assert tab.cookie is not None
            known.secrets.append(tab.cookie.split("=", 1)[1])
            me = await client.get("/api/me", headers={"Cookie": tab.cookie})
            games = await client.get("/api/me/games", headers={"Cookie": tab.cookie})
            known.bodies += [me.text, games.text]
            known.profile_ids.append(me.json()["profile_id"])
            if me.headers.get("set-cookie"):  # the secret named no profile: a new one was made
                known.wrong["identity_forgotten"] += 1
            listed = {g["game_id"] for g in games.json()["games"]}
            if tab.game_id not in listed:
                known.wrong["game_not_in_your_games"] += 1
    if len(set(known.profile_ids)) != len(tabs):
        known.wrong["profile_shared"] += 1
    return known


def _over(doc: JSON) -> bool:
    """Whether a record replays to a finished game: then it is rightly full, seed and all (the
    spy may ask for a player's record just as the last action ends the game)."""
    played = replay(doc)
    return bool(played.rules.is_over(played.state))


async def _live_truth(db: str, game_id: str | None, tabs: list[Tab]) -> Truth:
    store = open_store(db)
    await store.open()
    try:
        assert game_id is not None
        game = await store.load_game(game_id)
    finally:
        await store.close()
    assert game is not None
    actions: list[JSON] = [{"seat": a.seat, "action": a.action, "at": a.at} for a in game.actions]
    # A stored game was accepted action by action: none of these can be refused on replay.
    state = RULES.new_game(game.setup)
    assert not isinstance(state, Rejection), state
    for a in game.actions:
        action = RULES.parse_action(a.action)
        assert not isinstance(action, Rejection), action
        applied = RULES.apply(state, a.seat, action, a.at)
        assert not isinstance(applied, Rejection), applied
        state = applied.state
    truth = _truth(game.setup, state, actions)
    truth.tokens = {tab.you: tab.token for tab in tabs if tab.you and tab.token}
    return truth


def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    engine = engine_part(args.games or 2000, args.seed)

    async def go() -> JSON:
        with cluster(args.db, args.redis, args.nodes) as c:
            return await live_part(c, args.count or 6, args.seed)

    live = asyncio.run(go())
    summary = {
        "campaign": "leaks",
        "seed": args.seed,
        "engine": {**engine, "leaks": dict(engine["leaks"])},
        "live": {**live, "leaks": dict(live["leaks"])},
        "seconds": round(time.monotonic() - started, 1),
    }
    return report(summary, sorted(set(engine["leaks"]) | set(live["leaks"])), args.json)
