import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where records go: standard output, or the file `--output` names.
final class OutputSink {
    private let handle: FileHandle

    private init(handle: FileHandle) {
        self.handle = handle
    }

    /// Standard output.
    static var standardOutput: OutputSink { OutputSink(handle: .standardOutput) }

    /// Creates the file at `path`, or empties it, for writing; `-` is standard output.
    /// Throws a configuration error (exit status 2) when it cannot be opened.
    static func file(atPath path: String) throws -> OutputSink {
        if path == "-" { return standardOutput }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandError(.usage, "cannot write to \(path): \(String(cString: strerror(errno)))")
        }
        return OutputSink(handle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    /// Writes `text` at once, so a record is complete on the way out.
    func write(_ text: String) throws {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw CommandError(.lookupFailed, "cannot write the output: \(error.localizedDescription)")
        }
    }
}
