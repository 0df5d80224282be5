import CLITestSupport
import Foundation
import XCTest

@testable import DiskCache

/// The members of a full answer that a lookup of some fields gets from the cache: the keys and
/// values the API's `fields=` answer has, checked with Python's json module, and the bytes of each
/// member as the full answer had them.
final class AnswerSubsetTests: XCTestCase {
    /// Whether Python reads `subset` as the members of `full` named in `names`, in `full`'s order
    /// (repeated names included), with equal values: what the API sends for `fields=`.
    private func assertPythonAgrees(
        _ full: Data, _ subset: Data, names: [String], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let script = """
            import json, sys
            full, subset = json.load(sys.stdin)
            names = set(sys.argv[1].split(",")) if sys.argv[1] else set()
            want = [(k, v) for k, v in json.loads(full, object_pairs_hook=list) if k in names]
            got = json.loads(subset, object_pairs_hook=list)
            print("same" if got == want else "different: %r != %r" % (got, want))
            """
        let envelope = try JSONSerialization.data(
            withJSONObject: [String(decoding: full, as: UTF8.self), String(decoding: subset, as: UTF8.self)])
        let verdict = try ToolRun.output(
            "python3", ["-c", script, names.joined(separator: ",")], stdin: envelope, file: file, line: line)
        XCTAssertEqual(String(decoding: verdict, as: UTF8.self), "same\n", file: file, line: line)
    }

    func testTheMembersOfAFullAnswerAreThoseOfTheFieldsAnswer() throws {
        for name in ["8.8.8.8.SYNTHETIC.ipdata-java-fixture-2026.json", "185.220.101.1.tor.SYNTHETIC.json"] {
            let full = try fixture(name)
            for names in [
                ["ip"], ["ip", "country_code"], ["asn", "ip", "threat"], ["threat"], ["emoji_flag", "languages"],
                ["time_zone", "currency", "count"], ["no_such_field"], [],
            ] {
                let subset = try XCTUnwrap(AnswerSubset.members(of: full, named: Set(names)), "\(name) \(names)")
                try assertPythonAgrees(full, subset, names: names)
            }
        }
    }

    func testEachMemberKeepsItsBytesAndTheAnswerItsLayout() throws {
        let full = try fixture("8.8.8.8.SYNTHETIC.ipdata-java-fixture-2026.json")
        let subset = try XCTUnwrap(AnswerSubset.members(of: full, named: ["ip", "asn", "emoji_flag"]))
        let text = String(decoding: subset, as: UTF8.self)
        let original = String(decoding: full, as: UTF8.self)
        // The escapes of the API (\ud83c…) and the nested object's lines, as they were.
        XCTAssertTrue(text.contains(#""emoji_flag": "\ud83c\uddfa\ud83c\uddf8""#), text)
        let asn = try XCTUnwrap(original.range(of: #""asn": {"#)).lowerBound
        let asnEnd = try XCTUnwrap(original[asn...].range(of: "}")).upperBound
        XCTAssertTrue(text.contains(original[asn..<asnEnd]), text)
        XCTAssertTrue(text.hasPrefix("{\n  \"ip\": \"8.8.8.8\",\n  \""), text)
        XCTAssertEqual(subset.last, full.last, "the same end, a line end included when the answer had one")
        XCTAssertEqual(AnswerSubset.members(of: full, named: ["ip"]), Data("{\n  \"ip\": \"8.8.8.8\"\n}\n".utf8))
    }

    func testAwkwardButValidJSONIsCutAtItsMembers() throws {
        let awkward = #"""
            {"a\u0062":"x}\",{[","ip" :  "8.8.8.8" ,"n":-1.5e3,"t":true,"z":null,"deep":[[{"k":"]"}],[]],"e":{},
            "ip":"again","last":0}
            """#
        let full = Data(awkward.utf8)
        for names in [
            ["ab"], ["ip"], ["n", "z"], ["deep", "last"], ["t", "e"], ["last"], ["ab", "ip", "n", "t", "z"],
        ] {
            let subset = try XCTUnwrap(AnswerSubset.members(of: full, named: Set(names)), "\(names)")
            try assertPythonAgrees(full, subset, names: names)
        }
        XCTAssertEqual(
            AnswerSubset.members(of: Data(#"{"ip":"8.8.8.8","n":1}"#.utf8), named: ["n"]), Data(#"{"n":1}"#.utf8))
        XCTAssertEqual(AnswerSubset.members(of: Data(#"{"ip":"8.8.8.8"}"#.utf8), named: []), Data("{}".utf8))
        XCTAssertEqual(AnswerSubset.members(of: Data("{}".utf8), named: ["ip"]), Data("{}".utf8))
    }

    func testWhatIsNoJSONObjectHasNoMembers() {
        for text in [
            "", "[]", #""ip""#, #"{"ip":"8.8.8.8""#, #"{"ip":"8.8.8.8",}"#, #"{"a":[1,],"ip":"8.8.8.8"}"#, "{} {}",
            "null",
        ] {
            XCTAssertNil(AnswerSubset.members(of: Data(text.utf8), named: ["ip"]), text)
        }
    }
}
