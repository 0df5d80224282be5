#!/usr/bin/env bash
# Fails when Package.swift and Package@swift-6.0.swift describe different packages, or when
# Package@swift-6.1.swift is not that package plus the AsyncHTTPClient and Valkey traits.
#
#   bash scripts/check-manifests.sh [Package.swift Package@swift-6.0.swift [Package@swift-6.1.swift]]
#
# Swift 5.9 and 5.10 read Package.swift, Swift 6 toolchains read Package@swift-6.0.swift; the
# two must declare the same platforms, products, dependencies and targets. They may differ only
# in their header comments and in the Swift 6 manifest's `swiftLanguageModes`. Prints the
# difference and exits 1 when there is another.
#
# Swift 6.1 and later read Package@swift-6.1.swift: every line of the Swift 6 manifest's package,
# in order, plus only additions, and those must declare the `AsyncHTTPClient` trait (off by
# default), the async-http-client dependency, the IPDataAsyncHTTPClient product and target, the
# target's dependency on AsyncHTTPClient under that trait, and IPDataIntegrationTests' dependency
# on IPDataAsyncHTTPClient under it (added after the package, so that the target's line stays);
# the `Hummingbird` trait, the hummingbird dependency, the IPDataHummingbird product, target and
# test target that use it under that trait; and likewise the
# `Valkey` trait, the valkey-swift dependency, the IPDataValkey product and target, and its
# dependency on Valkey under that trait; the `Vapor` trait, the vapor dependency, the IPDataVapor
# product and target that use it under that trait, and IPDataServer, which the Hummingbird and
# Vapor targets share. (Checked when the file exists or is named: the two-file
# form checks the first two only.)
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
first=${1:-$here/Package.swift}
second=${2:-$here/Package@swift-6.0.swift}
if [ $# -ge 2 ]; then third=${3:-}; else third=$here/Package@swift-6.1.swift; fi

# From `let package` on, without the language-mode line and without trailing commas (the line
# before swiftLanguageModes needs one there and none here).
body() {
    sed -n '/^let package = Package(/,$p' "$1" | grep -v 'swiftLanguageModes:' | sed 's/,[[:space:]]*$//'
}

if ! difference=$(diff <(body "$first") <(body "$second")); then
    echo "check-manifests: $(basename "$first") and $(basename "$second") differ; keep them in step:" >&2
    printf '%s\n' "$difference" >&2
    exit 1
fi
echo "check-manifests: $(basename "$first") and $(basename "$second") declare the same package"

[ -n "$third" ] || exit 0
# The lines the 6.1 manifest adds (`>`), and fails on any line of the Swift 6 one it lacks (`<`).
changes=$(diff <(body "$second") <(body "$third") | grep '^[<>]' || true)
if removed=$(grep '^<' <<<"$changes"); then
    echo "check-manifests: $(basename "$third") lacks what $(basename "$second") declares:" >&2
    printf '%s\n' "$removed" >&2
    exit 1
fi
added=$(grep '^>' <<<"$changes" | sed 's/^> //' | tr -d ',\n' | tr -s ' ' || true)
missing=()
for needed in \
    '.trait( name: "AsyncHTTPClient"' \
    '.default(enabledTraits: [])' \
    '.package(url: "https://github.com/swift-server/async-http-client.git", from: "1.33.1")' \
    '.library(name: "IPDataAsyncHTTPClient", targets: ["IPDataAsyncHTTPClient"])' \
    '.target( name: "IPDataAsyncHTTPClient"' \
    '.product( name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"]))' \
    'target.name == "IPDataIntegrationTests"' \
    '.target(name: "IPDataAsyncHTTPClient" condition: .when(traits: ["AsyncHTTPClient"]))' \
    '.trait(name: "Hummingbird"' \
    '.package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.26.0", traits: [])' \
    '.library(name: "IPDataHummingbird", targets: ["IPDataHummingbird"])' \
    '.target( name: "IPDataHummingbird"' \
    '.testTarget( name: "IPDataHummingbirdTests"' \
    '.product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"]))' \
    '.trait( name: "Valkey"' \
    '.package(url: "https://github.com/valkey-io/valkey-swift.git", from: "1.4.0")' \
    '.library(name: "IPDataValkey", targets: ["IPDataValkey"])' \
    '.target( name: "IPDataValkey"' \
    '.product(name: "Valkey", package: "valkey-swift", condition: .when(traits: ["Valkey"]))' \
    '.trait( name: "Vapor"' \
    '.package(url: "https://github.com/vapor/vapor.git", from: "4.122.0")' \
    '.library(name: "IPDataVapor", targets: ["IPDataVapor"])' \
    '.target( name: "IPDataVapor"' \
    '.product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"]))' \
    '.target(name: "IPDataServer", dependencies: ["IPData"])'; do
    [[ $added == *"${needed//,/}"* ]] || missing+=("$needed")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "check-manifests: $(basename "$third") does not declare:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    exit 1
fi
echo "check-manifests: $(basename "$third") declares the same package plus the AsyncHTTPClient, Hummingbird, Valkey, Observability and Vapor traits"
