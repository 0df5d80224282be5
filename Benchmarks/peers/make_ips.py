#!/usr/bin/env python3
"""Write N distinct public IPv4 addresses, one per line, always the same ones for the same N.

    make_ips.py N PATH        (PATH "-" writes to standard output)

The addresses are the images of 0, 1, 2, ... under a fixed bijection of the 32-bit space
(multiplication by an odd constant modulo 2**32, plus an offset), so they are distinct and
spread over the whole space. Anything that is not globally routable is skipped: private
(RFC 1918), loopback, link-local, shared (100.64/10), documentation, benchmarking, multicast,
240/4 and the other special-purpose ranges that Python's `ipaddress` knows, which are the ones
the test server and the official Python SDK reject.
"""
import ipaddress
import sys

_MULT = 2654435761  # odd, so i -> i * _MULT mod 2**32 is a bijection
_OFFSET = 0x08080000  # start near 8.8.0.0 (any value keeps the bijection)


def is_public(addr: ipaddress.IPv4Address) -> bool:
    return (
        addr.is_global
        and not addr.is_private
        and not addr.is_reserved
        and not addr.is_multicast
        and not addr.is_loopback
        and not addr.is_link_local
        and not addr.is_unspecified
    )


def public_ips(n: int):
    """Yield n distinct public IPv4 addresses as strings, deterministically."""
    if n < 0:
        raise ValueError("n must be >= 0")
    produced = 0
    i = 0
    while produced < n:
        if i >= 2**32:
            raise ValueError("not enough public IPv4 addresses")
        addr = ipaddress.IPv4Address((i * _MULT + _OFFSET) & 0xFFFFFFFF)
        i += 1
        if is_public(addr):
            produced += 1
            yield str(addr)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: make_ips.py N PATH\n")
        return 2
    n = int(argv[1])
    path = argv[2]
    out = sys.stdout if path == "-" else open(path, "w", encoding="ascii")
    try:
        for ip in public_ips(n):
            out.write(ip + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
