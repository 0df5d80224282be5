#!/usr/bin/env bash
# Fails when the public API of the IPData module breaks source compatibility with the committed
# baseline, scripts/api-baseline/IPData.json (swift-api-digester, which comes with the toolchain).
#
#   bash scripts/check-api.sh            # compare; prints every breaking change, exits 1 on one
#   bash scripts/check-api.sh --update   # write the baseline from the current API
#
# IPDATA_API_BASELINE names another baseline file (the script's tests use one).
#
# Additions are not breaks: update the baseline when a release adds API, so that the next change
# is compared with it. Declarations with `package` access are the package's own business and are
# left out of both sides. The dump holds no labels of enum cases' associated values:
# Tests/IPDataTests/Compatibility/Compatibility101Tests builds 1.0.1's cases with theirs. The baseline is a
# Linux dump (Foundation on Linux names some types differently), so the check runs on Linux.
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."
baseline=${IPDATA_API_BASELINE:-scripts/api-baseline/IPData.json}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-api.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

swift build --target IPData >/dev/null
bin=$(swift build --show-bin-path)
modules=$bin/Modules
[[ -d $modules ]] || modules=$bin # toolchains before 6.0 put the modules beside the products

swift-api-digester -dump-sdk -module IPData -I "$modules" -o "$tmp/raw.json" -avoid-location -avoid-tool-args

# Only the public API: drop what `package` (or less) declares, and key the JSON the same way on
# every run, so that the baseline diffs cleanly in review.
python3 - "$tmp/raw.json" "$tmp/current.json" <<'PY'
import json
import sys


def public(node):
    node["children"] = [public(child) for child in node.get("children", []) if not child.get("isInternal")]
    if not node["children"]:
        del node["children"]
    return node


with open(sys.argv[1], encoding="utf-8") as f:
    dump = json.load(f)
public(dump["ABIRoot"])
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(dump, f, indent=1, sort_keys=True)
    f.write("\n")
PY

if [[ ${1:-} == --update ]]; then
    cp "$tmp/current.json" "$baseline"
    echo "check-api: wrote $baseline"
    exit 0
fi

[[ -f $baseline ]] || { echo "check-api: no baseline at $baseline (run with --update)" >&2; exit 1; }
swift-api-digester -diagnose-sdk --input-paths "$baseline" --input-paths "$tmp/current.json" >"$tmp/report.txt" 2>&1
# The report is a list of section headings (/* … */); any other line is a breaking change.
breaks=$(grep -v -e '^[[:space:]]*$' -e '^/\*' "$tmp/report.txt" || true)
if [[ -n $breaks ]]; then
    echo "check-api: the public API of IPData breaks source compatibility with $baseline:" >&2
    printf '  %s\n' "$breaks" >&2
    exit 1
fi
echo "check-api: no breaking change against $baseline"
