#!/usr/bin/env bash
# Benchmarks/cache/run.sh [ADDRESSES] [ROUNDS]: `ipdata bulk` over ADDRESSES distinct addresses
# (default 10,000) against the local test server, ROUNDS interleaved rounds (default 3), each
# with an empty disk cache of its own:
#
#   1. `--no-cache`, the floor;
#   2. the first run with the cache (every answer sent for and stored);
#   3. the second run with the cache (every answer read from it).
#
# Prints each run's wall-clock seconds (and the process's CPU seconds) per round, then the
# medians, the first run against `--no-cache` (target: at most 1.1x), `--no-cache` against the
# second run (target: at least 10x), and the cache's size on disk per answer as `du` counts it
# (target: at most 2 KB), then the spread of the rounds (each round's own ratios) and the load
# at the end. Checks that the three runs printed the same bytes and that the second sent no
# request. Release build of the CLI package.
#
# Uses the server that IPDATA_TEST_SERVER_DIR (default /tmp/ipdata-test-server) names, started
# when it is not running (TestServer/start; IPDATA_TEST_SERVER_PORT_BASE picks its ports).
# IPDATA_CLI_BUILD names the scratch folder of the release build (default /tmp/ipdata-cli-release-build).
# IPDATA_CLI_STATIC=1 builds the binary as README installs it on Linux (--static-swift-stdlib),
# which starts in less time (fewer libraries for the dynamic linker).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
count=${1:-10000}
rounds=${2:-3}
export IPDATA_TEST_SERVER_DIR=${IPDATA_TEST_SERVER_DIR:-/tmp/ipdata-test-server}
[ -s "$IPDATA_TEST_SERVER_DIR/env" ] && curl -s -o /dev/null --max-time 2 -k \
    "$(. "$IPDATA_TEST_SERVER_DIR/env" && echo "$IPDATA_TEST_URL_NORMAL")/" || "$repo/TestServer/start" >/dev/null
# shellcheck disable=SC1091
. "$IPDATA_TEST_SERVER_DIR/env"

build=${IPDATA_CLI_BUILD:-/tmp/ipdata-cli-release-build}
static=()
[ "${IPDATA_CLI_STATIC:-0}" = 1 ] && static=(--static-swift-stdlib)
swift build -c release --package-path "$repo/CLI" --product ipdata "${static[@]}" --scratch-path "$build" >/dev/null
ipdata=$build/release/ipdata
work=$(mktemp -d /tmp/ipdata-cache-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 - "$work/ips.txt" "$count" <<'PY'
import sys
with open(sys.argv[1], "w") as out:
    for n in range(int(sys.argv[2])):
        out.write("9.%d.%d.%d\n" % (n // 65536, n // 256 % 256, n % 256))
PY
export IPDATA_API_KEY=$IPDATA_TEST_KEY

run() { # NAME ROUND [OPTIONS…]: one bulk run over the file; appends "NAME ROUND wall cpu requests" to results
    local name=$1 round=$2
    shift 2
    local before after
    before=$(stat -c %s "$IPDATA_TEST_ACCESS_LOG")
    # Timed to the microsecond around the process alone (GNU time counts hundredths of a second,
    # a seventh of a cached run): wall clock, and the child's user and system CPU.
    "$repo/TestServer/with-test-ca" python3 -c '
import resource, subprocess, sys, time
before = resource.getrusage(resource.RUSAGE_CHILDREN)  # what a launcher (pyenv) ran before
start = time.perf_counter()
status = subprocess.call(sys.argv[2:])
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
user, system = usage.ru_utime - before.ru_utime, usage.ru_stime - before.ru_stime
open(sys.argv[1], "w").write("%.4f %.4f %.4f\n" % (wall, user, system))
sys.exit(status)' "$work/time" "$ipdata" bulk -q --base-url "$IPDATA_TEST_URL_NORMAL" "$@" "$work/ips.txt" >"$work/$name.jsonl"
    sleep 1 # nginx writes a request's line a moment after its answer
    after=$(stat -c %s "$IPDATA_TEST_ACCESS_LOG")
    local requests
    requests=$(tail -c +$((before + 1)) "$IPDATA_TEST_ACCESS_LOG" | head -c $((after - before)) |
        grep -c '"mode":"normal"' || true)
    read -r wall user system <"$work/time"
    echo "$name $round $wall $(echo "$user + $system" | bc -l) $requests" >>"$work/results"
    printf '  %-12s %6.3f s wall  %6.3f s CPU  %5d requests\n' "$name" "$wall" "$(echo "$user + $system" | bc -l)" \
        "$requests"
}

echo "$count distinct addresses, $rounds rounds, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)${static:+, --static-swift-stdlib}"
for round in $(seq 1 "$rounds"); do
    echo "round $round"
    export IPDATA_CACHE_DIR=$work/cache-$round
    run no-cache "$round" --no-cache
    run first "$round"
    run second "$round"
    cmp -s "$work/no-cache.jsonl" "$work/first.jsonl" && cmp -s "$work/first.jsonl" "$work/second.jsonl" ||
        echo "  the runs' outputs DIFFER"
    bytes=$(du -sk "$IPDATA_CACHE_DIR" | cut -f1)
    entries=$("$ipdata" cache info | sed -n 's/^entries *\([0-9]*\).*/\1/p')
    echo "  on disk: $bytes KiB (du) for $entries answers: $((bytes * 1024 / entries)) bytes per answer" |
        tee -a "$work/disk"
    [ "$round" = "$rounds" ] || rm -rf "$IPDATA_CACHE_DIR"
done
python3 - "$work/results" "$work/disk" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, _, wall, cpu, requests = line.split()
    runs.setdefault(name, []).append((float(wall), float(cpu), int(requests)))
def median(name, column):
    return statistics.median(r[column] for r in runs[name])
per_answer = [int(l.split(": ")[-1].split()[0]) for l in open(sys.argv[2])]
print("medians:")
for name in ("no-cache", "first", "second"):
    print("  %-12s %6.3f s wall  %6.3f s CPU  %d requests" % (name, median(name, 0), median(name, 1), median(name, 2)))
print("first run with the cache / --no-cache:  %.2fx (target at most 1.1x)" % (median("first", 0) / median("no-cache", 0)))
print("--no-cache / second run with the cache: %.1fx (target at least 10x)" % (median("no-cache", 0) / median("second", 0)))
print("on disk per answer: %d bytes (target at most 2 KB)" % statistics.median(per_answer))
# The spread: each round's own ratios, the runs of one round against each other.
first = [f[0] / n[0] for f, n in zip(runs["first"], runs["no-cache"])]
second = [n[0] / s[0] for n, s in zip(runs["no-cache"], runs["second"])]
print("spread of the rounds: --no-cache %.3f-%.3f s, first / --no-cache %.2f-%.2fx, --no-cache / second %.1f-%.1fx" % (
    min(r[0] for r in runs["no-cache"]), max(r[0] for r in runs["no-cache"]), min(first), max(first), min(second), max(second)))
PY
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
