#!/usr/bin/env bash
# Tests for scripts/check-api.sh: the committed baseline passes, and a baseline that holds API
# the module no longer has (a method, an error case) fails. (The digester's dump has no labels
# of associated values; Tests/IPDataTests/Compatibility/Compatibility101Tests pins those by building them.)
#
#   bash scripts/tests/api-tests.sh
#
# Prints `ok - NAME` / `not ok - NAME` per case and ends with `N passed, M failed`.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/api-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

expect() { # expect NAME STATUS TEXT BASELINE
    local output actual
    output=$(IPDATA_API_BASELINE=$4 bash "$root/scripts/check-api.sh" 2>&1)
    actual=$?
    if [[ $actual -eq $2 && $output == *"$3"* ]]; then echo "ok - $1"; passed=$((passed + 1)); else
        echo "not ok - $1 (exit $actual): $output"; failed=$((failed + 1)); fi
}

expect "the committed baseline" 0 "no breaking change" "$root/scripts/api-baseline/IPData.json"

# A baseline in which IPDataClient had one more method, and IPDataError one more case.
python3 - "$root/scripts/api-baseline/IPData.json" "$tmp/older.json" <<'PY'
import copy
import json
import sys

dump = json.load(open(sys.argv[1], encoding="utf-8"))


def find(node, name):
    return next(child for child in node["children"] if child.get("name") == name)


client = find(dump["ABIRoot"], "IPDataClient")
method = copy.deepcopy(find(client, "lookupASN"))
for key in ("name", "printedName", "usr", "mangledName"):
    method[key] = method[key].replace("lookupASN", "lookupCarrier")
client["children"].append(method)
error = find(dump["ABIRoot"], "IPDataError")
case = copy.deepcopy(find(error, "forbidden"))
for key in ("name", "printedName", "usr", "mangledName"):
    case[key] = case[key].replace("forbidden", "paymentRequired")
error["children"].append(case)
json.dump(dump, open(sys.argv[2], "w", encoding="utf-8"))
PY
expect "a method the module lost" 1 "lookupCarrier" "$tmp/older.json"
expect "an error case the module lost" 1 "paymentRequired" "$tmp/older.json"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
