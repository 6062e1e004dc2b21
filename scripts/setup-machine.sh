#!/usr/bin/env bash
# Prepares a fresh Debian machine for the demo and the tests: Debian's Chromium (the UI tests and the
# demo drive it), libkrb5-dev (code-server's native modules build against it), then the npm packages.
# Node 24 and code-server for the real-VS-Code tests are fetched from the npm registry later, into the
# gitignored .vscode-test/ cache, by scripts/vscode/installCodeServer.mjs.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/lib/chromium/chromium ] || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

npm ci --no-audit --no-fund
