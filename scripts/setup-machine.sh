#!/usr/bin/env bash
# Prepares a fresh Debian or Ubuntu machine for the demo and the tests: checks Node, installs Chromium
# (the UI tests and the demo drive it), libkrb5-dev (code-server's native modules build against it) and
# fonts-wqy-zenhei (a small CJK font, so the Chinese panel test and its screenshots render Chinese text
# instead of empty boxes) and git (checkpoints keep their copies in a shadow git repository; the unit tests
# use it too) with apt, then the npm packages. Node 24 and code-server for the real-VS-Code tests are fetched from the
# npm registry later, into the gitignored .vscode-test/ cache, by scripts/vscode/installCodeServer.mjs.
#
# CHROMIUM_PATH=/path/to/chromium skips the Chromium package (Ubuntu's apt "chromium" is a snap that
# headless tests cannot use; point this at a Chromium or Chrome binary instead).
set -euo pipefail
cd "$(dirname "$0")/.."

required_node="20.18.1"
node_version=$(node --version 2>/dev/null | sed 's/^v//') || node_version=""
if [ -z "$node_version" ] || [ "$(printf '%s\n%s\n' "$required_node" "$node_version" | sort -V | head -n 1)" != "$required_node" ]; then
  echo "Relay Chat needs Node.js $required_node or later (found: ${node_version:-none}). Install Node 20 LTS or newer and run this again." >&2
  exit 1
fi

missing=()
if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ ! -x "$CHROMIUM_PATH" ]; then
    echo "CHROMIUM_PATH is set to $CHROMIUM_PATH, which is not an executable file." >&2
    exit 1
  fi
else
  [ -x /usr/lib/chromium/chromium ] || missing+=(chromium)
fi
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
dpkg -s fonts-wqy-zenhei >/dev/null 2>&1 || missing+=(fonts-wqy-zenhei)
command -v git >/dev/null 2>&1 || missing+=(git)
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Missing: ${missing[*]}. This script installs them with apt-get (Debian/Ubuntu); install them by hand, or set CHROMIUM_PATH to a Chromium binary." >&2
    exit 1
  fi
  if grep -qi ubuntu /etc/os-release 2>/dev/null && [[ " ${missing[*]} " == *" chromium "* ]]; then
    echo "Note: on Ubuntu the apt chromium package is a snap that headless tests cannot start; if the tests cannot launch Chromium, set CHROMIUM_PATH to a Chrome or Chromium binary." >&2
  fi
  echo "Installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

npm ci --no-audit --no-fund
