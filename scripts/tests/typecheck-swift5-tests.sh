#!/usr/bin/env bash
# Tests for scripts/typecheck-swift5.sh, on a one-file target described by a build manifest made
# here (the shape of SwiftPM's debug.yaml): a clean file passes; a warning only the Swift 5 mode
# gives (mutable global state, an error in Swift 6), any other warning, and a target the manifest
# does not have, each fail.
#
#   bash scripts/tests/typecheck-swift5-tests.sh
#
# Prints `ok - NAME` / `not ok - NAME` per case and ends with `N passed, M failed`.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/typecheck-swift5-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# The compile command SwiftPM would write for the target Probe, with what writes files, -Xcc pairs
# and the Swift 6 mode the script must turn into Swift 5.
cat >"$tmp/debug.yaml" <<YAML
commands:
  "C.Probe-x86_64-unknown-linux-gnu-debug.module":
    tool: shell
    args: ["swiftc","-module-name","Probe","-emit-dependencies","-emit-module","-emit-module-path","$tmp/out/Probe.swiftmodule","-output-file-map","$tmp/out/map.json","-parse-as-library","-incremental","-c","$tmp/Probe.swift","-j2","-DSWIFT_PACKAGE","-Xcc","-g","-swift-version","6","-DProbeTrait","-g"]
YAML

expect() { # expect NAME STATUS TEXT TARGET: the script's exit status and a text of its output
    local output actual
    output=$(bash "$root/scripts/typecheck-swift5.sh" "$tmp" "$4" 2>&1)
    actual=$?
    if [[ $actual -eq $2 && $output == *"$3"* && ! -e $tmp/out ]]; then
        echo "ok - $1"; passed=$((passed + 1))
    else
        echo "not ok - $1 (exit $actual): $output"; failed=$((failed + 1))
    fi
}

printf '#if ProbeTrait\nstruct Probe { static let sent = 0 }\n#endif\n' >"$tmp/Probe.swift"
expect "a clean target passes, and nothing is written" 0 "no diagnostic in Probe" Probe

printf '#if ProbeTrait\nstruct Probe { static var sent = 0 }\n#endif\n' >"$tmp/Probe.swift"
expect "mutable global state fails in the Swift 5 mode (under the target's -D)" 1 \
    "is an error in the Swift 6 language mode" Probe

printf 'func probe() { let unused = 1 }\n' >"$tmp/Probe.swift"
expect "any other warning fails" 1 "never used" Probe

expect "a target the build does not have fails" 1 "no compile command for the target Missing" Missing

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
