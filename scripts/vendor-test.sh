#!/usr/bin/env bash
# Refreshes what the browser tests inject into pages (never served by the site): axe-core, the
# accessibility checker tests/e2e/test_a11y.py runs on every screen, from the npm registry.
# The version is pinned here; the files land in tests/e2e/vendor/ with a VERSIONS file and its
# licences, and are committed, so the tests never need npm or a CDN.
# Usage: scripts/vendor-test.sh   (edit AXE below to move to another version)
set -euo pipefail
AXE=4.14.1
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/tests/e2e/vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "axe-core@$AXE" >/dev/null
mkdir axe
tar xzf "axe-core-$AXE.tgz" -C axe
mkdir -p "$dest"
cp axe/package/axe.min.js "$dest/axe.min.js"
cp axe/package/LICENSE "$dest/LICENSE-axe-core"
cp axe/package/LICENSE-3RD-PARTY.txt "$dest/LICENSE-axe-core-3RD-PARTY.txt"
{
  echo "# Vendored by scripts/vendor-test.sh from the npm registry; do not edit by hand."
  echo "axe-core $AXE sha512:$(sha512sum "axe-core-$AXE.tgz" | cut -d' ' -f1)"
} >"$dest/VERSIONS"
echo "vendored axe-core $AXE into $dest"
