#!/usr/bin/env bash
# Builds the web page into web/dist/: the engine compiled to WebAssembly
# (wasm32-unknown-unknown, the library without its `cli` feature), bound
# by wasm-bindgen, beside the page's static files. The result works from
# any static host, and offline once loaded: nothing is fetched from
# elsewhere.
#
# Needs: rustup's wasm32-unknown-unknown target and the wasm-bindgen CLI
# at the version web/Cargo.toml pins; with WOUNDSIM_WEB_INSTALL=1 this
# script installs whichever is missing.
set -euo pipefail
cd "$(dirname "$0")"

version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' Cargo.toml)
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  if [ "${WOUNDSIM_WEB_INSTALL:-0}" = 1 ]; then
    rustup target add wasm32-unknown-unknown
  else
    echo "web/build.sh: the wasm32-unknown-unknown target is missing: rustup target add wasm32-unknown-unknown (or WOUNDSIM_WEB_INSTALL=1)" >&2
    exit 1
  fi
fi
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$version" ]; then
  if [ "${WOUNDSIM_WEB_INSTALL:-0}" = 1 ]; then
    # A debug build: about two minutes instead of five on two cores, and
    # the same output (checked: byte-identical .wasm and glue), in seconds.
    cargo install wasm-bindgen-cli --version "$version" --bin wasm-bindgen --debug
  else
    echo "web/build.sh: wasm-bindgen $version is missing: cargo install wasm-bindgen-cli --version $version (or WOUNDSIM_WEB_INSTALL=1)" >&2
    exit 1
  fi
fi

cargo build --locked --release --target wasm32-unknown-unknown
rm -rf dist
mkdir -p dist/pkg
wasm-bindgen --target web --no-typescript --out-dir dist/pkg \
  target/wasm32-unknown-unknown/release/woundsim_web.wasm
cp static/index.html static/app.js static/gm.js static/worker.js static/style.css dist/
# The offline cache's name: a hash of everything it caches.
build=$(cat dist/*.html dist/*.js dist/*.css dist/pkg/* | sha256sum | cut -c1-16)
sed "s/woundsim-BUILD/woundsim-$build/" static/sw.js > dist/sw.js
echo "web/build.sh: wrote $(du -sh dist | cut -f1) to web/dist/ (serve it with any static server, e.g. python3 -m http.server -d web/dist)"
