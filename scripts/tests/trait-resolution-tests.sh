#!/usr/bin/env bash
# An app that depends on IPData without the AsyncHTTPClient, Hummingbird or Valkey trait resolves
# and fetches nothing: a throwaway package beside this one resolves it with no network (a fresh
# network namespace), no mirrors, no SwiftPM cache and an empty configuration. With a trait, the
# same resolve must try to fetch its dependency, async-http-client, hummingbird or valkey-swift
# (which shows that the first case could fail).
#
#   bash scripts/tests/trait-resolution-tests.sh
#
# Needs a Swift 6.1+ toolchain (traits) and unshare(1). Prints `ok - NAME` / `not ok - NAME`
# per case and ends with `N passed, M failed`.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trait-resolution-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ "$(id -u)" = 0 ]; then offline=(unshare --net); else offline=(unshare --user --map-root-user --net); fi

passed=0 failed=0
pass() { echo "ok - $1"; passed=$((passed + 1)); }
fail() { echo "not ok - $1: $2"; failed=$((failed + 1)); }

# app DEPENDENCY: a package whose one target imports IPData through DEPENDENCY.
app() {
    rm -rf "$tmp/app" "$tmp/home" "$tmp/cache" "$tmp/config" "$tmp/security"
    mkdir -p "$tmp/app/Sources/App" "$tmp/home" "$tmp/config"
    cat >"$tmp/app/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "App",
    dependencies: [$1],
    targets: [.target(name: "App", dependencies: [.product(name: "IPData", package: "ipdata")])]
)
SWIFT
    echo 'import IPData' >"$tmp/app/Sources/App/App.swift"
    ln -s "$root" "$tmp/ipdata"
}

resolve() { # offline, without mirrors or caches; output in $tmp/out
    HOME="$tmp/home" "${offline[@]}" -- swift package --package-path "$tmp/app" --disable-dependency-cache \
        --cache-path "$tmp/cache" --config-path "$tmp/config" --security-path "$tmp/security" resolve \
        >"$tmp/out" 2>&1
}

rm -f "$tmp/ipdata"
app '.package(path: "'"$tmp/ipdata"'")'
if ! resolve; then
    fail "without the trait, resolves offline" "$(cat "$tmp/out")"
elif fetched=$(find "$tmp/app/.build/checkouts" "$tmp/app/.build/repositories" -mindepth 1 2>/dev/null) &&
    [ -n "$fetched" ]; then
    fail "without the trait, resolves offline" "it fetched: $fetched"
elif grep -qE 'async-http-client|hummingbird|valkey-swift|swift-metrics|swift-distributed-tracing|swift-crypto|swift-log|vapor' "$tmp/out" "$tmp/app/Package.resolved" 2>/dev/null; then
    fail "without the trait, resolves offline" "a trait's dependency named: $(cat "$tmp/out")"
else
    pass "without the trait, resolves offline and fetches nothing"
fi

# wants TRAIT DEPENDENCY: with TRAIT on, the resolve tries to fetch DEPENDENCY (and fails offline).
wants() {
    rm -f "$tmp/ipdata"
    app '.package(path: "'"$tmp/ipdata"'", traits: ["'"$1"'"])'
    if resolve; then
        fail "with the $1 trait, fetches $2" "it resolved offline: $(cat "$tmp/out")"
    elif ! grep -q "$2" "$tmp/out"; then
        fail "with the $1 trait, fetches $2" "another failure: $(cat "$tmp/out")"
    else
        pass "with the $1 trait, wants $2 (and fails offline)"
    fi
}
wants AsyncHTTPClient async-http-client
wants Hummingbird hummingbird
wants Valkey valkey-swift
wants Observability swift-metrics
wants Vapor vapor

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
