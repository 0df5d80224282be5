#!/usr/bin/env bash
# Benchmarks/cache/run.sh [ADDRESSES]: `ipdata bulk` over the same ADDRESSES distinct addresses
# (default 100,000) twice against the local test server, with an empty disk cache of its own:
# the first run pays, the second is answered from the cache. Prints each run's time, peak RSS,
# the requests its summary counts and the requests nginx logged, and checks that both printed
# the same bytes; then `--dry-run` over the file and `ipdata cache info`. Release build.
#
# Uses the server that IPDATA_TEST_SERVER_DIR (default /tmp/ipdata-test-server) names, started
# when it is not running (TestServer/start; IPDATA_TEST_SERVER_PORT_BASE picks its ports).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
count=${1:-100000}
export IPDATA_TEST_SERVER_DIR=${IPDATA_TEST_SERVER_DIR:-/tmp/ipdata-test-server}
[ -s "$IPDATA_TEST_SERVER_DIR/env" ] && curl -s -o /dev/null --max-time 2 -k \
    "$(. "$IPDATA_TEST_SERVER_DIR/env" && echo "$IPDATA_TEST_URL_NORMAL")/" || "$repo/TestServer/start" >/dev/null
# shellcheck disable=SC1091
. "$IPDATA_TEST_SERVER_DIR/env"

swift build -c release --product ipdata --package-path "$repo/CLI" --scratch-path /tmp/ipdata-cli-release-build >/dev/null
ipdata=/tmp/ipdata-cli-release-build/release/ipdata
work=$(mktemp -d /tmp/ipdata-cache-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 - "$work/ips.txt" "$count" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    for n in range(int(sys.argv[2])):
        out.write("9.%d.%d.%d\n" % (n // 65536, n // 256 % 256, n % 256))
PY
export IPDATA_CACHE_DIR=$work/cache IPDATA_API_KEY=$IPDATA_TEST_KEY
run() { # NAME OUTPUT [OPTIONS…]: one bulk run over the file
    local name=$1 output=$2
    shift 2
    local before after
    before=$(stat -c %s "$IPDATA_TEST_ACCESS_LOG")
    "$repo/TestServer/with-test-ca" /usr/bin/time -f '%e %M' -o "$work/time" \
        "$ipdata" bulk --base-url "$IPDATA_TEST_URL_NORMAL" "$@" "$work/ips.txt" >"$output" 2>"$work/stderr"
    sleep 1 # nginx writes a request's line a moment after its answer
    after=$(stat -c %s "$IPDATA_TEST_ACCESS_LOG")
    read -r seconds rss <"$work/time"
    printf '%-28s %7.2f s  peak RSS %5.1f MB  nginx logged %6d requests  summary: %s\n' "$name" "$seconds" \
        "$(echo "$rss / 1024" | bc -l)" "$(tail -c +$((before + 1)) "$IPDATA_TEST_ACCESS_LOG" | head -c $((after - before)) |
            grep -c '"mode":"normal"' || true)" "$(tail -n 1 "$work/stderr" | sed 's/^ipdata: //')"
}
echo "$count distinct addresses, $(nproc) cores, $(date -u +%Y-%m-%d)"
run "first run (empty cache)" "$work/first.jsonl"
run "second run (from the cache)" "$work/second.jsonl"
run "third run, --no-cache" "$work/third.jsonl" --no-cache
cmp -s "$work/first.jsonl" "$work/second.jsonl" && echo "first and second outputs: the same bytes ($(wc -c <"$work/first.jsonl") bytes)" ||
    echo "first and second outputs DIFFER"
"$repo/TestServer/with-test-ca" "$ipdata" bulk --dry-run --base-url "$IPDATA_TEST_URL_NORMAL" "$work/ips.txt"
"$ipdata" cache info | sed -n '2,3p'
echo "on disk: $(du -sh "$IPDATA_CACHE_DIR" | cut -f1) (du)"
