// The ipdata command runs on macOS and Linux: its end-to-end tests start it with `Process`,
// which iOS, tvOS, watchOS and visionOS do not have.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation

/// Records as `ipdata bulk` writes them, for an analyst's day of addresses: a few hot ones on
/// many lines, IPv4 and IPv6, countries on the map and some too small for it, networks with
/// names HTML must escape, threat flags and blocklists, error records of private addresses and
/// lines that are no record; with a byte order mark and CRLF line ends, as Windows tools write.
enum AnalystRecords {
    /// Country codes and names: on the map, and too small for it (SG, HK, MT).
    static let countries = [
        ("US", "United States"), ("DE", "Germany"), ("CN", "China"), ("RU", "Russia"), ("NL", "Netherlands"),
        ("FR", "France"), ("BR", "Brazil"), ("IN", "India"), ("GB", "United Kingdom"), ("JP", "Japan"),
        ("KR", "South Korea"), ("VN", "Vietnam"), ("UA", "Ukraine"), ("IR", "Iran"), ("ZA", "South Africa"),
        ("AU", "Australia"), ("CA", "Canada"), ("MX", "Mexico"), ("AR", "Argentina"), ("NG", "Nigeria"),
        ("EG", "Egypt"), ("TR", "Turkey"), ("ID", "Indonesia"), ("SE", "Sweden"), ("NO", "Norway"),
        ("XK", "Kosovo"), ("SG", "Singapore"), ("HK", "Hong Kong"), ("MT", "Malta"),
    ]

    static let networks = [
        ("AS15169", "Google LLC", "hosting"), ("AS16509", "Amazon.com, Inc.", "hosting"),
        ("AS4134", "Chinanet", "isp"), ("AS12389", "Rostelecom", "isp"), ("AS60068", "Datacamp <Ltd> & Co", "hosting"),
        ("AS13335", "Cloudflare, Inc.", "hosting"), ("AS3320", "Deutsche Telekom AG", "isp"),
        ("AS9009", "M247 \"Europe\" SRL", "hosting"), ("AS7922", "Comcast Cable", "isp"),
        ("AS208294", "Tor exit relays", "business"), ("AS45090", "Tencent", "business"),
        ("AS1221", "Telstra", "isp"), ("AS8075", "Microsoft Corporation", "business"),
    ]

    static let threatFlags = ["is_tor", "is_vpn", "is_proxy", "is_datacenter", "is_known_attacker", "is_known_abuser"]

    /// The file's text: `lines` lines over `distinct` addresses.
    static func text(lines: Int = 4_000, distinct: Int = 400, seed: UInt64 = 26) -> String {
        var random = SeededGenerator(seed: seed)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        var records: [String] = []
        for index in 0..<distinct {
            let ip =
                index % 5 == 4
                ? "2a0\(index % 9):\(String(index, radix: 16))::\(index % 7 + 1)"
                : "\(index % 200 + 11).\(index / 200 + 3).\(index % 13).\(index % 250 + 1)"
            let (code, name) = countries[min(pick(countries.count), pick(countries.count))]
            let (asn, org, type) = networks[pick(networks.count)]
            var threat: [String: Any] = [:]
            for flag in threatFlags { threat[flag] = pick(6) == 0 }
            threat["is_threat"] = (threat["is_known_attacker"] as? Bool) == true
            threat["blocklists"] = pick(4) == 0 ? [["name": "Blocklist.de", "site": "x"], ["name": "Spamhaus"]] : []
            let record: [String: Any] = [
                "ip": ip, "country_code": code, "country_name": name, "asn": ["asn": asn, "name": org, "type": type],
                "threat": threat,
            ]
            let data = try! JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            records.append(String(decoding: data, as: UTF8.self))
        }
        var out: [String] = []
        for line in 0..<lines {
            switch line % 97 {
            case 13: out.append(#"{"ip":"10.\#(line % 5).0.1","error":"10.\#(line % 5).0.1 is a private IP address"}"#)
            case 41: out.append("garbage: not a record \(line)")
            default:
                // A few hot addresses, many warm, a long tail: a log's shape.
                let hot = pick(3) == 0 ? pick(8) : pick(distinct)
                out.append(records[hot])
            }
        }
        return "\u{FEFF}" + out.joined(separator: "\r\n") + "\r\n"
    }

    /// Python reading the records file on its own (argv[1]): the figures summarize must find,
    /// as JSON: total, unique, failed, per country code, per "Name (CC)", per "ASN name", per
    /// threat flag, and per address (canonical form).
    static let pythonFigures = #"""
        import collections, ipaddress, json, sys
        text = open(sys.argv[1], encoding="utf-8-sig", newline="").read()
        figures = {"total": 0, "failed": 0, "codes": collections.Counter(), "countries": collections.Counter(),
                   "networks": collections.Counter(), "threats": collections.Counter(),
                   "addresses": collections.Counter()}
        for line in text.split("\r\n"):
            if not line.strip():
                continue
            figures["total"] += 1
            try:
                record = json.loads(line)
            except ValueError:
                figures["failed"] += 1
                continue
            figures["addresses"][str(ipaddress.ip_address(record["ip"]))] += 1
            if "error" in record:
                figures["failed"] += 1
                continue
            figures["codes"][record["country_code"]] += 1
            figures["countries"]["%s (%s)" % (record["country_name"], record["country_code"])] += 1
            figures["networks"]["%s %s" % (record["asn"]["asn"], record["asn"]["name"])] += 1
            for flag, value in record["threat"].items():
                if value is True:
                    figures["threats"][flag] += 1
        figures["unique"] = len(figures["addresses"])
        print(json.dumps(figures))
        """#

    /// Python reading the HTML report (argv[1]) with its own HTML parser: the totals' data,
    /// each chart's rows, the map's paths and the top addresses, as JSON.
    static let pythonReport = #"""
        import html.parser, json, sys
        class Report(html.parser.HTMLParser):
            def __init__(self):
                super().__init__()
                self.section, self.report = None, {"sections": {}, "map": {}, "map_paths": 0, "top": []}
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                if tag == "section":
                    self.section = a.get("id")
                elif tag == "p" and a.get("class") == "totals":
                    self.report["totals"] = {k[5:]: int(v) for k, v in a.items() if k.startswith("data-")}
                elif tag == "path" and a.get("class") == "country":
                    self.report["map_paths"] += 1
                    if a["data-code"]:
                        self.report["map"][a["data-code"]] = int(a["data-count"])
                elif tag == "tr" and "data-value" in a:
                    self.report["sections"].setdefault(self.section, {})[a["data-value"]] = int(a["data-count"])
                elif tag == "tr" and "data-ip" in a:
                    self.report["top"].append([a["data-ip"], int(a["data-count"]), a["data-threats"]])
        parser = Report()
        parser.feed(open(sys.argv[1], encoding="utf-8").read())
        print(json.dumps(parser.report))
        """#
}
#endif
