#!/usr/bin/env python3
"""Each piece of machinery against the simpler code, as medians of interleaved rounds (issue #24).

    Benchmarks/machinery/interleave.py EXPERIMENT [--rounds N] [--out results.jsonl]

Run by Benchmarks/machinery/run.sh, which builds the two release builds and starts the server.
EXPERIMENT is one of the keys of experiments() below: json, json-local, json-bulk, watch-h2,
watch-h2-rtt, watch-h1, answer, floor, floor-pair, floor-debug (BENCH_DEBUG: a debug build),
floor-steps. Every round runs each arm once, in an order rotated by one each round, so
that the machine's drift hits every arm alike; the table gives each arm's median and its
min-max over the rounds, and each arm's rate against the first arm's, median and min-max of the
round-by-round ratios.

Environment: MACHINERY_NICE, a nice value for every benchmark process (run.sh gives the test
server's processes the same), so that other work on the machine disturbs the rounds less;
BENCH_BASE and BENCH_VARIANT (ipdata-benchmarks of the library as it is and of the
variant, see make-variant.sh), AHC_VARIANT and AHC_COMMIT (ipdata-transport-benchmarks of the
variant and of the transport commit, see run.sh), and the
test server's variables (IPDATA_TEST_URL_NORMAL, IPDATA_TEST_URL_SLOW_HTTP1, IPDATA_TEST_KEY).
The variant build reads IPDATA_VARIANT, comma-separated: the simpler code that stands in for
each piece (see variant.patch).
"""
import json
import os
import statistics
import subprocess
import sys
import time

env = os.environ
KEY = env.get("IPDATA_TEST_KEY", "test-key")
NORMAL = env.get("IPDATA_TEST_URL_NORMAL", "")
SLOW_H1 = env.get("IPDATA_TEST_URL_SLOW_HTTP1", "")
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "..", "Tests", "IPDataTests", "Fixtures", "lookup",
                       "8.8.8.8.SDK-AUTHORED.ipdata-swift-tests-2026.json")


def bench(build, *args):
    binary = {"base": "BENCH_BASE", "variant": "BENCH_VARIANT", "debug": "BENCH_DEBUG"}[build]
    return [env.get(binary, "ipdata-benchmarks"), *args]


def addresses_file(count):
    """A file of `count` distinct public addresses (Benchmarks/peers/make_ips.py), made once."""
    path = f"/tmp/ipdata-machinery-ips-{count}.txt"
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, "..", "peers", "make_ips.py"), str(count), path], check=True)
    return path


def ahc(build, *args):
    """ipdata-transport-benchmarks of the variant (main's library) or of the transport commit."""
    binary = env.get({"variant": "AHC_VARIANT", "commit": "AHC_COMMIT"}[build], "ipdata-transport-benchmarks")
    return [binary, "--base-url", NORMAL, "--key", KEY, *args]


def single(client, count, concurrency, *extra, base=None):
    return ["single", "--client", client, "--base-url", base or NORMAL, "--key", KEY, "--count", str(count),
            "--concurrency", str(concurrency), *extra]


def arms_for(build_arms, command):
    """[(label, build, IPDATA_VARIANT)] x a command: the arms of one group."""
    return [(label, build, variant, command(build)) for label, build, variant in build_arms]


# Each experiment: a list of groups; a group is a title and its arms (label, build, variant
# flags, command). The first arm of a group is the reference of its ratios.
def experiments():
    json_arms = [("JSONNode parser (as it is)", "base", ""),
                 ("variant build, nothing switched (A/A)", "variant", ""),
                 ("JSONDecoder through init(from:)", "variant", "jsondecoder")]
    watch_arms = [("header-sniffing watch (as it is)", "base", ""),
                  ("fixed limit: the session's connections a host (6)", "variant", "fixed-connections"),
                  ("fixed limit: maximumConcurrentRequests", "variant", "fixed-wanted")]
    answer_arms = [("main: TransportAnswer.success fast path (as it is)", "variant", ""),
                   ("main, no wrapper: every answer an HTTPURLResponse", "variant", "no-fast-path"),
                   ("70d7d35: one transport requirement, no TransportAnswer", "commit", "")]
    slow_h1 = SLOW_H1 + "/delay/0.2"
    return {
        "json": [
            ("default client, sequential, 1,000 lookups",
             arms_for(json_arms, lambda b: bench(b, *single("sdk-default", 1000, 1)))),
            ("default client, 16 in flight, 3,000 lookups",
             arms_for(json_arms, lambda b: bench(b, *single("sdk-default", 3000, 16)))),
        ],
        # lookupStream, 100 addresses a bulk request, 4 in flight, over a session of the client's own.
        "json-bulk": [
            ("lookupStream of 100,000 addresses, bulk requests of 100, 4 in flight",
             arms_for(json_arms, lambda b: bench(b, "stream", "--base-url", NORMAL, "--key", KEY,
                                                 "--file", addresses_file(100_000), "--concurrency", "4"))),
        ],
        "json-local": [
            ("client.lookup through a canned transport (no network), 50,000 lookups",
             arms_for(json_arms, lambda b: bench(b, "overhead", "--fixture", FIXTURE, "--iterations", "50000"))),
            ("client.bulkLookup of 100 through a canned transport, 50,000 addresses",
             arms_for(json_arms, lambda b: bench(b, "overhead", "--fixture", FIXTURE, "--iterations", "50000",
                                                 "--bulk", "100"))),
        ],
        "watch-h2": [
            (f"URLSession.shared over HTTP/2, {c} in flight, maximumConcurrentRequests {c}, 4,000 lookups",
             arms_for(watch_arms, lambda b, c=c: bench(b, *single("sdk-default", 4000, c, "--max-concurrent", str(c)))))
            for c in (16, 64)
        ] + [
            (f"an injected URLSession(.default) over HTTP/2, {c} in flight, maximumConcurrentRequests {c}, 4,000 lookups",
             arms_for(watch_arms, lambda b, c=c: bench(b, *single("sdk-injected", 4000, c, "--max-concurrent", str(c)))))
            for c in (16, 64)
        ],
        # Answers that take 20 ms at the server, as a lookup over the internet takes a round trip:
        # what the client's concurrency buys when waiting, not the CPU, is the limit.
        "watch-h2-rtt": [
            (f"{session} over HTTP/2, answers in 20 ms, {c} in flight, maximumConcurrentRequests {c}, 2,000 lookups",
             arms_for(watch_arms, lambda b, c=c, client=client: bench(
                 b, *single(client, 2000, c, "--max-concurrent", str(c), base=NORMAL + "/delay/0.02"))))
            for client, session in (("sdk-default", "URLSession.shared"),
                                    ("sdk-injected", "an injected URLSession(.default)"))
            for c in (16, 64)
        ],
        "watch-h1": [
            (f"an injected URLSession(.default), timeout 4 s, over HTTP/1.1, answers in 0.2 s, {c} in flight, "
             f"maximumConcurrentRequests {c}, 400 lookups",
             arms_for(watch_arms, lambda b, c=c: bench(b, *single("sdk-injected", 400, c, "--max-concurrent", str(c),
                                                                  "--timeout", "4", base=slow_h1))))
            for c in (16, 64)
        ],
        "answer": [
            ("IPDataClient over AsyncHTTPClientTransport, sequential, 1,500 lookups",
             arms_for(answer_arms, lambda b: ahc(b, "--transport", "ahc", "--concurrency", "1", "--count", "1500"))),
            ("IPDataClient over AsyncHTTPClientTransport, 16 in flight, 4,000 lookups",
             arms_for(answer_arms, lambda b: ahc(b, "--transport", "ahc", "--concurrency", "16", "--count", "4000"))),
        ],
        "floor": [
            (f"{'sequential, 1,500' if c == 1 else '16 in flight, 4,000'} lookups", [
                ("default client (URLSession.shared)", "base", "", bench("base", *single("sdk-default", n, c))),
                ("URLSession.shared + JSONDecoder IPResponse", "base", "", bench("base", *single("user-shared", n, c))),
                ("URLSession(.default) + JSONDecoder IPResponse", "base", "",
                 bench("base", *single("user-default", n, c))),
                ("URLSession(.default) + JSONSerialization", "base", "",
                 bench("base", *single("user-serialization", n, c))),
                ("URLSession(.default) + completion handler + plain struct", "base", "",
                 bench("base", *single("urlsession-completion", n, c))),
                ("client with a session of its own", "base", "", bench("base", *single("sdk", n, c))),
            ]) for c, n in ((1, 1500), (16, 4000))
        ],
        # The floor against the default client, with many short rounds: a difference of a
        # few per cent needs dozens of rounds on a shared machine.
        "floor-pair": [
            (f"{'sequential, 1,000' if c == 1 else '16 in flight, 3,000'} lookups", [
                ("default client (URLSession.shared)", "base", "", bench("base", *single("sdk-default", n, c))),
                ("URLSession.shared + JSONDecoder IPResponse", "base", "", bench("base", *single("user-shared", n, c))),
                ("URLSession(.default) + JSONSerialization", "base", "",
                 bench("base", *single("user-serialization", n, c))),
            ]) for c, n in ((1, 1000), (16, 3000))
        ],
        # The same, with both built for debugging (`swift build`, what `swift run` makes by default).
        "floor-debug": [
            (f"debug builds, {'sequential, 1,000' if c == 1 else '16 in flight, 3,000'} lookups", [
                ("default client (URLSession.shared), debug build", "debug", "",
                 bench("debug", *single("sdk-default", n, c))),
                ("URLSession(.default) + JSONSerialization, debug build", "debug", "",
                 bench("debug", *single("user-serialization", n, c))),
                ("URLSession.shared + JSONDecoder IPResponse, debug build", "debug", "",
                 bench("debug", *single("user-shared", n, c))),
            ]) for c, n in ((1, 1000), (16, 3000))
        ],
        # The default client with its steps taken away one after another (cumulative), sequential.
        "floor-steps": [
            ("sequential, 1,500 lookups", [
                ("default client (as it is)", "base", "", bench("base", *single("sdk-default", 1500, 1))),
            ] + [
                (label, "variant", flags, bench("variant", *single("sdk-default", 1500, 1)))
                for label, flags in FLOOR_STEPS
            ] + [
                ("URLSession.shared + JSONDecoder IPResponse", "base", "",
                 bench("base", *single("user-shared", 1500, 1))),
            ]),
        ],
    }


# Cumulative: each step takes one more thing away from the default client's path.
FLOOR_STEPS = [
    ("- cache policy", "no-cache-policy"),
    ("- its headers (api-key, Accept, User-Agent)", "no-cache-policy,no-headers"),
    ("- deadline watch", "no-cache-policy,no-headers,no-watch"),
    ("- task delegate", "no-cache-policy,no-headers,no-watch,no-task-delegate"),
    ("- request slots and coalescing", "no-cache-policy,no-headers,no-watch,no-task-delegate,no-slots,no-coalescer"),
    ("- data task + completion handler: URLSession's data(for:)",
     "no-cache-policy,no-headers,no-watch,no-task-delegate,no-slots,no-coalescer,async-data"),
]


def run(label, variant, command):
    if env.get("MACHINERY_NICE"):
        command = ["nice", "-n", env["MACHINERY_NICE"], *command]
    child = dict(env)
    if variant:
        child["IPDATA_VARIANT"] = variant
    else:
        child.pop("IPDATA_VARIANT", None)
    try:
        out = subprocess.run(command, env=child, capture_output=True, text=True, timeout=600).stdout
    except subprocess.TimeoutExpired:
        return None
    for line in reversed(out.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    return None


def rate(rec):
    for key in ("requests_per_second", "ips_per_second"):
        if key in rec:
            return rec[key]
    if "microseconds_per_lookup" in rec:
        return 1e6 / rec["microseconds_per_lookup"]
    if "microseconds_per_address" in rec:
        return 1e6 / rec["microseconds_per_address"]
    return None


def cpu(rec):
    for key, scale in (("cpu_ms_per_request", 1000), ("cpu_microseconds_per_lookup", 1),
                       ("cpu_microseconds_per_address", 1)):
        if key in rec:
            return rec[key] * scale
    return None


def spread(values, digits=0):
    values = [v for v in values if v is not None]
    if not values:
        return "–"
    med = statistics.median(values)
    return f"{med:,.{digits}f} ({min(values):,.{digits}f}–{max(values):,.{digits}f})"


def table(title, arms, rounds):
    ref = rounds[0]
    lines = [f"**{title}**", "",
             "| | rate /s | CPU µs per lookup | vs first: rate | vs first: CPU | failed (timed out) | latency p99, max ms |",
             "|---|---|---|---|---|---|---|"]
    for i, (label, _, _, _) in enumerate(arms):
        recs = [r[i] for r in rounds]
        ok = [(a, b) for a, b in zip([r[0] for r in rounds], recs) if a and b]
        rates = [rate(b) / rate(a) for a, b in ok if rate(a) and rate(b)]
        cpus = [cpu(b) / cpu(a) for a, b in ok if cpu(a) and cpu(b)]
        fails = sum(r.get("errors", r.get("failures", 0)) or 0 for r in recs if r)
        timeouts = sum(r.get("timeouts", 0) or 0 for r in recs if r)
        p99 = [r.get("latency_ms_p99") for r in recs if r and "latency_ms_p99" in r]
        mx = [r.get("latency_ms_max") for r in recs if r and "latency_ms_max" in r]
        lat = f"{statistics.median(p99):,.0f}, {max(mx):,.0f}" if p99 else "–"
        vs_rate = "–" if i == 0 else spread(rates, 2) + "×"
        vs_cpu = "–" if i == 0 else spread(cpus, 2) + "×"
        lines.append(f"| {label} | {spread([rate(r) for r in recs if r])} | {spread([cpu(r) for r in recs if r], 1)} | "
                     f"{vs_rate} | {vs_cpu} | {fails} ({timeouts}) | {lat} |")
    return "\n".join(lines)


def main():
    args = sys.argv[1:]
    name = args[0]
    n_rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 5
    out = open(args[args.index("--out") + 1], "a") if "--out" in args else None
    groups = experiments()[name]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = open("/proc/loadavg").read().split()[0]
    print(f"{name}: {n_rounds} interleaved rounds, started {started}, load {load}", flush=True)
    for title, arms in groups:
        rounds = []
        for r in range(n_rounds):
            order = list(range(len(arms)))
            order = order[r % len(order):] + order[:r % len(order)]
            recs = [None] * len(arms)
            for i in order:
                label, build, variant, command = arms[i]
                recs[i] = run(label, variant, command)
                if out and recs[i]:
                    out.write(json.dumps({"experiment": name, "group": title, "arm": label, "round": r + 1,
                                          "variant": variant, **recs[i]}) + "\n")
                    out.flush()
                print(f"  [{r + 1}/{n_rounds}] {label}: " +
                      (f"{rate(recs[i]):,.0f}/s, {cpu(recs[i]) or 0:,.1f} µs CPU" if recs[i] else "no result"),
                      file=sys.stderr, flush=True)
            rounds.append(recs)
        print()
        print(table(title, arms, rounds))
        print(flush=True)
    print(f"ended {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {open('/proc/loadavg').read().split()[0]}")


if __name__ == "__main__":
    main()
