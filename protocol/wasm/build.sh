#!/usr/bin/env bash
# Builds Vorpal's WebAssembly package: `bash protocol/wasm/build.sh DIR` writes DIR/npm/
# (package.json versioned with the crate, vorpal.wasm and vorpal-simd.wasm, the ES module
# vorpal.mjs, the Worker script vorpal-worker.js, and bin/vorpal.mjs, a UCI engine over
# stdin/stdout under node) and DIR/site/ (the static GUI: vorpal gui's page with the game
# logic compiled to WebAssembly and the engine in Web Workers; serve the folder as it is).
#
# The toolchain: rustup's wasm32-unknown-unknown target where rustup is there (added when
# missing); otherwise Debian's packages (rustc-web, cargo-web, rust-web-src, lld-22, installed
# when missing), which build std from source (-Zbuild-std; RUSTC_BOOTSTRAP lets their stable
# compiler take the flag). VORPAL_WASM_TOOLCHAIN=debian forces the second route.
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: bash protocol/wasm/build.sh DIR" >&2
    exit 2
fi
mkdir -p "$1"
out="$(cd "$1" && pwd)"
cd "$(dirname "$0")/../.."
root="$(pwd)"
target=wasm32-unknown-unknown
started=$(date +%s)

route=rustup
if [ "${VORPAL_WASM_TOOLCHAIN:-}" = debian ]; then
    route=debian
elif ! command -v rustup >/dev/null 2>&1; then
    route=debian
elif ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    rustup target add "$target" >&2 || route=debian
fi

build_std=()
if [ "$route" = debian ]; then
    missing=()
    for p in rustc-web cargo-web rust-web-src lld-22; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo=sudo
        echo "build.sh: installing ${missing[*]} from Debian's packages" >&2
        $sudo apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
    fi
    export PATH="/usr/bin:$PATH"
    export RUSTC_BOOTSTRAP=1
    build_std=(-Zbuild-std=std,panic_abort)
fi
echo "build.sh: toolchain: $route ($(rustc --version))" >&2

# One module without and one with WebAssembly SIMD; each in its own target directory, as
# the flags differ.
build() {
    local dir=$1 flags=$2
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$flags" cargo rustc -p vorpal-wasm --profile wasm \
        --target "$target" --target-dir "$dir" "${build_std[@]}" --crate-type cdylib >&2
}
build "$root/target/wasm-plain" ""
build "$root/target/wasm-simd" "-C target-feature=+simd128"

npm="$out/npm"
rm -rf "$npm"
mkdir -p "$npm/bin"
cp "$root/target/wasm-plain/$target/wasm/vorpal_wasm.wasm" "$npm/vorpal.wasm"
cp "$root/target/wasm-simd/$target/wasm/vorpal_wasm.wasm" "$npm/vorpal-simd.wasm"
cp protocol/wasm/js/vorpal.mjs protocol/wasm/js/vorpal-worker.js "$npm/"
cp protocol/wasm/js/bin/vorpal.mjs "$npm/bin/vorpal.mjs"
chmod +x "$npm/bin/vorpal.mjs"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
sed "s/@VERSION@/$version/" protocol/wasm/js/package.json >"$npm/package.json"
if ! command -v node >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs >&2
fi
site="$out/site"
rm -rf "$site"
node protocol/wasm/js/write-site.mjs "$npm" "$site" >&2
echo "build.sh: wrote $npm (version $version) and $site in $(($(date +%s) - started)) s" >&2
