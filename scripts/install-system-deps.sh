#!/usr/bin/env bash
# Installs the Debian packages facepipe builds against, only those missing.
# Idempotent: a second run does nothing and needs no network.
set -euo pipefail

# chromium: the tests render report.html in it (headless). FFmpeg's libraries
# decode video inputs and encode redacted video; the ffmpeg package's
# command-line tools make the test clips and read outputs back (ffprobe).
packages=(libturbojpeg0-dev libpng-dev libarchive-dev libavformat-dev libavcodec-dev libavutil-dev
          pkg-config python3 python3-venv python3-pip chromium ffmpeg)
# Extra packages a caller needs (e.g. `make bench` adds libjpeg-turbo-progs for tjbench).
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
  # python3 from pyenv or elsewhere satisfies the python packages.
  case "$p" in
    python3) command -v python3 >/dev/null && continue ;;
    python3-venv) command -v python3 >/dev/null && python3 -c 'import venv, ensurepip' 2>/dev/null && continue ;;
    python3-pip) command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

[ ${#missing[@]} -eq 0 ] && exit 0

echo "facepipe setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "facepipe setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 2; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
