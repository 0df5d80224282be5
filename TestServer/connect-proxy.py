#!/usr/bin/env python3
"""A loopback HTTP CONNECT proxy for the tests of AsyncHTTPClientTransport's proxy setting.

    connect-proxy.py LOG

Listens on 127.0.0.1 on a free port, prints the port on the first line of standard output, and
relays each CONNECT tunnel to its target on loopback only (any other target gets 403). Appends
to LOG one line per request it reads before a tunnel: the request line, then each header, tab
separated. Runs until killed.
"""
import select
import socket
import sys
import threading


def relay(a, b):
    sockets = [a, b]
    try:
        while True:
            readable, _, _ = select.select(sockets, [], [], 60)
            if not readable:
                return
            for s in readable:
                data = s.recv(65536)
                if not data:
                    return
                (b if s is a else a).sendall(data)
    finally:
        a.close()
        b.close()


def handle(client, log):
    head = b""
    while b"\r\n\r\n" not in head and len(head) < 65536:
        chunk = client.recv(4096)
        if not chunk:
            client.close()
            return
        head += chunk
    lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    with open(log, "a") as f:
        f.write("\t".join(lines) + "\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or parts[0] != "CONNECT":
        client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
        client.close()
        return
    host, _, port = parts[1].rpartition(":")
    if host not in ("127.0.0.1", "localhost", "[::1]"):
        client.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
        client.close()
        return
    try:
        upstream = socket.create_connection(("127.0.0.1", int(port)), timeout=10)
    except OSError:
        client.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
        client.close()
        return
    upstream.settimeout(None)
    client.sendall(b"HTTP/1.1 200 Connection Established\r\n\r\n")
    relay(client, upstream)


def main():
    log = sys.argv[1]
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    print(server.getsockname()[1], flush=True)
    while True:
        client, _ = server.accept()
        threading.Thread(target=handle, args=(client, log), daemon=True).start()


if __name__ == "__main__":
    main()
