#!/usr/bin/env python3
"""Prints the compiler arguments SwiftPM used for a target, one a line, from a build's debug.yaml.

    python3 scripts/target-command.py SCRATCH_PATH/debug.yaml TARGET [--swift-version N]

Everything but what writes files (module, objects, dependencies, index, diagnostics, headers) and
the job count: the module name, the sources, the defines (-D AsyncHTTPClient), the module search
paths and the C module maps of the dependencies. scripts/typecheck-swift5.sh type-checks a target
with them in another language mode; scripts/build-docs.sh writes a trait target's symbol graph
with them. Exits 1, saying so, when the manifest has no compile command for the target.
"""
import json
import sys

manifest, target = sys.argv[1], sys.argv[2]
swift_version = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--swift-version" else None

command, found = None, False
for line in open(manifest, encoding="utf-8"):
    stripped = line.strip()
    if stripped.startswith('"C.' + target + "-") and stripped.endswith('-debug.module":'):
        found = True
    elif found and stripped.startswith("args: "):
        command = json.loads(stripped[len("args: "):])
        break
if command is None:
    print("no compile command for the target %s in %s" % (target, manifest), file=sys.stderr)
    sys.exit(1)

dropped_with_value = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path"}
dropped = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode",
           "-serialize-diagnostics", "-parseable-output", "-emit-objc-header"}
out, args = [], iter(command[1:])
for arg in args:
    if arg in dropped_with_value:
        next(args)
    elif arg in ("-Xcc", "-Xlinker"):
        out += [arg, next(args)]
    elif arg == "-swift-version" and swift_version:
        next(args)
        out += ["-swift-version", swift_version]
    elif arg not in dropped and arg != "-g" and not arg.startswith("-j"):
        out.append(arg)
if swift_version and "-swift-version" not in out:
    out += ["-swift-version", swift_version]
print("\n".join(out))
