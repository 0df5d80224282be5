// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import Foundation
import IPData
import XCTest

@testable import ipdata_cli

/// `ipdata enrich` on the records SIEMs and network monitors write: Suricata's eve.json, Zeek's
/// TSV logs, ECS documents, logfmt lines and CSV exports with both ends of a flow. Thousands of
/// lines with hot repeated addresses, IPv6, private addresses, lines without addresses and lines
/// that are no JSON; each output is read back with Python (`json`, `csv`, `shlex`, a Zeek reader
/// that splits on tabs), its input's bytes checked to be kept, and the server's log checked for
/// each public address sent once and no private one sent.
final class EnrichSIEMTests: CommandLineTestCase {
    /// Public addresses: 400 IPv4, 40 IPv6; the first two are hot.
    private static let publicAddresses =
        (0..<400).map { "23.\($0 / 200 + 1).\($0 % 200).9" } + (0..<40).map { "2606:4700:\($0 + 1)::9" }
    private static let privateAddresses = ["10.0.0.1", "192.168.1.20", "172.16.0.5", "fd00::5"]

    /// The address of flow `index` on one end (`salt` differs per end): a hot address on about a
    /// third of the flows, a private one on every 25th.
    private static func address(_ index: Int, _ salt: Int) -> String {
        if (index + salt) % 25 == 0 { return privateAddresses[(index / 25 + salt) % privateAddresses.count] }
        if (index + salt) % 3 == 0 { return publicAddresses[salt % 2] }
        return publicAddresses[(index * 7 + salt * 13) % publicAddresses.count]
    }

    // MARK: eve.json

    func testEveJSONGetsBothEndsUnderIpdataAndSendsEachPublicAddressOnce() throws {
        var lines: [String] = []
        for index in 0..<4_000 {
            let (src, dest) = (Self.address(index, 0), Self.address(index, 1))
            switch index % 10 {
            case 9:
                lines.append(
                    #"{"timestamp":"2026-11-30T18:00:00.000000+0000","event_type":"stats","stats":{"uptime":\#(index)}}"#
                )
            case 5:
                lines.append(
                    #"{"timestamp":"2026-11-30T18:00:01.000000+0000","flow_id":\#(index),"event_type":"alert","src_ip":"\#(src)","src_port":443,"dest_ip":"\#(dest)","dest_port":51000,"proto":"TCP","alert":{"signature":"ET POLICY \"quoted\" é","severity":2}}"#
                )
            default:
                lines.append(
                    #"{"timestamp":"2026-11-30T18:00:02.000000+0000","flow_id":\#(index),"event_type":"flow","src_ip":"\#(src)","src_port":\#(1024 + index),"dest_ip":"\#(dest)","dest_port":53,"proto":"UDP"}"#
                )
            }
        }
        lines[1_234] = "this line is not JSON"
        let text = lines.enumerated().map { $0.element + ($0.offset % 2 == 0 ? "\r\n" : "\n") }.joined()
        let input = try makeFile(text, named: "eve.json")
        let mark = backendLogMark()
        let run = try ipdata(["enrich", "-q", "--no-cache", "-f", "country_code,asn.name", input.path] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderrLines, ["ipdata: 1 of 3,600 rows got no data: not a JSON object"])
        let check = try python(Self.eveCheck, input: input, output: run.stdoutBytes)
        XCTAssertEqual(
            check,
            #"{"lines": 4000, "kept": 4000, "passed": 401, "enriched": 3599, "public": 6958, "private": 240, "wrong": 0}"#
                + "\n")
        try assertSentOnce(since: mark, used: Set(lines.flatMap(Self.addresses(in:))))
    }

    /// Python, given the input and the output: every output line's bytes hold its input line's
    /// bytes in order; a line with addresses parses to its input's object plus `ipdata`, whose
    /// `src_ip` and `dest_ip` hold the data of public addresses and the refusal of private ones.
    private static let eveCheck = #"""
        import ipaddress, json, sys
        given = open(sys.argv[1], "rb").read().split(b"\n")
        got = open(sys.argv[2], "rb").read().split(b"\n")
        def subsequence(a, b):
            it = iter(b)
            return all(byte in it for byte in a)
        counts = dict(lines=0, kept=0, passed=0, enriched=0, public=0, private=0, wrong=0)
        for before, after in zip(given[:-1], got[:-1]):
            counts["lines"] += 1
            counts["kept"] += subsequence(before, after) and before.endswith(b"\r") == after.endswith(b"\r")
            try:
                a = json.loads(before)
            except ValueError:
                counts["passed"] += before == after
                continue
            if "src_ip" not in a:
                counts["passed"] += before == after
                continue
            b = json.loads(after)
            data = b.pop("ipdata")
            counts["enriched"] += 1
            if a != b or set(data) != {"src_ip", "dest_ip"}:
                counts["wrong"] += 1
                continue
            for key in ("src_ip", "dest_ip"):
                if ipaddress.ip_address(a[key]).is_global:
                    counts["public"] += 1
                    counts["wrong"] += data[key] != {"country_code": "US", "asn.name": "Google LLC"}
                else:
                    counts["private"] += 1
                    counts["wrong"] += "is a private IP address" not in data[key].get("error", "")
        print(json.dumps(counts))
        """#

    // MARK: Nested keys, and data beside each address

    func testNestedKeysAndKeysWithDotsInTheirNamesAreFoundAndTheDataGoesBesideThem() throws {
        var lines: [String] = []
        for index in 0..<2_000 {
            let (src, dest) = (Self.address(index, 0), Self.address(index, 1))
            lines.append(
                index % 2 == 0
                    ? #"{"flow":{"src_ip":"\#(src)","dest_ip":"\#(dest)"},"n":\#(index)}"#
                    : #"{ "flow" : { "dest_ip" : "\#(dest)" , "src_ip":"\#(src)", "bytes": [1, 2] }, "n": \#(index) }"#)
        }
        let input = try makeFile(lines.joined(separator: "\n") + "\n", named: "flows.jsonl")
        let mark = backendLogMark()
        let run = try ipdata(
            [
                "enrich", "-q", "--no-cache", "--key", "flow.src_ip,flow.dest_ip", "--into", "{key}_geo", "-f",
                "country_code", input.path,
            ] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let check = try python(Self.besideCheck, input: input, output: run.stdoutBytes)
        XCTAssertEqual(check, #"{"lines": 2000, "kept": 2000, "wrong": 0}"# + "\n")
        try assertSentOnce(since: mark, used: Set(lines.flatMap(Self.addresses(in:))))

        // Zeek's JSON logs name their keys with dots: found as they are, or with an escaped dot.
        let zeek = try makeFile(
            #"{"ts":1.5,"id.orig_h":"8.8.8.8","id.resp_h":"10.0.0.1"}"# + "\n"
                + #"{"id":{"orig_h":"1.1.1.1"},"id.orig_h":"9.9.9.9"}"# + "\n", named: "conn.jsonl")
        let plain = try ipdata(["enrich", "-q", "--key", "id.orig_h", "-f", "ip", zeek.path] + base)
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertEqual(
            plain.stdoutLines,
            [
                #"{"ts":1.5,"id.orig_h":"8.8.8.8","id.resp_h":"10.0.0.1","ipdata":{"ip":"8.8.8.8"}}"#,
                #"{"id":{"orig_h":"1.1.1.1"},"id.orig_h":"9.9.9.9","ipdata":{"ip":"1.1.1.1"}}"#,
            ])
        let escaped = try ipdata(["enrich", "-q", "--key", "id\\.orig_h", "-f", "ip", zeek.path] + base)
        XCTAssertEqual(escaped.status, 0, escaped.stderr)
        XCTAssertEqual(
            escaped.stdoutLines.last, #"{"id":{"orig_h":"1.1.1.1"},"id.orig_h":"9.9.9.9","ipdata":{"ip":"9.9.9.9"}}"#)
    }

    /// Python: each output line's bytes hold its input line's in order, and it parses to the
    /// input's object with `src_ip_geo` and `dest_ip_geo` added inside `flow`.
    private static let besideCheck = #"""
        import ipaddress, json, sys
        given = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
        got = open(sys.argv[2], "rb").read().split(b"\n")[:-1]
        def subsequence(a, b):
            it = iter(b)
            return all(byte in it for byte in a)
        counts = dict(lines=len(got), kept=0, wrong=abs(len(given) - len(got)))
        for before, after in zip(given, got):
            counts["kept"] += subsequence(before, after)
            a, b = json.loads(before), json.loads(after)
            added = {k: b["flow"].pop(k + "_geo", None) for k in ("src_ip", "dest_ip")}
            if a != b:
                counts["wrong"] += 1
                continue
            for key, data in added.items():
                if ipaddress.ip_address(a["flow"][key]).is_global:
                    counts["wrong"] += data != {"country_code": "US"}
                else:
                    counts["wrong"] += "private IP address" not in (data or {}).get("error", "")
        print(json.dumps(counts))
        """#

    // MARK: ECS

    func testECSModeWritesECSNamesIntoTheDocumentsOwnObjects() throws {
        var lines: [String] = []
        for index in 0..<2_000 {
            let src = index % 50 == 7 ? "185.220.101.1" : Self.address(index, 0)
            let dest = Self.address(index, 1)
            lines.append(
                index % 3 == 0
                    ? #"{"@timestamp":"2026-11-30T18:00:00Z","source":{"ip":"\#(src)","port":443},"destination":{"ip":"\#(dest)","geo":{"name":"dc-1"}},"tags":["beats"]}"#
                    : #"{"@timestamp":"2026-11-30T18:00:00Z","source":{"ip":"\#(src)"},"destination":{"ip":"\#(dest)"},"threat":{"enrichments":[{"indicator":{"provider":"other"}}]}}"#
            )
        }
        lines[100] = #"{"@timestamp":"2026-11-30T18:00:00Z","message":"no addresses"}"#
        let input = try makeFile("\u{FEFF}" + lines.joined(separator: "\r\n") + "\r\n", named: "events.jsonl")
        let run = try ipdata(["enrich", "-q", "--no-cache", "--as", "ecs", input.path] + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            run.stderrLines,
            [#"ipdata: 1 of 2,000 rows got no data: no address under the keys "source.ip", "destination.ip""#])
        let check = try python(Self.ecsCheck, input: input, output: run.stdoutBytes)
        XCTAssertEqual(check, #"{"lines": 2000, "kept": 2000, "sides": 3998, "threats": 40, "wrong": 0}"# + "\n")

        // eve.json's src_ip and dest_ip are ECS's source and destination.
        let eve = try makeFile(
            #"{"event_type":"flow","src_ip":"185.220.101.1","dest_ip":"2606:4700:1::9"}"# + "\n", named: "eve.json")
        let mapped = try ipdata(["enrich", "-q", "--as", "ecs", eve.path] + base)
        XCTAssertEqual(mapped.status, 0, mapped.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(mapped.stdout.utf8)) as? [String: Any]
        let source = object?["source"] as? [String: Any]
        XCTAssertEqual(source?["ip"] as? String, "185.220.101.1")
        XCTAssertEqual((source?["geo"] as? [String: Any])?["country_iso_code"] as? String, "DE")
        XCTAssertEqual(((source?["as"] as? [String: Any])?["number"] as? Int), 60729)
        let destination = object?["destination"] as? [String: Any]
        XCTAssertEqual(
            ((destination?["as"] as? [String: Any])?["organization"] as? [String: Any])?["name"] as? String,
            "Google LLC")
        let enrichments = (object?["threat"] as? [String: Any])?["enrichments"] as? [[String: Any]]
        XCTAssertEqual(enrichments?.count, 1)
        XCTAssertEqual((enrichments?.first?["indicator"] as? [String: Any])?["type"] as? String, "ipv4-addr")

        // A key ECS has no side for, and --fields, are refused before anything is sent.
        let unmapped = try ipdata(["enrich", "--as", "ecs", "--key", "note", eve.path] + base)
        XCTAssertEqual(unmapped.status, 2)
        XCTAssertEqual(unmapped.stderrLines.count, 1, unmapped.stderr)
        XCTAssertTrue(unmapped.stderr.hasPrefix("ipdata: --as ecs: no ECS side for the key note"), unmapped.stderr)
        let fields = try ipdata(["enrich", "--as", "ecs", "-f", "city", eve.path] + base)
        XCTAssertEqual(fields.status, 2)
        XCTAssertEqual(
            fields.stderrLines,
            ["ipdata: --as ecs writes ECS's own fields: it takes no --fields (see ipdata enrich --help)"])
    }

    /// Python: each output line holds its input line's bytes in order and parses to the input's
    /// object with ECS's fields added: `geo` and `as` on each side of a public address (in the
    /// side's own object, whose members stay), `threat.enrichments` appended for the Tor exit,
    /// the tag `_ipdata_lookup_failure` on the line without addresses.
    private static let ecsCheck = #"""
        import copy, ipaddress, json, sys
        given = open(sys.argv[1], "rb").read().decode("utf-8-sig").split("\r\n")[:-1]
        got = open(sys.argv[2], "rb").read().decode("utf-8-sig").split("\r\n")[:-1]
        def subsequence(a, b):
            it = iter(b)
            return all(c in it for c in a)
        google = {"country_iso_code": "US", "country_name": "United States", "city_name": "Mountain View",
                  "region_name": "California", "region_iso_code": "US-CA", "location": {"lat": 37.386, "lon": -122.0838}}
        counts = dict(lines=len(got), kept=0, sides=0, threats=0, wrong=abs(len(given) - len(got)))
        for before, after in zip(given, got):
            counts["kept"] += subsequence(before, after)
            a, b = json.loads(before), json.loads(after)
            if "source" not in a:
                counts["wrong"] += b != dict(a, tags=["_ipdata_lookup_failure"])
                continue
            expected = copy.deepcopy(a)
            for side in ("source", "destination"):
                ip = a[side]["ip"]
                if not ipaddress.ip_address(ip).is_global:
                    counts["sides"] += 1
                    continue
                geo, autonomous = b[side].get("geo", {}), b[side].get("as", {})
                counts["sides"] += 1
                if ip == "185.220.101.1":
                    counts["wrong"] += geo.get("country_iso_code") != "DE" or autonomous.get("number") != 60729
                else:
                    counts["wrong"] += any(geo.get(k) != v for k, v in google.items())
                    counts["wrong"] += autonomous != {"number": 15169, "organization": {"name": "Google LLC"}}
                expected[side]["geo"] = dict(a[side].get("geo", {}), **geo)
                expected[side]["as"] = autonomous
            enrichments = b.get("threat", {}).get("enrichments", [])
            mine = [e for e in enrichments if e["indicator"].get("provider") == "ipdata"]
            for e in mine:
                counts["threats"] += 1
                i = e["indicator"]
                counts["wrong"] += (i["ip"] != "185.220.101.1" or i["type"] != "ipv4-addr" or not i["ipdata"]["is_tor"]
                                    or e["matched"] != {"atomic": "185.220.101.1", "field": "source.ip"})
            if enrichments:
                expected.setdefault("threat", {})["enrichments"] = a.get("threat", {}).get("enrichments", []) + mine
            counts["wrong"] += b != expected
        print(json.dumps(counts))
        """#

    // MARK: Zeek

    func testAZeekConnLogKeepsItsHeaderAndGetsTypedColumnsForBothEnds() throws {
        var rows: [String] = []
        for index in 0..<3_000 {
            let src = Self.address(index, 0)
            let dest = index % 17 == 0 ? "-" : Self.address(index, 1)
            rows.append(
                "1732989600.\(100_000 + index)\tC\(index)x\t\(src)\t\(49_000 + index % 1000)\t\(dest)\t53\tudp\tdns\t0.01\t(empty)\t-"
            )
        }
        let header = [
            "#separator \\x09", "#set_separator\t,", "#empty_field\t(empty)", "#unset_field\t-", "#path\tconn",
            "#open\t2026-11-30-18-00-00",
            "#fields\tts\tuid\tid.orig_h\tid.orig_p\tid.resp_h\tid.resp_p\tproto\tservice\tduration\thistory\tnote",
            "#types\ttime\tstring\taddr\tport\taddr\tport\tenum\tstring\tinterval\tstring\tstring",
        ]
        let text = (header + rows + ["#close\t2026-11-30-19-00-00"]).joined(separator: "\n") + "\n"
        let input = try makeFile(text, named: "conn.log")
        let mark = backendLogMark()
        let run = try ipdata(
            ["enrich", "-q", "--no-cache", "-f", "country_code,latitude,threat.is_threat", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        let check = try python(Self.zeekCheck, input: input, output: run.stdoutBytes)
        XCTAssertEqual(
            check, #"{"headers": 9, "rows": 3000, "public": 5590, "private": 233, "unset": 177, "wrong": 0}"# + "\n")
        try assertSentOnce(since: mark, used: Set(rows.flatMap(Self.addresses(in:))))

        // From standard input, with --input zeek and one column named.
        let one = try ipdata(
            ["enrich", "-q", "--input", "zeek", "--column", "id.resp_h", "-f", "ip", "-"] + base, stdin: text)
        XCTAssertEqual(one.status, 1, one.stderr)
        XCTAssertEqual(one.stdoutLines[6], header[6] + "\tipdata.resp_h.ip\tipdata.error")
        XCTAssertEqual(one.stdoutLines[7], header[7] + "\tstring\tstring")
        XCTAssertEqual(
            one.stdoutLines[8],
            rows[0] + "\t-\tno address in the column \"id.resp_h\"".replacingOccurrences(of: "\"", with: ""))
        XCTAssertEqual(
            one.stderrLines, [#"ipdata: 177 of 3,000 rows got no data: no address in the column "id.resp_h""#])
    }

    /// Python's reading of a Zeek log and its output: header lines kept (`#fields` and `#types`
    /// with the new columns), every row split on tabs has as many columns as `#fields` names,
    /// starts with its input row, and holds the data of its public addresses, Zeek's `-` and the
    /// refusal for private ones, `-` for an unset address.
    private static let zeekCheck = #"""
        import ipaddress, json, sys
        given = open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]
        got = open(sys.argv[2], encoding="utf-8").read().split("\n")[:-1]
        counts = dict(headers=0, rows=0, public=0, private=0, unset=0, wrong=abs(len(given) - len(got)))
        fields = []
        added = ["ipdata.orig_h.country_code", "ipdata.orig_h.latitude", "ipdata.orig_h.threat.is_threat",
                 "ipdata.resp_h.country_code", "ipdata.resp_h.latitude", "ipdata.resp_h.threat.is_threat", "ipdata.error"]
        for before, after in zip(given, got):
            if before.startswith("#"):
                counts["headers"] += 1
                if before.startswith("#fields"):
                    fields = after.split("\t")[1:]
                    counts["wrong"] += after != before + "\t" + "\t".join(added)
                elif before.startswith("#types"):
                    counts["wrong"] += after != before + "\tstring\tdouble\tbool" * 2 + "\tstring"
                else:
                    counts["wrong"] += after != before
                continue
            counts["rows"] += 1
            cells = after.split("\t")
            if len(cells) != len(fields) or not after.startswith(before + "\t"):
                counts["wrong"] += 1
                continue
            row = dict(zip(fields, cells))
            errors = []
            for end, column in (("orig_h", "id.orig_h"), ("resp_h", "id.resp_h")):
                values = [row["ipdata.%s.%s" % (end, f)] for f in ("country_code", "latitude", "threat.is_threat")]
                if row[column] == "-":
                    counts["unset"] += 1
                    counts["wrong"] += values != ["-", "-", "-"]
                elif ipaddress.ip_address(row[column]).is_global:
                    counts["public"] += 1
                    counts["wrong"] += values != ["US", "37.386", "F"]
                else:
                    counts["private"] += 1
                    counts["wrong"] += values != ["-", "-", "-"]
                    errors.append(column)
            error = row["ipdata.error"]
            counts["wrong"] += (error == "-") != (not errors)
        print(json.dumps(counts))
        """#

    // MARK: logfmt

    func testLogfmtLinesGetQuotedPairsNamedAfterTheirKeys() throws {
        var lines: [String] = []
        for index in 0..<2_000 {
            let (src, dest) = (Self.address(index, 0), Self.address(index, 1))
            lines.append(
                index % 4 == 0
                    ? #"level=info msg="connection closed" duration=0.3s"#
                    : #"time=2026-11-30T18:00:00Z level=warn src=\#(src) dst="\#(dest)" msg="rejected \"x\" = y" n=\#(index)"#
            )
        }
        let input = try makeFile(lines.joined(separator: "\n") + "\n", named: "app.log")
        let run = try ipdata(
            [
                "enrich", "-q", "--no-cache", "--as", "logfmt", "--key", "src,dst", "-f", "country_code,asn.name",
                input.path,
            ]
                + base)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            run.stderrLines, [#"ipdata: 500 of 2,000 lines got no data: no address under the keys "src", "dst""#])
        let check = try python(Self.logfmtCheck, input: input, output: run.stdoutBytes)
        XCTAssertEqual(check, #"{"lines": 2000, "passed": 500, "public": 2880, "private": 120, "wrong": 0}"# + "\n")

        // Addresses found in a line, without keys: ipdata_ for the first, ipdata2_ for the second.
        let found = try ipdata(
            ["enrich", "-q", "--as", "logfmt", "-f", "asn.name", "-"] + base,
            stdin: "sshd: Failed password from 8.8.8.8 to 10.0.0.1 port 22\r\n")
        XCTAssertEqual(found.status, 0, found.stderr)
        XCTAssertEqual(
            found.stdout,
            "sshd: Failed password from 8.8.8.8 to 10.0.0.1 port 22 ipdata_asn.name=\"Google LLC\" "
                + "ipdata2_error=\"Bad Request: 10.0.0.1 is a private IP address\"\r\n")
    }

    /// Python: each output line starts with its input line; what follows, split as a shell splits
    /// (which undoes logfmt's quotes), is `src_…` and `dst_…` for each address, or the error of
    /// a line without them.
    private static let logfmtCheck = #"""
        import ipaddress, json, shlex, sys
        given = open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]
        got = open(sys.argv[2], encoding="utf-8").read().split("\n")[:-1]
        counts = dict(lines=len(got), passed=0, public=0, private=0, wrong=abs(len(given) - len(got)))
        for before, after in zip(given, got):
            if "src=" not in before:
                counts["passed"] += 1
                counts["wrong"] += after != before + ' ipdata_error="no address under the keys src, dst"'
                continue
            if not after.startswith(before + " "):
                counts["wrong"] += 1
                continue
            pairs = dict(p.split("=", 1) for p in shlex.split(after[len(before):]))
            fields = dict(p.split("=", 1) for p in shlex.split(before))
            for key in ("src", "dst"):
                if ipaddress.ip_address(fields[key]).is_global:
                    counts["public"] += 1
                    counts["wrong"] += pairs.get(key + "_country_code") != "US" or pairs.get(key + "_asn.name") != "Google LLC"
                else:
                    counts["private"] += 1
                    counts["wrong"] += "private IP address" not in pairs.get(key + "_error", "")
        print(json.dumps(counts))
        """#

    // MARK: CSV with both ends

    func testACSVExportWithTwoAddressColumnsGetsColumnsForEachAndEachAddressSentOnce() throws {
        var rows = ["time,src,note,port,dst"]
        for index in 0..<3_000 {
            let note = index % 50 == 0 ? "\"two\r\nlines, 9.9.9.9\"" : "n\(index)"
            // Every 100th flow is from an address to itself: the address is sent once all the same.
            let src = Self.address(index, 0)
            let dst = index % 100 == 1 ? src : Self.address(index, 1)
            rows.append("18:00,\(src),\(note),\(index),\(dst)")
        }
        let input = try makeFile(rows.joined(separator: "\r\n") + "\r\n", named: "flows.csv")
        let mark = backendLogMark()
        let run = try ipdata(
            ["enrich", "-q", "--no-cache", "--column", "src,5", "-f", "country_code", input.path] + base)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(
            run.stdout.prefix { $0 != "\r\n" },
            "time,src,note,port,dst,src_country_code,dst_country_code,ipdata_error")
        let check = try python(Self.csvCheck, input: input, output: run.stdoutBytes)
        XCTAssertEqual(check, #"{"rows": 3000, "wrong": 0}"# + "\n")
        try assertSentOnce(
            since: mark, used: Set(rows.dropFirst().flatMap(Self.addresses(in:))).subtracting(["9.9.9.9"]))
    }

    private static let csvCheck = #"""
        import csv, ipaddress, json, sys
        given = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
        got = list(csv.reader(open(sys.argv[2], newline="", encoding="utf-8")))
        counts = dict(rows=len(got) - 1, wrong=abs(len(given) - len(got)))
        for before, after in zip(given[1:], got[1:]):
            expected = [("US" if ipaddress.ip_address(before[i]).is_global else "") for i in (1, 4)]
            errors = [n for n, i in (("src", 1), ("dst", 4)) if not ipaddress.ip_address(before[i]).is_global]
            counts["wrong"] += after[:5] != before or after[5:7] != expected
            counts["wrong"] += [e.split(":")[0] for e in after[7].split("; ") if e] != errors
        print(json.dumps(counts))
        """#

    // MARK: Answers that would act on a terminal

    func testZeekCellsAndLogfmtValuesWriteOutWhatATerminalActsOn() throws {
        let hostileBase = ["--base-url", (server["IPDATA_TEST_URL_BACKEND"] ?? "") + "/hostile/escapes"]
        let shown = #"Evil\x1b]0;pwned\x07\x1b[2J\x0d\x0aforged 6.6.6.6 line\x9b31m\u202eTXE"#
        let zeek = try ipdata(
            ["enrich", "-q", "-f", "city", "--input", "zeek", "-"] + hostileBase,
            stdin: "#separator \\x09\n#fields\tid.orig_h\n8.8.8.8\n")
        XCTAssertEqual(zeek.status, 0, zeek.stderr)
        XCTAssertEqual(zeek.stdoutLines.last, "8.8.8.8\t\(shown)\t-")
        let logfmt = try ipdata(
            ["enrich", "-q", "-f", "city", "--as", "logfmt", "--key", "src", "-"] + hostileBase, stdin: "src=8.8.8.8\n")
        XCTAssertEqual(logfmt.status, 0, logfmt.stderr)
        XCTAssertEqual(
            logfmt.stdout,
            #"src=8.8.8.8 src_city="Evil\u001b]0;pwned\u0007\u001b[2J\r\nforged 6.6.6.6 line\u009b31m\u202eTXE""# + "\n"
        )
        // To a file, ECS keeps the API's text exactly, as JSON does.
        let ecs = try ipdata(
            ["enrich", "-q", "--as", "ecs", "-"] + hostileBase, stdin: #"{"source":{"ip":"8.8.8.8"}}"# + "\n")
        XCTAssertEqual(ecs.status, 0, ecs.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(ecs.stdout.utf8)) as? [String: Any]
        let geo = (object?["source"] as? [String: Any])?["geo"] as? [String: Any]
        XCTAssertEqual(
            geo?["city_name"] as? String, "Evil\u{1B}]0;pwned\u{07}\u{1B}[2J\r\nforged 6.6.6.6 line\u{9B}31m\u{202E}TXE"
        )
    }

    // MARK: Options

    func testOptionsThatCannotGoTogetherAreRefusedInOneLine() throws {
        let input = try makeFile("ip\n8.8.8.8\n", named: "hosts.csv")
        let cases: [([String], String)] = [
            (["--key", "a", "--column", "b"], "--key and --column name the same places: give one of them"),
            (["--into", "geo"], "--into names a key of JSON lines: the input is csv"),
            (["--as", "ecs", "--into", "geo"], "--as ecs writes ECS's own fields: it takes no --into"),
            (["--key", "src_ip", "--into", "{key}"], "--into {key} would write over the address: name another key"),
            (
                ["--as", "ecs", "--input", "csv"],
                "--as ecs writes JSON lines: it reads JSON lines or eve.json (--input jsonl or eve)"
            ),
            (["--as", "jsonl", "--input", "csv"], "--as jsonl is --input jsonl: give one of them"),
            (
                ["--as", "logfmt", "--input", "eve"],
                "--as logfmt adds pairs to log lines: it reads lines (--input lines)"
            ),
        ]
        for (options, message) in cases {
            let run = try ipdata(["enrich"] + options + [input.path] + base)
            XCTAssertEqual(run.status, 2, "\(options)")
            XCTAssertEqual(run.stderrLines, ["ipdata: \(message) (see ipdata enrich --help)"], "\(options)")
        }
        // A Zeek log whose #fields lack the column named.
        let zeek = try ipdata(
            ["enrich", "--input", "zeek", "--column", "src", "-"] + base,
            stdin: "#separator \\x09\n#fields\tts\tid.orig_h\n1\t8.8.8.8\n")
        XCTAssertEqual(zeek.status, 2)
        XCTAssertEqual(zeek.stderrLines, ["ipdata: the #fields line has no column src"])
        // Zeek's own columns are those of the two ends the log has: one, or none (files.log).
        let one = try ipdata(
            ["enrich", "-q", "--input", "zeek", "-f", "ip", "-"] + base,
            stdin: "#separator \\x09\n#fields\tts\tid.orig_h\n1\t8.8.8.8\n")
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertEqual(
            one.stdout,
            "#separator \\x09\n#fields\tts\tid.orig_h\tipdata.orig_h.ip\tipdata.error\n1\t8.8.8.8\t8.8.8.8\t-\n")
        let none = try ipdata(
            ["enrich", "--input", "zeek", "-"] + base, stdin: "#separator \\x09\n#fields\tts\ttx_hosts\n1\t8.8.8.8\n")
        XCTAssertEqual(none.status, 2)
        XCTAssertEqual(
            none.stderrLines,
            ["ipdata: the #fields line has neither id.orig_h nor id.resp_h: name the address column with --column"])
    }

    // MARK: Helpers

    /// The addresses a line holds, as Python's `ipaddress` would find them: its tokens that are one.
    private static func addresses(in line: String) -> [String] {
        line.split(whereSeparator: { " \t,\"={}".contains($0) }).map(String.init).filter { IPAddress($0) != nil }
    }

    /// Fails unless the requests since `mark` carried each public address of `used` once, and no other.
    private func assertSentOnce(
        since mark: UInt64, used: Set<String>, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let publicOnes = used.filter { IPAddress($0)?.scope == .public }
        let requests = (publicOnes.count + 99) / 100
        let sent = try sentAddresses(since: mark, requests: requests).addresses
        XCTAssertEqual(sent.count, publicOnes.count, "each public address sent once", file: file, line: line)
        XCTAssertEqual(
            Set(sent.compactMap { IPAddress($0)?.description }),
            Set(publicOnes.compactMap { IPAddress($0)?.description }),
            file: file, line: line)
    }

    /// Runs Python's `script` on `input` and `output` (written to a file), and returns what it printed.
    private func python(_ script: String, input: URL, output: Data) throws -> String {
        let file = try makeTemporaryDirectory().appendingPathComponent("output")
        try output.write(to: file)
        let run = try BuiltBinary.run(
            ["python3", "-c", script, input.path, file.path], executable: URL(fileURLWithPath: "/usr/bin/env"),
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.stdout
    }
}
#endif
