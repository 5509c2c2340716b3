"""Passkeys in Chromium (its WebAuthn virtual authenticator, over CDP): a profile secured with a
passkey in one browser is signed into from a fresh browser context holding the same passkey
(as a passkey synced to another device is), which then is that profile, back in its seat at the
table the first browser joined; and the identity cookie is HttpOnly, out of the page's reach.

WebAuthn needs a secure context and a domain for its relying party id, so the pages are
opened at http://localhost rather than 127.0.0.1.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from e2e.table_driver import DESKTOP

pytestmark = pytest.mark.browser

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def open_page(browser: Browser, url: str) -> tuple[BrowserContext, Page, CDPSession, str]:
    """A fresh browser context at the home page with a virtual authenticator of its own."""
    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    page.goto(url)
    expect(page.locator("#me-title")).to_be_visible()
    return context, page, cdp, added["authenticatorId"]


def me(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("fetch('/api/me').then((r) => r.json())")
    return found


def test_a_passkey_made_in_one_browser_signs_a_fresh_one_into_the_same_profile(
    browser: Browser, server_url: str
) -> None:
    url = server_url.replace("127.0.0.1", "localhost")
    first, page, cdp, authenticator = open_page(browser, url)
    second = None
    try:
        owner = me(page)
        assert owner["passkeys"] == 0
        page.click("#me-add-passkey")
        expect(page.locator("#me-secured")).to_contain_text("Secured with a passkey")
        assert me(page)["passkeys"] == 1
        (credential,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})[
            "credentials"
        ]
        assert credential["isResidentCredential"] and credential["rpId"] == "localhost"

        # The owner creates a private room from the home page and sits at it.
        page.click("form.create button[type=submit]")
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
        page.fill("#join-name", "Ana")
        page.click(".join-form button[type=submit]")
        expect(page.locator(".tag.you")).to_be_visible()
        code = page.url.rsplit("/", 1)[1]
        for _ in range(50):  # the name typed to play becomes the profile's (me.js adoptName)
            owner = me(page)
            if owner["name"] == "Ana":
                break
            page.wait_for_timeout(100)
        assert owner["name"] == "Ana"

        second, other, other_cdp, other_authenticator = open_page(browser, url)
        stranger = me(other)
        assert stranger["profile_id"] != owner["profile_id"]
        other_cdp.send(
            "WebAuthn.addCredential",
            {"authenticatorId": other_authenticator, "credential": credential},
        )
        other.click("#me-sign-in")
        expect(other.locator("#me-secured")).to_contain_text("Secured with a passkey")
        assert me(other)["profile_id"] == owner["profile_id"]
        expect(other.locator("#me-name")).to_have_value(owner["name"])
        # Both browsers are that profile now, each with its own cookie, out of scripts' reach.
        assert me(page)["profile_id"] == owner["profile_id"]
        cookies = {c["name"]: c for c in second.cookies()}
        assert cookies["cb_id"]["httpOnly"] and cookies["cb_id"]["sameSite"] == "Lax"
        assert "cb_id" not in other.evaluate("document.cookie")
        first_secret = {c["name"]: c for c in first.cookies()}["cb_id"]["value"]
        assert cookies["cb_id"]["value"] != first_secret
        # The signed-in browser lists the owner's table and goes back to the owner's own seat,
        # though it never held its seat token: no second player joins.
        other.reload()
        other.locator(".your-games a", has_text=code).click()
        expect(other.locator(".tag.you")).to_be_visible()  # the lobby marks its own seat
        assert other.evaluate(f"localStorage.getItem('cb.token.{code}')") is not None
        room = other.evaluate(f"fetch('/api/rooms/{code}').then((r) => r.json())")
        assert [p["name"] for p in room["players"]] == ["Ana"]
    finally:
        first.close()
        if second is not None:
            second.close()
