import CLITestSupport
import Foundation
import XCTest

@testable import DiskCache

/// What the cache takes for an answer, checked against Python's json module: the API's answers
/// and thousands of damaged copies of them are read alike (an object or not, its `ip`, its
/// `message`), and the compacted bytes hold the same value.
final class AnswerJSONTests: XCTestCase {
    private let answers = [
        "8.8.8.8.SYNTHETIC.ipdata-java-fixture-2026.json", "185.220.101.1.tor.SYNTHETIC.json",
    ]

    func testTheAPIsAnswersAreReadWithTheirAddressAndCompactedAsJSONLinesPrintThem() throws {
        for name in answers {
            let json = try fixture(name)
            let answer = try XCTUnwrap(AnswerJSON(json), name)
            XCTAssertFalse(answer.hasMessage, name)
            XCTAssertEqual(answer.ip, String(name.prefix { !$0.isLetter }.dropLast()), name)
            XCTAssertEqual(answer.compacted, CompactJSON.compacted(json), name)
        }
    }

    func testDamagedCopiesAreReadAsPythonReadsThem() throws {
        var generator = SeededGenerator(seed: 0x1A5_0F_CAC4E)
        // Bytes that make and break JSON; no backslash, so no new escape appears in a name.
        let alphabet = Array(#"{}[],:" 0123456789.eE+-truefalsnl"#.utf8) + [0x09, 0x0A, 0x0D, 0x01, 0xC3]
        var cases: [Data] = []
        for name in answers {
            let json = try fixture(name)
            let bytes = Array(json)
            for _ in 0..<1_500 {
                var copy = bytes
                for _ in 0..<(1 + Int(generator.next() % 3)) {
                    let at = Int(generator.next() % UInt64(copy.count))
                    let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    switch generator.next() % 4 {
                    case 0: copy.remove(at: at)
                    case 1: copy.insert(byte, at: at)
                    case 2: copy[at] = byte
                    default: copy.removeSubrange(at...)
                    }
                    if copy.isEmpty { copy = [UInt8(ascii: "{")] }
                }
                cases.append(Data(copy))
            }
            cases.append(json)
        }
        cases += [
            #"{"message": "You have exceeded your quota", "ip": "8.8.8.8"}"#, #"{}"#, #" {"ip":"1.1.1.1"} "#,
            #"[{"ip": "8.8.8.8"}]"#, #""{}""#, #"{"ip": 8}"#, #"{"ip": "8.8.8.8"} {}"#, #"{"a": 01}"#,
            #"{"a": -0.5e+3, "b": [true, false, null, {}, []], "ip": "2001:db8::1"}"#, #"{"a": NaN}"#,
            #"{"a": "\x"}"#, #"{"a": "\u12G4"}"#, #"{"a": 1.}"#, #"{"a": .5}"#, #"{"a",}"#,
        ].map { Data($0.utf8) }

        var lines = Data()
        var valid = 0
        for json in cases {
            let answer = AnswerJSON(json)
            valid += answer == nil ? 0 : 1
            let ours: [Any] = [
                answer != nil, answer?.ip ?? NSNull(), answer?.hasMessage ?? false,
                answer?.compacted.base64EncodedString() ?? NSNull(),
            ]
            lines += try JSONSerialization.data(withJSONObject: [json.base64EncodedString(), ours])
            lines.append(UInt8(ascii: "\n"))
        }
        let script = """
            import base64, json, sys
            def constant(name): raise ValueError(name)
            def read(raw): return json.loads(raw.decode("latin-1"), parse_constant=constant)
            def spaced(raw):
                inside, i = False, 0
                while i < len(raw):
                    if inside and raw[i] == 0x5C:
                        i += 2
                        continue
                    if raw[i] == 0x22:
                        inside = not inside
                    elif not inside and raw[i] in (0x20, 0x09, 0x0A, 0x0D):
                        return True
                    i += 1
                return False
            wrong = []
            for line in sys.stdin:
                raw, (valid, ip, message, compacted) = json.loads(line)
                raw = base64.b64decode(raw)
                try:
                    value = read(raw)
                except ValueError:
                    value = None
                want = isinstance(value, dict)
                if valid != want:
                    wrong.append("valid %r, Python %r: %r" % (valid, want, raw[:80]))
                elif want:
                    want_ip = value.get("ip") if isinstance(value.get("ip"), str) else None
                    again = read(base64.b64decode(compacted))
                    if ip != want_ip or message != ("message" in value) or again != value:
                        wrong.append("read differently: %r" % raw[:80])
                    if spaced(base64.b64decode(compacted)):
                        wrong.append("whitespace left between tokens: %r" % raw[:80])
            print(len(wrong)); print("\\n".join(wrong[:5]))
            """
        let verdict = String(decoding: try ToolRun.output("python3", ["-c", script], stdin: lines), as: UTF8.self)
        XCTAssertEqual(verdict.split(separator: "\n").first, "0", verdict)
        // The damage must leave both kinds: answers still read, and copies refused.
        XCTAssertGreaterThan(valid, 100)
        XCTAssertLessThan(valid, cases.count - 1_000)
    }

    func testANameOrAnAddressWrittenWithEscapesIsNoAnswer() {
        XCTAssertNil(AnswerJSON(Data(#"{"m\u0065ssage": "quota", "ip": "8.8.8.8"}"#.utf8)))
        XCTAssertNil(AnswerJSON(Data(#"{"ip": "8.8.8.\u0038"}"#.utf8)))
        XCTAssertNotNil(AnswerJSON(Data(#"{"ip": "8.8.8.8", "emoji_flag": "\ud83c\uddfa"}"#.utf8)))
    }

    func testNestingIsBoundedSoThatNoInputExhaustsTheStack() {
        func nested(_ depth: Int) -> Data {
            let arrays = depth - 1
            let text = "{\"a\":" + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}"
            return Data(text.utf8)
        }
        XCTAssertNotNil(AnswerJSON(nested(AnswerJSON.deepestNesting)))
        XCTAssertNil(AnswerJSON(nested(AnswerJSON.deepestNesting + 1)))
        XCTAssertNil(AnswerJSON(Data(("{\"a\":" + String(repeating: "[", count: 1_000_000)).utf8)))
    }
}
