// Process exists on macOS and Linux only, where Python is run to check the results.
#if os(macOS) || os(Linux)
import CLITestSupport
import Foundation
import XCTest

@testable import ipdata_cli

/// The `--where` language, evaluated on the API's answers that the tests serve (the library's
/// fixtures, and answers carrying its threat fixtures), against Python evaluating the same
/// expression, written in Python by hand, over the same JSON files.
final class WhereExpressionTests: XCTestCase {
    /// Each `--where` expression, and the same in Python: `g(path)` is the value at a dotted
    /// path (None when missing); `t`, `eq`, `lt`, `le`, `gt`, `ge` and `inside` are the rules of
    /// `WhereExpression`, written again in Python (see `pythonRules`).
    private let table: [(where: String, python: String)] = [
        ("threat.is_tor", "t(g('threat.is_tor'))"),
        (
            "threat.is_tor or threat.scores.threat_score >= 80",
            "t(g('threat.is_tor')) or ge(g('threat.scores.threat_score'), 80)"
        ),
        ("country_code in ['US', 'AU']", "any(eq(g('country_code'), v) for v in ['US', 'AU'])"),
        ("country_code not in [\"US\"]", "not eq(g('country_code'), 'US')"),
        ("not country_code in ['US']", "not eq(g('country_code'), 'US')"),
        ("asn.type == 'hosting'", "eq(g('asn.type'), 'hosting')"),
        ("asn.type != \"isp\"", "not eq(g('asn.type'), 'isp')"),
        ("threat.scores.trust_score < 50", "lt(g('threat.scores.trust_score'), 50)"),
        ("threat.scores.threat_score >= 1.0", "ge(g('threat.scores.threat_score'), 1.0)"),
        ("-1 < threat.scores.threat_score", "lt(-1, g('threat.scores.threat_score'))"),
        ("asn.asn == 'AS15169'", "eq(g('asn.asn'), 'AS15169')"),
        ("ip in 8.0.0.0/8", "inside(g('ip'), ['8.0.0.0/8'])"),
        ("ip in [2001:4860::/32, 1.1.1.0/24]", "inside(g('ip'), ['2001:4860::/32', '1.1.1.0/24'])"),
        ("ip == 185.220.101.1", "inside(g('ip'), ['185.220.101.1/32'])"),
        ("latitude > 30 and longitude < 0", "gt(g('latitude'), 30) and lt(g('longitude'), 0)"),
        (
            "(threat.is_threat or threat.is_known_attacker) and not threat.is_bogon",
            "(t(g('threat.is_threat')) or t(g('threat.is_known_attacker'))) and not t(g('threat.is_bogon'))"
        ),
        ("threat.blocklists.0.name == 'Spamhaus'", "eq(g('threat.blocklists.0.name'), 'Spamhaus')"),
        ("company.type == null", "g('company.type') is None"),
        ("carrier != null", "g('carrier') is not None"),
        ("region_code >= 'M'", "ge(g('region_code'), 'M')"),
        ("country_code == 5", "eq(g('country_code'), 5)"),
        ("country_code != 5", "not eq(g('country_code'), 5)"),
        ("threat.scores.threat_score > null", "False"),
        ("is_eu == false", "eq(g('is_eu'), False)"),
        ("threat.is_vpn == true OR threat.is_proxy", "eq(g('threat.is_vpn'), True) or t(g('threat.is_proxy'))"),
        // `and` binds tighter than `or`, `not` tighter than `and`.
        (
            "not threat.is_tor and country_code == 'US' or asn.type == 'isp'",
            "((not t(g('threat.is_tor'))) and eq(g('country_code'), 'US')) or eq(g('asn.type'), 'isp')"
        ),
        (
            "threat.is_tor or country_code == 'US' and asn.type == 'isp'",
            "t(g('threat.is_tor')) or (eq(g('country_code'), 'US') and eq(g('asn.type'), 'isp'))"
        ),
        ("not not threat.is_threat", "t(g('threat.is_threat'))"),
        ("languages.0.name == 'English'", "eq(g('languages.0.name'), 'English')"),
        ("country_code < 'E'", "lt(g('country_code'), 'E')"),
    ]

    /// `WhereExpression`'s rules in Python: two-valued, a missing path None, numbers by value
    /// (a boolean is no number), text with text, anything else unequal and unordered.
    private static let pythonRules = #"""
        import ipaddress, json, sys
        def num(v): return isinstance(v, (int, float)) and not isinstance(v, bool)
        def same(a, b): return (num(a) and num(b)) or (isinstance(a, str) and isinstance(b, str))
        def eq(a, b):
            if num(a) and num(b): return a == b
            return type(a) == type(b) and a == b
        def lt(a, b): return same(a, b) and a < b
        def le(a, b): return same(a, b) and a <= b
        def gt(a, b): return same(a, b) and a > b
        def ge(a, b): return same(a, b) and a >= b
        def t(v): return v is True
        def inside(v, networks):
            try: address = ipaddress.ip_address(v)
            except (ValueError, TypeError): return False
            return any(address in ipaddress.ip_network(n) for n in networks)
        answers = [json.load(open(path)) for path in sys.argv[2:]]
        expressions = json.load(open(sys.argv[1]))
        for answer in answers:
            def g(path):
                value = answer
                for step in path.split('.'):
                    if isinstance(value, dict) and step in value: value = value[step]
                    elif isinstance(value, list) and step.isdigit() and int(step) < len(value): value = value[int(step)]
                    else: return None
                return value
            print(''.join('1' if eval(e) else '0' for e in expressions))
        """#

    /// The answers the tests serve: every lookup fixture, and the 8.8.8.8 answer with each
    /// threat fixture as its `threat`, as TestServer does for their addresses.
    private func answerFiles() throws -> [URL] {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { root.deleteLastPathComponent() }
        let fixtures = root.appendingPathComponent("Tests/IPDataTests/Fixtures")
        let lookups = try FileManager.default.contentsOfDirectory(
            at: fixtures.appendingPathComponent("lookup"), includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        let template = try JSONParser.parse(
            Data(contentsOf: fixtures.appendingPathComponent("lookup/8.8.8.8.SYNTHETIC.ipdata-java-fixture-2026.json")))
        guard case .object(var object) = template else { throw XCTSkip("the template is no object") }
        let folder = try makeTemporaryDirectory()
        var files = lookups
        let threats = try FileManager.default.contentsOfDirectory(
            at: fixtures.appendingPathComponent("threat"), includingPropertiesForKeys: nil
        ).sorted { $0.path < $1.path }
        for (index, file) in threats.enumerated() {
            var threat = try JSONParser.parse(Data(contentsOf: file))
            if case .object(let wrapped) = threat, let inner = wrapped["threat"], wrapped.count == 1 { threat = inner }
            object["threat"] = threat
            object["ip"] = .string(file.lastPathComponent.components(separatedBy: ".").prefix(4).joined(separator: "."))
            let url = folder.appendingPathComponent("threat-\(index).json")
            try Data(JSONValue.object(object).jsonText().utf8).write(to: url)
            files.append(url)
        }
        return files
    }

    func testExpressionsAgreeWithPythonOnEveryAnswer() throws {
        let files = try answerFiles()
        XCTAssertGreaterThanOrEqual(files.count, 10)
        let expressions = try makeFile(
            JSONValue.array(table.map { .string($0.python) }).jsonText(), named: "expressions.json")
        let output = try ToolRun.output("python3", ["-c", Self.pythonRules, expressions.path] + files.map(\.path))
        let rows = String(decoding: output, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(rows.count, files.count)
        var seen: [Set<Bool>] = Array(repeating: [], count: table.count)
        for (file, row) in zip(files, rows) {
            guard case .object(let answer) = try JSONParser.parse(Data(contentsOf: file)) else {
                XCTFail("\(file.lastPathComponent) is no object")
                continue
            }
            for (index, (entry, expected)) in zip(table, row).enumerated() {
                let expression = try WhereParser.parse(entry.where)
                let holds = expression.holds { answer.value(at: $0) }
                XCTAssertEqual(holds, expected == "1", "\(entry.where) on \(file.lastPathComponent)")
                seen[index].insert(holds)
            }
        }
        // Most expressions are true of some answers and false of others: the table tells them apart.
        let decisive = seen.filter { $0.count == 2 }.count
        XCTAssertGreaterThanOrEqual(decisive, table.count - 4, "expressions true or false of every answer")
    }

    /// Random addresses and networks, IPv4 and IPv6, with host bits set at times and IPv4-mapped
    /// addresses (which `ipdata` reads as IPv4): `ip in NET`, `ip == ADDRESS` and `ip in [A, B]`
    /// written unquoted, decided by Python's `ipaddress`.
    func testNetworkMembershipIsPythonsOnARandomTable() throws {
        let script = #"""
            import ipaddress, random, sys
            rng = random.Random(int(sys.argv[1]))
            rows = []
            for _ in range(3000):
                v6 = rng.random() < 0.5
                width = 128 if v6 else 32
                base = rng.randrange(1 << width)
                prefix = rng.randint(0, width)
                network = ipaddress.ip_network((base, prefix), strict=False)
                near = int(network.network_address) + rng.randrange(min(network.num_addresses * 2, 1 << width))
                address = ipaddress.ip_address(min(near, (1 << width) - 1) if v6 else min(near, (1 << 32) - 1))
                written_network = '%s/%d' % (ipaddress.ip_address(base) if rng.random() < 0.5 else network.network_address, prefix)
                written = str(address)
                if not v6 and rng.random() < 0.2: written = '::ffff:' + written
                if v6 and rng.random() < 0.2: written = address.exploded
                other = ipaddress.ip_network((rng.randrange(1 << width), rng.randint(width // 2, width)), strict=False)
                rows.append('%s %s %s %d %d' % (written, written_network, other, address in network,
                    address in network or address in other))
            print('\n'.join(rows))
            """#
        let rows = String(decoding: try ToolRun.output("python3", ["-c", script, "26"]), as: UTF8.self)
            .split(separator: "\n")
        XCTAssertEqual(rows.count, 3_000)
        var inside = 0
        for row in rows {
            let fields = row.split(separator: " ").map(String.init)
            let answer: (String) -> JSONValue? = { $0 == "ip" ? .string(fields[0]) : nil }
            let one = try WhereParser.parse("ip in \(fields[1])")
            let either = try WhereParser.parse("ip in [\(fields[1]), \(fields[2])]")
            let equal = try WhereParser.parse("ip == \(fields[1])")
            XCTAssertEqual(one.holds(answer), fields[3] == "1", String(row))
            XCTAssertEqual(equal.holds(answer), fields[3] == "1", String(row))
            XCTAssertEqual(either.holds(answer), fields[4] == "1", String(row))
            if fields[3] == "1" { inside += 1 }
        }
        XCTAssertGreaterThan(inside, 500)
        XCTAssertLessThan(inside, 2_500)
    }

    func testPathsAreThoseReadEachOnceInOrder() throws {
        let expression = try WhereParser.parse(
            "threat.is_tor or threat.scores.threat_score >= 80 and ip in [1.2.3.0/24] or threat.is_tor")
        XCTAssertEqual(expression.paths, ["threat.is_tor", "threat.scores.threat_score", "ip"])
        XCTAssertEqual(WhereExpression.topLevelNames(of: expression.paths), ["threat", "ip"])
    }

    func testAnIPv4MappedAddressIsItsIPv4Address() throws {
        let expression = try WhereParser.parse("ip in 10.0.0.0/8")
        XCTAssertTrue(expression.holds { _ in .string("::ffff:10.1.2.3") })
        XCTAssertFalse(expression.holds { _ in .string("11.1.2.3") })
        XCTAssertFalse(expression.holds { _ in .string("not an address") })
        XCTAssertFalse(expression.holds { _ in nil })
    }

    // MARK: Errors and their columns

    func testMistakesSayWhatAndWhere() {
        let cases: [(String, String)] = [
            ("threat.scores.threat_score >= ", "--where: expected a value after '>=' at column 31"),
            ("threat.is_tor or", "--where: expected a value after 'or' at column 17"),
            ("threat.is_tor and and", "--where: expected a value after 'and', not 'and' at column 19"),
            ("(threat.is_tor", "--where: expected ')' to close the '(' at column 1, not the end at column 15"),
            (
                "country_code in 'CN'",
                "--where: expected a list ['a', 'b'] or a network after 'in', not 'CN' at column 17"
            ),
            ("country_code == 'CN", "--where: a string opened with ' is not closed at column 17"),
            ("country_code = 'CN'", "--where: unexpected '=' at column 14: compare with =="),
            ("threat.is_tor && threat.is_vpn", "--where: unexpected '&' at column 15: write and"),
            ("thret.is_tor", "--where: unknown field thret at column 1: did you mean threat?"),
            (
                "asn.type == 'isp' or countrycode == 'US'",
                "--where: unknown field countrycode at column 22: did you mean country_code?"
            ),
            ("country_code == 'US' asn.type", "--where: expected and, or or the end, not 'asn.type' at column 22"),
            ("threat..is_tor", "--where: threat..is_tor is no field path such as threat.is_tor at column 1"),
            ("", "--where: the expression is empty at column 1"),
            ("   ", "--where: the expression is empty at column 1"),
            ("ip in [1.2.3.4, ", "--where: expected a value after ',' at column 17"),
            ("ip in [1.2.3.4 2.3.4.5]", "--where: expected ',' or ']' in the list, not '2.3.4.5' at column 16"),
            ("threat.scores.threat_score > 1.2.3", "--where: 1.2.3 is no number at column 30"),
            ("()", "--where: expected a value, not ')' at column 2"),
            ("ip in 10.0.0.0/33", "--where: 10.0.0.0/33 is no address or network at column 7"),
            ("ip in [fc00::/7, 2001:db8:::1]", "--where: 2001:db8:::1 is no address or network at column 18"),
            ("threat.is_tor)", "--where: expected and, or or the end, not ')' at column 14"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try WhereParser.parse(text), text) { error in
                XCTAssertEqual((error as? WhereError)?.message, message, text)
            }
        }
    }

    func testKeywordsAreReadInAnyCaseAndFieldsAsWritten() throws {
        let expression = try WhereParser.parse("NOT threat.is_tor AND country_code IN ['US']")
        XCTAssertTrue(expression.holds { ["threat.is_tor": .bool(false), "country_code": .string("US")][$0] })
        XCTAssertThrowsError(try WhereParser.parse("Threat.is_tor"))
    }
}
#endif
