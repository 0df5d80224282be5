import Foundation
import IPData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where records go: standard output, or the file `--output` names, which a run replaces whole
/// or not at all.
///
/// A file is written to a temporary file beside it (`.NAME.ipdata-XXXXXX`, in the same folder, so
/// that the rename cannot cross file systems). A run that ends renames it over the file, keeping
/// the old file's permissions; a run cut short (a refused key, an exhausted quota, the network,
/// Ctrl-C) leaves the old file as it was and keeps the partial output for the user to look at.
/// A path that names an input of the same run (through any path or link) is refused before
/// anything is opened, since writing it would destroy what is still to be read.
///
/// The sink that is open is known process-wide (`current`), so that a signal can end a run
/// cleanly: the writer's `trailer` (a JSON array's closing bracket) is written, so what was
/// written stays a whole document.
final class OutputSink: Sendable {
    private struct State {
        var isClosed = false
        /// The command got through all of its input (`markComplete()`).
        var isComplete = false
        /// No lookup got an answer (`markNothingAnswered()`): the output holds only errors.
        var isOnlyErrors = false
        /// Bytes written so far.
        var written = 0
        /// What makes the output whole if the run stops now (`\n]\n` for a JSON array).
        var trailer: String?
    }

    /// The file the user named, and the temporary file written until the run ends.
    private struct Replacement {
        let path: String
        let temporaryPath: String
        /// Whether there was a file at `path` when the run began.
        let existed: Bool
    }

    private let descriptor: Int32
    private let replacement: Replacement?

    /// The file being written until the run ends, when the sink writes to a file.
    var temporaryPath: String? { replacement?.temporaryPath }
    private let state = Locked(State())

    /// The sink of this run, if one is open.
    private static let currentSink = Locked<OutputSink?>(nil)
    static var current: OutputSink? { currentSink.withLock { $0 } }

    private init(descriptor: Int32, replacement: Replacement?) {
        self.descriptor = descriptor
        self.replacement = replacement
    }

    /// Standard output.
    static func standardOutput() -> OutputSink {
        let sink = OutputSink(descriptor: STDOUT_FILENO, replacement: nil)
        currentSink.withLock { $0 = sink }
        return sink
    }

    /// A sink for `path` (`-` is standard output): a temporary file beside it, renamed over it by
    /// `finish(completed:)`. Throws a usage error (exit status 2) when `path` is one of `inputs`
    /// (`-` being standard input), or when it cannot be written.
    static func file(atPath path: String, inputs: [String] = []) throws -> OutputSink {
        if path == "-" { return standardOutput() }
        try refuseOverwritingAnInput(path, inputs: inputs)
        let target = resolvedTarget(of: path)
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/." + name + ".ipdata-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw CommandError(.usage, "cannot write to \(path): \(String(cString: strerror(errno)))")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporaryPath = String(cString: template.map { $0 })
        // The permissions the file will have: the old file's, or those a new file gets (0666
        // less the umask) rather than mkstemp's 0600.
        var existing = stat()
        let existed = stat(target, &existing) == 0
        if existed {
            _ = fchmod(descriptor, existing.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            _ = fchmod(descriptor, 0o666 & ~mask)
        }
        let sink = OutputSink(
            descriptor: descriptor,
            replacement: Replacement(path: target, temporaryPath: temporaryPath, existed: existed))
        currentSink.withLock { $0 = sink }
        return sink
    }

    /// Throws when `path` exists and is the same file as one of `inputs` (compared by device and
    /// inode, so another path or a link to it is caught too).
    private static func refuseOverwritingAnInput(_ path: String, inputs: [String]) throws {
        var output = stat()
        guard stat(path, &output) == 0 else { return }
        for input in inputs {
            var other = stat()
            let found = input == "-" ? fstat(STDIN_FILENO, &other) == 0 : stat(input, &other) == 0
            guard found, other.st_dev == output.st_dev, other.st_ino == output.st_ino,
                (output.st_mode & S_IFMT) == S_IFREG
            else { continue }
            let named = input == "-" ? "standard input" : input
            throw UsageError(
                "--output \(path) is the same file as \(named), which is still to be read: "
                    + "write the results to another file")
        }
    }

    /// The file a path stands for, following symbolic links, so that replacing it keeps the link.
    /// A file not made yet is named in its folder's real path, so that messages name it whole.
    private static func resolvedTarget(of path: String) -> String {
        func real(_ path: String) -> String? {
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        if let target = real(path) { return target }
        let folder = (path as NSString).deletingLastPathComponent
        guard let realFolder = real(folder.isEmpty ? "." : folder) else { return path }
        return (realFolder as NSString).appendingPathComponent((path as NSString).lastPathComponent)
    }

    /// Writes `text` at once, so a record is complete on the way out.
    func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    /// Writes `bytes` at once.
    func write(_ bytes: Data) throws {
        try state.withLock { state in
            guard !state.isClosed else { return }
            try Self.writeAll(bytes, to: descriptor)
            state.written += bytes.count
        }
    }

    /// Sets what makes the output a whole document if the run stops from now on; nil for nothing.
    func setTrailer(_ trailer: String?) {
        state.withLock { $0.trailer = trailer }
    }

    /// Records that the command got through all of its input, so `finish()` replaces the file.
    func markComplete() {
        state.withLock { $0.isComplete = true }
    }

    /// Records that no lookup of the run got an answer (a dead server, a wrong `--base-url`): the
    /// file stays as it was, and the output, nothing but errors, is not kept either.
    func markNothingAnswered() {
        state.withLock { $0.isOnlyErrors = true }
    }

    /// Ends the output. After `markComplete()` the temporary file replaces the file; otherwise the
    /// run stopped short (or was interrupted): the trailer is written, the old file stays as it
    /// was, and the partial output is kept. Returns a line for the user about a run that did not
    /// complete, or about a file that could not be replaced; nil when all went well.
    @discardableResult
    func finish() -> String? {
        let ended = state.withLock { state -> (written: Int, completed: Bool, onlyErrors: Bool)? in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            if !state.isComplete, let trailer = state.trailer, state.written > 0 {
                try? Self.writeAll(Data(trailer.utf8), to: descriptor)
            }
            return (state.written, state.isComplete, state.isOnlyErrors)
        }
        guard let ended, let replacement else { return nil }
        close(descriptor)
        if ended.completed {
            guard rename(replacement.temporaryPath, replacement.path) == 0 else {
                return "cannot replace \(replacement.path): \(String(cString: strerror(errno))); "
                    + "the results are in \(replacement.temporaryPath)"
            }
            return nil
        }
        let kept =
            replacement.existed ? "\(replacement.path) was left as it was" : "\(replacement.path) was not created"
        if ended.onlyErrors {
            unlink(replacement.temporaryPath)
            return "nothing was written: \(kept)"
        }
        guard ended.written > 0 else {
            unlink(replacement.temporaryPath)
            return "the run did not finish: \(kept)"
        }
        return "the run did not finish: \(kept); the partial output is in \(replacement.temporaryPath)"
    }

    private static func writeAll(_ bytes: Data, to descriptor: Int32) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = systemWrite(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw CommandError(.lookupFailed, "cannot write the output: \(String(cString: strerror(errno)))")
                }
                offset += count
            }
        }
    }

}

/// The C library's `write(2)`, which the sink's own `write(_:)` hides.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
