#!/usr/bin/env bash
# Refreshes the browser client's vendored UI library (Preact + hooks + htm) and its icons (the
# Lucide icons the client uses, as one SVG sprite) from the npm registry.
# The versions are pinned here; the files land in src/codebreakers/web/vendor/ with a VERSIONS
# file and are committed, so neither users nor tests ever need npm or a CDN.
# Usage: scripts/vendor-ui.sh   (edit PREACT/HTM/LUCIDE below to move to other versions; add an
# icon's Lucide name to ICONS to use it through components/common.js's Icon)
set -euo pipefail
PREACT=11.2.0
HTM=3.1.1
LUCIDE=1.62.0
ICONS="arrow-down arrow-right arrow-up bell bell-off bot copy crown dices download eye flag
hourglass key-round lightbulb lock lock-keyhole message-square-off play repeat scale search
target triangle-alert x chevron-left chevron-right chevrons-left chevrons-right pause upload link history"
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/src/codebreakers/web/vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "preact@$PREACT" "htm@$HTM" "lucide-static@$LUCIDE" >/dev/null
mkdir preact htm lucide
tar xzf "preact-$PREACT.tgz" -C preact
tar xzf "htm-$HTM.tgz" -C htm
tar xzf "lucide-static-$LUCIDE.tgz" -C lucide
mkdir -p "$dest"
rm -f "$dest"/*.js "$dest"/*.mjs
cp preact/package/dist/preact.mjs "$dest/preact.js"
# Files are named .js so any static server sends a JavaScript type. The hooks import the bare
# specifier "preact": point it at the file beside it, so no import map (an inline script) is
# needed and the page's Content-Security-Policy can forbid every inline script.
sed 's#from"preact"#from"./preact.js"#g' preact/package/hooks/dist/hooks.mjs >"$dest/hooks.js"
grep -q 'from"./preact.js"' "$dest/hooks.js" || { echo "hooks.js import not rewritten" >&2; exit 1; }
cp htm/package/dist/htm.mjs "$dest/htm.js"
# One sprite of <symbol>s, each keeping its icon's stroke attributes, so `<use href=...#name>`
# draws it in currentColor; one cached file instead of a request per icon.
python3 - "$dest/icons.svg" lucide/package/icons $ICONS <<'PY'
import re, sys
out, folder, names = sys.argv[1], sys.argv[2], sys.argv[3:]
symbols = []
for name in names:
    svg = open(f"{folder}/{name}.svg", encoding="utf-8").read()
    head, body = re.search(r"<svg([^>]*)>(.*)</svg>", svg, re.S).groups()
    keep = re.findall(r'\s((?:viewBox|fill|stroke[\w-]*)="[^"]*")', head)
    inner = " ".join(line.strip() for line in body.strip().splitlines())
    symbols.append(f'<symbol id="{name}" {" ".join(keep)}>{inner}</symbol>')
with open(out, "w", encoding="utf-8") as f:
    f.write('<svg xmlns="http://www.w3.org/2000/svg">\n' + "\n".join(symbols) + "\n</svg>\n")
PY
cp preact/package/LICENSE "$dest/LICENSE-preact"
cp htm/package/LICENSE "$dest/LICENSE-htm"
cp lucide/package/LICENSE "$dest/LICENSE-lucide"
{
  echo "# Vendored by scripts/vendor-ui.sh from the npm registry; do not edit by hand."
  echo "preact $PREACT sha512:$(sha512sum "preact-$PREACT.tgz" | cut -d' ' -f1)"
  echo "htm $HTM sha512:$(sha512sum "htm-$HTM.tgz" | cut -d' ' -f1)"
  echo "lucide-static $LUCIDE sha512:$(sha512sum "lucide-static-$LUCIDE.tgz" | cut -d' ' -f1)"
} >"$dest/VERSIONS"
echo "vendored preact $PREACT, htm $HTM and $(wc -w <<<"$ICONS") lucide-static $LUCIDE icons into $dest"
