#!/usr/bin/env bash
# Installs Debian's Chromium (and CJK fonts for Korean) for the browser tests: never a browser
# download. Without root it only says what is missing; the tests then skip (or fail under CI=true).
set -eu
if [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -qi "noto sans cjk"; then
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: /usr/bin/chromium or CJK fonts missing; run as root: apt-get install -y chromium fonts-noto-cjk" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
