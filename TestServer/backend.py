#!/usr/bin/env python3
"""Local stand-in for the ipdata.co API, used behind nginx by the integration tests.

Standard library only.  Serves the fixture bodies in Tests/IPDataTests/Fixtures/ and
synthesises lookups for any other public IP, answering as the API does (TestServer/README.md
gives the keys, and what was invented where the API's behaviour is unknown).

Besides the HTTP API it can run a "reset-on-accept" listener: a TCP socket that accepts
connections and resets them (RST) at once.

Every request is logged as one JSON line (never the api-key value).
"""

import argparse
import ipaddress
import json
import os
import select
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote

# ---------------------------------------------------------------------------
# messages (the API's exact texts, as in Tests/IPDataTests/Fixtures/errors)

MSG_NO_KEY = "You have not provided a valid API Key."
MSG_FREE_QUOTA = ("You have exceeded your free quota. Upgrade to a paid plan to "
                  "re-activate your account.")
MSG_DAILY_QUOTA = ("You have made 20,000 requests and have exceeded your daily quota. "
                   "Upgrade to the next plan to re-activate your account.")
MSG_WHITELIST = "IP or domain not in whitelist."
MSG_LEGACY = None  # read from the LEGACY fixture at start-up
MSG_BULK_PAID = "Upgrade to a paid plan to make bulk requests."
MSG_ASN_PAID = "Upgrade to a paid plan to access ASN data."
MSG_BAD_ARRAY = "You did not provide a valid JSON Array."
MSG_TOO_MANY = "Bulk requests should not contain more than 100 IP addresses."

BULK_MAX = 100
DEFAULT_SLOW_DELAY = 5.0
MAX_DELAY = 60.0

# api-key -> plan.  Anything else (or no key) -> 401.
KEYS = {
    "test-key": "paid",           # everything allowed
    "free-key": "free",           # lookups only; bulk and ASN -> 403
    "quota-key": "quota",         # every call -> 403 free quota exceeded
    "daily-quota-key": "daily",   # every call -> 403 daily quota exceeded (paid plan)
    "whitelist-key": "whitelist", # every call -> 403 IP or domain not in whitelist
    "legacy-key": "legacy",       # every call -> 403 old "quota or key does not exist" text
    "ratelimit-key": "ratelimit", # every call -> 429 with a plain-text body (2017-2019 API)
}

OBJECT_FIELDS = {"asn", "threat", "company", "carrier", "currency", "time_zone", "languages"}


# ---------------------------------------------------------------------------
# fixtures

class Fixtures:
    def __init__(self, root):
        self.root = root
        self.lookup_raw = {}    # ip (compressed str) -> bytes, served verbatim
        self.lookup = {}        # ip -> parsed object
        self.lookup_file = {}   # ip -> file name
        self.asn_raw = {}       # "AS15169" -> bytes
        self.asn = {}
        self.known_fields = set()
        self._load()

    @staticmethod
    def _ip_from_name(name):
        """'2001-4860-4860--8844.SYNTHETIC.x.json' -> '2001:4860:4860::8844'."""
        parts = name.split(".")
        for n in range(len(parts), 0, -1):
            cand = ".".join(parts[:n])
            for c in (cand, cand.replace("-", ":")):
                try:
                    return str(ipaddress.ip_address(c))
                except ValueError:
                    pass
        return None

    @staticmethod
    def _rank(name):
        # prefer real captures over synthetic bodies over SDK-authored ones
        if "SDK-AUTHORED" in name:
            return 2
        if "SYNTHETIC" in name:
            return 1
        return 0

    def _load(self):
        ldir = os.path.join(self.root, "lookup")
        if not os.path.isdir(ldir):
            raise SystemExit("fixture directory not found: %s" % ldir)
        for name in sorted(os.listdir(ldir), key=lambda n: (self._rank(n), n)):
            if not name.endswith(".json"):
                continue
            ip = self._ip_from_name(name)
            if ip is None or ip in self.lookup:
                continue
            with open(os.path.join(ldir, name), "rb") as f:
                raw = f.read()
            self.lookup_raw[ip] = raw
            self.lookup[ip] = json.loads(raw)
            self.lookup_file[ip] = "lookup/" + name
            self.known_fields.update(self.lookup[ip].keys())

        self.template4 = self.lookup.get("8.8.8.8")
        self.template6 = self.lookup.get("2001:4860:4860::8844", self.template4)
        if self.template4 is None:
            raise SystemExit("no lookup/8.8.8.8*.json fixture to use as a template")

        # threat fixtures: lookups synthesised from the template with that threat block
        tdir = os.path.join(self.root, "threat")
        if os.path.isdir(tdir):
            for name in sorted(os.listdir(tdir)):
                ip = self._ip_from_name(name)
                if ip is None or ip in self.lookup:
                    continue
                with open(os.path.join(tdir, name), "rb") as f:
                    threat = json.loads(f.read())
                if isinstance(threat, dict) and list(threat.keys()) == ["threat"]:
                    threat = threat["threat"]
                obj = self.synthesise(ip)
                obj["threat"] = threat
                self.lookup[ip] = obj
                self.lookup_file[ip] = "threat/" + name

        adir = os.path.join(self.root, "asn")
        if os.path.isdir(adir):
            for name in sorted(os.listdir(adir)):
                if not name.endswith(".json"):
                    continue
                asn = name.split(".")[0]
                with open(os.path.join(adir, name), "rb") as f:
                    raw = f.read()
                self.asn_raw[asn] = raw
                self.asn[asn] = json.loads(raw)

        global MSG_LEGACY
        legacy = os.path.join(self.root, "errors", "403-quota-or-nonexistent-key.LEGACY.json")
        if os.path.exists(legacy):
            with open(legacy, "rb") as f:
                MSG_LEGACY = json.loads(f.read())["message"]
        else:
            MSG_LEGACY = MSG_FREE_QUOTA

    def synthesise(self, ip):
        tpl = self.template6 if ":" in ip else self.template4
        obj = json.loads(json.dumps(tpl))
        obj["ip"] = ip
        return obj


# ---------------------------------------------------------------------------
# IP classification

def classify(text):
    """Return (ip_string, None) for a public IP, or (None, error_message)."""
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None, "%s does not appear to be an IPv4 or IPv6 address" % text
    reserved = "%s is a reserved IP address." % text
    private = "%s is a private IP address" % text
    if ip.is_multicast:
        return None, reserved
    if (ip.is_loopback or ip.is_link_local or ip.is_unspecified
            or getattr(ip, "is_site_local", False)):
        return None, private
    if ip.version == 4 and ip.is_reserved:      # 240.0.0.0/4 (Python also calls it private)
        return None, reserved
    if ip.is_private:                           # RFC 1918, fc00::/7, documentation ranges...
        return None, private
    if ip.is_reserved or not ip.is_global:
        # e.g. 100.64.0.0/10 (shared address space)
        return None, "%s is a reserved IP address." % text
    return str(ip), None


# ---------------------------------------------------------------------------
# logging

class JsonLog:
    def __init__(self, path):
        self.lock = threading.Lock()
        self.f = open(path, "a", buffering=1, encoding="utf-8") if path else sys.stderr

    def write(self, rec):
        line = json.dumps(rec, separators=(",", ":"), ensure_ascii=False)
        with self.lock:
            self.f.write(line + "\n")
            self.f.flush()


def now_iso():
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int((t % 1) * 1000)


# ---------------------------------------------------------------------------
# HTTP handler

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True   # no 40 ms Nagle/delayed-ACK stalls towards nginx
    server_version = "ipdata-test-backend"
    sys_version = ""

    # set on the class by main()
    fixtures = None
    log = None

    def log_message(self, fmt, *args):  # silence the default stderr log
        pass

    # --- plumbing -----------------------------------------------------------

    def _read_body(self):
        """Read the request body (Content-Length or chunked). Returns bytes."""
        te = (self.headers.get("Transfer-Encoding") or "").lower()
        if "chunked" in te:
            chunks = []
            while True:
                line = self.rfile.readline(65537)
                if not line:
                    break
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    # trailers
                    while True:
                        t = self.rfile.readline(65537)
                        if not t or t in (b"\r\n", b"\n"):
                            break
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline(3)
            return b"".join(chunks)
        n = self.headers.get("Content-Length")
        if n:
            try:
                n = int(n)
            except ValueError:
                n = 0
            return self.rfile.read(n) if n > 0 else b""
        return b""

    def _send(self, status, body, ctype="application/json", extra=None):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        # headers and body in one write
        self._headers_buffer.append(b"\r\n")
        if self.command != "HEAD":
            self._headers_buffer.append(body)
        self.flush_headers()
        self._status = status

    def _json(self, status, obj):
        self._send(status, json.dumps(obj, ensure_ascii=False))

    # --- answers that fail a few times, then succeed (path prefix /flaky/STATUS/COUNT/TOKEN/) ---

    flaky_counts = {}
    flaky_lock = threading.Lock()

    def _flaky(self, path, rec):
        """The first COUNT requests with TOKEN fail with STATUS (a 429 says Retry-After: 1); later
        ones are answered for the rest of the path. Returns that rest, or None when this request
        was failed."""
        segs = path.split("/")
        status, count, token = segs[2], int(segs[3]), segs[4]
        with self.flaky_lock:
            seen = self.flaky_counts.get(token, 0) + 1
            self.flaky_counts[token] = seen
        rec["flaky"] = "%s %s/%s" % (status, seen, count)
        if seen > count:
            return "/" + "/".join(segs[5:])
        extra = {"Retry-After": "1"} if status == "429" else None
        self._send(int(status), json.dumps({"message": "flaky: %s" % status}), extra=extra)
        return None

    # --- a quota that runs out mid-run (path prefix /quota-after/COUNT/TOKEN/) ---------------

    quota_counts = {}
    quota_lock = threading.Lock()

    def _quota_after(self, path, rec):
        """The first COUNT requests with TOKEN are answered for the rest of the path; later ones
        get the API's 403 for an exhausted daily quota. Returns that rest, or None when this
        request was refused."""
        segs = path.split("/")
        count, token = int(segs[2]), segs[3]
        with self.quota_lock:
            seen = self.quota_counts.get(token, 0) + 1
            self.quota_counts[token] = seen
        rec["quota"] = "%s/%s" % (seen, count)
        if seen > count:
            self._error(403, MSG_DAILY_QUOTA)
            return None
        return "/" + "/".join(segs[4:])

    # --- a reset after the body was read (path prefix /reset-after-body/COUNT/TOKEN/) ---------

    reset_counts = {}
    reset_lock = threading.Lock()

    def _reset_after_body(self, path, rec):
        """The first COUNT requests with TOKEN are read, body included, and then get no answer:
        the connection is reset (RST). Later ones are answered for the rest of the path. Returns
        that rest, or None when this request was reset."""
        segs = path.split("/")
        count, token = int(segs[2]), segs[3]
        with self.reset_lock:
            seen = self.reset_counts.get(token, 0) + 1
            self.reset_counts[token] = seen
        rec["reset_after_body"] = "%s/%s" % (seen, count)
        if seen > count:
            return "/" + "/".join(segs[4:])
        rec["dropped"] = True
        self.close_connection = True
        # SO_LINGER {on, 0}: the last close sends RST instead of FIN; the reader holds the socket
        # open too, so it is closed first.
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.rfile.close()
        self.connection.close()
        return None

    # --- servers that misbehave on purpose (path prefix /hostile/KIND/) ------------------------

    HOSTILE_SECONDS = 30.0  # no hostile answer lasts longer, whatever the client does

    # Text with what a terminal acts on: an escape sequence that retitles the window and clears
    # the screen, a line break that forges a log line, a C1 CSI and a right-to-left override.
    HOSTILE_TEXT = "Evil\x1b]0;pwned\x07\x1b[2J\r\nforged 6.6.6.6 line\x9b31m\u202eTXE"

    def _hostile(self, path, rec, query=None, body=b""):
        kind = path.split("/")[2]
        rec["hostile"] = kind
        # A hostile answer never returns its connection to nginx's pool, and a write that the
        # client stopped reading gives up after 3 s instead of holding a thread for ever.
        self.close_connection = True
        self.connection.settimeout(3)
        if kind == "endless":
            # a JSON array that never ends, in 64 KiB chunks, until the client goes away
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            # unbuffered: nginx passes it on at the client's pace and hangs up when the client does
            self.send_header("X-Accel-Buffering", "no")
            self.end_headers()
            chunk = b"[" + b'{"ip":"8.8.8.8"},' * 3855
            sent, end = 0, time.monotonic() + self.HOSTILE_SECONDS
            # "endless" enough: 64 MiB is six times the client's limit, and stops in about a second
            # even when nobody hangs up (libcurl tells an HTTP/2 server of a cancelled stream late)
            while time.monotonic() < end and sent < 64 * 1024 ** 2:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
                time.sleep(0.001)  # about 60 MB/s: a fast link, without starving the other requests
                chunk = b'{"ip":"8.8.8.8"},' * 3855
            rec["bytes_sent"] = sent
            self._status = 200
            self.close_connection = True
        elif kind == "flood":
            # a JSON array that never ends, sent as fast as the socket takes it (1 MiB chunks, no
            # pause): the attacker's endless body. Only the client hanging up ends it, or 30 s.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("X-Accel-Buffering", "no")
            self.end_headers()
            self.connection.settimeout(self.HOSTILE_SECONDS)
            items = b'{"ip":"8.8.8.8"},' * 61680
            first = b"%x\r\n[%s\r\n" % (len(items) + 1, items)
            chunk = b"%x\r\n%s\r\n" % (len(items), items)
            sent, end = 0, time.monotonic() + self.HOSTILE_SECONDS
            try:
                self.connection.sendall(first)
                while time.monotonic() < end:
                    self.connection.sendall(chunk)
                    sent += len(items)
            except OSError:
                rec["client_gone"] = True
            rec["bytes_sent"] = sent
            self._status = 200
            self.close_connection = True
        elif kind == "large":
            # a whole, well-formed answer of 20 MiB (twice the client's default limit)
            self._send(200, b"[" + b'{"ip":"8.8.8.8"},' * 1233618 + b'{"ip":"8.8.8.8"}]')
        elif kind == "trickle":
            # a lookup sent one byte every half second (nginx told not to buffer it)
            body = json.dumps({"ip": "8.8.8.8", "city": "x" * 40}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Accel-Buffering", "no")
            self.end_headers()
            end = time.monotonic() + self.HOSTILE_SECONDS
            for i in range(len(body)):
                if time.monotonic() > end or self._client_gone_during(0.5):
                    rec["client_gone"] = True
                    self._status = 499
                    self.close_connection = True
                    return
                self.wfile.write(body[i:i + 1])
                self.wfile.flush()
            self._status = 200
        elif kind == "bulk-million":
            # a bulk answer of a million results, whatever was asked
            self._send(200, b"[" + b",".join([b"{}"] * 1_000_000) + b"]")
        elif kind == "html-error":
            # a gateway's 1 MiB error page
            page = b"<html><head><title>502 Bad Gateway</title></head><body>" + b"<p>x</p>" * 131072 + b"</body></html>"
            self._send(502, page, ctype="text/html")
        elif kind == "deep-json":
            # 100,000 nested arrays (200 KB): valid JSON that a recursive parser without a depth
            # limit cannot read without running out of stack
            self._send(200, b"[" * 100_000 + b"]" * 100_000)
        elif kind == "html-ok":
            # a captive portal or a misconfigured proxy: an HTML page with status 200
            self._send(200, b"<html><head><title>Sign in</title></head><body><p>Sign in</p></body></html>",
                       ctype="text/html")
        elif kind == "empty-503":
            # a load balancer with no server behind it: 503 and no body at all
            self._send(503, b"", ctype="text/plain")
        elif kind == "escapes":
            # the rest of the path answered as the API would (a lookup, a field, a bulk request),
            # with HOSTILE_TEXT in the text values: JSON escapes what it must, a field is raw text
            self._escapes = True
            self._route("/" + "/".join(path.split("/")[3:]), query or {}, body, rec)
        else:
            self._error(404, "no such hostile answer: %s" % kind)

    def _error(self, status, message):
        self._json(status, {"message": message})

    def _client_gone_during(self, seconds):
        """Sleep up to `seconds`; return True as soon as the peer closes the connection."""
        deadline = time.monotonic() + seconds
        sock = self.connection
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            r, _, _ = select.select([sock], [], [], min(left, 0.05))
            if r:
                try:
                    data = sock.recv(1, socket.MSG_PEEK)
                except OSError:
                    return True
                if data == b"":
                    return True
                # unexpected pipelined data: keep waiting
                time.sleep(min(left, 0.05))

    # --- dispatch -------------------------------------------------------------

    def do_GET(self):
        self._handle()

    def do_POST(self):
        self._handle()

    def do_HEAD(self):
        self._handle()

    def do_PUT(self):
        self._handle()

    def do_DELETE(self):
        self._handle()

    def _handle(self):
        t0 = time.monotonic()
        self._status = 0
        self._escapes = False
        raw_path, _, raw_query = self.path.partition("?")
        query = parse_qs(raw_query, keep_blank_values=True)
        body = self._read_body()
        mode = self.headers.get("X-IPData-Mode") or "direct"
        rec = {
            "time": now_iso(),
            "mode": mode,
            "conn": self.headers.get("X-IPData-Conn"),
            "conn_reqs": self.headers.get("X-IPData-Conn-Reqs"),
            "method": self.command,
            "path": raw_path,
            "query_keys": list(query.keys()),
            "key_in": [w for w, present in (("query", "api-key" in query),
                                            ("header", "api-key" in self.headers)) if present],
            "content_length": self.headers.get("Content-Length"),
            "chunked": "chunked" in (self.headers.get("Transfer-Encoding") or "").lower(),
            "body_len": len(body),
        }
        if self.command == "POST" and raw_path.endswith("/bulk"):
            # the addresses of a bulk request, for tests that count what was sent
            try:
                items = json.loads(body.decode("utf-8"))
                if isinstance(items, list):
                    rec["bulk_addresses"] = [x for x in items if isinstance(x, str)]
            except (ValueError, UnicodeDecodeError):
                pass
        try:
            if self.headers.get("X-IPData-Drop") == "1":
                # race mode: the body has been read; nginx turns 599 into a dropped connection
                rec["dropped"] = True
                self._send(599, b"", extra={"X-IPData-Drop": "1"})
                return
            # test-only delay: 5 s by default in slow mode; in every mode a path prefix
            # /delay/SECONDS/... or a query parameter delay=SECONDS sets it
            path = raw_path
            delay = DEFAULT_SLOW_DELAY if mode in ("slow", "slow-http1") else None
            segs = path.split("/")
            if len(segs) >= 3 and segs[1] == "delay":
                try:
                    delay = float(segs[2])
                    path = "/" + "/".join(segs[3:])
                except ValueError:
                    pass
            if "delay" in query:
                try:
                    delay = float(query.pop("delay")[0])
                except ValueError:
                    pass
            if delay is not None:
                delay = max(0.0, min(delay, MAX_DELAY))
                rec["delay"] = delay
                if self._client_gone_during(delay):
                    rec["client_gone"] = True
                    rec["client_gone_after_s"] = round(time.monotonic() - t0, 3)
                    self._status = 499   # like nginx: the client closed before the answer
                    self.close_connection = True
                    return
            if path.startswith("/hostile/"):
                self._hostile(path, rec, query, body)
                return
            if path.startswith("/flaky/"):
                path = self._flaky(path, rec)
                if path is None:
                    return
            if path.startswith("/reset-after-body/"):
                path = self._reset_after_body(path, rec)
                if path is None:
                    return
            if path.startswith("/quota-after/"):
                path = self._quota_after(path, rec)
                if path is None:
                    return
            self._route(path, query, body, rec)
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            rec["client_gone"] = True
            self._status = 499
            self.close_connection = True
        except Exception as e:  # never let a bug kill the connection silently
            rec["exception"] = repr(e)
            try:
                self._error(500, "test backend error: %r" % (e,))
            except OSError:
                pass
        finally:
            rec["status"] = self._status
            rec["ms"] = round((time.monotonic() - t0) * 1000, 1)
            self.log.write(rec)

    # --- API ------------------------------------------------------------------

    def _plan(self, query, rec):
        key = None
        if "api-key" in query:
            key = query["api-key"][0]
        elif "api-key" in self.headers:
            key = self.headers.get("api-key")
        plan = KEYS.get(key) if key else None
        rec["plan"] = plan or ("missing" if not key else "invalid")
        return plan

    def _route(self, path, query, body, rec):
        segs = [unquote(s) for s in path.split("/")[1:]]
        if segs and segs[-1] == "":
            segs = segs[:-1]

        plan = self._plan(query, rec)
        if plan is None:
            return self._error(401, MSG_NO_KEY)
        if plan == "quota":
            return self._error(403, MSG_FREE_QUOTA)
        if plan == "daily":
            return self._error(403, MSG_DAILY_QUOTA)
        if plan == "whitelist":
            return self._error(403, MSG_WHITELIST)
        if plan == "legacy":
            return self._error(403, MSG_LEGACY)
        if plan == "ratelimit":
            return self._send(429, "Too Many Requests", ctype="text/plain; charset=utf-8")

        fields = None
        if "fields" in query:
            fields = [f.strip() for f in ",".join(query["fields"]).split(",") if f.strip()]
            fields = fields or None      # an empty fields= does not filter

        if segs == ["bulk"] and self.command == "POST":
            return self._bulk(plan, body, fields)
        if self.command not in ("GET", "HEAD"):
            return self._error(405, "Method Not Allowed")
        if len(segs) == 0:
            return self._lookup("8.8.8.8", fields, None)
        if len(segs) > 2:
            return self._error(404, "Not Found")
        target = segs[0]
        field = segs[1] if len(segs) == 2 else None
        if target.startswith("AS"):
            if plan != "paid":
                return self._error(403, MSG_ASN_PAID)
            return self._asn(target, field)
        ip, err = classify(target)
        if err:
            return self._error(400, err)
        return self._lookup(ip, fields, field)

    def _object_for(self, ip):
        fx = self.fixtures
        if getattr(self, "_escapes", False):
            obj = fx.synthesise(ip)
            obj["city"] = obj["region"] = self.HOSTILE_TEXT
            obj["asn"]["name"] = self.HOSTILE_TEXT
            return obj, None
        if ip in fx.lookup:
            return fx.lookup[ip], fx.lookup_raw.get(ip)
        return fx.synthesise(ip), None

    @staticmethod
    def _filter(obj, fields):
        if fields is None:
            return obj
        return {k: v for k, v in obj.items() if k in fields}

    def _send_field(self, value):
        if isinstance(value, (dict, list)):
            return self._send(200, json.dumps(value, ensure_ascii=False))
        if isinstance(value, str):
            return self._send(200, value, ctype="text/plain; charset=utf-8")
        # numbers, booleans, null: raw JSON text
        return self._send(200, json.dumps(value), ctype="text/plain; charset=utf-8")

    def _lookup(self, ip, fields, field):
        obj, raw = self._object_for(ip)
        if field is not None:
            if field in obj:
                return self._send_field(obj[field])
            if field in self.fixtures.known_fields or field in OBJECT_FIELDS:
                return self._send_field(None)
            return self._error(400, "%s is not a valid field." % field)
        if fields is None and raw is not None:
            return self._send(200, raw)
        return self._json(200, self._filter(obj, fields))

    def _asn(self, target, field):
        fx = self.fixtures
        if target not in fx.asn:
            return self._error(404, "%s was not found." % target)
        if field is None:
            return self._send(200, fx.asn_raw[target])
        if field in fx.asn[target]:
            return self._send_field(fx.asn[target][field])
        return self._error(400, "%s is not a valid field." % field)

    def _bulk(self, plan, body, fields):
        if plan != "paid":
            return self._error(403, MSG_BULK_PAID)
        try:
            items = json.loads(body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return self._error(400, MSG_BAD_ARRAY)
        if (not isinstance(items, list) or not items
                or not all(isinstance(x, str) for x in items)):
            return self._error(400, MSG_BAD_ARRAY)
        if len(items) > BULK_MAX:
            return self._error(400, MSG_TOO_MANY)
        out = []
        for text in items:
            ip, err = classify(text)
            if err:
                out.append({"message": err})
            else:
                obj, _ = self._object_for(ip)
                out.append(self._filter(obj, fields))
        return self._json(200, out)


# ---------------------------------------------------------------------------
# reset-on-accept listener

def reset_listener(host, port, log):
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if family == socket.AF_INET6:
        s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
    s.bind((host, port))
    s.listen(128)

    def reset(c, peer):
        # Wait (at most 1 s) for the client's first bytes (its TLS ClientHello), so the
        # client always sees the reset during the handshake, never racing its connect().
        t0 = time.monotonic()
        try:
            r, _, _ = select.select([c], [], [], 1.0)
            got = len(c.recv(65536)) if r else 0
        except OSError:
            got = -1
        # SO_LINGER {on, 0}: close() sends RST instead of FIN
        c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        c.close()
        log.write({"time": now_iso(), "mode": "reset-on-accept", "event": "reset",
                   "peer_port": peer[1], "bytes_before_reset": got,
                   "ms": round((time.monotonic() - t0) * 1000, 1), "status": 0})

    def loop():
        while True:
            try:
                c, peer = s.accept()
            except OSError:
                continue
            threading.Thread(target=reset, args=(c, peer), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--reset-port", type=int, default=0)
    ap.add_argument("--reset-hosts", default="127.0.0.1")
    ap.add_argument("--pid-file")
    args = ap.parse_args()

    log = JsonLog(args.log)
    Handler.fixtures = Fixtures(args.fixtures)
    Handler.log = log
    httpd = Server((args.host, args.port), Handler)
    if args.reset_port:
        for h in args.reset_hosts.split(","):
            if h:
                reset_listener(h, args.reset_port, log)
    if args.pid_file:
        with open(args.pid_file, "w") as f:
            f.write("%d\n" % os.getpid())
    sys.stderr.write("%s backend listening on %s:%d (reset-on-accept port %d), %d lookup fixtures\n"
                     % (now_iso(), args.host, args.port, args.reset_port,
                        len(Handler.fixtures.lookup)))
    sys.stderr.flush()
    try:
        httpd.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
