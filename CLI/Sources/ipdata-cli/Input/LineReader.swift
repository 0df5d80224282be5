import CLILibC
import Dispatch
import Foundation

/// Reads a file, or standard input, one line at a time, holding only a 64 KiB block and the line
/// being read in memory, and looking at each byte once.
///
/// Lines end with `\n` or `\r\n`; the last line needs no line end. Bytes that are not UTF-8 are
/// replaced. A line longer than `maximumLineLength` throws a usage error, so input without line
/// ends (`/dev/zero`, a binary file) ends the run instead of filling memory. Each block is read on
/// a Dispatch thread, so waiting for a slow pipe never blocks a thread of Swift's cooperative pool.
final class LineReader {
    /// The size of one read.
    static let blockSize = 65_536
    /// The longest line `ipdata bulk` reads: 1 MiB, thousands of times a CSV row with an address.
    static let defaultMaximumLineLength = 1_048_576

    /// The file's name for messages: its path, or `standard input`.
    let name: String
    /// The most bytes a line may have, without its line end.
    let maximumLineLength: Int
    /// What the input should hold, for the message about a line too long.
    private let expected: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    /// Where the line being read starts in `buffer`.
    private var start = 0
    /// How far from `start` the line has been searched for its end, so no byte is looked at twice.
    private var searched = 0
    private var atEnd = false
    /// The number of the line the next call reads, from 1.
    private(set) var lineNumber = 1

    /// The bytes one read asks for.
    private let blockSize: Int

    private init(
        name: String, descriptor: Int32, ownsDescriptor: Bool, maximumLineLength: Int, expected: String,
        blockSize: Int = LineReader.blockSize
    ) {
        self.name = name
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.maximumLineLength = maximumLineLength
        self.expected = expected
        self.blockSize = blockSize
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// What `ipdata bulk` reads.
    static let addressLines = "one address or CSV row per line"

    /// A reader of standard input, whose lines have at most `maximumLineLength` bytes; a longer
    /// line's message says the input should hold `expected`.
    static func standardInput(
        maximumLineLength: Int = defaultMaximumLineLength, expected: String = addressLines,
        blockSize: Int = LineReader.blockSize
    ) -> LineReader {
        LineReader(
            name: "standard input", descriptor: STDIN_FILENO, ownsDescriptor: false,
            maximumLineLength: maximumLineLength, expected: expected, blockSize: blockSize)
    }

    /// A reader of the file at `path`, whose lines have at most `maximumLineLength` bytes; throws
    /// a usage error (exit status 2) when it cannot be opened.
    static func file(
        atPath path: String, maximumLineLength: Int = defaultMaximumLineLength, expected: String = addressLines,
        blockSize: Int = LineReader.blockSize
    ) throws -> LineReader {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandError(.usage, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        return LineReader(
            name: path, descriptor: descriptor, ownsDescriptor: true, maximumLineLength: maximumLineLength,
            expected: expected, blockSize: blockSize)
    }

    /// The next whole lines, as many as one read brought (at least one), with their line ends; the
    /// last line of the input may have none. nil at the end of the input. Throws as `nextLine()`
    /// for a line too long. For reading text in bulk (`ipdata grep`): no line is copied.
    func nextLines() async throws -> ArraySlice<UInt8>? {
        while true {
            if let end = buffer[(start + searched)...].lastIndex(of: UInt8(ascii: "\n")) {
                defer {
                    start = end + 1
                    searched = 0
                }
                return buffer[start...end]
            }
            guard try await readMore() else { return takeRest() }
        }
    }

    /// The next line without its line end, or nil at the end of the input. Throws a usage error
    /// (exit status 2) for a line longer than `maximumLineLength`, or input that cannot be read.
    func nextLine() async throws -> String? {
        while true {
            if let end = buffer[(start + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start..<end]
                try checkLength(of: line)
                start = end + 1
                searched = 0
                lineNumber += 1
                return Self.text(line)
            }
            guard try await readMore() else { return takeRest().map(Self.text) }
        }
    }

    /// The next line, as `nextLine()` reads it, when the block read last holds it whole; nil
    /// when it does not, without reading: for reading ahead without waiting on a pipe.
    func bufferedLine() throws -> String? {
        guard let end = buffer[(start + searched)...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = buffer[start..<end]
        try checkLength(of: line)
        start = end + 1
        searched = 0
        lineNumber += 1
        return Self.text(line)
    }

    /// Thrown by `nextLineBytes(atMost:)` for a line longer than it was asked to read, so that the
    /// caller can say what was too long (a line, or a record that spans lines).
    struct LineTooLong: Error {}

    /// The next line as it is in the input, every byte kept (none decoded or replaced), with its
    /// line end (`\n`, or `\r\n`); the last line of the input may have none. nil at the end of
    /// the input. Throws `LineTooLong` as soon as the line has more than `limit` bytes without its
    /// line end (at most `maximumLineLength`), and a usage error for input that cannot be read.
    func nextLineBytes(atMost limit: Int) async throws -> ArraySlice<UInt8>? {
        while true {
            if let end = buffer[(start + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[start...end]
                guard Self.length(of: line.dropLast()) <= limit else { throw LineTooLong() }
                start = end + 1
                searched = 0
                lineNumber += 1
                return line
            }
            guard Self.length(of: buffer[start...]) <= limit else { throw LineTooLong() }
            guard try await readMore() else { return takeRest() }
        }
    }

    /// The bytes of a line without the `\r` that is part of its line end, or may be.
    private static func length(of line: ArraySlice<UInt8>) -> Int {
        line.last == UInt8(ascii: "\r") ? line.count - 1 : line.count
    }

    /// After a search of the buffer found no line end: reads the next block onto it and returns
    /// true, or returns false at the end of the input. Throws for a line already too long.
    private func readMore() async throws -> Bool {
        searched = buffer.count - start
        try checkLength(of: buffer[start...])
        guard !atEnd else { return false }
        buffer.removeFirst(start)
        start = 0
        let block = try await Self.readBlock(from: descriptor, name: name, size: blockSize)
        if block.isEmpty { atEnd = true } else { buffer.append(contentsOf: block) }
        return true
    }

    /// At the end of the input: the last line, which has no line end, or nil when there is none.
    private func takeRest() -> ArraySlice<UInt8>? {
        guard start < buffer.count else { return nil }
        defer {
            start = buffer.count
            searched = 0
        }
        return buffer[start...]
    }

    /// Throws unless `line` (ending in a `\r` that is part of its line end, or may be) is short enough.
    private func checkLength(of line: ArraySlice<UInt8>) throws {
        let length = line.last == UInt8(ascii: "\r") ? line.count - 1 : line.count
        guard length > maximumLineLength else { return }
        let limit = Self.size(maximumLineLength)
        throw CommandError(.usage, "line \(lineNumber) of \(name) is longer than \(limit): expected \(expected)")
    }

    /// `bytes` as people read it: `1 MiB`, `4 KiB`, `100 bytes`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1_048_576, bytes % 1_048_576 == 0 { return "\(bytes / 1_048_576) MiB" }
        if bytes >= 1024, bytes % 1024 == 0 { return "\(bytes / 1024) KiB" }
        return "\(bytes) bytes"
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
        return String(decoding: line, as: UTF8.self)
    }

    /// Up to `size` bytes; empty at the end of the input.
    private static func readBlock(from descriptor: Int32, name: String, size: Int) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var block = [UInt8](repeating: 0, count: size)
                while true {
                    let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count >= 0 {
                        block.removeSubrange(count...)
                        continuation.resume(returning: block)
                        return
                    }
                    guard errno == EINTR else {
                        let reason = String(cString: strerror(errno))
                        continuation.resume(throwing: CommandError(.usage, "cannot read \(name): \(reason)"))
                        return
                    }
                }
            }
        }
    }
}
