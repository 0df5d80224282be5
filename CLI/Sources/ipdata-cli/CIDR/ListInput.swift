import Foundation

/// The entries of files, or standard input, that hold one address, network or range a line, as
/// blocklists are written: whitespace around an entry, `\r\n` line ends and a UTF-8 byte order
/// mark are left out, and so are blank lines and comments (from `#` to the end of the line).
struct ListInput {
    /// One entry: its text, and where it is for messages (`line 3 of drop.txt`).
    struct Entry {
        let text: Substring
        let place: String
    }

    /// The files' names; `-` is standard input.
    let names: [String]

    /// A file's lines may be long, but not without end: 1 MiB.
    static let maximumLineLength = 1_048_576

    /// Calls `body` with every entry of every input, in order. An input that cannot be read is
    /// named on standard error and the others are still read: returns false when that happened.
    func forEachEntry(console: Console, _ body: (Entry) throws -> Void) async throws -> Bool {
        var allRead = true
        for name in names {
            do {
                let reader =
                    name == "-"
                    ? LineReader.standardInput(maximumLineLength: Self.maximumLineLength, expected: Self.expected)
                    : try LineReader.file(
                        atPath: name, maximumLineLength: Self.maximumLineLength, expected: Self.expected)
                var number = 0
                while let line = try await reader.nextLine() {
                    number += 1
                    guard let text = Self.entry(in: line, isFirst: number == 1) else { continue }
                    try body(Entry(text: text, place: "line \(number) of \(reader.name)"))
                }
            } catch let error as CommandError where error.status == .usage {
                console.error(error.message)
                allRead = false
            }
        }
        return allRead
    }

    private static let expected = "one address, network or range per line"

    /// The entry on `line` (without its line end), or nil for a blank line or a comment.
    static func entry(in line: String, isFirst: Bool) -> Substring? {
        var text = Substring(line)
        if isFirst, text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        if let comment = text.firstIndex(of: "#") { text = text[..<comment] }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : Substring(trimmed)
    }
}
