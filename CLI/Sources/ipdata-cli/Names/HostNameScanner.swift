/// Finds host names in a line of text, for `ipdata grep --names`: the words (runs of ASCII
/// letters, digits, `-` and `.`) that are `HostName`s with a dot, such as `www.example.com` in a
/// URL, a log line or a mail header.
///
/// Conservative, so that a name found is one a reader would call a host: a word touching a
/// non-ASCII byte (part of a longer word), next to `@` (a mail address), or under `.arpa` (a
/// reverse-DNS name, which grep reads as its address) is no name; a final `.` (the end of a
/// sentence) is not part of it. File names with a letter extension (`notes.txt`) do look like
/// names: they are left to the resolver, which does not resolve them.
enum HostNameScanner {
    /// A name found: where it is in the line, and its text.
    struct Found: Equatable {
        let range: Range<Int>
        let text: String
    }

    /// The names in `line`, in order.
    static func names(in line: UnsafeBufferPointer<UInt8>) -> [Found] {
        var found: [Found] = []
        var index = 0
        while index < line.count {
            guard isWordByte(line[index]) else {
                index += 1
                continue
            }
            let start = index
            while index < line.count, isWordByte(line[index]) { index += 1 }
            var end = index
            while end > start, line[end - 1] == UInt8(ascii: ".") { end -= 1 }
            guard end > start, !touches(line, start: start, end: index) else { continue }
            let text = String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
            guard text.contains("."), !text.lowercased().hasSuffix(".arpa"), HostName.isHostName(text) else {
                continue
            }
            found.append(Found(range: start..<end, text: text))
        }
        return found
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// Whether the word at `start..<end` is part of something else: a non-ASCII byte, `@` or `_`
    /// right before or after it.
    private static func touches(_ line: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Bool {
        func joins(_ byte: UInt8) -> Bool { byte >= 0x80 || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "_") }
        return (start > 0 && joins(line[start - 1])) || (end < line.count && joins(line[end]))
    }
}
