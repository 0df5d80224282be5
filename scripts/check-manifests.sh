#!/usr/bin/env bash
# Fails when Package.swift and Package@swift-6.0.swift describe different packages.
#
#   bash scripts/check-manifests.sh [Package.swift Package@swift-6.0.swift]
#
# Swift 5.9 and 5.10 read Package.swift, Swift 6 toolchains read Package@swift-6.0.swift; the
# two must declare the same platforms, products, dependencies and targets. They may differ only
# in their header comments and in the Swift 6 manifest's `swiftLanguageModes`. Prints the
# difference and exits 1 when there is another.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
first=${1:-$here/Package.swift}
second=${2:-$here/Package@swift-6.0.swift}

# From `let package` on, without the language-mode line and without trailing commas (the line
# before swiftLanguageModes needs one there and none here).
body() {
    sed -n '/^let package = Package(/,$p' "$1" | grep -v 'swiftLanguageModes:' | sed 's/,[[:space:]]*$//'
}

if ! difference=$(diff <(body "$first") <(body "$second")); then
    echo "check-manifests: $(basename "$first") and $(basename "$second") differ; keep them in step:" >&2
    printf '%s\n' "$difference" >&2
    exit 1
fi
echo "check-manifests: $(basename "$first") and $(basename "$second") declare the same package"
