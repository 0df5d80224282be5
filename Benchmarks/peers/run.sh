#!/usr/bin/env bash
# Run the peer benchmarks (official Python SDK, curl) and the server-ceiling measurement
# against the local test server; write results.jsonl beside this script and print a table.
#
#   Benchmarks/peers/run.sh
#
# Uses the server whose env file is $IPDATA_TEST_SERVER_DIR/env (default
# /tmp/ipdata-test-server/env) when it answers; otherwise runs TestServer/start (which reads
# IPDATA_TEST_SERVER_DIR and IPDATA_TEST_SERVER_PORT_BASE) and stops it again at the end.
# For numbers that nobody else's traffic disturbs, give it a server of its own:
#
#   IPDATA_TEST_SERVER_DIR=/tmp/ipdata-peers-server IPDATA_TEST_SERVER_PORT_BASE=28443 \
#       Benchmarks/peers/run.sh
#
# Environment:
#   PEERS_REPEAT   runs of each benchmark (default 3; the table shows medians)
#   PEERS_VENV     virtualenv with the official SDK (default /tmp/ipdata-peers-venv; created
#                  and `pip install`ed when the SDK is missing)
#   PEERS_SDK      pip requirement for the SDK (default ipdata==4.0.9)
#   PEERS_TIMEOUT  seconds allowed for any one command (default 150)
#
# Installs with apt-get when missing: `time` (GNU time, for peak RSS) and `nghttp2-client`
# (h2load, for the server ceiling; without it the ceiling is measured with curl --parallel).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
RUN_DIR="${IPDATA_TEST_SERVER_DIR:-/tmp/ipdata-test-server}"
REPEAT="${PEERS_REPEAT:-3}"
VENV="${PEERS_VENV:-/tmp/ipdata-peers-venv}"
SDK_REQ="${PEERS_SDK:-ipdata==4.0.9}"
TMO="${PEERS_TIMEOUT:-150}"
RESULTS="$HERE/results.jsonl"

say() { printf 'peers: %s\n' "$*" >&2; }

apt_install() {  # apt_install PKG... (apt-get update only when the first try fails)
    command -v apt-get >/dev/null 2>&1 || return 1
    [ "$(id -u)" = 0 ] || return 1
    export DEBIAN_FRONTEND=noninteractive
    say "installing with apt-get: $*"
    apt-get install -y -q --no-install-recommends "$@" >/tmp/ipdata-peers-apt.log 2>&1 && return 0
    apt-get update -q >>/tmp/ipdata-peers-apt.log 2>&1 || true
    apt-get install -y -q --no-install-recommends "$@" >>/tmp/ipdata-peers-apt.log 2>&1
}

# --- tools ------------------------------------------------------------------------------
[ -x /usr/bin/time ] || apt_install time || { say "GNU time (/usr/bin/time) is missing"; exit 1; }
command -v curl >/dev/null 2>&1 || apt_install curl
command -v h2load >/dev/null 2>&1 || apt_install nghttp2-client || say "no h2load: the server ceiling is measured with curl --parallel"
HAVE_H2LOAD=0; command -v h2load >/dev/null 2>&1 && HAVE_H2LOAD=1

if ! "$VENV/bin/python" -c 'import ipdata' >/dev/null 2>&1; then
    say "creating $VENV with $SDK_REQ"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q "$SDK_REQ"
fi
PY="$VENV/bin/python"

# --- server -----------------------------------------------------------------------------
STARTED=0
server_up() {
    [ -s "$RUN_DIR/env" ] || return 1
    # shellcheck disable=SC1091
    . "$RUN_DIR/env"
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 --cacert "$IPDATA_TEST_CA" \
        "$IPDATA_TEST_URL_NORMAL/8.8.8.8?api-key=${IPDATA_TEST_KEY:-test-key}" 2>/dev/null)" = 200 ]
}
if server_up; then
    say "using the server already running ($RUN_DIR)"
else
    say "starting the test server ($RUN_DIR)"
    IPDATA_TEST_SERVER_DIR="$RUN_DIR" "$REPO/TestServer/start"
    STARTED=1
    server_up || { say "server does not answer after start"; exit 1; }
fi

WORK="$(mktemp -d /tmp/ipdata-peers.XXXXXX)"
cleanup() {
    rm -rf "$WORK"
    if [ "$STARTED" = 1 ]; then IPDATA_TEST_SERVER_DIR="$RUN_DIR" "$REPO/TestServer/stop" || true; fi
}
trap cleanup EXIT

PORT="${IPDATA_TEST_URL_NORMAL##*:}"
KEY="${IPDATA_TEST_KEY:-test-key}"
LOG="$IPDATA_TEST_ACCESS_LOG"
export IPDATA_TEST_URL_NORMAL IPDATA_TEST_CA IPDATA_TEST_CA_BUNDLE IPDATA_TEST_KEY="$KEY"

# --- inputs -----------------------------------------------------------------------------
python3 "$HERE/make_ips.py" 100000 "$WORK/ips-100k.txt"
python3 - "$IPDATA_TEST_URL_NORMAL" "${IPDATA_TEST_URL_BACKEND:-}" "$KEY" "$WORK" <<'EOF'
import json, sys
base, backend, key, work = sys.argv[1:]
ips = ["8.8.%d.%d" % (i // 256, i % 256) for i in range(10000)]
with open(work + "/uris-tls.txt", "w") as f:
    f.writelines("%s/%s?api-key=%s\n" % (base, ip, key) for ip in ips)
if backend:
    with open(work + "/uris-backend.txt", "w") as f:
        f.writelines("%s/%s?api-key=%s\n" % (backend, ip, key) for ip in ips)
with open(work + "/ips-100k.txt") as f:
    first = [next(f).strip() for _ in range(100)]
with open(work + "/bulk100.json", "w") as f:
    json.dump(first, f)
EOF

: >"$RESULTS"
python3 - "$RUN_DIR" "$STARTED" "$REPEAT" >>"$RESULTS" <<'EOF'
import json, os, subprocess, sys, time
run_dir, started, repeat = sys.argv[1:]
def sh(c):
    try:
        return subprocess.run(c, shell=True, capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception:
        return None
print(json.dumps({
    "name": "meta", "mode": "meta", "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "cores": os.cpu_count(), "loadavg_1m_before": float(open("/proc/loadavg").read().split()[0]),
    "server": "started by run.sh" if started == "1" else "already running", "server_dir": run_dir,
    "repeat": int(repeat), "nginx": sh("nginx -v 2>&1 || /usr/sbin/nginx -v 2>&1"),
    "curl": sh("curl --version | head -n 1"), "h2load": sh("h2load --version 2>/dev/null"),
}))
EOF

# run_bench NAME CMD...: one run per repetition, measured by /usr/bin/time -v, recorded
run_bench() {
    local name="$1"; shift
    local r from
    for ((r = 1; r <= REPEAT; r++)); do
        from=$(wc -l <"$LOG")
        say "$name (run $r/$REPEAT)"
        timeout -k 5 "$TMO" /usr/bin/time -v -o "$WORK/time.txt" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" \
            || { say "$name: exit $? -- $(tail -n 3 "$WORK/err.txt" | tr '\n' ' ')"; }
        sleep 0.3   # let nginx flush its access log lines
        python3 "$HERE/record.py" bench "$name" "$r" "$WORK/out.txt" "$WORK/time.txt" "$LOG" "$from" "$PORT" >>"$RESULTS"
    done
}

# run_h2load NAME IPS_PER_REQUEST H2LOAD-ARGS...
run_h2load() {
    local name="$1" ipr="$2"; shift 2
    local r from
    for ((r = 1; r <= REPEAT; r++)); do
        from=$(wc -l <"$LOG")
        say "$name (run $r/$REPEAT)"
        timeout -k 5 "$TMO" /usr/bin/time -v -o "$WORK/time.txt" h2load "$@" >"$WORK/out.txt" 2>&1 \
            || say "$name: exit $?"
        sleep 0.3
        python3 "$HERE/record.py" h2load "$name" "$r" "$WORK/out.txt" "$WORK/time.txt" "$LOG" "$from" "$PORT" \
            "$ipr" "h2load $*" >>"$RESULTS"
    done
}

# warm-up (not recorded): the server's first requests after start are slower
curl -s -o /dev/null --cacert "$IPDATA_TEST_CA" "$IPDATA_TEST_URL_NORMAL/8.8.4.4?api-key=$KEY" || true

# --- server ceiling -----------------------------------------------------------------------
if [ "$HAVE_H2LOAD" = 1 ]; then
    run_h2load "ceiling h2 1 conn, 1 in flight" 1 -n 2000 -c 1 -m 1 -i "$WORK/uris-tls.txt"
    run_h2load "ceiling h2 1 conn, 16 streams" 1 -n 10000 -c 1 -m 16 -i "$WORK/uris-tls.txt"
    run_h2load "ceiling h1.1 16 conns" 1 --h1 -n 10000 -c 16 -i "$WORK/uris-tls.txt"
    if [ -s "$WORK/uris-backend.txt" ]; then
        run_h2load "ceiling backend direct (no TLS/nginx) h1.1 4 conns" 1 --h1 -n 10000 -c 4 -i "$WORK/uris-backend.txt"
    fi
    run_h2load "ceiling bulk h1.1 4 conns" 100 --h1 -n 400 -c 4 -d "$WORK/bulk100.json" \
        -H 'content-type: application/json' "$IPDATA_TEST_URL_NORMAL/bulk?api-key=$KEY"
    run_h2load "ceiling bulk h2 4 conns" 100 -n 400 -c 4 -m 1 -d "$WORK/bulk100.json" \
        -H 'content-type: application/json' "$IPDATA_TEST_URL_NORMAL/bulk?api-key=$KEY"
else
    run_bench "ceiling curl h2 64 parallel" "$HERE/curl_bench.sh" single --count 10000 --concurrency 64
fi

# --- peers --------------------------------------------------------------------------------
run_bench "python-ipdata single sequential" "$PY" "$HERE/python_sdk_bench.py" single --count 2000 --concurrency 1
run_bench "python-ipdata single 16 threads" "$PY" "$HERE/python_sdk_bench.py" single --count 5000 --concurrency 16
run_bench "curl single sequential" "$HERE/curl_bench.sh" single --count 2000 --concurrency 1
run_bench "curl single 16 parallel" "$HERE/curl_bench.sh" single --count 5000 --concurrency 16
# With this SDK in the run, its bulk rounds interleave with the Python SDK's (below).
if [ -z "${IPDATA_SWIFT_BENCH:-}" ]; then
    run_bench "python-ipdata bulk 100k, 4 threads" "$PY" "$HERE/python_sdk_bench.py" bulk --file "$WORK/ips-100k.txt" --concurrency 4
fi

# --- this SDK, in the same run (Benchmarks/run.sh sets these) ---------------------------------
if [ -n "${IPDATA_SWIFT_BENCH:-}" ]; then
    SB="$IPDATA_SWIFT_BENCH"
    # Interleaved (SDK, default client, floor, …) so that drift in the machine's load hits all alike.
    ROUNDS=$REPEAT; REPEAT=1
    for ((round = 1; round <= ROUNDS; round++)); do
        run_bench "ipdata-swift single sequential" "$SB" single --client sdk --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --count 2000 --concurrency 1
        run_bench "ipdata-swift default client single sequential" "$SB" single --client sdk-default --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --count 2000 --concurrency 1
        run_bench "urlsession+jsondecoder single sequential" "$SB" single --client urlsession --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --count 2000 --concurrency 1
        run_bench "urlsession+jsondecoder (completion handler) single sequential" "$SB" single --client urlsession-completion --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --count 2000 --concurrency 1
        run_bench "ipdata-swift single 16 in flight" "$SB" single --client sdk --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --count 5000 --concurrency 16
        run_bench "ipdata-swift default client single 16 in flight" "$SB" single --client sdk-default --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --count 5000 --concurrency 16
        run_bench "urlsession+jsondecoder single 16 in flight" "$SB" single --client urlsession --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --count 5000 --concurrency 16
        run_bench "urlsession+jsondecoder (completion handler) single 16 in flight" "$SB" single --client urlsession-completion --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --count 5000 --concurrency 16
    done
    # Bulk enrichment, interleaved the same way: the Python SDK, the stream, the CLI.
    for ((round = 1; round <= ROUNDS; round++)); do
        run_bench "python-ipdata bulk 100k, 4 threads" "$PY" "$HERE/python_sdk_bench.py" bulk --file "$WORK/ips-100k.txt" --concurrency 4
        run_bench "ipdata-swift lookupStream 100k, 4 in flight" "$SB" stream --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --file "$WORK/ips-100k.txt" --concurrency 4
        if [ -n "${IPDATA_CLI:-}" ]; then
            run_bench "ipdata bulk (CLI) 100k, 4 in flight" bash -c '
                start=$(date +%s.%N)
                "$1" bulk --no-cache --base-url "$2" --api-key "$3" --concurrency 4 --no-progress "$4" >/dev/null 2>/dev/null
                status=$?
                end=$(date +%s.%N)
                printf "{\"client\":\"ipdata CLI\",\"mode\":\"bulk\",\"ips\":100000,\"seconds\":%s,\"ips_per_second\":%s,\"exit\":%s}\n" \
                    "$(echo "$end - $start" | bc)" "$(echo "100000 / ($end - $start)" | bc)" "$status"' \
                _ "$IPDATA_CLI" "$IPDATA_TEST_URL_NORMAL" "$KEY" "$WORK/ips-100k.txt"
        fi
    done
    REPEAT=$ROUNDS
    if [ "${IPDATA_BENCH_MILLION:-1}" = 1 ]; then
        python3 "$HERE/make_ips.py" 1000000 "$WORK/ips-1m.txt"
        REPEAT_SAVED=$REPEAT; REPEAT=1
        run_bench "ipdata-swift lookupStream 1M, 4 in flight" "$SB" stream --base-url "$IPDATA_TEST_URL_NORMAL" --key "$KEY" --file "$WORK/ips-1m.txt" --concurrency 4
        REPEAT=$REPEAT_SAVED
    fi
    fixture="$REPO/Tests/IPDataTests/Fixtures/lookup/8.8.8.8.SDK-AUTHORED.ipdata-swift-tests-2026.json"
    for ((r = 1; r <= REPEAT; r++)); do
        { "$SB" decode --fixture "$fixture" --iterations 20000; "$SB" overhead --fixture "$fixture" --iterations 50000; } | while IFS= read -r line; do
            python3 -c 'import json,sys; d=json.loads(sys.argv[1]); d["name"]=("decode: " if d["mode"]=="decode" else "overhead: ")+d["client"]; d["run"]=int(sys.argv[2]); print(json.dumps(d))' "$line" "$r"
        done >>"$RESULTS"
    done
fi

echo
python3 "$HERE/record.py" table "$RESULTS"
say "results: $RESULTS"
