"""The client's files are cached for a year under the build's path, which the page (never
cached without revalidation) names; the plain path is revalidated (server/http/static.py)."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient

from codebreakers.server.http import static
from codebreakers.server.http.routes import WEB_DIR


def test_the_page_names_the_builds_files_which_are_immutable(server: TestClient) -> None:
    page = server.get("/")
    assert page.headers["cache-control"] == "no-cache"
    build = static.build_id(WEB_DIR)
    assert f'src="/static/{build}/app.js"' in page.text
    assert '"/static/app.js"' not in page.text
    named = re.findall(r'"(/static/[^"]+)"', page.text)
    assert named and all(url.startswith(f"/static/{build}/") for url in named)
    for url in (named[0], f"/static/{build}/i18n/fr.json", f"/static/{build}/components/home.js"):
        answer = server.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["cache-control"] == static.IMMUTABLE
    plain = server.get("/static/app.js")
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
    assert server.get("/r/ABCDEF").text == page.text


def test_the_build_changes_with_any_file(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("1")
    (tmp_path / "index.html").write_text('<script src="/static/a.js"></script>')
    first = static.build_id(tmp_path)
    copy = tmp_path.parent / f"{tmp_path.name}-2"
    copy.mkdir()
    (copy / "a.js").write_text("2")
    (copy / "index.html").write_text('<script src="/static/a.js"></script>')
    assert static.build_id(copy) != first
    assert (
        static.index_page(copy)
        == f'<script src="/static/{static.build_id(copy)}/a.js"></script>'.encode()
    )
