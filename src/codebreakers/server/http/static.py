"""The client's files, with a cache lifetime that never mixes two versions.

The page (`index.html`, `no-cache`) names its files under a path holding the build, the hash of
every file of `web/`: `/static/{build}/app.js`. Those are immutable for a year, and the modules
import one another by relative paths, the catalogs and the icons are fetched relative to their
module, so the whole client of one page comes from one build: a deploy changes the build, the
page names the new one, and a return visit revalidates the page alone instead of fifty files.
The plain `/static/...` path serves the same files for whatever names one directly (an old page
still open, a bookmark), revalidated each time (ETag).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from starlette.responses import Response
from starlette.staticfiles import StaticFiles

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@lru_cache(maxsize=4)
def build_id(folder: Path) -> str:
    """A short hash of every file's path and bytes: it changes with any change of the client."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@lru_cache(maxsize=4)
def index_page(folder: Path) -> bytes:
    """index.html with every `/static/` file it names under the build's path."""
    page = (folder / "index.html").read_text(encoding="utf-8")
    return page.replace('"/static/', f'"/static/{build_id(folder)}/').encode()


class CachedFiles(StaticFiles):
    """Starlette's static files with one Cache-Control for every answer."""

    def __init__(self, folder: Path, cache_control: str) -> None:
        super().__init__(directory=folder, check_dir=False)
        self.cache_control = cache_control

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = self.cache_control
        return response
