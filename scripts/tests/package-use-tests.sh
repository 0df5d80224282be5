#!/usr/bin/env bash
# Tests for scripts/check-package-use.sh, on a build manifest made here (the shape of SwiftPM's
# debug.yaml) over a small module named IPData, with a public and a `package` declaration: a
# satellite that uses the public one passes; one that uses the `package` one fails, and so does
# one with `@testable import IPData` (its sources listed in a response file, as SwiftPM lists a
# target's); no target is an exception. With a package folder (a nested package such as CLI/),
# its targets pass under a package name of their own and fail under IPData's (a bridge) or with
# `@testable import IPData`; targets outside the folder are not its.
#
#   bash scripts/tests/package-use-tests.sh
#
# Prints `ok - NAME` / `not ok - NAME` per case and ends with `N passed, M failed`.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/package-use-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

triple=x86_64-unknown-linux-gnu
mkdir -p "$tmp/modules"
cat >"$tmp/IPData.swift" <<'SWIFT'
public struct Client { public init() {} }
package struct Lock { package init() {} }
SWIFT
swiftc -module-name IPData -package-name probe -parse-as-library -emit-module \
    -emit-module-path "$tmp/modules/IPData.swiftmodule" "$tmp/IPData.swift" || exit 1

# A manifest of IPData and of `targets` (name:file, or name:file:package), each compiled in
# package `probe` unless it names another.
manifest() {
    {
        echo "commands:"
        for target in IPData "$@"; do
            local name=${target%%:*} rest=${target#*:} package=probe
            [[ $rest == *:* ]] && package=${rest#*:} rest=${rest%%:*}
            local file=$tmp/$rest
            [[ $target == IPData ]] && file=$tmp/IPData.swift
            # A test target's sources in a response file, as SwiftPM writes them.
            if [[ $name == *Tests ]]; then
                echo "$file" >"$tmp/$name.sources"
                file=@$tmp/$name.sources
            fi
            echo "  \"C.$name-$triple-debug.module\":"
            echo "    tool: shell"
            echo "    args: [\"swiftc\",\"-module-name\",\"${name//-/_}\",\"-package-name\",\"$package\",\"-I\",\"$tmp/modules\",\"-parse-as-library\",\"-c\",\"$file\",\"-g\"]"
        done
    } >"$tmp/debug.yaml"
}

expect() { # expect NAME STATUS TEXT [PACKAGE_FOLDER]
    local output actual
    output=$(bash "$root/scripts/check-package-use.sh" "$tmp" ${4:+"$4"} 2>&1)
    actual=$?
    if [[ $actual -eq $2 && $output == *"$3"* ]]; then
        echo "ok - $1"; passed=$((passed + 1))
    else
        echo "not ok - $1 (exit $actual): $output"; failed=$((failed + 1))
    fi
}

printf 'import IPData\nlet client = Client()\n' >"$tmp/Public.swift"
printf 'import IPData\nlet lock = Lock()\n' >"$tmp/Package.swift"
printf '@testable import IPData\nlet client = Client()\n' >"$tmp/Testable.swift"

manifest IPDataTesting:Public.swift
expect "a satellite on the public API passes" 0 "public API only in IPDataTesting"

manifest IPDataTesting:Public.swift IPDataValkey:Package.swift
expect "a satellite that uses a package declaration fails, naming it" 1 "IPDataValkey uses what is not public"

manifest IPDataHummingbirdTests:Testable.swift
expect "@testable import IPData fails, in a response file's sources too" 1 "has @testable import IPData"

manifest ipdata-cli:Package.swift IPDataTesting:Public.swift
expect "no target is an exception, a command-line tool neither" 1 "ipdata-cli uses what is not public"

manifest IPDataTesting:Public.swift AsyncStreaming:Package.swift:another
expect "a dependency, of another package, is not checked" 0 "public API only in IPDataTesting"

# A nested package in $tmp/CLI: its own package name, `cli`, or IPData's (`probe`) through a bridge.
mkdir -p "$tmp/CLI/Sources/tool" "$tmp/CLI/Tests/ToolTests"
cp "$tmp/Public.swift" "$tmp/CLI/Sources/tool/Public.swift"
cp "$tmp/Testable.swift" "$tmp/CLI/Tests/ToolTests/Testable.swift"

manifest tool:CLI/Sources/tool/Public.swift:cli IPDataTesting:Public.swift
expect "a nested package's target in its own package passes; others are not its" 0 \
    "public API only in tool" "$tmp/CLI"

manifest tool:CLI/Sources/tool/Public.swift
expect "a nested package's target under IPData's package name fails" 1 \
    "tool is compiled in IPData's package (probe)" "$tmp/CLI"

manifest tool:CLI/Sources/tool/Public.swift:cli ToolTests:CLI/Tests/ToolTests/Testable.swift:cli
expect "@testable import IPData in a nested package's tests fails" 1 "has @testable import IPData" "$tmp/CLI"

manifest IPDataTesting:Public.swift
expect "a folder with no target of the build fails" 1 "no target to check" "$tmp/CLI"

printf 'commands:\n' >"$tmp/debug.yaml"
expect "a manifest without IPData fails" 1 "no compile command for IPData"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
