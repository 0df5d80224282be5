// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

@testable import ipdata_cli

/// `ipdata bulk --where` and `--blocklist`, against the local API server: the addresses that
/// match, aggregated as Python's `ipaddress.collapse_addresses` aggregates them, IPv4 and IPv6;
/// the ipset and nftables files read by `ipset restore` and `nft -f` themselves where this
/// machine lets a test run them (in a network namespace of its own).
final class BlocklistTests: CommandLineTestCase {
    private let expression = "ip in [45.0.0.0/8, 2a00:1450::/32] or threat.is_tor"

    /// Writes `input.txt` (addresses from clustered blocks, so that they aggregate, repeats,
    /// private addresses and garbage) and `expected.txt` (Python's collapse of those that
    /// match) into `folder`.
    private static let generator = #"""
        import ipaddress, random, sys, os
        count, seed, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
        rng = random.Random(seed)
        NETWORKS = [ipaddress.ip_network('45.0.0.0/8'), ipaddress.ip_network('2a00:1450::/32')]
        blocks = [ipaddress.ip_network('45.%d.%d.0/24' % (rng.randrange(256), rng.randrange(256))) for _ in range(8)]
        blocks += [ipaddress.ip_network('23.%d.%d.0/24' % (rng.randrange(256), rng.randrange(256))) for _ in range(4)]
        blocks += [ipaddress.ip_network('2a00:1450:%x:%x::/120' % (rng.randrange(65536), rng.randrange(65536))) for _ in range(4)]
        blocks += [ipaddress.ip_network('2a03:2880::/120')]
        lines, matching = [], []
        for _ in range(count):
            if rng.random() < 0.05:
                lines.append(rng.choice(['10.0.0.1', '192.168.1.1', 'fe80::1', '# a comment', '']))
                continue
            if rng.random() < 0.03:
                lines.append('185.220.101.1')
                matching.append(ipaddress.ip_address('185.220.101.1'))
                continue
            block = rng.choice(blocks)
            address = block[rng.randrange(block.num_addresses)]
            lines.append(str(address) if rng.random() < 0.8 else address.exploded)
            if any(address in n for n in NETWORKS): matching.append(address)
        collapsed = list(ipaddress.collapse_addresses([a for a in matching if a.version == 4]))
        collapsed += list(ipaddress.collapse_addresses([a for a in matching if a.version == 6]))
        with open(os.path.join(folder, 'input.txt'), 'w') as f: f.write('\r\n'.join(lines) + '\r\n')
        with open(os.path.join(folder, 'expected.txt'), 'w') as f: f.write(''.join(str(n) + '\n' for n in collapsed))
        """#

    private func table(count: Int, seed: Int) throws -> (input: String, expected: [String]) {
        let folder = try makeTemporaryDirectory()
        _ = try ToolRun.output("python3", ["-c", Self.generator, String(count), String(seed), folder.path])
        let expected = try String(contentsOf: folder.appendingPathComponent("expected.txt"), encoding: .utf8)
        return (folder.appendingPathComponent("input.txt").path, expected.split(separator: "\n").map(String.init))
    }

    func testACIDRListIsPythonsCollapseOfTheMatchingAddresses() throws {
        let (input, expected) = try table(count: 3_000, seed: 11)
        XCTAssertTrue(expected.contains { $0.contains(":") } && expected.contains { !$0.contains(":") })
        XCTAssertTrue(expected.contains { !$0.hasSuffix("/32") && !$0.contains(":") }, "some addresses aggregate")
        let run = try ipdata(["bulk", "-q", "--where", expression, "--blocklist", "cidr", input] + base)
        XCTAssertEqual(run.status, 1, "the private addresses are failed records: \(run.stderr)")
        XCTAssertEqual(run.stdoutLines, expected)
    }

    /// `filter --blocklist`: the addresses of the log lines kept, as `bulk --blocklist` lists them.
    func testFilterWritesTheMatchingAddressesOfItsLinesAsABlocklist() throws {
        let (input, expected) = try table(count: 3_000, seed: 12)
        let lines = try String(contentsOfFile: input, encoding: .utf8).components(separatedBy: "\r\n")
        let log = try makeFile(
            lines.map { $0.isEmpty ? "" : "Dec  2 00:51:07 sshd[812]: Failed password from \($0) port 22\r\n" }
                .joined(),
            named: "auth.log")
        let run = try ipdata(["filter", "-q", "--where", expression, "--blocklist", "cidr", log.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdoutLines, expected)
        let nft = try ipdata(
            ["filter", "--where", expression, "--blocklist", "nft", "--set-name", "bad", log.path] + base)
        XCTAssertTrue(nft.stdout.contains("set bad {"), nft.stdout)
        XCTAssertEqual(nft.stderrLines.last?.hasSuffix("CIDRs"), true, nft.stderr)
    }

    func testWithoutWhereEveryAnsweredAddressIsListed() throws {
        let input = try makeFile("8.8.8.8\n8.8.8.9\n8.8.8.10\n8.8.8.11\n2001:4860::1\n10.0.0.1\n", named: "ips.txt")
        let run = try ipdata(["bulk", "--no-progress", "--blocklist", "cidr", input.path] + base)
        XCTAssertEqual(run.stdoutLines, ["8.8.8.8/30", "2001:4860::1/128"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines.last, "ipdata: 5 addresses in 2 CIDRs")
    }

    func testWhereAloneFiltersTheRecordsPrintedAndKeepsTheFieldsAsked() throws {
        let input = try makeFile("185.220.101.1\n8.8.8.8\n1.1.1.1\n45.1.2.3\n", named: "ips.txt")
        let run = try ipdata(
            ["bulk", "-q", "--where", "threat.is_tor or ip in 45.0.0.0/8", "-f", "ip,country_code", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        let records = try objects(run)
        let tally = try ipdata(["bulk", "--no-progress", "--where", "threat.is_tor", input.path] + base)
        XCTAssertEqual(tally.stderrLines.last, "ipdata: 1 of 4 answers matched --where")
        XCTAssertEqual(records.map { $0["ip"] }, [.string("185.220.101.1"), .string("45.1.2.3")])
        XCTAssertEqual(records.map { Set($0.keys) }, [["ip", "country_code"], ["ip", "country_code"]])
        let csv = try ipdata(
            ["bulk", "-q", "--where", "country_code == 'AU'", "--format", "csv", "-f", "ip", input.path] + base)
        XCTAssertEqual(csv.stdoutLines, ["ip,error", "1.1.1.1,"], "a list's CSV has its error column")
    }

    func testIpsetRestoreReadsTheFileAndHoldsTheCollapsedNetworks() throws {
        let (input, expected) = try table(count: 1_000, seed: 12)
        let run = try ipdata(
            ["bulk", "-q", "--where", expression, "--blocklist", "ipset", "--set-name", "bad", input] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        let lines = run.stdoutLines
        XCTAssertEqual(lines.first, "create bad hash:net family inet maxelem 65536 -exist")
        XCTAssertEqual(
            lines.filter { $0.hasPrefix("add ") }.map { $0.split(separator: " ")[2] }.map(String.init), expected)
        let file = try makeFile(run.stdout, named: "bad.ipset")
        let saved = try inOwnNetworkNamespace("ipset restore < \(file.path) && ipset save")
        let members = saved.split(separator: "\n").filter { $0.hasPrefix("add ") }.map {
            String($0.split(separator: " ")[2])
        }
        // ipset writes a host as its address alone.
        XCTAssertEqual(
            Set(members),
            Set(
                expected.map { $0.replacingOccurrences(of: "/32", with: "").replacingOccurrences(of: "/128", with: "") }
            ))
    }

    func testNftReadsTheSetsWithoutAConflictingInterval() throws {
        let (input, expected) = try table(count: 1_000, seed: 13)
        let run = try ipdata(["bulk", "-q", "--where", expression, "--blocklist", "nft", input] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("table inet filter {\n\tset ipdata_blocklist {\n\t\ttype ipv4_addr\n"))
        XCTAssertTrue(run.stdout.contains("\tset ipdata_blocklist6 {\n\t\ttype ipv6_addr\n\t\tflags interval\n"))
        let elements = run.stdoutLines.filter { $0.hasPrefix("\t\t\t") }.map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "\t,"))
        }
        XCTAssertEqual(elements, expected)
        let file = try makeFile(run.stdout, named: "bad.nft")
        // `nft -c` checks the file as the kernel would take it: overlapping intervals are refused.
        _ = try inOwnNetworkNamespace("nft -c -f \(file.path)")
    }

    func testSetNameAndFormatMistakesAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--blocklist", "pf"], "--blocklist must be cidr, ipset, nft"),
            (["--blocklist", "cidr", "--set-name", "x"], "--set-name names the set of --blocklist ipset or nft"),
            (["--blocklist", "nft", "--set-name", "1bad"], "--set-name must start with a letter"),
            (["--blocklist", "ipset", "--set-name", "my-bad"], "--set-name must start with a letter"),
            (["--blocklist", "cidr", "--format", "csv"], "--blocklist prints addresses, not records"),
            (["--where", "thret.is_tor"], "--where: unknown field thret at column 1: did you mean threat?"),
            (["--where", "threat.is_tor", "--resume", "--output", "x.jsonl"], "--resume continues every record"),
        ]
        for (arguments, message) in cases {
            let run = try ipdata(["bulk"] + arguments + ["-"] + base, stdin: "8.8.8.8\n")
            XCTAssertEqual(run.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }

    /// What `command` prints, run by `sh` in a network namespace of its own (`unshare -n`), where
    /// ipset and nft change nothing of this machine; skipped where the tools or the namespace
    /// are not to be had (not root, no `ip_set` module).
    private func inOwnNetworkNamespace(_ command: String) throws -> String {
        let unshare = URL(fileURLWithPath: "/usr/bin/unshare")
        let tools = ["/usr/sbin/ipset", "/usr/sbin/nft"]
        guard FileManager.default.isExecutableFile(atPath: unshare.path),
            tools.allSatisfy(FileManager.default.isExecutableFile(atPath:))
        else { throw XCTSkip("needs unshare, ipset and nft (apt-get install ipset nftables)") }
        let probe = try BuiltBinary.run(
            ["-n", "sh", "-c", "ipset list -n && nft list tables"], executable: unshare,
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        guard probe.status == 0 else { throw XCTSkip("no network namespace of its own here: \(probe.stderr)") }
        let run = try BuiltBinary.run(
            ["-n", "sh", "-c", command], executable: unshare, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }
}
#endif
