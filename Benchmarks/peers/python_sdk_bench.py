#!/usr/bin/env python3
"""Benchmark ipdata's official Python SDK (PyPI package `ipdata`) against the local test server.

    python_sdk_bench.py single --count N [--concurrency C]
    python_sdk_bench.py bulk --file PATH [--concurrency C]

Common options (defaults from the environment written by TestServer/start):
    --base-url URL     IPDATA_TEST_URL_NORMAL   (e.g. https://127.0.0.1:18443)
    --key KEY          IPDATA_TEST_KEY          (test-key)
    --ca-bundle PATH   IPDATA_TEST_CA_BUNDLE    (system bundle + test CA), exported as
                       REQUESTS_CA_BUNDLE and SSL_CERT_FILE before the SDK is imported

The SDK is used as its users use it: one `ipdata.IPData(api_key, endpoint=...)` client (one
`requests.Session`, HTTP/1.1, the SDK's own retry adapter with its default pool of 10
connections), shared by all threads of a `ThreadPoolExecutor` when C > 1. One untimed warm-up
lookup opens the first connection; the timed part starts after it.

single: N lookups of distinct public IPs (8.8.0.0, 8.8.0.1, ... 8.8.255.255, then the
        make_ips.py sequence), each answer parsed into the SDK's DotDict and checked (`ip`
        echoed back, status 200).
bulk:   the IPs in PATH (one per line) in chunks of 100, `client.bulk(chunk)` per chunk; every
        result is kept in memory until the end (as a caller collecting the answers does) and
        checked (same length, same order).

Prints one JSON line on standard output. Also reported: "errors" (exceptions or wrong answers)
and "pool_full_discards" (urllib3's "Connection pool is full, discarding connection" warnings:
with more threads than the SDK's pool of 10 connections, connections beyond 10 are closed after
each request and reopened, TLS handshake included). Exit status 1 when any request failed.
"""
import argparse
import json
import logging
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)

    def common(sp):
        sp.add_argument("--concurrency", "-c", type=int, default=1)
        sp.add_argument("--base-url", default=os.environ.get("IPDATA_TEST_URL_NORMAL"))
        sp.add_argument("--key", default=os.environ.get("IPDATA_TEST_KEY", "test-key"))
        sp.add_argument("--ca-bundle", default=os.environ.get("IPDATA_TEST_CA_BUNDLE"))
        sp.add_argument("--timeout", type=float, default=30.0, help="per-request timeout (lookups)")

    s = sub.add_parser("single", help="N single lookups")
    s.add_argument("--count", "-n", type=int, required=True)
    common(s)
    b = sub.add_parser("bulk", help="bulk lookups of the IPs in a file, 100 per request")
    b.add_argument("--file", "-f", required=True)
    b.add_argument("--chunk", type=int, default=100)
    common(b)
    a = p.parse_args(argv)
    if not a.base_url:
        p.error("--base-url not given and IPDATA_TEST_URL_NORMAL not set (source the test server's env file)")
    if a.concurrency < 1:
        p.error("--concurrency must be >= 1")
    return a


class _PoolFullCounter(logging.Filter):
    """Counts (and swallows) urllib3's 'Connection pool is full' warnings."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def filter(self, record):
        if "Connection pool is full" in record.getMessage():
            self.count += 1
            return False
        return True


def single_ips(n):
    """8.8.0.0 .. 8.8.255.255 first (all public), then make_ips.py's sequence."""
    out = ["8.8.%d.%d" % (i // 256, i % 256) for i in range(min(n, 65536))]
    if n > 65536:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from make_ips import public_ips

        seen = set(out)
        for ip in public_ips(n * 2):
            if len(out) >= n:
                break
            if ip not in seen:
                out.append(ip)
    return out


def main(argv):
    a = parse_args(argv)
    if a.ca_bundle:
        # requests reads REQUESTS_CA_BUNDLE per request (Session.trust_env); the environment
        # of this machine may already point it at the system bundle, so override both.
        os.environ["REQUESTS_CA_BUNDLE"] = a.ca_bundle
        os.environ["SSL_CERT_FILE"] = a.ca_bundle

    counter = _PoolFullCounter()
    logging.getLogger("urllib3.connectionpool").addFilter(counter)

    import ipdata  # the official SDK
    from ipdata import IPData

    sdk_version = None
    try:
        from importlib.metadata import version

        sdk_version = version("ipdata")
    except Exception:
        pass

    client = IPData(a.key, endpoint=a.base_url, timeout=a.timeout)
    warm = client.lookup("8.8.8.8")
    if warm.get("status") != 200 or warm.get("ip") != "8.8.8.8":
        sys.stderr.write("warm-up lookup failed: %r\n" % (dict(warm),))
        return 1

    errors = []

    if a.mode == "single":
        ips = single_ips(a.count)

        def one(ip):
            try:
                r = client.lookup(ip)
            except Exception as e:  # IPDataException wraps transport errors
                return "%s: %s" % (ip, e)
            if r.get("status") != 200 or r.get("ip") != ip:
                return "%s: status %s ip %s" % (ip, r.get("status"), r.get("ip"))
            return None

        t0 = time.perf_counter()
        if a.concurrency == 1:
            results = [one(ip) for ip in ips]
        else:
            with ThreadPoolExecutor(max_workers=a.concurrency) as pool:
                results = list(pool.map(one, ips))
        seconds = time.perf_counter() - t0
        errors = [r for r in results if r]
        out = {
            "client": "python-ipdata",
            "mode": "single",
            "count": a.count,
            "concurrency": a.concurrency,
            "seconds": round(seconds, 4),
            "requests_per_second": round(a.count / seconds, 1),
        }
    else:
        with open(a.file, encoding="ascii") as f:
            ips = [line.strip() for line in f if line.strip()]
        chunks = [ips[i:i + a.chunk] for i in range(0, len(ips), a.chunk)]
        kept = []  # every answer stays in memory until the end

        def one(chunk):
            try:
                r = client.bulk(chunk)
            except Exception as e:
                return None, "%s..: %s" % (chunk[0], e)
            if r.get("status") != 200:
                return None, "%s..: status %s %s" % (chunk[0], r.get("status"), r.get("message"))
            resp = r["responses"]
            if len(resp) != len(chunk) or any(x.get("ip") != ip for x, ip in zip(resp, chunk)):
                return None, "%s..: wrong answer (%d items)" % (chunk[0], len(resp))
            return resp, None

        t0 = time.perf_counter()
        if a.concurrency == 1:
            results = [one(c) for c in chunks]
        else:
            with ThreadPoolExecutor(max_workers=a.concurrency) as pool:
                results = list(pool.map(one, chunks))
        seconds = time.perf_counter() - t0
        for resp, err in results:
            if err:
                errors.append(err)
            else:
                kept.extend(resp)
        out = {
            "client": "python-ipdata",
            "mode": "bulk",
            "ips": len(ips),
            "requests": len(chunks),
            "concurrency": a.concurrency,
            "seconds": round(seconds, 4),
            "ips_per_second": round(len(ips) / seconds, 1),
            "requests_per_second": round(len(chunks) / seconds, 1),
            "results_kept": len(kept),
        }

    out["errors"] = len(errors)
    out["pool_full_discards"] = counter.count
    out["sdk_version"] = sdk_version
    out["python"] = "%d.%d.%d" % sys.version_info[:3]
    for e in errors[:5]:
        sys.stderr.write("error: %s\n" % e)
    print(json.dumps(out), flush=True)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
