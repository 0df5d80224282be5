#!/usr/bin/env bash
# Fails when two tracked paths (files or folders) differ only by case.
#
#   bash scripts/check-path-case.sh [REPOSITORY]
#
# macOS and Windows file systems ignore case by default: a checkout there merges `Sources/IPData`
# and `Sources/ipdata` into one folder, and SwiftPM then hands both targets the same files. Git
# on Linux keeps them apart, so only a check like this one catches the clash before a Mac does.
# Prints each clash as `a <-> b` and exits 1; exits 0 and says so when there is none.
set -euo pipefail
export LC_ALL=C

repository=${1:-.}
cd "$repository"

# Every tracked file and every folder above one, each once. Case folding is ASCII only, as
# APFS and HFS+ fold far more, but every path in this repository is ASCII.
# safe.directory: CI may run as another user than the checkout's owner (a root container).
paths=$(git -c safe.directory="$PWD" ls-files -z | tr '\0' '\n' | awk '{
    n = split($0, part, "/"); path = ""
    for (i = 1; i <= n; i++) { path = (i == 1 ? part[1] : path "/" part[i]); print path }
}' | sort -u)

clashes=$(printf '%s\n' "$paths" | awk '{
    folded = tolower($0)
    if (folded in seen && seen[folded] != $0) { print seen[folded] " <-> " $0; found = 1 }
    else seen[folded] = $0
} END { exit 0 }')

if [[ -n $clashes ]]; then
    echo "check-path-case: these tracked paths differ only by case, and are one path on macOS:" >&2
    printf '  %s\n' "$clashes" >&2
    exit 1
fi
echo "check-path-case: no two tracked paths differ only by case ($(printf '%s\n' "$paths" | wc -l) paths)"
