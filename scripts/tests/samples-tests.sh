#!/usr/bin/env bash
# Tests for scripts/check-samples.sh, on Markdown files made here, against the modules of the
# package's own build (.build, or $1): a self-contained sample, a sample that continues the one
# above, a whole Package.swift and manifest fragments pass; a broken sample, one that uses a name
# only an earlier block defines, a broken manifest, a `swift not-compiled` block without a reason
# and an unknown fence each fail; a trait sample is left for the trait build.
#
#   bash scripts/tests/samples-tests.sh [SCRATCH_PATH]     # after swift build
#
# Prints `ok - NAME` / `not ok - NAME` per case and ends with `N passed, M failed`.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/.build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/samples-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export SAMPLES_DIR=$tmp/samples
passed=0 failed=0
fence='```'

expect() { # expect NAME STATUS TEXT: the script's exit status on $tmp/doc.md and a text of its output
    local output actual
    output=$(bash "$root/scripts/check-samples.sh" --build "$build" "$tmp/doc.md" 2>&1)
    actual=$?
    if [[ $actual -eq $2 && $output == *"$3"* ]]; then
        echo "ok - $1"; passed=$((passed + 1))
    else
        echo "not ok - $1 (exit $actual): $output"; failed=$((failed + 1))
    fi
}

cat >"$tmp/doc.md" <<EOF
# A sample

${fence}swift
import IPData

let client = IPDataClient(apiKey: "YOUR_API_KEY")
print(IPDataClient.sdkVersion, client)
${fence}

- In a list item:

  ${fence}swift
  import IPData

  let response = IPResponse(ip: "8.8.8.8")
  print(response.ip ?? "")
  ${fence}
EOF
expect "self-contained samples pass, indented ones too" 0 "2 samples compile as printed"

cat >"$tmp/doc.md" <<EOF
${fence}swift
import IPData

let client = IPDataClient(apiKey: "YOUR_API_KEY")
let info = try await client.lookup("8.8.8.8")
print(info.cityName)
${fence}
EOF
expect "a sample that does not compile fails, named by its line" 1 "doc.md:1 does not compile as printed"

cat >"$tmp/doc.md" <<EOF
${fence}swift
import IPData

let client = IPDataClient(apiKey: "YOUR_API_KEY")
${fence}

${fence}swift
let info = try await client.lookup("8.8.8.8")
${fence}
EOF
expect "a sample that uses a name only the block above defines fails" 1 "doc.md:7 does not compile as printed"

cat >"$tmp/doc.md" <<EOF
${fence}swift
import IPData

let client = IPDataClient(apiKey: "YOUR_API_KEY")
${fence}

<!-- sample: continues the one above -->
${fence}swift
let info = try await client.lookup("8.8.8.8")
print(info.ip ?? "")
${fence}
EOF
expect "a sample marked as continuing the one above compiles after it" 0 "2 samples compile as printed"

cat >"$tmp/doc.md" <<EOF
${fence}swift
func warns() { let unused = 1 }
${fence}
EOF
expect "a warning fails a sample" 1 "doc.md:1 does not compile as printed"

cat >"$tmp/doc.md" <<EOF
${fence}swift
// swift-tools-version: 5.9
import PackageDescription

let package = Package(
    name: "MyApp",
    dependencies: [.package(url: "https://github.com/ipdata/swift.git", from: "1.1.0")],
    targets: [.executableTarget(name: "MyApp", dependencies: [.product(name: "IPData", package: "swift")])]
)
${fence}

${fence}swift
.testTarget(name: "MyAppTests", dependencies: ["MyApp", .product(name: "IPDataTesting", package: "swift")])
${fence}

${fence}swift
dependencies: [
    .package(url: "https://github.com/ipdata/swift.git", from: "1.1.0")
]
${fence}
EOF
expect "a whole manifest and manifest fragments pass" 0 "3 samples compile as printed"

cat >"$tmp/doc.md" <<EOF
${fence}swift
.target(name: "MyApp", dependencies: [.product(name: "IPData", package: "swift"))
${fence}
EOF
expect "a broken manifest fragment fails" 1 "doc.md:1 is not a valid Package.swift"

cat >"$tmp/doc.md" <<EOF
${fence}swift
// swift-tools-version: 5.9
import PackageDescription

let package = Package(name: "MyApp", targets: [.target(nam: "MyApp")])
${fence}
EOF
expect "a whole manifest that does not compile fails" 1 "doc.md:1 is not a valid Package.swift"

cat >"$tmp/doc.md" <<EOF
A paragraph.

${fence}swift not-compiled
import Vapor
${fence}
EOF
expect "a not-compiled block without a reason fails" 1 "without a reason"

cat >"$tmp/doc.md" <<EOF
This sample is not compiled: Vapor is not among the packages CI can fetch.

${fence}swift not-compiled
import Vapor
${fence}
EOF
expect "a not-compiled block with its reason is left alone" 0 "0 samples compile as printed (1 not checked"

cat >"$tmp/doc.md" <<EOF
${fence}swift whatever
let a = 1
${fence}
EOF
expect "an unknown fence fails" 1 "unknown fence"

cat >"$tmp/doc.md" <<EOF
${fence}swift
import IPData
import IPDataHummingbird

let broken: Int = "not checked without --trait-build"
${fence}
EOF
expect "a trait sample is left for the trait build" 0 "0 samples compile as printed (1 not checked"

echo "$passed passed, $failed failed"
((failed == 0))
