#!/usr/bin/env bash
# Benchmarks/AsyncHTTPClient/run.sh [ROUNDS]: IPDataClient over AsyncHTTPClientTransport and over its
# own URLSession, interleaved, sequential (2,000 lookups) and 16 in flight (5,000), against the local
# test server (TestServer/start first; its env is read from $IPDATA_TEST_SERVER_DIR). Prints the
# median requests/s and CPU ms per request of each, and their ratio.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck disable=SC1091
. "${IPDATA_TEST_SERVER_DIR:-/tmp/ipdata-test-server}/env"
bin="$here/.build/release/ipdata-transport-benchmarks"
[ -x "$bin" ] || { echo "build it first: swift build -c release --package-path Benchmarks/AsyncHTTPClient" >&2; exit 1; }
rounds=${1:-3}
for ((round = 1; round <= rounds; round++)); do
    for mode in "1 2000" "16 5000"; do
        set -- $mode
        for transport in ahc urlsession; do
            "$repo/TestServer/with-test-ca" "$bin" --transport "$transport" --base-url "$IPDATA_TEST_URL_NORMAL" \
                --key "$IPDATA_TEST_KEY" --concurrency "$1" --count "$2"
        done
    done
done | python3 -c '
import json, statistics, sys
rows = [json.loads(line) for line in sys.stdin if line.startswith("{")]
for c in (1, 16):
    r = {t: [x for x in rows if x["concurrency"] == c and x["transport"] == t] for t in ("ahc", "urlsession")}
    med = {t: (statistics.median(x["requests_per_second"] for x in v), statistics.median(x["cpu_ms_per_request"] for x in v), sum(x["failures"] for x in v)) for t, v in r.items()}
    print("%2d in flight: AsyncHTTPClient %.0f/s %.3f ms CPU/req; URLSession %.0f/s %.3f ms CPU/req; ratio %.2fx; failures %d/%d" % (
        c, med["ahc"][0], med["ahc"][1], med["urlsession"][0], med["urlsession"][1], med["ahc"][0] / med["urlsession"][0], med["ahc"][2], med["urlsession"][2]))
'
