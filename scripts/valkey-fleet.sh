#!/usr/bin/env bash
# The fleet and outage proof of IPDataValkey: processes that share one redis-server make the
# API's requests once per address, and lose no lookup when that server goes away mid-run.
#
#   TestServer/with-test-ca bash scripts/valkey-fleet.sh PATH/TO/ipdata-valkey-fleet
#
# Needs the local API server's environment (TestServer/start; . "$IPDATA_TEST_SERVER_DIR/env")
# and redis-server, which it starts on 127.0.0.1:$IPDATA_TEST_REDIS_PORT (26379 by default) with
# no persistence, and stops at the end. The API requests are counted in the server's own access
# log. Three runs of IPDATA_FLEET_PROCESSES processes (4), each making IPDATA_FLEET_LOOKUPS
# lookups (10,000) of IPDATA_FLEET_ADDRESSES distinct addresses (5,000), each address as often:
#
#   shared      one ValkeyLookupStore: requests must be at most 1.1 x the distinct addresses
#   loaded      shared, beside IPDATA_FLEET_HOGS (8) busy loops on the machine's cores: at most
#               1.1 x the distinct addresses, and no process hears `.unavailable` (the server is
#               healthy, only slow now and then)
#   per-process a LookupCache each: about processes x the distinct addresses (must be at least
#               processes - 1 times, to show the comparison is real)
#   outage      shared, and redis-server is killed mid-run and started again a second later:
#               every lookup must succeed, and every process must see the store answer again
#
# Prints each figure and ends with `valkey-fleet: ok`; exits 1 when a bound is missed, a lookup
# failed or a process did not see the store resume.
set -euo pipefail

fleet=${1:?usage: valkey-fleet.sh PATH/TO/ipdata-valkey-fleet}
port=${IPDATA_TEST_REDIS_PORT:-26379}
processes=${IPDATA_FLEET_PROCESSES:-4}
lookups=${IPDATA_FLEET_LOOKUPS:-10000}
distinct=${IPDATA_FLEET_ADDRESSES:-5000}
hogs=${IPDATA_FLEET_HOGS:-8}
# The store's budget for one operation: the library's default unless IPDATA_FLEET_BUDGET_MS says
# otherwise. The proof runs the trait's debug build on CI's two shared cores, so the default has
# to hold there, busy loops beside it included.
budget_flags=()
[ -n "${IPDATA_FLEET_BUDGET_MS:-}" ] && budget_flags=(--budget-ms "$IPDATA_FLEET_BUDGET_MS")
: "${IPDATA_TEST_URL_NORMAL:?no local API server: run TestServer/start and source its env}"
: "${IPDATA_TEST_ACCESS_LOG:?no local API server: run TestServer/start and source its env}"
key=${IPDATA_TEST_KEY:-test-key}
command -v redis-server >/dev/null || { echo "valkey-fleet: no redis-server (apt-get install redis-server)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/valkey-fleet.XXXXXX")
redis_up() {
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --daemonize yes \
        --pidfile "$tmp/redis.pid" --logfile "$tmp/redis.log"
    for _ in $(seq 1 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && return 0; sleep 0.05; done
    echo "valkey-fleet: redis-server did not start on port $port:" >&2
    tail -5 "$tmp/redis.log" >&2
    exit 1
}
redis_down() { # at once, as a crash would
    local pid
    pid=$(cat "$tmp/redis.pid" 2>/dev/null) || return 0
    kill -9 "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
    rm -f "$tmp/redis.pid"
}
trap 'redis_down; rm -rf "$tmp"' EXIT

failed=0
fail() { echo "valkey-fleet: FAIL: $*" >&2; failed=1; }
log_lines() { wc -l <"$IPDATA_TEST_ACCESS_LOG"; }
requests_since() { tail -n +"$(($1 + 1))" "$IPDATA_TEST_ACCESS_LOG" | grep -c '"uri":"/8\.8\.' || true; }

# start_fleet NAME [OPTIONS…]: the processes in the background, their summaries in $tmp/NAME.N.
start_fleet() {
    local name=$1
    shift
    pids=()
    for n in $(seq 1 "$processes"); do
        "$fleet" --base-url "$IPDATA_TEST_URL_NORMAL" --key "$key" --addresses "$distinct" --lookups "$lookups" \
            --seed "$n" --concurrency 8 "${budget_flags[@]}" "$@" >"$tmp/$name.$n" 2>"$tmp/$name.$n.err" &
        pids+=($!)
    done
}

# wait_fleet NAME: waits; checks every lookup succeeded; prints the summaries.
wait_fleet() {
    local name=$1 n=0
    for pid in "${pids[@]}"; do
        n=$((n + 1))
        wait "$pid" || fail "$name: process $n exited non-zero: $(cat "$tmp/$name.$n" "$tmp/$name.$n.err")"
        echo "  $name process $n: $(cat "$tmp/$name.$n")"
    done
}

figure() { python3 -c "import sys; print(f'{$1:.2f}')"; }

redis_up
echo "valkey-fleet: $processes processes x $lookups lookups of $distinct distinct addresses" \
    "(redis-server on 127.0.0.1:$port, budget: ${IPDATA_FLEET_BUDGET_MS:-the store default,} ms)"

mark=$(log_lines)
start=$(date +%s.%N)
start_fleet shared --valkey-port "$port" --prefix "fleet-shared:"
wait_fleet shared
shared=$(requests_since "$mark")
shared_seconds=$(figure "$(date +%s.%N) - $start")
echo "shared store:        $shared API requests = $(figure "$shared / $distinct") x the distinct addresses (${shared_seconds} s)"
[ "$shared" -le $((distinct * 11 / 10)) ] || fail "shared store: $shared requests > 1.1 x $distinct"

# The same, on a machine kept busy: busy loops beside the fleet and redis-server.
hog_pids=()
for _ in $(seq 1 "$hogs"); do
    python3 -c 'while True: pass' &
    hog_pids+=($!)
done
mark=$(log_lines)
start=$(date +%s.%N)
start_fleet loaded --valkey-port "$port" --prefix "fleet-loaded:"
wait_fleet loaded
kill "${hog_pids[@]}" 2>/dev/null || true
wait "${hog_pids[@]}" 2>/dev/null || true
loaded=$(requests_since "$mark")
loaded_seconds=$(figure "$(date +%s.%N) - $start")
loaded_outages=$(cat "$tmp"/loaded.[0-9]* | python3 -c 'import json, sys; print(sum(json.loads(l)["outages"] for l in sys.stdin if l.strip()))')
echo "shared, $hogs busy loops: $loaded API requests = $(figure "$loaded / $distinct") x the distinct addresses," \
    "$loaded_outages .unavailable events (${loaded_seconds} s)"
[ "$loaded" -le $((distinct * 11 / 10)) ] || fail "loaded: $loaded requests > 1.1 x $distinct"
[ "$loaded_outages" -eq 0 ] || fail "loaded: the store was declared unavailable $loaded_outages times; the server was healthy"

mark=$(log_lines)
start=$(date +%s.%N)
start_fleet local
wait_fleet local
local_requests=$(requests_since "$mark")
local_seconds=$(figure "$(date +%s.%N) - $start")
echo "per-process caches:  $local_requests API requests = $(figure "$local_requests / $distinct") x the distinct addresses (${local_seconds} s)"
[ "$local_requests" -ge $((distinct * (processes - 1))) ] ||
    fail "per-process caches: $local_requests requests, fewer than $((processes - 1)) x $distinct"

# The outage: redis-server killed once the run has made a fifth of its shared requests, started
# again a second later (empty: nothing was saved).
mark=$(log_lines)
start_fleet outage --valkey-port "$port" --prefix "fleet-outage:" --recovery-wait 20
until [ "$(requests_since "$mark")" -ge $((distinct / 5)) ]; do
    kill -0 "${pids[0]}" 2>/dev/null || { fail "outage: the run ended before the outage"; break; }
    sleep 0.02
done
killed_after=$(requests_since "$mark")
redis_down
sleep 1
redis_up
wait_fleet outage
outage=$(requests_since "$mark")
echo "outage:              redis-server killed after $killed_after requests, back 1 s later; $outage API requests =" \
    "$(figure "$outage / $distinct") x the distinct addresses"
for n in $(seq 1 "$processes"); do
    python3 - "$tmp/outage.$n" "$n" <<'PY' || failed=1
import json, sys
summary = json.loads(open(sys.argv[1]).read())
problems = []
if summary["failures"]:
    problems.append(f"{summary['failures']} failed lookups ({summary['first_error']})")
if summary["outages"] < 1:
    problems.append("saw no outage")
if not summary["resumed"]:
    problems.append("the store did not answer again after the restart")
if problems:
    print(f"valkey-fleet: FAIL: outage: process {sys.argv[2]}: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
PY
done
[ "$(redis-cli -p "$port" --scan --pattern 'fleet-outage:*' | wc -l)" -gt 0 ] ||
    fail "outage: nothing stored after the restart"

if [ "$failed" -ne 0 ]; then
    echo "valkey-fleet: FAILED" >&2
    exit 1
fi
echo "valkey-fleet: ok"
