#!/usr/bin/env bash
# Fails when a target other than IPData and its own tests uses a `package` declaration of IPData
# (or `@testable import IPData`): the satellites, and the packages that depend on IPData by path
# (the CLI), build on the library's public API alone, as a third party's package would.
#
#   bash scripts/check-package-use.sh SCRATCH_PATH [PACKAGE_FOLDER]
#   bash scripts/check-package-use.sh .build            # after `swift build --build-tests`
#   bash scripts/check-package-use.sh .build/ahc        # after the trait build: the trait targets too
#   bash scripts/check-package-use.sh .build/cli CLI    # after `swift build --package-path CLI --scratch-path .build/cli --build-tests`
#
# Without PACKAGE_FOLDER it checks the root package's targets: each target of the finished build
# is type-checked again with the compiler arguments SwiftPM used for it
# (scripts/target-command.py), under a package name of its own: `package` access then ends at its
# module, so any use of another module's `package` declaration is an error. With PACKAGE_FOLDER
# it checks the targets whose sources lie in that folder's Sources/ or Tests/ (a nested package):
# each must be compiled under a package name other than IPData's (no `-package-name` bridge), and
# then its build has already refused any use of IPData's `package` declarations. In both, no
# source may have `@testable import IPData`. Exits 1 on the first target that fails, saying why.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[[ $# -eq 1 || $# -eq 2 ]] || { echo "usage: $0 SCRATCH_PATH [PACKAGE_FOLDER]" >&2; exit 2; }
folder=
if [[ $# -eq 2 ]]; then
    [[ -d $2 ]] || { echo "check-package-use: no folder $2" >&2; exit 2; }
    folder=$(cd "$2" && pwd -P)
fi
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

# Whether any of the sources lies in the package folder's Sources/ or Tests/.
in_folder() {
    local source
    for source in "$@"; do
        source=$(realpath -m "$source")
        [[ $source == "$folder"/Sources/* || $source == "$folder"/Tests/* ]] && return 0
    done
    return 1
}

checked=()
for target in "${targets[@]}"; do
    [[ " ${allowed[*]} " == *" $target "* ]] && continue
    target_package=$(package_of "$target")
    [[ -n $folder || $target_package == "$package" ]] || continue
    mapfile -t flags < <(python3 "$here/target-command.py" "$manifest" "$target")
    # The target's sources: arguments, or lines of a response file (`@…/sources`).
    sources=()
    for flag in "${flags[@]}"; do
        if [[ $flag == @* && -f ${flag#@} ]]; then
            mapfile -t -O "${#sources[@]}" sources <"${flag#@}"
        elif [[ $flag == *.swift ]]; then
            sources+=("$flag")
        fi
    done
    sources=("${sources[@]//\"/}")
    if [[ -n $folder ]] && ! in_folder "${sources[@]}"; then continue; fi
    for source in "${sources[@]}"; do
        if [[ -f $source ]] && grep -Eq '^\s*@testable\s+import\s+IPData\s*$' "$source"; then
            echo "check-package-use: $target: $source has @testable import IPData: use the public API" >&2
            exit 1
        fi
    done
    if [[ -n $folder ]]; then
        if [[ $target_package == "$package" ]]; then
            echo "check-package-use: $target is compiled in IPData's package ($package): no -package-name bridge" >&2
            exit 1
        fi
        checked+=("$target")
        continue
    fi
    for i in "${!flags[@]}"; do
        [[ ${flags[$i]} == -package-name ]] && flags[$((i + 1))]="outside-of-$target"
    done
    if ! output=$(swiftc "${flags[@]}" -typecheck 2>&1); then
        echo "check-package-use: $target uses what is not public API of the modules it imports:" >&2
        grep -E 'error:' <<<"$output" | sort -u | head -20 >&2
        exit 1
    fi
    checked+=("$target")
done
[[ ${#checked[@]} -gt 0 ]] || { echo "check-package-use: no target to check${folder:+ in $folder}" >&2; exit 1; }
echo "check-package-use: public API only in ${checked[*]}"
