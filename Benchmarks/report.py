#!/usr/bin/env python3
"""Writes BENCHMARKS.md (to stdout) from Benchmarks/peers/results.jsonl.

    python3 Benchmarks/report.py Benchmarks/peers/results.jsonl > BENCHMARKS.md

Every figure is the median of the runs of one measurement (min-max beside it); ratios and the
verdict on each target are computed from those medians, so the text below the tables changes
with the numbers.
"""
import json
import statistics
import sys


def load(path):
    meta, runs = {}, {}
    for line in open(path, encoding="utf-8"):
        rec = json.loads(line)
        if rec.get("mode") == "meta":
            meta = rec
            continue
        runs.setdefault(rec["name"], []).append(rec)
    return meta, runs


def med(recs, key):
    values = [r[key] for r in recs if isinstance(r.get(key), (int, float))]
    return statistics.median(values) if values else None


def span(recs, key):
    values = [r[key] for r in recs if isinstance(r.get(key), (int, float))]
    return (min(values), max(values)) if values else (None, None)


def fmt(value, digits=0):
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def main(path):
    meta, runs = load(path)
    get = runs.get

    def row(name, rate_key, unit_digits=0):
        recs = get(name, [])
        if not recs:
            return None
        lo, hi = span(recs, rate_key)
        cpu = med(recs, "client_cpu_seconds")
        count = med(recs, "count") or med(recs, "ips")
        per = (cpu / count * 1000) if cpu and count else None
        return (f"| {name} | {fmt(med(recs, rate_key), unit_digits)} ({fmt(lo)}–{fmt(hi)}) | "
                f"{fmt(med(recs, 'seconds'), 2)} | {fmt(per, 3)} | {fmt(med(recs, 'peak_rss_mb'), 1)} | "
                f"{fmt(med(recs, 'server_connections'))} |")

    def rate(name, key="requests_per_second"):
        return med(get(name, []), key)

    out = []
    w = out.append
    w("# Benchmarks")
    w("")
    w("One table per benchmark, each under the command that produced it and its date; the analysis")
    w("follows the tables, in the same order. The package's documentation keeps no figures: they are")
    w("here. The first five tables are written by **`Benchmarks/run.sh`** (through")
    w("`Benchmarks/report.py`); the rest of the file is `Benchmarks/ANALYSIS.md`, kept by hand, which")
    w("the script appends.")
    w("")
    w("`Benchmarks/run.sh` runs release builds, every client side by side against the same local")
    w("server: `TestServer/`, nginx with TLS 1.3 and HTTP/2 in front of a Python backend, on 127.0.0.1.")
    w(f"Figures are medians of {meta.get('repeat', '?')} runs, min–max in brackets. Machine: "
      f"{meta.get('cores', '?')} cores shared by client, nginx and backend; load average "
      f"{meta.get('loadavg_1m_before', '?')} before the run. "
      f"{meta.get('nginx', '')}; {(meta.get('curl') or '').split(' (')[0]}; Swift 6.3.1; Python SDK `ipdata` 4.0.9.")
    w("Columns: rate; wall seconds; client CPU milliseconds per request (or per address, for bulk);")
    w("peak RSS of the client process; TCP connections the server saw.")
    w("")
    when = f"`Benchmarks/run.sh`, {meta.get('time', '?')}."
    w("## Single lookups")
    w("")
    w(when)
    w("")
    w("| client | requests/s | seconds | CPU ms/req | peak RSS MB | conns |")
    w("|---|---|---|---|---|---|")
    for name in [
        "ipdata-swift single sequential", "ipdata-swift default client single sequential",
        "urlsession+jsondecoder single sequential", "urlsession+jsondecoder (completion handler) single sequential",
        "python-ipdata single sequential", "curl single sequential",
        "ipdata-swift single 16 in flight", "ipdata-swift default client single 16 in flight",
        "urlsession+jsondecoder single 16 in flight", "urlsession+jsondecoder (completion handler) single 16 in flight",
        "python-ipdata single 16 threads", "curl single 16 parallel",
        "ceiling h2 1 conn, 1 in flight", "ceiling h2 1 conn, 16 streams", "ceiling h1.1 16 conns",
    ]:
        r = row(name, "requests_per_second")
        if r:
            w(r)
    w("")
    w("## Enriching a list (bulk requests of 100)")
    w("")
    w(when)
    w("")
    w("| client | addresses/s | seconds | CPU ms/address | peak RSS MB | conns |")
    w("|---|---|---|---|---|---|")
    for name in [
        "ipdata-swift lookupStream 100k, 4 in flight", "ipdata bulk (CLI) 100k, 4 in flight",
        "python-ipdata bulk 100k, 4 threads", "ipdata-swift lookupStream 1M, 4 in flight",
        "ceiling bulk h2 4 conns", "ceiling bulk h1.1 4 conns",
    ]:
        r = row(name, "ips_per_second")
        if r:
            w(r)
    w("")
    w("## Decoding one lookup object (1.6 KB, 20,000 times)")
    w("")
    w(when)
    w("")
    w("| decoder | µs per decode |")
    w("|---|---|")
    for name in ["decode: IPResponse through JSONDecoder", "decode: plain Codable struct", "decode: JSONSerialization"]:
        recs = get(name, [])
        if recs:
            lo, hi = span(recs, "microseconds_per_decode")
            w(f"| {name[len('decode: '):]} | {fmt(med(recs, 'microseconds_per_decode'), 1)} ({fmt(lo, 1)}–{fmt(hi, 1)}) |")
    recs = get("overhead: ipdata-swift", [])
    if recs:
        sdk, plain = med(recs, "microseconds_per_lookup"), med(recs, "plain_request_and_decode_microseconds")
        w("")
        w("## The SDK's own work per lookup (no network)")
        w("")
        w(when)
        w("")
        w("`client.lookup` through a transport that answers at once with the same 1.6 KB body, against")
        w("building a plain `URLRequest` and decoding the body into a plain `Codable` struct (50,000 lookups")
        w("of distinct addresses, so neither the cache nor coalescing helps):")
        w("")
        w("| | µs per lookup |")
        w("|---|---|")
        w(f"| `IPDataClient.lookup` (validation, request, coalescing, tolerant decoding) | {fmt(sdk, 1)} |")
        w(f"| plain `URLRequest` + `JSONDecoder` | {fmt(plain, 1)} |")
        if sdk and plain:
            w(f"| the SDK's extra work | {fmt(sdk - plain, 1)} |")
    w("")

    def ratio(a, b):
        return a / b if a and b else None

    seq_overhead = ratio(rate("urlsession+jsondecoder single sequential"), rate("ipdata-swift single sequential"))
    par_overhead = ratio(rate("urlsession+jsondecoder single 16 in flight"), rate("ipdata-swift single 16 in flight"))
    default_seq = ratio(rate("ipdata-swift default client single sequential"),
                        rate("urlsession+jsondecoder single sequential"))
    default_par = ratio(rate("ipdata-swift default client single 16 in flight"),
                        rate("urlsession+jsondecoder single 16 in flight"))
    # The same plain loop through a data task with a completion handler, as every deadlock-free
    # client on Linux must send (see Benchmarks/ANALYSIS.md): the floor the SDK can reach there.
    completion_seq = ratio(rate("urlsession+jsondecoder (completion handler) single sequential"),
                           rate("urlsession+jsondecoder single sequential"))
    completion_par = ratio(rate("urlsession+jsondecoder (completion handler) single 16 in flight"),
                           rate("urlsession+jsondecoder single 16 in flight"))
    vs_python_16 = ratio(rate("ipdata-swift single 16 in flight"), rate("python-ipdata single 16 threads"))
    vs_python_seq = ratio(rate("ipdata-swift single sequential"), rate("python-ipdata single sequential"))
    bulk_vs_python = ratio(rate("ipdata-swift lookupStream 100k, 4 in flight", "ips_per_second"),
                           rate("python-ipdata bulk 100k, 4 threads", "ips_per_second"))
    cli_vs_python = ratio(rate("ipdata bulk (CLI) 100k, 4 in flight", "ips_per_second"),
                          rate("python-ipdata bulk 100k, 4 threads", "ips_per_second"))
    rss_100k = med(get("ipdata-swift lookupStream 100k, 4 in flight", []), "peak_rss_mb")
    rss_cli = med(get("ipdata bulk (CLI) 100k, 4 in flight", []), "peak_rss_mb")
    rss_1m = med(get("ipdata-swift lookupStream 1M, 4 in flight", []), "peak_rss_mb")
    rss_py = med(get("python-ipdata bulk 100k, 4 threads", []), "peak_rss_mb")

    def verdict(ok):
        return "met" if ok else "**not met**"

    w("## Against the targets")
    w("")
    w(when + " The ratios of the tables above.")
    w("")
    w("| target | measured | |")
    w("|---|---|---|")
    if seq_overhead:
        w(f"| SDK overhead ≤ 10 % over plain URLSession, sequential | {100 * (seq_overhead - 1):+.1f} % | {verdict(seq_overhead <= 1.10)} |")
    if par_overhead:
        w(f"| SDK overhead ≤ 10 % over plain URLSession, 16 in flight | {100 * (par_overhead - 1):+.1f} % | {verdict(par_overhead <= 1.10)} |")
    if default_seq:
        w(f"| default client (`URLSession.shared`) ≥ 0.95× the plain URLSession loop, sequential | {default_seq:.2f}× | {verdict(default_seq >= 0.95)} |")
    if default_par:
        w(f"| default client (`URLSession.shared`) ≥ 0.95× the plain URLSession loop, 16 in flight | {default_par:.2f}× | {verdict(default_par >= 0.95)} |")
    if completion_seq and completion_par:
        w(f"| (the plain loop through a completion handler, the Linux floor, against the plain loop) | {completion_seq:.2f}× sequential, {completion_par:.2f}× at 16 in flight | |")
    if vs_python_16:
        w(f"| ≥ 2× the Python SDK at 16 in flight | {vs_python_16:.2f}× | {verdict(vs_python_16 >= 2)} |")
    if bulk_vs_python:
        w(f"| bulk enrichment at least as fast as the Python SDK (library stream) | {bulk_vs_python:.2f}× | {verdict(bulk_vs_python >= 1)} |")
    if cli_vs_python:
        w(f"| bulk enrichment at least as fast as the Python SDK (`ipdata bulk`) | {cli_vs_python:.2f}× | {verdict(cli_vs_python >= 1)} |")
    if rss_100k:
        w(f"| peak RSS < 50 MB for 100,000 addresses (library stream) | {rss_100k:.1f} MB (Python SDK: {fmt(rss_py, 1)} MB) | {verdict(rss_100k < 50)} |")
    if rss_cli:
        w(f"| peak RSS < 50 MB for 100,000 addresses (`ipdata bulk`) | {rss_cli:.1f} MB | {verdict(rss_cli < 50)} |")
    if rss_1m:
        w(f"| peak RSS < 50 MB for 1,000,000 addresses | {rss_1m:.1f} MB | {verdict(rss_1m < 50)} |")
    w("")
    if vs_python_seq:
        w(f"Sequentially this SDK makes {vs_python_seq:.2f}× the Python SDK's requests per second.")
        w("")
    w(open(__file__.replace("report.py", "ANALYSIS.md"), encoding="utf-8").read().rstrip())
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
