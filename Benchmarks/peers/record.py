#!/usr/bin/env python3
"""Helper for run.sh: turns one benchmark run into a JSON line of results.jsonl, and prints the table.

    record.py bench  NAME RUN OUT TIME ACCESS_LOG FROM_LINE PORT >> results.jsonl
    record.py h2load NAME RUN OUT TIME ACCESS_LOG FROM_LINE PORT IPS_PER_REQUEST CMD >> results.jsonl
    record.py table  results.jsonl

OUT is the benchmark's standard output (for `bench`: its JSON line; for `h2load`: h2load's
report), TIME is the `/usr/bin/time -v` report of the command, ACCESS_LOG the test server's
nginx access log and FROM_LINE the number of lines it had before the run: the lines after it
whose port is PORT are the run's requests as the server saw them (distinct `conn` values =
TCP connections, protocols, status codes). If other clients use the same server at the same
time their requests are counted too (then server_requests exceeds the run's count).
"""
import json
import os
import re
import statistics
import sys


def time_v(path):
    """Peak RSS (MB), user+sys CPU seconds, elapsed seconds and exit status from `time -v`."""
    out = {}
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return out
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if m:
        out["peak_rss_mb"] = round(int(m.group(1)) / 1024.0, 1)
    u = re.search(r"User time \(seconds\): ([\d.]+)", text)
    s = re.search(r"System time \(seconds\): ([\d.]+)", text)
    if u and s:
        out["client_cpu_seconds"] = round(float(u.group(1)) + float(s.group(1)), 2)
    m = re.search(r"Percent of CPU this job got: (\d+)%", text)
    if m:
        out["client_cpu_percent"] = int(m.group(1))
    m = re.search(r"Exit status: (\d+)", text)
    if m:
        out["exit_status"] = int(m.group(1))
    if "Command terminated by signal" in text:
        out["terminated_by_signal"] = True
    return out


def access(path, from_line, port):
    out = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()[int(from_line):]
    except OSError:
        return out
    conns, protos, statuses, n = set(), {}, {}, 0
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if str(rec.get("port")) != str(port):
            continue
        n += 1
        conns.add(rec.get("conn"))
        protos[rec.get("proto")] = protos.get(rec.get("proto"), 0) + 1
        st = str(rec.get("status"))
        statuses[st] = statuses.get(st, 0) + 1
    out["server_requests"] = n
    out["server_connections"] = len(conns)
    out["server_protocols"] = protos
    out["server_statuses"] = statuses
    return out


def load_avg():
    try:
        return float(open("/proc/loadavg").read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def cmd_bench(name, run, out_path, time_path, log, from_line, port):
    rec = {"name": name, "run": int(run)}
    text = open(out_path, encoding="utf-8", errors="replace").read().strip().splitlines()
    parsed = None
    for line in reversed(text):
        try:
            parsed = json.loads(line)
            break
        except ValueError:
            continue
    if parsed is None:
        rec["failed"] = True
        rec["output"] = "\n".join(text[-5:])
    else:
        rec.update(parsed)
    rec.update(time_v(time_path))
    rec.update(access(log, from_line, port))
    rec["loadavg_1m_after"] = load_avg()
    print(json.dumps(rec))


def cmd_h2load(name, run, out_path, time_path, log, from_line, port, ips_per_request, cmd):
    text = open(out_path, encoding="utf-8", errors="replace").read()
    rec = {"name": name, "run": int(run), "client": "h2load", "mode": "server-ceiling", "command": cmd}
    m = re.search(r"finished in ([\d.]+)(m?s), ([\d.]+) req/s", text)
    r = re.search(r"requests: (\d+) total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored", text)
    c = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", text)
    if not (m and r):
        rec["failed"] = True
        rec["output"] = text[-500:]
    else:
        secs = float(m.group(1)) / (1000.0 if m.group(2) == "ms" else 1.0)
        rps = float(m.group(3))
        ok2xx = int(c.group(1)) if c else int(r.group(3))
        rec.update({
            "count": int(r.group(1)),
            "seconds": round(secs, 4),
            "requests_per_second": round(rps, 1),
            "errors": int(r.group(1)) - ok2xx,
        })
        ipr = int(ips_per_request)
        if ipr > 1:
            rec["ips_per_request"] = ipr
            rec["ips_per_second"] = round(rps * ipr, 1)
    rec.update(time_v(time_path))
    rec.update(access(log, from_line, port))
    rec["loadavg_1m_after"] = load_avg()
    print(json.dumps(rec))


def cmd_table(path):
    rows = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    meta = [r for r in rows if r.get("mode") == "meta"]
    groups = {}
    order = []
    for r in rows:
        if r.get("mode") == "meta":
            continue
        if r["name"] not in groups:
            order.append(r["name"])
        groups.setdefault(r["name"], []).append(r)

    def med(rs, key):
        vals = [x[key] for x in rs if isinstance(x.get(key), (int, float))]
        return statistics.median(vals) if vals else None

    def fmt(v, nd=1):
        if v is None:
            return "-"
        if isinstance(v, float):
            return ("%." + str(nd) + "f") % v
        return str(v)

    hdr = ["benchmark", "runs", "requests", "seconds", "req/s", "IPs/s", "peak RSS MB", "client CPU s", "conns", "errors"]
    table = []
    for name in order:
        rs = groups[name]
        ok = [x for x in rs if not x.get("failed")]
        n = ok[0].get("count", ok[0].get("requests")) if ok else None
        ips = med(ok, "ips_per_second")
        rps_vals = sorted(x["requests_per_second"] for x in ok if "requests_per_second" in x)
        rps = med(ok, "requests_per_second")
        rps_txt = fmt(rps, 0)
        if len(rps_vals) > 1:
            rps_txt += " (%.0f-%.0f)" % (rps_vals[0], rps_vals[-1])
        table.append([
            name, "%d/%d" % (len(ok), len(rs)), fmt(n), fmt(med(ok, "seconds"), 3), rps_txt,
            fmt(ips, 0), fmt(med(ok, "peak_rss_mb")), fmt(med(ok, "client_cpu_seconds"), 2),
            fmt(med(ok, "server_connections"), 0),
            str(sum(int(x.get("errors") or 0) for x in ok) + (len(rs) - len(ok)) * 1),
        ])
    widths = [max(len(str(row[i])) for row in table + [hdr]) for i in range(len(hdr))]
    line = "  ".join(h.ljust(w) for h, w in zip(hdr, widths))
    print(line)
    print("  ".join("-" * w for w in widths))
    for row in table:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))
    print("(medians over the runs; req/s range in brackets; peak RSS/CPU are the client's: curl, the Python process, or h2load)")
    for m in meta:
        print("machine: %s cores, load average before %.2f, server %s" % (
            m.get("cores"), m.get("loadavg_1m_before") or 0, m.get("server")))


def main(argv):
    if len(argv) >= 2 and argv[1] == "bench" and len(argv) == 9:
        cmd_bench(*argv[2:])
    elif len(argv) >= 2 and argv[1] == "h2load" and len(argv) == 11:
        cmd_h2load(*argv[2:])
    elif len(argv) == 3 and argv[1] == "table":
        cmd_table(argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
