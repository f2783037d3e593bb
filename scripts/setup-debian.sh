#!/usr/bin/env bash
# Installs every Debian 12 package that BreakerLab needs to build, test and run its GUI.
# Idempotent: when everything is already installed it only checks and returns.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang-format ccache time python3
  clang libclang-rt-14-dev llvm-14
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libqt6sql6-sqlite qt6-qpa-plugins
  libqcustomplot-dev libqcustomplot2.1-qt6
  libgtest-dev libgmock-dev libbenchmark-dev
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libsqlite3-dev sqlite3 libcurl4-openssl-dev
  fonts-dejavu-core xvfb xauth x11-utils xdotool imagemagick poppler-utils
  haproxy prometheus
)
# The differential tests drive the real opossum and cockatiel: Debian's Node.js and npm, unless
# the machine already has a node and npm of its own.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The npm packages at the versions of each package-lock.json (again only when the lock file
# changed): opossum, cockatiel, @sinonjs/fake-timers and @grpc/grpc-js into
# tests/differential/node_modules;
# opossum, cockatiel, undici, prom-client and yaml into tests/testbed/node_modules (the testbed
# also runs haproxy and prometheus, the Debian packages above).
install_npm_packages() {
  local root dir
  root="$(cd "$(dirname "$0")/.." && pwd)"
  for dir in "$root/tests/differential" "$root/tests/testbed"; do
    if [ -f "$dir/node_modules/.package-lock.json" ] &&
       [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
      continue
    fi
    echo "setup: npm packages for $(basename "$dir") ($(cd "$dir" && node -e 'console.log(Object.keys(require("./package.json").dependencies).join(", "))'))"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  done
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  install_npm_packages
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
  else
    echo "setup: these packages are missing and installing them needs root:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    echo "setup: run this script as root (or install sudo)" >&2
    exit 1
  fi
else
  SUDO=""
fi

echo "setup: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_npm_packages
echo "setup: done"
