#!/usr/bin/env bash
# Builds the DocC documentation of the IPData and IPDataTesting libraries with the Swift toolchain
# alone (no swift-docc-plugin): the compiler writes each module's symbol graph, then `docc convert`
# turns each catalog and its module's graph into .build/docs/<Module>.doccarchive. Any DocC warning
# fails the run, and so does a top-level symbol that a landing page's Topics leave out.
#
# Usage, from anywhere in a clone: bash scripts/build-docs.sh
#        bash scripts/build-docs.sh --trait-build .build/ahc
# The second builds the IPDataAsyncHTTPClient catalog instead, from a finished build with the
# AsyncHTTPClient trait in that scratch path: its module is compiled once more, alone, with the
# arguments that build used (scripts/target-command.py), to write its symbol graph, so the
# dependencies are not built again.
# Set DOCC to use another docc binary.
set -euo pipefail
cd "$(dirname "$0")/.."

trait_build=
if [[ ${1:-} == --trait-build ]]; then
    trait_build=${2:?usage: $0 [--trait-build SCRATCH_PATH]}
    modules=(IPDataAsyncHTTPClient)
    out=.build/docs-traits
else
    modules=(IPData IPDataTesting)
    out=.build/docs
fi
# A scratch path of its own: the flags below must not disturb the package's usual build, and a
# clean build is the only way to be sure the compiler writes every graph afresh.
scratch=$out/scratch
graphs=$PWD/$out/symbol-graphs

find_docc() {
    if [[ -n "${DOCC:-}" ]]; then
        echo "$DOCC"
    elif command -v docc >/dev/null 2>&1; then
        command -v docc
    elif command -v xcrun >/dev/null 2>&1 && xcrun --find docc >/dev/null 2>&1; then
        xcrun --find docc
    else
        # Linux toolchains install docc next to swift, which is not always on PATH by that name.
        local swift_bin
        swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
        [[ -x "$swift_bin/docc" ]] || { echo "docs: docc not found; set DOCC" >&2; return 1; }
        echo "$swift_bin/docc"
    fi
}
docc=$(find_docc)

rm -rf "$out"
mkdir -p "$graphs/all"

if [[ -n $trait_build ]]; then
    echo "== Symbol graph of IPDataAsyncHTTPClient (its module alone, against the build in $trait_build)"
    [[ -f $trait_build/debug.yaml ]] || { echo "docs: no build in $trait_build" >&2; exit 1; }
    mapfile -t flags < <(python3 scripts/target-command.py "$trait_build/debug.yaml" IPDataAsyncHTTPClient)
    [[ ${#flags[@]} -gt 1 ]] || exit 1
    mkdir -p "$scratch"
    swiftc "${flags[@]}" -emit-module -emit-module-path "$scratch/IPDataAsyncHTTPClient.swiftmodule" \
        -emit-symbol-graph -emit-symbol-graph-dir "$graphs/all" -symbol-graph-minimum-access-level public
else
    echo "== Symbol graphs (swift build --target IPDataTesting, which builds IPData too)"
    swift build --target IPDataTesting --scratch-path "$scratch" \
        -Xswiftc -emit-symbol-graph \
        -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs/all" \
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
fi

failures=0
for module in "${modules[@]}"; do
    # Only the module's own graph and its extensions of other modules (<Module>@<Other>): a graph
    # of another module would make DocC document that module too.
    mkdir -p "$graphs/$module"
    if [[ ! -f "$graphs/all/$module.symbols.json" ]]; then
        echo "docs: the compiler wrote no symbol graph for $module" >&2
        exit 1
    fi
    cp "$graphs/all/$module.symbols.json" "$graphs/$module/"
    for extension in "$graphs/all/$module"@*.symbols.json; do
        if [[ -e "$extension" ]]; then cp "$extension" "$graphs/$module/"; fi
    done

    echo "== DocC: $module"
    log=$out/$module.log
    status=0
    "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "co.ipdata.$module" \
        --output-path "$out/$module.doccarchive" \
        --warnings-as-errors >"$log" 2>&1 || status=$?
    if grep -q '[^[:space:]]' "$log"; then cat "$log"; fi

    # --warnings-as-errors reports warnings as errors; count both, and never trust the exit code alone.
    problems=$(grep -cE '(warning|error):' "$log" || true)
    if ((status != 0 || problems != 0)); then
        echo "docs: $module: $problems warning(s) or error(s), docc exit status $status" >&2
        failures=$((failures + 1))
        continue
    fi

    # Every top-level symbol must be curated on the landing page. DocC files whatever is not under
    # generated topic groups ("generated": true in the landing page's render JSON).
    landing=$(find "$out/$module.doccarchive/data/documentation" -maxdepth 1 -iname "$module.json" | head -n 1)
    if [[ -z "$landing" ]]; then
        echo "docs: $module: no landing page in the archive" >&2
        failures=$((failures + 1))
    elif grep -qE '"generated" *: *true' "$landing"; then
        echo "docs: $module: symbols missing from the Topics of $module.docc/$module.md:" >&2
        # The generated groups hold no nested objects: list their references for the person fixing it.
        grep -oE '\{[^{}]*"generated" *: *true[^{}]*\}' "$landing" | sed 's#\\/#/#g' |
            grep -oE 'doc://[^"]*' | sed 's#.*/documentation/#  #' >&2 || true
        failures=$((failures + 1))
    fi
done

if ((failures != 0)); then
    echo "docs: FAILED for $failures module(s); see the diagnostics above" >&2
    exit 1
fi
echo "docs: ${modules[*]} built in $out, 0 warnings"
