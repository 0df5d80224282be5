#!/usr/bin/env bash
# Fails when a target other than IPData and its own tests uses a `package` declaration of IPData
# (or `@testable import IPData`): the satellites build on the library's public API alone, as a
# third party's package would.
#
#   bash scripts/check-package-use.sh SCRATCH_PATH
#   bash scripts/check-package-use.sh .build            # after `swift build --build-tests`
#   bash scripts/check-package-use.sh .build/ahc        # after the trait build: the trait targets too
#
# Each target of the finished build is type-checked again with the compiler arguments SwiftPM used
# for it (scripts/target-command.py), under a package name of its own: `package` access then ends
# at its module, so any use of another module's `package` declaration is an error. Exits 1 on the
# first target with one, printing the diagnostics.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# -eq 1 ]] || { echo "usage: $0 SCRATCH_PATH" >&2; exit 2; }
manifest=$1/debug.yaml
[[ -f $manifest ]] || { echo "check-package-use: no $manifest: build first (swift build --scratch-path $1)" >&2; exit 2; }

# The targets that may use IPData's `package` declarations: the library, its own tests, and the
# test runners SwiftPM makes.
allowed=(IPData IPDataTests IPDataIntegrationTests IPDataPackageTests IPDataPackageDiscoveredTests)

# The build's target triple, from the library's own command: what follows each target's name.
triple=$(sed -n 's/^ *"C\.IPData-\(.*\)-debug\.module":$/\1/p' "$manifest" | head -1)
[[ -n $triple ]] || { echo "check-package-use: no compile command for IPData in $manifest" >&2; exit 1; }
mapfile -t targets < <(sed -n "s/^ *\"C\\.\\(.*\\)-$triple-debug\\.module\":\$/\\1/p" "$manifest" | sort -u)
[[ ${#targets[@]} -gt 0 ]] || { echo "check-package-use: no targets in $manifest" >&2; exit 1; }

# The package's own targets are compiled under IPData's package name; a dependency's under its own.
package_of() { # package_of TARGET: the -package-name of its command
    python3 "$here/target-command.py" "$manifest" "$1" | sed -n '/^-package-name$/{n;p}'
}
package=$(package_of IPData)

checked=()
for target in "${targets[@]}"; do
    [[ " ${allowed[*]} " == *" $target "* ]] && continue
    [[ $(package_of "$target") == "$package" ]] || continue
    mapfile -t flags < <(python3 "$here/target-command.py" "$manifest" "$target")
    for i in "${!flags[@]}"; do
        [[ ${flags[$i]} == -package-name ]] && flags[$((i + 1))]="outside-of-$target"
    done
    # The target's sources: arguments, or lines of a response file (`@…/sources`).
    sources=()
    for flag in "${flags[@]}"; do
        if [[ $flag == @* && -f ${flag#@} ]]; then
            mapfile -t -O "${#sources[@]}" sources <"${flag#@}"
        elif [[ $flag == *.swift ]]; then
            sources+=("$flag")
        fi
    done
    for source in "${sources[@]}"; do
        source=${source//\"/}
        if [[ -f $source ]] && grep -Eq '^\s*@testable\s+import\s+IPData\s*$' "$source"; then
            echo "check-package-use: $target: $source has @testable import IPData: use the public API" >&2
            exit 1
        fi
    done
    if ! output=$(swiftc "${flags[@]}" -typecheck 2>&1); then
        echo "check-package-use: $target uses what is not public API of the modules it imports:" >&2
        grep -E 'error:' <<<"$output" | sort -u | head -20 >&2
        exit 1
    fi
    checked+=("$target")
done
echo "check-package-use: public API only in ${checked[*]}"
