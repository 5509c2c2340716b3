"""The scale-out bus: Redis pub/sub on one channel shared by every server node.

Redis pub/sub is at-most-once: a message published while a subscriber is disconnected is gone.
That is acceptable because a message is only a hint ("room R is at version n") and the store
holds the truth; while `healthy` is False the server polls the store, and after a reconnect it
catches up. So this bus never raises into the game flow: `publish` queues the message and
returns, a background task sends it. When sending fails the message, and every later one until
Redis answers a ping again, is counted as an error and delivered to this node's own listener
only (other nodes are then unhealthy and polling anyway). The subscriber reconnects with capped,
jittered exponential backoff by itself. A silent network (no RST) is caught by pinging
through the subscription when it has been quiet.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from codebreakers.bus.base import BusStats, Listener, Notice
from codebreakers.bus.mailbox import Mailbox, encode

# Fixed texts, the values as `extra=` fields: server/ops/logs.py writes those as fields of the
# line (JSON), as it does structlog's bound context, so a search by field finds bus lines too.
log = logging.getLogger(__name__)

CHANNEL = "codebreakers:rooms"
SEND_BATCH = 500  # messages per pipelined round trip when the outbox has piled up


class RedisBus:
    """A Bus over one Redis pub/sub channel; `name` shows in Redis's CLIENT LIST."""

    def __init__(
        self,
        url: str,
        *,
        channel: str = CHANNEL,
        name: str = "codebreakers-bus",
        backoff: tuple[float, float] = (0.1, 5.0),
        ping_interval: float = 5.0,
        connect_timeout: float = 2.0,
        outbox_size: int = 10_000,
    ) -> None:
        self.name = name
        self._channel = channel
        self._backoff = backoff
        self._ping_interval = ping_interval
        self._stats = BusStats()
        self._mailbox = Mailbox(self._stats)
        self._outbox: asyncio.Queue[bytes] = asyncio.Queue(maxsize=outbox_size)
        # The publisher rides out a pooled connection that Redis closed with a quick retry;
        # the subscriber reports every failure to us, because we resubscribe ourselves.
        self._publisher = Redis.from_url(
            url,
            client_name=name,
            socket_connect_timeout=connect_timeout,
            socket_timeout=connect_timeout,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
        )
        # Its socket timeout bounds the connection handshake; reads while subscribed pass their
        # own timeout, so a quiet channel is never mistaken for a dead one.
        self._subscriber = Redis.from_url(
            url,
            client_name=name,
            socket_connect_timeout=connect_timeout,
            socket_timeout=connect_timeout,
            retry=Retry(NoBackoff(), 0),
        )
        self._healthy = False
        self._publish_failing = False
        self._first_attempt = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self, listener: Listener) -> None:
        """Start delivering; returns once the first subscription succeeded or failed."""
        self._mailbox.start(listener)
        self._tasks = [
            asyncio.create_task(self._subscribe_forever(), name="bus-redis-subscribe"),
            asyncio.create_task(self._send_forever(), name="bus-redis-publish"),
        ]
        await self._first_attempt.wait()

    async def publish(self, notice: Notice) -> None:
        payload = encode(notice)
        if self._publish_failing:
            self._deliver_here_only(payload)
            return
        try:
            self._outbox.put_nowait(payload)
        except asyncio.QueueFull:
            log.warning(
                "bus: the outbox to Redis is full; dropped one",
                extra={"queued": self._outbox.qsize()},
            )
            self._deliver_here_only(payload)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        await self._mailbox.close()
        await self._publisher.aclose()
        await self._subscriber.aclose()
        self._healthy = False

    @property
    def stats(self) -> BusStats:
        return self._stats

    @property
    def shared(self) -> bool:
        """Yes: every node subscribed to the channel hears it."""
        return True

    @property
    def healthy(self) -> bool:
        """True while subscribed to the channel."""
        return self._healthy

    async def _send_forever(self) -> None:
        """Send what is queued, all of it in one pipelined round trip when messages pile up."""
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < SEND_BATCH:
                batch.append(self._outbox.get_nowait())
            try:
                async with self._publisher.pipeline(transaction=False) as pipe:
                    for payload in batch:
                        pipe.publish(self._channel, payload)
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                log.warning(
                    "bus: publishing to Redis fails; only this node hears",
                    extra={"error": repr(exc)},
                )
                self._publish_failing = True
                for payload in batch:
                    self._deliver_here_only(payload)
                while not self._outbox.empty():
                    self._deliver_here_only(self._outbox.get_nowait())
                await self._until_redis_answers()
                self._publish_failing = False
                log.info("bus: publishing to Redis works again")
            else:
                self._stats.published += len(batch)

    def _deliver_here_only(self, payload: bytes) -> None:
        """A publish that didn't reach Redis: counted, and still heard by this node."""
        self._stats.errors += 1
        self._mailbox.put(payload)

    async def _until_redis_answers(self) -> None:
        delay = self._backoff[0]
        while True:
            await asyncio.sleep(delay * random.uniform(0.5, 1.0))
            delay = min(delay * 2, self._backoff[1])
            with contextlib.suppress(RedisError, OSError):
                await self._publisher.ping()
                return

    async def _subscribe_forever(self) -> None:
        low, high = self._backoff
        delay = low
        while True:
            was_healthy = False
            try:
                await self._listen()
            except (RedisError, OSError) as exc:
                was_healthy = self._healthy
                if was_healthy or not self._first_attempt.is_set():
                    log.warning(
                        "bus: lost the Redis subscription; reconnecting",
                        extra={"error": repr(exc)},
                    )
            finally:
                self._healthy = False
            self._first_attempt.set()
            delay = low if was_healthy else min(delay * 2, high)
            await asyncio.sleep(delay * random.uniform(0.5, 1.0))
            self._stats.reconnects += 1

    async def _listen(self) -> None:
        """Subscribe and pass messages on until the connection fails (which raises)."""
        pubsub = self._subscriber.pubsub()
        try:
            await pubsub.subscribe(self._channel)
            loop = asyncio.get_running_loop()
            heard = pinged = loop.time()
            while True:
                item = await pubsub.get_message(timeout=min(1.0, self._ping_interval))
                now = loop.time()
                if item is None:
                    if now - heard >= 2 * self._ping_interval:
                        raise RedisConnectionError("Redis stopped answering pings")
                    if now - max(heard, pinged) >= self._ping_interval:
                        await pubsub.ping()
                        pinged = now
                    continue
                heard = now
                if item["type"] == "subscribe":
                    self._healthy = True
                    self._first_attempt.set()
                    log.info("bus: subscribed to Redis", extra={"channel": self._channel})
                elif item["type"] == "message":
                    self._mailbox.put(item["data"])
        finally:
            with contextlib.suppress(RedisError, OSError):
                await pubsub.aclose()  # type: ignore[no-untyped-call]
