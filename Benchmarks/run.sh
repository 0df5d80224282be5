#!/usr/bin/env bash
# Every benchmark in one run, side by side, against a local test server of its own, and
# BENCHMARKS.md written from the results:
#
#   Benchmarks/run.sh
#
# 1. builds the Swift benchmark executable and the `ipdata` CLI in release mode;
# 2. starts TestServer (nginx TLS + HTTP/2 and the backend) in /tmp/ipdata-bench-server on ports
#    from 48443, so that nothing else shares it;
# 3. runs Benchmarks/peers/run.sh under TestServer/with-test-ca: the server's ceiling (h2load), the
#    official Python SDK, curl, then this SDK (single lookups, the plain URLSession floor,
#    lookupStream and the CLI on 100,000 and 1,000,000 addresses, decoding);
# 4. writes BENCHMARKS.md (Benchmarks/report.py) and stops the server.
#
# PEERS_REPEAT (default 3) runs of each measurement; IPDATA_BENCH_MILLION=0 skips the 1M run.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
cd "$REPO"

command -v bc >/dev/null 2>&1 || { apt-get install -y -q bc >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1; apt-get install -y -q bc >/dev/null; }; }

# SwiftPM does not always see files added to the path dependency (..) in an old build's plan: a
# new plan each time (the compiled modules are kept).
rm -f /tmp/ipdata-bench-build/release.yaml /tmp/ipdata-bench-build/build.db
swift build -c release --package-path Benchmarks --scratch-path /tmp/ipdata-bench-build
BENCH=/tmp/ipdata-bench-build/release/ipdata-benchmarks
CLI=""
if swift build -c release --package-path CLI --product ipdata --scratch-path /tmp/ipdata-cli-release-build >/dev/null 2>&1; then
    CLI=/tmp/ipdata-cli-release-build/release/ipdata
fi

export IPDATA_TEST_SERVER_DIR=/tmp/ipdata-bench-server IPDATA_TEST_SERVER_PORT_BASE=48443
TestServer/start
trap 'TestServer/stop >/dev/null 2>&1 || true' EXIT

IPDATA_SWIFT_BENCH="$BENCH" IPDATA_CLI="$CLI" TestServer/with-test-ca Benchmarks/peers/run.sh
python3 Benchmarks/report.py Benchmarks/peers/results.jsonl > BENCHMARKS.md
echo "wrote BENCHMARKS.md"
