#!/usr/bin/env bash
# Benchmarks/AsyncHTTPClient/run.sh [ROUNDS]: the transports side by side against the local test
# server (TestServer/start first; its env is read from $IPDATA_TEST_SERVER_DIR), interleaved, ROUNDS
# rounds (default 3), medians:
#   - single lookups, sequential (2,000) and 16 in flight (5,000): IPDataClient over
#     AsyncHTTPClientTransport, over its own URLSession, and a bare AsyncHTTPClient loop (the floor);
#     at 16 in flight also curl --parallel (Benchmarks/peers/curl_bench.sh), one process's ceiling;
#   - bulk enrichment: 100,000 addresses through lookupStream (4 bulk requests in flight) over each
#     transport, with the process's peak RSS.
# Prints requests/s, CPU ms per request and the ratios.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck disable=SC1091
. "${IPDATA_TEST_SERVER_DIR:-/tmp/ipdata-test-server}/env"
bin="$here/.build/release/ipdata-transport-benchmarks"
[ -x "$bin" ] || { echo "build it first: swift build -c release --package-path Benchmarks/AsyncHTTPClient" >&2; exit 1; }
rounds=${1:-3}
run() {
    "$repo/TestServer/with-test-ca" "$bin" --base-url "$IPDATA_TEST_URL_NORMAL" --key "$IPDATA_TEST_KEY" "$@"
}
for ((round = 1; round <= rounds; round++)); do
    for mode in "1 2000" "16 5000"; do
        set -- $mode
        for transport in ahc urlsession bare-ahc; do
            run --transport "$transport" --concurrency "$1" --count "$2"
        done
        # curl --parallel over one HTTP/2 connection, the ceiling of one client process.
        if [ "$1" = 16 ]; then
            "$repo/Benchmarks/peers/curl_bench.sh" single --count "$2" --concurrency 16 |
                sed 's/^{/{"transport": "curl", /'
        fi
    done
    for transport in ahc urlsession; do
        run --transport "$transport" --mode bulk --concurrency 4 --count 100000
    done
done | python3 -c '
import json, statistics, sys
rows = [json.loads(line) for line in sys.stdin if line.startswith("{")]
def med(mode, c, t, key):
    v = [x[key] for x in rows if x["mode"] == mode and x["concurrency"] == c and x["transport"] == t]
    return statistics.median(v) if v else float("nan")
def failures(mode, c, t):
    return sum(x["failures"] for x in rows if x["mode"] == mode and x["concurrency"] == c and x["transport"] == t)
def curl():
    v = [x["requests_per_second"] for x in rows if x["transport"] == "curl"]
    return statistics.median(v) if v else float("nan")
for c in (1, 16):
    a, u, b = (med("single", c, t, "requests_per_second") for t in ("ahc", "urlsession", "bare-ahc"))
    ac, uc, bc = (med("single", c, t, "cpu_ms_per_request") for t in ("ahc", "urlsession", "bare-ahc"))
    print("%2d in flight: AsyncHTTPClient %.0f/s %.3f ms CPU/req; URLSession %.0f/s %.3f ms CPU/req; ratio %.2fx; "
          "bare AsyncHTTPClient loop %.0f/s %.3f ms CPU/req (the transport at %.2fx of it); failures %d/%d/%d" % (
        c, a, ac, u, uc, a / u, b, bc, a / b,
        failures("single", c, "ahc"), failures("single", c, "urlsession"), failures("single", c, "bare-ahc")))
    if c == 16:
        print("16 in flight: curl --parallel %.0f/s; AsyncHTTPClient at %.2fx of curl" % (curl(), a / curl()))
a, u = (med("bulk", 4, t, "requests_per_second") for t in ("ahc", "urlsession"))
ac, uc = (med("bulk", 4, t, "cpu_ms_per_request") * 1000 for t in ("ahc", "urlsession"))
ar, ur = (max(x["peak_rss_mb"] for x in rows if x["mode"] == "bulk" and x["transport"] == t) for t in ("ahc", "urlsession"))
print("bulk 100k, 4 in flight: AsyncHTTPClient %.0f addresses/s, %.0f ms CPU per 1,000, peak RSS %.1f MB; "
      "URLSession %.0f addresses/s, %.0f ms CPU per 1,000, peak RSS %.1f MB; ratio %.2fx; failures %d/%d" % (
    a, ac, ar, u, uc, ur, a / u, failures("bulk", 4, "ahc"), failures("bulk", 4, "urlsession")))
'
