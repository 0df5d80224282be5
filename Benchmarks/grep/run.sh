#!/usr/bin/env bash
# Benchmarks/grep/run.sh [MEGABYTES] [ROUNDS]: `ipdata grep -o` against `grep -oE` with a plain
# IPv4 pattern on the same log (make-log.py, default 1,024 MB), interleaved, ROUNDS rounds
# (default 3), medians: MB/s, peak RSS and what each found.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
megabytes=${1:-1024}
rounds=${2:-3}
log=/tmp/ipdata-grep-bench-${megabytes}m.log
[ -s "$log" ] || python3 "$here/make-log.py" "$log" "$megabytes"
swift build -c release --product ipdata --package-path "$repo/CLI" --scratch-path /tmp/ipdata-cli-release-build >/dev/null
ipdata=/tmp/ipdata-cli-release-build/release/ipdata
bytes=$(stat -c %s "$log")
cat "$log" >/dev/null # into the page cache, for both alike
results=$(mktemp)
measure() { # NAME COMMAND…: one run, one JSON line
    local name=$1
    shift
    local timing
    timing=$(mktemp)
    local count
    count=$(/usr/bin/time -f '%e %M' -o "$timing" "$@" <"$log" | wc -l)
    read -r seconds rss <"$timing"
    rm -f "$timing"
    printf '{"name":"%s","seconds":%s,"rss_kb":%s,"found":%s}\n' "$name" "$seconds" "$rss" "$count" >>"$results"
}
for ((round = 1; round <= rounds; round++)); do
    measure "ipdata grep -o" "$ipdata" grep -o
    measure "grep -oE (LC_ALL=C)" env LC_ALL=C grep -oE '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+'
    measure "grep -oE (C.UTF-8)" env LC_ALL=C.UTF-8 grep -oE '[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+'
done
python3 - "$results" "$bytes" "$(grep --version | head -1)" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
size = int(sys.argv[2]) / 1e6
print("log: %.0f MB; %s; median of %d rounds" % (size, sys.argv[3], len(rows) // 3))
for name in dict.fromkeys(r["name"] for r in rows):
    runs = [r for r in rows if r["name"] == name]
    seconds = statistics.median(r["seconds"] for r in runs)
    print("%-22s %7.1f MB/s  %6.2f s  peak RSS %5.1f MB  found %d" % (
        name, size / seconds, seconds, max(r["rss_kb"] for r in runs) / 1024, runs[0]["found"]))
PY
rm -f "$results"
