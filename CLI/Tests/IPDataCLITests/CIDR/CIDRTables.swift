// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

/// Random tables for `ipdata cidr`, made and answered by Python's `ipaddress`, the reader
/// independent of the code under test: `python3` writes the input and the answer expected
/// into a folder, with a fixed seed so that a failure can be run again.
enum CIDRTables {
    /// Writes `input.txt` and `expected.txt` (and, for `match`, `networks.txt` and
    /// `inverted.txt`) of `table` into `folder`; `count` entries, drawn with `seed`.
    static func write(_ table: String, count: Int, seed: Int, into folder: URL) throws {
        _ = try ToolRun.output("python3", ["-c", script, table, String(count), String(seed), folder.path])
    }

    /// The generator. Addresses are drawn from small neighbourhoods (a /16 of IPv4, a /104 of
    /// IPv6) so that networks overlap, nest and touch, with a few wide ones and IPv4-mapped
    /// IPv6 addresses, which `ipdata` reads as IPv4 (Python's `ipv4_mapped`).
    private static let script = #"""
        import ipaddress, random, sys, os
        table, count, seed, folder = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        rng = random.Random(seed)
        V4 = int(ipaddress.IPv4Address("10.20.0.0"))
        V6 = int(ipaddress.IPv6Address("2001:db8:0:1::"))

        def unmapped(address):
            return (address.version == 6 and address.ipv4_mapped) or address

        def random_address():
            """An address, and whether it is drawn from a neighbourhood rather than anywhere."""
            kind = rng.random()
            if kind < 0.45:
                return ipaddress.IPv4Address(V4 + rng.randrange(1 << 16)), True
            if kind < 0.5:
                return ipaddress.IPv4Address(rng.randrange(1 << 32)), False
            if kind < 0.55:
                return ipaddress.IPv6Address((0xFFFF << 32) + V4 + rng.randrange(1 << 16)), True
            if kind < 0.95:
                return ipaddress.IPv6Address(V6 + rng.randrange(1 << 24)), True
            return ipaddress.IPv6Address(rng.randrange(1 << 128)), False

        def random_network():
            """The text of a network or address (host bits set at times) and the network it means."""
            address, local = random_address()
            plain = unmapped(address)
            if rng.random() < 0.25:
                return str(address), ipaddress.ip_network(plain)
            width = plain.max_prefixlen
            # Small blocks in a neighbourhood, so that they overlap without covering it all.
            most = (8 if width == 32 else 14) if local else (24 if width == 32 else 64)
            prefix = width - rng.randint(0, most)
            network = ipaddress.ip_network((plain, prefix), strict=False)
            base = plain if rng.random() < 0.5 else network.network_address
            if address.version == 6 and address.ipv4_mapped is not None:
                # A mapped network is written with its IPv6 prefix length.
                return f"::ffff:{base}/{prefix + 96}", network
            return f"{base}/{prefix}", network

        def ordered(networks):
            return sorted(networks, key=lambda n: (n.version, n.network_address, n.prefixlen))

        def collapsed(networks):
            v4 = [n for n in networks if n.version == 4]
            v6 = [n for n in networks if n.version == 6]
            return ordered(list(ipaddress.collapse_addresses(v4)) + list(ipaddress.collapse_addresses(v6)))

        def write(name, lines, newline="\n"):
            with open(os.path.join(folder, name), "w", newline="") as file:
                file.write("".join(line + newline for line in lines))

        if table == "aggregate":
            pairs = [random_network() for _ in range(count)]
            write("input.txt", [text for text, _ in pairs])
            write("expected.txt", [str(n) for n in collapsed([n for _, n in pairs])])
        elif table == "range":
            lines, expected = [], []
            for _ in range(count):
                a, b = unmapped(random_address()[0]), unmapped(random_address()[0])
                if a.version != b.version:
                    b = unmapped(random_address()[0]) if rng.random() < 0.5 else a
                    if a.version != b.version:
                        b = a
                if rng.random() < 0.1:
                    b = a
                low, high = min(a, b), max(a, b)
                if rng.random() < 0.02:
                    low, high = (ipaddress.ip_address("0.0.0.0"), ipaddress.ip_address("255.255.255.255")) if low.version == 4 else (ipaddress.ip_address("::"), ipaddress.ip_address("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"))
                lines.append(f"{low}-{high}")
                expected += [str(n) for n in ipaddress.summarize_address_range(low, high)]
            for _ in range(count):
                text, network = random_network()
                lines.append(text)
                expected.append(f"{network.network_address}-{network.broadcast_address}")
            write("input.txt", lines)
            write("expected.txt", expected)
        elif table == "match":
            pairs = [random_network() for _ in range(max(count // 10, 1))]
            write("networks.txt", ["# networks to match"] + [text for text, _ in pairs], "\r\n")
            networks = [n for _, n in pairs]
            def inside(address):
                address = unmapped(address)
                return any(address in n for n in networks if n.version == address.version)
            def written(address):
                if address.version == 6 and rng.random() < 0.3:
                    return f"[{address}]:{rng.randrange(1, 65536)}"
                if address.version == 4 and rng.random() < 0.3:
                    return f"{address}:{rng.randrange(1, 65536)}"
                return str(address)
            kept, inverted, lines = [], [], []
            for number in range(count):
                addresses = [random_address()[0] for _ in range(rng.choice([0, 1, 1, 1, 2, 3]))]
                words = [f"n={number}", "GET", "/index.html", "status=200"] + [f"peer={written(a)}" for a in addresses]
                rng.shuffle(words)
                line = " ".join(words) + ("\r" if rng.random() < 0.2 else "")
                lines.append(line)
                if any(inside(a) for a in addresses):
                    kept.append(line)
                elif addresses:
                    inverted.append(line)
            write("input.txt", lines)
            write("expected.txt", kept)
            write("inverted.txt", inverted)
        """#
}
#endif
