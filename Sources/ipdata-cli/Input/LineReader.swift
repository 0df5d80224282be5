import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file, or standard input, one line at a time, holding only a 64 KiB block and the line
/// being read in memory.
///
/// Lines end with `\n` or `\r\n`; the last line needs no line end. Bytes that are not UTF-8 are
/// replaced. Each block is read on a Dispatch thread, so waiting for a slow pipe never blocks a
/// thread of Swift's cooperative pool.
final class LineReader {
    /// The size of one read.
    static let blockSize = 65_536

    /// The file's name for messages: its path, or `standard input`.
    let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false

    private init(name: String, descriptor: Int32, ownsDescriptor: Bool) {
        self.name = name
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// A reader of standard input.
    static func standardInput() -> LineReader {
        LineReader(name: "standard input", descriptor: STDIN_FILENO, ownsDescriptor: false)
    }

    /// A reader of the file at `path`; throws a usage error (exit status 2) when it cannot be opened.
    static func file(atPath path: String) throws -> LineReader {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandError(.usage, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        return LineReader(name: path, descriptor: descriptor, ownsDescriptor: true)
    }

    /// The next line without its line end, or nil at the end of the input.
    func nextLine() async throws -> String? {
        while true {
            if let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                defer { start = end + 1 }
                return Self.text(buffer[start..<end])
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { start = buffer.count }
                return Self.text(buffer[start...])
            }
            buffer.removeFirst(start)
            start = 0
            let block = try await Self.readBlock(from: descriptor, name: name)
            if block.isEmpty { atEnd = true } else { buffer.append(contentsOf: block) }
        }
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
        return String(decoding: line, as: UTF8.self)
    }

    /// Up to `blockSize` bytes; empty at the end of the input.
    private static func readBlock(from descriptor: Int32, name: String) async throws -> [UInt8] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                var block = [UInt8](repeating: 0, count: blockSize)
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
