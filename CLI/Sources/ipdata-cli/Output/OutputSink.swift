import CLILibC
import Foundation
import IPData

/// Where records go: standard output, or what `--output` names.
///
/// A regular file (or a name not taken yet) is replaced whole or not at all. It is written to a
/// temporary file beside it (`.NAME.ipdata-XXXXXX`, in the same folder, so that the rename cannot
/// cross file systems). A run that ends renames it over the file, keeping the old file's
/// permissions; a run cut short (a refused key, an exhausted quota, the network, Ctrl-C) leaves
/// the old file as it was and keeps the partial output, names it, and (for `ipdata bulk`) gives
/// the command that continues it (`--resume`).
///
/// Anything else that exists is written in place, as a stream, the way a shell's `>` writes it:
/// a device (`/dev/null`, a terminal), a FIFO, a socket. `/dev/stdout`, `/dev/stderr`,
/// `/dev/fd/N` and `/proc/self/fd/N` are the descriptors they name, written as they are (opening
/// them again could truncate the file behind them). A folder is refused.
///
/// The path is followed link by link with the kernel's `protected_symlinks` rule, which not every
/// machine enables: a symbolic link in a sticky folder that anyone can write to (`/tmp`), owned
/// by neither the user nor the folder's owner, is refused, since another user may have planted it
/// to point at a file of the user's. The temporary file is made, renamed and removed through the
/// descriptor of the folder the path led to, so that nothing planted later can redirect it.
///
/// A path that names an input of the same run (through any path or link) is refused before
/// anything is opened, since writing it would destroy what is still to be read.
///
/// What is written is held in a buffer of up to `bufferSize` bytes, written out (one `write(2)`)
/// when it fills, `flushDelay` after the first bytes entered it, at `flush()` (which the writers'
/// `finish()` calls, and the console before it prints), and at `finish()`. A caller writes whole
/// records, so what reaches the destination always ends at a record's end. Only a regular file
/// is written that way: a terminal, a pipe, a FIFO or a socket is written record by record, at
/// once, since a reader may be waiting for each (`tail -f log | ipdata bulk - | jq`).
///
/// The sink that is open is known process-wide (`current`), so that a signal can end a run
/// cleanly: what the buffer holds is written, then the writer's `trailer` (a JSON array's closing
/// bracket), so what was written stays a whole document.
final class OutputSink: Sendable {
    private struct State {
        /// `finish()` has ended the output.
        var isClosed = false
        /// The command got through all of its input (`markComplete()`).
        var isComplete = false
        /// No lookup got an answer (`markNothingAnswered()`): the output holds only errors.
        var isOnlyErrors = false
        /// Bytes written so far, those in `pending` included.
        var written = 0
        /// Bytes written to the sink and not yet to its descriptor (see `bufferSize`).
        var pending: [UInt8] = []
        /// A write of `pending` is due `flushDelay` after its first bytes (`scheduleFlush()`).
        var flushScheduled = false
        /// Why a write of `pending` that no caller waited for failed: thrown by the next `write`
        /// or `flush()`, else said by `finish()`.
        var failure: CommandError?
        /// A write to the descriptor failed: the output is not whole, so it replaces no file.
        var writeFailed = false
        /// What makes the output whole if the run stops now (`\n]\n` for a JSON array).
        var trailer: String?
        /// The command that continues this run's output if it stops (`ipdata bulk --resume …`).
        var resumeCommand: String?
        /// The earlier output this one continues (`continues(_:isPartial:writingTheRestWith:)`).
        var continued: Continued?
    }

    /// An earlier output that this one continues, and what writes the rest of it.
    private struct Continued {
        let path: String
        /// A partial output beside the file (removed once this output holds all of it), rather
        /// than the file itself.
        let isPartial: Bool
        let writeRest: @Sendable () -> Bool
    }

    /// Where the records go.
    private enum Destination {
        /// A descriptor the process was given, written as it is and never closed; `name` is the
        /// path that named it (`/dev/fd/3`), nil for standard output and standard error.
        case given(name: String?)
        /// A device, a FIFO or a socket, opened by name and written in place.
        case stream(path: String)
        /// A regular file, or a name not taken yet: replaced by the temporary file beside it.
        case replacement(Replacement)
    }

    /// The file the user named, and the temporary file written until the run ends, both in one
    /// folder held open.
    private struct Replacement {
        let folder: Int32
        let folderPath: String
        let name: String
        let temporaryName: String
        /// When the file there was last changed (seconds since 1970), nil when there was none.
        let modified: Double?

        var path: String { Self.path(folderPath, name) }
        var temporaryPath: String { Self.path(folderPath, temporaryName) }

        static func path(_ folder: String, _ name: String) -> String {
            folder.hasSuffix("/") ? folder + name : folder + "/" + name
        }
    }

    /// A partial output that a run which did not finish left beside the file.
    struct PartialOutput: Equatable {
        let path: String
        /// When it was last written, in seconds since 1970.
        let modified: Double
    }

    private let descriptor: Int32
    private let destination: Destination
    /// Whether writes are held in the buffer: for a regular file only.
    private let buffers: Bool
    private let state = Locked(State())
    /// Held for the whole of `finish()`, so that a signal and the end of the run cannot both end
    /// the output at once.
    private let finishing = Locked(())

    /// The partial outputs of earlier runs beside the file, newest first: this user's regular
    /// files named `.NAME.ipdata-XXXXXX`, found before this run made its own.
    let partialOutputs: [PartialOutput]

    /// The file being written until the run ends, when the sink replaces a file.
    var temporaryPath: String? { replacement?.temporaryPath }

    /// The real path of the file the sink replaces, and when that file was last changed (nil
    /// when it does not exist yet); nil for a stream or standard output.
    var replacedFile: (path: String, modified: Double?)? { replacement.map { ($0.path, $0.modified) } }

    private var replacement: Replacement? {
        guard case .replacement(let replacement) = destination else { return nil }
        return replacement
    }

    /// Whether the records go to standard output (`-`, `/dev/stdout`, `/dev/fd/1`).
    var writesToStandardOutput: Bool {
        guard case .given = destination else { return false }
        return descriptor == STDOUT_FILENO
    }

    /// The sink of this run, if one is open.
    private static let currentSink = Locked<OutputSink?>(nil)
    static var current: OutputSink? { currentSink.withLock { $0 } }

    private init(descriptor: Int32, destination: Destination, partialOutputs: [PartialOutput] = []) {
        self.descriptor = descriptor
        self.destination = destination
        self.partialOutputs = partialOutputs
        var status = stat()
        self.buffers = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The most bytes the buffer holds before they are written: 64 KiB.
    static let bufferSize = 65_536
    /// How long bytes wait in the buffer at most, when no more come to fill it: 0.1 s, so that a
    /// reader of a slow run (a pipe, `tail -f`) sees each record soon after it is written.
    static let flushDelay = 0.1

    private static func opened(_ sink: OutputSink) -> OutputSink {
        currentSink.withLock { $0 = sink }
        return sink
    }

    /// Standard output.
    static func standardOutput() -> OutputSink {
        opened(OutputSink(descriptor: STDOUT_FILENO, destination: .given(name: nil)))
    }

    /// A sink for `path` (`-` is standard output): a stream written in place, or a temporary file
    /// beside a regular file, renamed over it by `finish()`. Throws a usage error (exit status 2)
    /// when `path` is one of `inputs` (`-` being standard input), a folder, a symbolic link
    /// another user planted, or cannot be written; nothing is written then.
    static func file(atPath path: String, inputs: [String] = []) throws -> OutputSink {
        if path == "-" { return try given(STDOUT_FILENO, name: nil, path: path, inputs: inputs) }
        if let named = namedDescriptor(path) {
            let name = named == STDOUT_FILENO || named == STDERR_FILENO ? nil : path
            return try given(named, name: name, path: path, inputs: inputs)
        }
        guard !path.hasSuffix("/") else { throw cannotWrite(path, "it names a folder") }
        let resolved = try resolve(path)
        var keepsFolder = false
        defer { if !keepsFolder { close(resolved.folder) } }
        let target = Replacement.path(resolved.folderPath, resolved.name)
        if let status = resolved.status {
            switch status.st_mode & S_IFMT {
            case S_IFREG: try refuseOverwritingAnInput(path, status: status, inputs: inputs)
            case S_IFDIR: throw cannotWrite(path, "it is a folder")
            default: return opened(try stream(at: target, in: resolved.folder, name: resolved.name, path: path))
            }
        }
        let partials = partialOutputs(of: resolved.name, in: resolved.folder, folderPath: resolved.folderPath)
        let (descriptor, temporaryName) = try createTemporaryFile(for: resolved.name, in: resolved.folder, path: path)
        // The permissions the file will have: the old file's, or those a new file gets (0666
        // less the umask) rather than 0600.
        if let status = resolved.status {
            _ = fchmod(descriptor, status.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            _ = fchmod(descriptor, 0o666 & ~mask)
        }
        keepsFolder = true
        let replacement = Replacement(
            folder: resolved.folder, folderPath: resolved.folderPath, name: resolved.name,
            temporaryName: temporaryName, modified: resolved.status?.modified)
        return opened(
            OutputSink(descriptor: descriptor, destination: .replacement(replacement), partialOutputs: partials))
    }

    // MARK: Descriptors and streams

    /// The descriptor a path names by itself: `/dev/stdin`, `/dev/stdout`, `/dev/stderr`,
    /// `/dev/fd/N`, `/proc/self/fd/N`.
    private static func namedDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return STDIN_FILENO
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default: break
        }
        for folder in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(folder) {
            let number = path.dropFirst(folder.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int32(number)
        }
        return nil
    }

    /// A sink on descriptor `number`, once it is known to be one the process was given, open for
    /// writing, and not an input.
    private static func given(_ number: Int32, name: String?, path: String, inputs: [String]) throws -> OutputSink {
        let flags = fcntl(number, F_GETFL)
        // One of the process's own (close-on-exec, as every descriptor it opens) was not given.
        let given = number <= STDERR_FILENO || fcntl(number, F_GETFD) & FD_CLOEXEC == 0
        guard flags >= 0, given else { throw cannotWrite(path, "no such descriptor is open") }
        guard flags & O_ACCMODE != O_RDONLY else { throw cannotWrite(path, "it is open for reading only") }
        var status = stat()
        if fstat(number, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            try refuseOverwritingAnInput(path, status: status, inputs: inputs)
        }
        return opened(OutputSink(descriptor: number, destination: .given(name: name)))
    }

    /// A device or FIFO opened for writing (a FIFO waits for its reader), or a socket connected.
    private static func stream(at target: String, in folder: Int32, name: String, path: String) throws -> OutputSink {
        var descriptor = openat(folder, name, O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0, errno == ENXIO { descriptor = try connectedSocket(at: target, path: path) }
        guard descriptor >= 0 else { throw cannotWrite(path, String(cString: strerror(errno))) }
        return OutputSink(descriptor: descriptor, destination: .stream(path: target))
    }

    /// A Unix socket at `target`, connected as a stream, else as datagrams (`/dev/log`).
    private static func connectedSocket(at target: String, path: String) throws -> Int32 {
        var address = sockaddr_un()
        let bytes = Array(target.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw cannotWrite(path, "the socket's path is too long")
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        for kind in [streamSocket, datagramSocket] {
            let socket = socket(AF_UNIX, kind, 0)
            guard socket >= 0 else { break }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if connected == 0 {
                _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
                return socket
            }
            let failure = errno
            close(socket)
            errno = failure
            guard failure == EPROTOTYPE else { break }
        }
        return -1
    }

    // MARK: Following the path

    /// Where a path leads: the folder it ends in (open), the name there, and what that name is
    /// (nil: nothing yet).
    private struct ResolvedPath {
        let folder: Int32
        let folderPath: String
        let name: String
        let status: stat?
    }

    /// Follows `path` from `/` one name at a time, each folder opened from the one before and
    /// each link read where it is, refusing one that another user planted (see
    /// `refusePlantedLink`). Throws a usage error when the path leads nowhere writable.
    private static func resolve(_ path: String) throws -> ResolvedPath {
        let start = path.hasPrefix("/") ? "" : FileManager.default.currentDirectoryPath + "/"
        var pending = Array((start + path).split(separator: "/").map(String.init).reversed())
        let root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw cannotWrite(path, String(cString: strerror(errno))) }
        var folders: [(descriptor: Int32, name: String)] = [(root, "")]
        var resolved: ResolvedPath?
        defer { for folder in folders where folder.descriptor != resolved?.folder { close(folder.descriptor) } }
        var folderPath: String { "/" + folders.dropFirst().map(\.name).joined(separator: "/") }
        var links = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                if folders.count > 1 { close(folders.removeLast().descriptor) }
                continue
            }
            let folder = folders[folders.count - 1].descriptor
            var status = stat()
            guard fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                guard errno == ENOENT, pending.isEmpty else {
                    throw cannotWrite(path, String(cString: strerror(errno)))
                }
                resolved = ResolvedPath(folder: folder, folderPath: folderPath, name: name, status: nil)
                return resolved!
            }
            switch status.st_mode & S_IFMT {
            case S_IFLNK:
                links += 1
                guard links <= 40 else { throw cannotWrite(path, String(cString: strerror(ELOOP))) }
                try refusePlantedLink(Replacement.path(folderPath, name), status, in: folder, path: path)
                let target = try linkTarget(name, in: folder, path: path)
                if target.hasPrefix("/") {
                    for folder in folders.dropFirst() { close(folder.descriptor) }
                    folders.removeLast(folders.count - 1)
                }
                pending += target.split(separator: "/").map(String.init).reversed()
            case S_IFDIR where !pending.isEmpty:
                let next = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard next >= 0 else { throw cannotWrite(path, String(cString: strerror(errno))) }
                folders.append((next, name))
            default:
                guard pending.isEmpty else { throw cannotWrite(path, String(cString: strerror(ENOTDIR))) }
                resolved = ResolvedPath(folder: folder, folderPath: folderPath, name: name, status: status)
                return resolved!
            }
        }
        throw cannotWrite(path, "it is a folder")
    }

    /// Throws when the link `status` describes sits in a sticky folder that anyone can write to
    /// and is owned by neither this user nor the folder's owner: the kernel's
    /// `protected_symlinks` rule.
    private static func refusePlantedLink(_ link: String, _ status: stat, in folder: Int32, path: String) throws {
        var folderStatus = stat()
        guard fstat(folder, &folderStatus) == 0 else { return }
        let sharedFolder = folderStatus.st_mode & S_ISVTX != 0 && folderStatus.st_mode & S_IWOTH != 0
        guard sharedFolder, status.st_uid != geteuid(), status.st_uid != folderStatus.st_uid else { return }
        let subject = link == path ? "it" : link
        throw cannotWrite(
            path,
            "\(subject) is a symbolic link that another user (uid \(status.st_uid)) made in a folder anyone can "
                + "write to, so it may point at any file of yours: not followed; remove it or write elsewhere")
    }

    private static func linkTarget(_ name: String, in folder: Int32, path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(folder, name, &buffer, buffer.count - 1)
        guard count > 0 else { throw cannotWrite(path, String(cString: strerror(count < 0 ? errno : ENOENT))) }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws when the regular file `status` describes is one of `inputs` (compared by device
    /// and inode, so another path or a link to it is caught too).
    private static func refuseOverwritingAnInput(_ path: String, status output: stat, inputs: [String]) throws {
        for input in inputs {
            var other = stat()
            let found = input == "-" ? fstat(STDIN_FILENO, &other) == 0 : stat(input, &other) == 0
            guard found, other.st_dev == output.st_dev, other.st_ino == output.st_ino else { continue }
            let named = input == "-" ? "standard input" : input
            throw UsageError(
                "--output \(path) is the same file as \(named), which is still to be read: "
                    + "write the results to another file")
        }
    }

    private static func cannotWrite(_ path: String, _ reason: String) -> CommandError {
        CommandError(.usage, "cannot write to \(path): \(reason)")
    }

    // MARK: The temporary file

    /// A new file `.NAME.ipdata-XXXXXX` in `folder`, made there (never through a link), 0600.
    private static func createTemporaryFile(for name: String, in folder: Int32, path: String) throws
        -> (Int32, String)
    {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        for _ in 0..<100 {
            let temporaryName = "." + name + ".ipdata-" + String((0..<6).map { _ in letters.randomElement()! })
            let descriptor = openat(
                folder, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
            if descriptor >= 0 { return (descriptor, temporaryName) }
            guard errno == EEXIST else { break }
        }
        throw cannotWrite(path, String(cString: strerror(errno)))
    }

    /// The partial outputs of `name` in `folder`, newest first.
    private static func partialOutputs(of name: String, in folder: Int32, folderPath: String) -> [PartialOutput] {
        let prefix = "." + name + ".ipdata-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []
        return names.compactMap { candidate -> PartialOutput? in
            let suffix = candidate.dropFirst(prefix.count)
            guard candidate.hasPrefix(prefix), suffix.count == 6,
                suffix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else { return nil }
            var status = stat()
            guard fstatat(folder, candidate, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFREG,
                status.st_uid == geteuid()
            else { return nil }
            return PartialOutput(path: Replacement.path(folderPath, candidate), modified: status.modified)
        }.sorted { $0.modified > $1.modified }
    }

    // MARK: Writing

    /// Writes `text`, a whole record or more: see the type's description for when it reaches
    /// the destination.
    func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    /// Writes `bytes`, a whole record or more, and a line end after them when `endingTheLine`.
    /// Throws when the destination cannot be written (this write's, or an earlier one's that was
    /// buffered).
    func write(_ bytes: Data, endingTheLine: Bool = false) throws {
        try state.withLock { state in
            guard !state.isClosed else { return }
            try Self.throwFailure(&state)
            let count = bytes.count + (endingTheLine ? 1 : 0)
            guard buffers, count < Self.bufferSize else {
                try writePending(&state)
                try write(endingTheLine ? bytes + [0x0A] : bytes, &state)
                state.written += count
                return
            }
            if state.pending.count + count > Self.bufferSize { try writePending(&state) }
            if state.pending.capacity < Self.bufferSize { state.pending.reserveCapacity(Self.bufferSize) }
            state.pending.append(contentsOf: bytes)
            if endingTheLine { state.pending.append(0x0A) }
            if !state.flushScheduled { scheduleFlush(&state) }
            state.written += count
        }
    }

    /// Writes what the buffer holds to the destination now. Throws when it cannot be written.
    func flush() throws {
        try state.withLock { state in
            guard !state.isClosed else { return }
            try Self.throwFailure(&state)
            try writePending(&state)
        }
    }

    /// Throws the failure of a write that no caller waited for, once.
    private static func throwFailure(_ state: inout State) throws {
        guard let failure = state.failure else { return }
        state.failure = nil
        throw failure
    }

    /// Writes the buffer out, under the lock; it is empty afterwards, written or not.
    private func writePending(_ state: inout State) throws {
        guard !state.pending.isEmpty else { return }
        defer { state.pending.removeAll(keepingCapacity: true) }
        do {
            try state.pending.withUnsafeBytes { try Self.writeAll($0, to: descriptor) }
        } catch {
            state.writeFailed = true
            throw error
        }
    }

    /// Writes `bytes` to the descriptor at once, under the lock.
    private func write(_ bytes: Data, _ state: inout State) throws {
        do {
            try Self.writeAll(bytes, to: descriptor)
        } catch {
            state.writeFailed = true
            throw error
        }
    }

    /// Writes the buffer out, keeping a failure for later rather than throwing it, under the lock.
    private func writePendingKeepingFailure(_ state: inout State) {
        do {
            try writePending(&state)
        } catch let error as CommandError {
            state.failure = error
        } catch {
            state.failure = CommandError(.lookupFailed, "cannot write the output: \(error)")
        }
    }

    /// Writes the buffer out `flushDelay` from now, unless something else did meanwhile.
    private func scheduleFlush(_ state: inout State) {
        state.flushScheduled = true
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.flushDelay) { [weak self] in
            guard let self else { return }
            self.state.withLock { state in
                state.flushScheduled = false
                guard !state.isClosed, !state.writeFailed else { return }
                self.writePendingKeepingFailure(&state)
            }
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

    /// Sets the command that continues this output should the run stop (`ipdata bulk --resume
    /// …`): the line that names a partial output gives it.
    func setResumeCommand(_ command: String) {
        state.withLock { $0.resumeCommand = command }
    }

    /// Whether a stop's line names a command that continues this output: a file, with a
    /// command set (`setResumeCommand`).
    var offersResume: Bool { replacement != nil && state.withLock { $0.resumeCommand != nil } }

    /// Records that this output continues the earlier output at `path`: the file itself, or
    /// (`isPartial`) a partial output beside it. `finish()` first calls `writeRest`, which writes
    /// what of it the output does not hold yet and says whether it now holds all of it; then a
    /// partial output is removed once the file is replaced, or once this run's own partial output
    /// holds all of it. The partial outputs of `partialOutputsNote` are taken as announced.
    func continues(_ path: String, isPartial: Bool, writingTheRestWith writeRest: @escaping @Sendable () -> Bool) {
        state.withLock { $0.continued = Continued(path: path, isPartial: isPartial, writeRest: writeRest) }
    }

    /// One line naming the partial outputs of earlier runs beside the file, for a run that does
    /// not continue one of them (`continues`); nil when there are none.
    var partialOutputsNote: String? {
        guard let file = replacedFile?.path, !partialOutputs.isEmpty, state.withLock({ $0.continued == nil }) else {
            return nil
        }
        let count = partialOutputs.count
        return "\(count) partial output\(count == 1 ? "" : "s") of earlier runs that did not finish "
            + "\(count == 1 ? "is" : "are") beside \(file): "
            + partialOutputs.map(\.path).joined(separator: ", ") + "; remove \(count == 1 ? "it" : "them") "
            + "once \(count == 1 ? "it is" : "they are") not needed"
    }

    /// Ends the output. After `markComplete()` the temporary file replaces the file; otherwise the
    /// run stopped short (or was interrupted): the trailer is written, the old file stays as it
    /// was, and the partial output is kept. Returns a line for the user about a run that did not
    /// complete, or about a file that could not be replaced; nil when all went well.
    @discardableResult
    func finish() -> String? {
        finishing.withLock { _ in finishOnce() }
    }

    private func finishOnce() -> String? {
        guard let continued = state.withLock({ $0.isClosed ? nil : .some($0.continued) }) else { return nil }
        let holdsAllOfTheEarlierOutput = continued?.writeRest() ?? true
        let ended = state.withLock {
            state -> (written: Int, completed: Bool, onlyErrors: Bool, resume: String?, failure: String?) in
            // What the buffer holds is whole records: written first, whatever the end.
            if !state.writeFailed { writePendingKeepingFailure(&state) }
            state.isClosed = true
            // An output that could not be written whole is no complete output.
            let completed = state.isComplete && !state.writeFailed
            if !completed, let trailer = state.trailer, state.written > 0 {
                try? Self.writeAll(Data(trailer.utf8), to: descriptor)
            }
            return (state.written, completed, state.isOnlyErrors, state.resumeCommand, state.failure?.message)
        }
        let line = finishedLine(ended, continued: continued, holdsAllOfTheEarlierOutput: holdsAllOfTheEarlierOutput)
        guard let failure = ended.failure else { return line }
        return line.map { failure + "; " + $0 } ?? failure
    }

    private func finishedLine(
        _ ended: (written: Int, completed: Bool, onlyErrors: Bool, resume: String?, failure: String?),
        continued: Continued?, holdsAllOfTheEarlierOutput: Bool
    ) -> String? {
        switch destination {
        case .given(let name):
            guard let name, !ended.completed else { return nil }
            return Self.streamEnd(name, written: ended.written, onlyErrors: ended.onlyErrors)
        case .stream(let path):
            close(descriptor)
            guard !ended.completed else { return nil }
            return Self.streamEnd(path, written: ended.written, onlyErrors: ended.onlyErrors)
        case .replacement(let replacement):
            defer { close(replacement.folder) }
            close(descriptor)
            // A partial output this run continued, once the output holds all of it.
            let earlierPartial = continued.flatMap { $0.isPartial ? $0.path : nil }
            func removeEarlierPartial() {
                guard let earlierPartial else { return }
                unlinkat(replacement.folder, (earlierPartial as NSString).lastPathComponent, 0)
            }
            if ended.completed {
                guard renameat(replacement.folder, replacement.temporaryName, replacement.folder, replacement.name) == 0
                else {
                    return "cannot replace \(replacement.path): \(String(cString: strerror(errno))); "
                        + "the results are in \(replacement.temporaryPath)"
                }
                if holdsAllOfTheEarlierOutput { removeEarlierPartial() }
                return nil
            }
            let kept =
                replacement.modified != nil
                ? "\(replacement.path) was left as it was" : "\(replacement.path) was not created"
            let goOn = ended.resume.map { "; to go on, run \($0)" } ?? ""
            guard !ended.onlyErrors, ended.written > 0 else {
                unlinkat(replacement.folder, replacement.temporaryName, 0)
                let what = ended.onlyErrors ? "nothing was written" : "the run did not finish"
                guard let earlierPartial else { return "\(what): \(kept)" }
                return "\(what): \(kept); the partial output is still in \(earlierPartial)\(goOn)"
            }
            var partial = replacement.temporaryPath
            if holdsAllOfTheEarlierOutput {
                removeEarlierPartial()
            } else if let earlierPartial {
                partial += " (and \(earlierPartial), which it continues)"
            }
            return "the run did not finish: \(kept); the partial output is in \(partial)\(goOn)"
        }
    }

    /// The line for a stream that did not get all of the run's output: what was written there
    /// stays, since a stream cannot be taken back.
    private static func streamEnd(_ path: String, written: Int, onlyErrors: Bool) -> String {
        if onlyErrors { return "only error records were written to \(path) (a stream cannot be left as it was)" }
        guard written > 0 else { return "the run did not finish: nothing was written to \(path)" }
        return "the run did not finish: the output written to \(path) is partial (a stream cannot be left as it was)"
    }

    private static func writeAll(_ bytes: Data, to descriptor: Int32) throws {
        try bytes.withUnsafeBytes { try writeAll($0, to: descriptor) }
    }

    private static func writeAll(_ raw: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let count = systemWrite(descriptor, base + offset, raw.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandError(.lookupFailed, "cannot write the output: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
    }
}

/// The C library's `write(2)`, which the sink's own `write(_:)` hides.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

#if canImport(Glibc)
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let datagramSocket = Int32(SOCK_DGRAM.rawValue)
#else
private let streamSocket = SOCK_STREAM
private let datagramSocket = SOCK_DGRAM
#endif

extension stat {
    /// When the file was last changed, in seconds since 1970.
    fileprivate var modified: Double {
        #if canImport(Darwin)
        Double(st_mtimespec.tv_sec) + Double(st_mtimespec.tv_nsec) / 1e9
        #else
        Double(st_mtim.tv_sec) + Double(st_mtim.tv_nsec) / 1e9
        #endif
    }
}
