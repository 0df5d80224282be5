#!/usr/bin/env bash
# Tests for scripts/check-manifests.sh, on copies of the two manifests.
#
#   bash scripts/tests/manifest-tests.sh
#
# Prints `ok - NAME` / `not ok - NAME` per case and ends with `N passed, M failed`.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
check=$root/scripts/check-manifests.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/manifest-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

passed=0 failed=0
expect() { # expect NAME STATUS: runs the check on $tmp/a.swift and $tmp/b.swift
    local actual
    bash "$check" "$tmp/a.swift" "$tmp/b.swift" >/dev/null 2>&1
    actual=$?
    if [[ $actual -eq $2 ]]; then echo "ok - $1"; passed=$((passed + 1)); else
        echo "not ok - $1 (exit $actual, expected $2)"; failed=$((failed + 1)); fi
}
expect3() { # expect3 NAME STATUS: runs the check on $tmp/a.swift, $tmp/b.swift and $tmp/c.swift
    local actual
    bash "$check" "$tmp/a.swift" "$tmp/b.swift" "$tmp/c.swift" >/dev/null 2>&1
    actual=$?
    if [[ $actual -eq $2 ]]; then echo "ok - $1"; passed=$((passed + 1)); else
        echo "not ok - $1 (exit $actual, expected $2)"; failed=$((failed + 1)); fi
}
fresh() {
    cp "$root/Package.swift" "$tmp/a.swift"; cp "$root/Package@swift-6.0.swift" "$tmp/b.swift"
    cp "$root/Package@swift-6.1.swift" "$tmp/c.swift"
}

fresh
expect "the repository's manifests agree" 0

fresh
sed -i 's/"IPDataTestSupport"\]),/"IPDataTestSupport", "IPDataTesting"]),/' "$tmp/b.swift"
expect "a dependency added to one manifest only" 1

fresh
sed -i '/"DocumentationSampleTests"/d' "$tmp/a.swift"
expect "a target left out of one manifest" 1

fresh
sed -i 's/\.visionOS(\.v1)/.visionOS(.v2)/' "$tmp/b.swift"
expect "another platform version" 1

fresh
sed -i '1,3d' "$tmp/b.swift"
expect "header comments may differ" 0

fresh
expect3 "the Swift 6.1 manifest is the package plus the trait" 0

fresh
sed -i '/"DocumentationSampleTests"/d' "$tmp/c.swift"
expect3 "a target left out of the Swift 6.1 manifest" 1

fresh
sed -i 's/\.visionOS(\.v1)/.visionOS(.v2)/' "$tmp/c.swift"
expect3 "another platform version in the Swift 6.1 manifest" 1

fresh
sed -i '/\.trait(/,/^        ),$/d' "$tmp/c.swift"
expect3 "the Swift 6.1 manifest without the trait" 1

fresh
sed -i 's/condition: \.when(traits: \["AsyncHTTPClient"\])//' "$tmp/c.swift"
expect3 "async-http-client not conditioned on the trait" 1

fresh
sed -i 's/\.default(enabledTraits: \[\])/.default(enabledTraits: ["AsyncHTTPClient"])/' "$tmp/c.swift"
expect3 "the trait on by default" 1

fresh
sed -i '/\.library(name: "IPDataAsyncHTTPClient"/d' "$tmp/c.swift"
expect3 "the IPDataAsyncHTTPClient product left out" 1

fresh
sed -i 's|from: "1.33.1"|from: "1.0.0"|' "$tmp/c.swift"
expect3 "another async-http-client version" 1

fresh
sed -i '/^for target in package.targets/,$d' "$tmp/c.swift"
expect3 "the integration suite without AsyncHTTPClientTransport" 1

fresh
sed -i 's/\.target(name: "IPDataAsyncHTTPClient", condition: .when(traits: \["AsyncHTTPClient"\]))/"IPDataAsyncHTTPClient"/' "$tmp/c.swift"
expect3 "the integration suite's transport not conditioned on the trait" 1

fresh
sed -i 's/condition: \.when(traits: \["Hummingbird"\])//' "$tmp/c.swift"
expect3 "hummingbird not conditioned on its trait" 1

fresh
sed -i '/\.trait(name: "Hummingbird"/d' "$tmp/c.swift"
expect3 "the Swift 6.1 manifest without the Hummingbird trait" 1

fresh
sed -i 's|from: "2.26.0", traits: \[\]|from: "2.26.0"|' "$tmp/c.swift"
expect3 "hummingbird with its default trait (swift-configuration)" 1

fresh
sed -i 's/condition: \.when(traits: \["Valkey"\])//' "$tmp/c.swift"
expect3 "valkey-swift not conditioned on the Valkey trait" 1

fresh
sed -i '/\.library(name: "IPDataValkey"/d' "$tmp/c.swift"
expect3 "the IPDataValkey product left out" 1

fresh
sed -i 's|valkey-swift.git", from: "1.4.0"|valkey-swift.git", from: "1.0.0"|' "$tmp/c.swift"
expect3 "another valkey-swift version" 1

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
