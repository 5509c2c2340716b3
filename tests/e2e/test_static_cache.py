"""A return visit asks the server for the page alone: the client's files come under the build's
path, cached for a year, so none of them is fetched or revalidated again (each answered 304
before); the page, the catalogs and the How-to-play texts still work from there."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from e2e.table_driver import DESKTOP, TIMEOUT_MS

pytestmark = pytest.mark.browser


def test_a_return_visit_fetches_only_the_page(browser: Browser, server_url: str) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="fr")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    answers: dict[str, tuple[str, int]] = {}  # request id -> (url, status)
    cached: set[str] = set()  # request ids the browser answered from its cache

    def answered(event: dict) -> None:
        response = event["response"]
        if response.get("fromDiskCache"):
            cached.add(event["requestId"])
        answers[event["requestId"]] = (response["url"], int(response["status"]))

    cdp.on("Network.responseReceived", answered)
    cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))

    def from_network() -> list[tuple[str, int]]:
        return [
            answer
            for rid, answer in answers.items()
            if "/static/" in answer[0] and rid not in cached
        ]

    try:
        page.goto(server_url)
        expect(page.locator("#quick-name")).to_be_visible()
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        first = from_network()
        builds = {url.split("/static/", 1)[1].split("/")[0] for url, _ in first}
        assert len(builds) == 1 and len(builds.pop()) == 12, first  # one build names every file
        answers.clear()
        page.goto(server_url)  # the return visit
        expect(page.locator("#quick-name")).to_be_visible()
        again = [answer for answer in from_network() if answer in first]
        assert again == [], again  # neither fetched again nor revalidated (a 304)
        # Files asked for the first time come from the same build: the How-to-play texts.
        page.click("header.topbar button.ghost >> nth=0")
        expect(page.locator("dialog, .rules").first).to_be_visible()
    finally:
        context.close()
