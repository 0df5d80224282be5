#!/usr/bin/env python3
"""make-log.py OUT MEGABYTES: a web server access log of about MEGABYTES MB, the same every run.

Lines as nginx writes them: a client address (80% public IPv4, 10% IPv6, 10% private IPv4), a
time, a request, a status, a user agent (browsers' carry Chrome/119.0.0.0, which is no address),
the upstream 127.0.0.1:8080 and a version v1.2.3.4.5 (no address either). 100 MB are generated,
then repeated.
"""
import random
import sys

out_path, megabytes = sys.argv[1], int(sys.argv[2])
random.seed(7)
agents = [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36",
    "curl/7.88.1",
    "Go-http-client/1.1",
    "python-requests/2.31.0",
]
paths = ["/index.html", "/api/v1/items?id=%d", "/static/app.%x.js", "/login", "/images/%d.png"]
block = []
size = 0
while size < min(megabytes, 100) * 1024 * 1024:
    r = random.random()
    if r < 0.8:
        ip = "%d.%d.%d.%d" % (random.randint(1, 223), random.randint(0, 255), random.randint(0, 255), random.randint(1, 254))
    elif r < 0.9:
        ip = "2001:db8:%x::%x" % (random.randint(0, 65535), random.randint(1, 65535))
    else:
        ip = "10.%d.%d.%d" % (random.randint(0, 255), random.randint(0, 255), random.randint(1, 254))
    path = random.choice(paths)
    if "%" in path:
        path = path % random.randint(1, 10**6)
    line = '%s - - [30/Nov/2026:%02d:%02d:%02d +0000] "GET %s HTTP/1.1" %d %d "-" "%s" rt=0.%03d upstream=127.0.0.1:8080 v1.2.3.4.5\n' % (
        ip, random.randint(0, 23), random.randint(0, 59), random.randint(0, 59), path,
        random.choice([200, 200, 200, 304, 404, 500]), random.randint(100, 99999), random.choice(agents),
        random.randint(0, 999))
    block.append(line)
    size += len(line)
data = "".join(block).encode()
with open(out_path, "wb") as out:
    written = 0
    while written < megabytes * 1024 * 1024:
        out.write(data)
        written += len(data)
