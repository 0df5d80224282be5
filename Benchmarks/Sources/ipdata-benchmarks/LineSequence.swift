import Foundation

/// The lines of a file, read in 64 KiB blocks as they are iterated: memory does not grow with
/// the file. Blank lines are skipped.
struct LineSequence: Sequence, Sendable {
    let path: String

    func makeIterator() -> Iterator {
        Iterator(handle: FileHandle(forReadingAtPath: path))
    }

    struct Iterator: IteratorProtocol {
        let handle: FileHandle?
        var buffer = [UInt8]()
        /// Where the unread part of `buffer` starts.
        var offset = 0
        var atEnd = false

        mutating func next() -> String? {
            while true {
                if let newline = buffer[offset...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[offset..<newline], as: UTF8.self)
                    offset = newline + 1
                    if line.isEmpty { continue }
                    return line
                }
                if atEnd || handle == nil {
                    guard offset < buffer.count else { return nil }
                    defer { offset = buffer.count }
                    return String(decoding: buffer[offset...], as: UTF8.self)
                }
                let block = handle!.readData(ofLength: 65_536)
                buffer.removeSubrange(0..<offset)
                offset = 0
                if block.isEmpty { atEnd = true } else { buffer.append(contentsOf: block) }
            }
        }
    }
}
