"""Static guarantees of the browser client that need no browser: the vendored library is the
pinned one and self-contained, and nothing in the client reaches outside the site."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "codebreakers" / "web"
SCRIPT = ROOT / "scripts" / "vendor-ui.sh"


def pinned(name: str) -> str:
    found = re.search(rf"^{name}=(\S+)$", SCRIPT.read_text(), re.M)
    assert found, name
    return found.group(1)


def test_vendored_versions_are_the_pinned_ones() -> None:
    versions = (WEB / "vendor" / "VERSIONS").read_text()
    assert f"preact {pinned('PREACT')} sha512:" in versions
    assert f"htm {pinned('HTM')} sha512:" in versions
    assert f"lucide-static {pinned('LUCIDE')} sha512:" in versions
    for name in ("preact.js", "hooks.js", "htm.js"):
        assert (WEB / "vendor" / name).stat().st_size > 500


def test_every_icon_used_is_in_the_vendored_sprite() -> None:
    """The icons named in the vendor script are the sprite's, and every icon a component names
    literally is one of them (a missing one would draw nothing)."""
    listed = re.search(r'^ICONS="([^"]*)"', SCRIPT.read_text(), re.M)
    assert listed
    sprite = (WEB / "vendor" / "icons.svg").read_text(encoding="utf-8")
    assert set(re.findall(r'<symbol id="([\w-]+)"', sprite)) == set(listed.group(1).split())
    assert (WEB / "vendor" / "LICENSE-lucide").stat().st_size > 500
    used: set[str] = set()
    for path in WEB.rglob("*.js"):
        if "vendor" not in path.parts:
            used |= set(re.findall(r'Icon\} name="([\w-]+)"', path.read_text(encoding="utf-8")))
    assert len(used) > 10
    assert sorted(used - set(listed.group(1).split())) == []


def test_modules_import_only_relative_paths() -> None:
    """No bare specifier (it would need an import map) and no URL (a CDN at run time)."""
    imports = re.compile(r"""(?:from|import)\s*["']([^"']+)["']""")
    for path in WEB.rglob("*.js"):
        for spec in imports.findall(path.read_text(encoding="utf-8")):
            assert spec.startswith("./") or spec.startswith("../"), (path.name, spec)


def test_no_third_party_url_and_no_inline_script() -> None:
    page = (WEB / "index.html").read_text(encoding="utf-8")
    assert "default-src 'self'" in page
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts == [(' type="module" src="/static/app.js"', "")]  # no inline code
    urls = re.compile(r"""["'(]\s*(?:https?:)?//""")
    for path in [*WEB.rglob("*.js"), *WEB.rglob("*.css"), WEB / "index.html"]:
        if "vendor" in path.parts:
            continue
        assert not urls.search(path.read_text(encoding="utf-8")), path.name


def test_user_text_is_never_set_as_html() -> None:
    for path in WEB.rglob("*.js"):
        if "vendor" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        assert "innerHTML" not in text and "dangerouslySetInnerHTML" not in text, path.name


# Modules only the replay screen uses, loaded when it opens (app.js's import()), so that a
# table's first load does not carry them (docs/performance.md, "Browser client first load").
ON_DEMAND = {"components/replay.js", "replay.js"}


def test_index_preloads_every_module() -> None:
    """No build step means many small modules; preloading them all from the page lets the
    browser fetch them in parallel rather than one level of imports after another."""
    page = (WEB / "index.html").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'rel="modulepreload" href="/static/([^"]+)"', page))
    modules = {p.relative_to(WEB).as_posix() for p in WEB.rglob("*.js")} - {"app.js"}
    assert preloaded == modules - ON_DEMAND


def test_on_demand_modules_are_imported_only_on_demand() -> None:
    app = (WEB / "app.js").read_text(encoding="utf-8")
    assert 'import("./components/replay.js")' in app
    for path in WEB.rglob("*.js"):
        if path.name == "replay.js" and path.parent.name == "components":
            continue  # it imports the replay's data module, both on demand
        text = path.read_text(encoding="utf-8")
        for name in ON_DEMAND:
            assert not re.search(rf'from "[./]*{re.escape(name)}"', text), (path, name)
