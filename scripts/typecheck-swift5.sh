#!/usr/bin/env bash
# Type-checks targets of a finished build in the Swift 5 language mode, with complete concurrency
# checking and warnings as errors, against the modules that build produced: the project's rule
# (no warning in Swift 5 or Swift 6 mode) for the trait targets, without a second build of
# SwiftNIO and async-http-client.
#
#   bash scripts/typecheck-swift5.sh SCRATCH_PATH TARGET...
#   bash scripts/typecheck-swift5.sh .build/ahc IPDataAsyncHTTPClient IPDataAsyncHTTPClientTests
#
# Each target is checked with the compiler arguments SwiftPM used for it (scripts/target-command.py
# reads them from the build's debug.yaml: the same sources, defines such as -D AsyncHTTPClient,
# module paths and the C module maps of NIO's C modules), minus what writes files, in
# -swift-version 5 instead of 6. Exits 1
# on the first target with a diagnostic, printing it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# -ge 2 ]] || { echo "usage: $0 SCRATCH_PATH TARGET..." >&2; exit 2; }
scratch=$1
shift
manifest=$scratch/debug.yaml
[[ -f $manifest ]] || { echo "typecheck-swift5: no $manifest: build first (swift build --scratch-path $scratch)" >&2; exit 2; }

for target in "$@"; do
    if ! command=$(python3 "$here/target-command.py" "$manifest" "$target" --swift-version 5); then
        echo "typecheck-swift5: no compile command for the target $target in $manifest" >&2
        exit 1
    fi
    mapfile -t flags <<<"$command"
    echo "typecheck-swift5: $target (Swift 5 mode, complete concurrency checking, warnings as errors)"
    swiftc "${flags[@]}" -typecheck -strict-concurrency=complete -warnings-as-errors
done
echo "typecheck-swift5: no diagnostic in $*"
