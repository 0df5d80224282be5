#!/usr/bin/env python3
"""Where a client's CPU per lookup goes, by library, from `perf record` (issue #24, the floor).

    Benchmarks/machinery/profile.py [--rounds N] [--count C] [--concurrency K] CLIENT...

Records each CLIENT (an `ipdata-benchmarks single --client` name, or `variant:FLAGS:CLIENT` for
the variant build with IPDATA_VARIANT=FLAGS) with `perf record -F 4999`, N rounds (default 3)
of C lookups (default 3,000), interleaved, and prints one table: each shared object's CPU
microseconds per lookup (median of the rounds), the clients side by side, and the difference
of every column from the first. The benchmark's own binary (the library, statically linked) is
split into the IPData module and the rest by symbol. Run it under TestServer/with-test-ca, with
BENCH_BASE (and BENCH_VARIANT) and the test server's variables set, as interleave.py is.
"""
import collections
import os
import statistics
import subprocess
import sys
import tempfile

env = os.environ
args = sys.argv[1:]


def take(flag, default):
    if flag in args:
        i = args.index(flag)
        value = args[i + 1]
        del args[i:i + 2]
        return value
    return default


rounds = int(take("--rounds", "3"))
count = int(take("--count", "3000"))
concurrency = int(take("--concurrency", "1"))
clients = args
FREQUENCY = 4999


def group(dso, symbol):
    """The row a sample counts in."""
    name = os.path.basename(dso)
    if name.startswith("ipdata-benchmarks"):
        return "IPData (the library's own code)" if "IPData" in symbol or "5IPData" in symbol else "benchmark loop"
    if name.startswith("[kernel"):
        return "kernel (syscalls, scheduling, network)"
    for prefix, row in (("libcurl", "libcurl"), ("libssl", "OpenSSL"), ("libcrypto", "OpenSSL"),
                        ("libnghttp2", "nghttp2"), ("libFoundationNetworking", "FoundationNetworking"),
                        ("libFoundationEssentials", "FoundationEssentials (JSONDecoder, Data, URL)"),
                        ("libFoundation.so", "Foundation (JSONSerialization, OperationQueue, NSObject)"),
                        ("libFoundationInternationalization", "FoundationInternationalization"),
                        ("libswiftCore", "Swift runtime and stdlib"), ("libswift_Concurrency", "Swift concurrency"),
                        ("libdispatch", "libdispatch"), ("libBlocksRuntime", "libdispatch"),
                        ("libc.so", "libc (malloc, free, memcpy, futex)"), ("libz", "zlib")):
        if name.startswith(prefix):
            return row
    return "other: " + name


def profile(client):
    build, flags, name = ("base", "", client)
    if client.startswith("variant:"):
        _, flags, name = client.split(":", 2)
        build = "variant"
    binary = env["BENCH_BASE" if build == "base" else "BENCH_VARIANT"]
    child = dict(env)
    child.pop("IPDATA_VARIANT", None)
    if flags:
        child["IPDATA_VARIANT"] = flags
    with tempfile.TemporaryDirectory() as work:
        data = os.path.join(work, "perf.data")
        subprocess.run(["perf", "record", "-q", "-F", str(FREQUENCY), "-o", data, "--", binary, "single", "--client",
                        name, "--base-url", env["IPDATA_TEST_URL_NORMAL"], "--key", env.get("IPDATA_TEST_KEY", "test-key"),
                        "--count", str(count), "--concurrency", str(concurrency)],
                       env=child, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = subprocess.run(["perf", "script", "-i", data, "-F", "period,ip,sym,dso"], capture_output=True,
                             text=True).stdout
    totals = collections.Counter()
    for line in out.splitlines():
        parts = line.split(None, 1)
        if len(parts) < 2 or not parts[0].isdigit():
            continue
        period = int(parts[0])
        rest = parts[1]
        dso = rest[rest.rfind("(") + 1:rest.rfind(")")] if "(" in rest else "?"
        # `ip symbol (dso)`: perf resolves a symbol and its object only with the address asked for.
        symbol = rest[:rest.rfind("(")].strip().partition(" ")[2] if "(" in rest else rest
        totals[group(dso, symbol)] += period
    # perf's cpu-clock period is in nanoseconds; warm-up (20 lookups) included, a 1 % error.
    return {row: ns / 1000 / count for row, ns in totals.items()}


results = {client: [] for client in clients}
for r in range(rounds):
    for client in clients[r % len(clients):] + clients[:r % len(clients)]:
        results[client].append(profile(client))
        print(f"  [{r + 1}/{rounds}] {client}: {sum(results[client][-1].values()):.0f} µs per lookup", file=sys.stderr,
              flush=True)

rows = sorted({row for runs in results.values() for run in runs for row in run},
              key=lambda row: -statistics.median([run.get(row, 0) for run in results[clients[0]]]))
medians = {c: {row: statistics.median([run.get(row, 0) for run in results[c]]) for row in rows} for c in clients}
totals = {c: statistics.median([sum(run.values()) for run in results[c]]) for c in clients}
print(f"CPU µs per lookup by library, `perf record -F {FREQUENCY}`, {count} lookups, {concurrency} in flight, "
      f"median of {rounds} interleaved rounds")
print()
print("| | " + " | ".join(clients) + " | " + " | ".join(f"{c} − {clients[0]}" for c in clients[1:]) + " |")
print("|---|" + "---|" * (2 * len(clients) - 1))
for row in rows + ["total"]:
    values = [totals[c] if row == "total" else medians[c][row] for c in clients]
    if row != "total" and max(values) < 1:
        continue
    print(f"| {row} | " + " | ".join(f"{v:.1f}" for v in values) + " | " +
          " | ".join(f"{v - values[0]:+.1f}" for v in values[1:]) + " |")
