#!/usr/bin/env bash
# Refreshes the browser client's vendored UI library (Preact + hooks + htm) from the npm registry.
# The versions are pinned here; the files land in src/codebreakers/web/vendor/ with a VERSIONS
# file and are committed, so neither users nor tests ever need npm or a CDN.
# Usage: scripts/vendor-ui.sh   (edit PREACT/HTM below to move to other versions)
set -euo pipefail
PREACT=11.2.0
HTM=3.1.1
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/src/codebreakers/web/vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "preact@$PREACT" "htm@$HTM" >/dev/null
mkdir preact htm
tar xzf "preact-$PREACT.tgz" -C preact
tar xzf "htm-$HTM.tgz" -C htm
mkdir -p "$dest"
rm -f "$dest"/*.js "$dest"/*.mjs
cp preact/package/dist/preact.mjs "$dest/preact.js"
# Files are named .js so any static server sends a JavaScript type. The hooks import the bare
# specifier "preact": point it at the file beside it, so no import map (an inline script) is
# needed and the page's Content-Security-Policy can forbid every inline script.
sed 's#from"preact"#from"./preact.js"#g' preact/package/hooks/dist/hooks.mjs >"$dest/hooks.js"
grep -q 'from"./preact.js"' "$dest/hooks.js" || { echo "hooks.js import not rewritten" >&2; exit 1; }
cp htm/package/dist/htm.mjs "$dest/htm.js"
cp preact/package/LICENSE "$dest/LICENSE-preact"
cp htm/package/LICENSE "$dest/LICENSE-htm"
{
  echo "# Vendored by scripts/vendor-ui.sh from the npm registry; do not edit by hand."
  echo "preact $PREACT sha512:$(sha512sum "preact-$PREACT.tgz" | cut -d' ' -f1)"
  echo "htm $HTM sha512:$(sha512sum "htm-$HTM.tgz" | cut -d' ' -f1)"
} >"$dest/VERSIONS"
echo "vendored preact $PREACT and htm $HTM into $dest"
