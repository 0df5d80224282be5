#!/usr/bin/env bash
# Type-checks targets of a finished build in the Swift 5 language mode, with complete concurrency
# checking and warnings as errors, against the modules that build produced: the project's rule
# (no warning in Swift 5 or Swift 6 mode) for the trait targets, without a second build of
# SwiftNIO and async-http-client.
#
#   bash scripts/typecheck-swift5.sh SCRATCH_PATH TARGET...
#   bash scripts/typecheck-swift5.sh .build/ahc IPDataAsyncHTTPClient IPDataAsyncHTTPClientTests
#
# Each target is checked with the compiler arguments SwiftPM used for it (read from the build's
# debug.yaml: the same sources, defines such as -D AsyncHTTPClient, module paths and the C module
# maps of NIO's C modules), minus what writes files, in -swift-version 5 instead of 6. Exits 1
# on the first target with a diagnostic, printing it.
set -euo pipefail

[[ $# -ge 2 ]] || { echo "usage: $0 SCRATCH_PATH TARGET..." >&2; exit 2; }
scratch=$1
shift
manifest=$scratch/debug.yaml
[[ -f $manifest ]] || { echo "typecheck-swift5: no $manifest: build first (swift build --scratch-path $scratch)" >&2; exit 2; }

for target in "$@"; do
    mapfile -t flags < <(python3 - "$manifest" "$target" <<'PY'
import json
import sys

manifest, target = sys.argv[1], sys.argv[2]
command, found = None, False
for line in open(manifest, encoding="utf-8"):
    stripped = line.strip()
    if stripped.startswith('"C.' + target + "-") and stripped.endswith('-debug.module":'):
        found = True
    elif found and stripped.startswith("args: "):
        command = json.loads(stripped[len("args: "):])
        break
if command is None:
    print("typecheck-swift5: no compile command for the target %s in %s" % (target, manifest), file=sys.stderr)
    sys.exit(1)

# What writes files (modules, objects, indexes, diagnostics) goes; the rest is the target's.
dropped_with_value = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path"}
dropped = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode",
           "-serialize-diagnostics", "-parseable-output", "-emit-objc-header"}
out, args = [], iter(command[1:])
for arg in args:
    if arg in dropped_with_value:
        next(args)
    elif arg in ("-Xcc", "-Xlinker"):
        out += [arg, next(args)]
    elif arg == "-swift-version":
        next(args)
        out += ["-swift-version", "5"]
    elif arg not in dropped and arg != "-g" and not arg.startswith("-j"):
        out.append(arg)
out += ["-typecheck", "-strict-concurrency=complete", "-warnings-as-errors"]
print("\n".join(out))
PY
    )
    [[ ${#flags[@]} -gt 0 ]] || exit 1
    echo "typecheck-swift5: $target (Swift 5 mode, complete concurrency checking, warnings as errors)"
    swiftc "${flags[@]}"
done
echo "typecheck-swift5: no diagnostic in $*"
