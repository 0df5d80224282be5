import CLILibC
import Foundation

/// The inputs of one `ipdata grep` run, in the order they are searched: the operands as given,
/// and with `-r` the regular files under each directory among them.
///
/// As `grep -r`: a symbolic link on the command line is followed, one inside a tree is not (nor
/// searched), and what is neither a regular file nor a directory inside a tree (a FIFO, a socket,
/// a device) is skipped. Unlike GNU grep, whose order is the directory's, the entries of each
/// directory are taken in the byte order of their names, so that two runs print alike.
struct GrepInputs: IteratorProtocol {
    /// One input to search, or a directory that could not be listed.
    enum Input: Equatable {
        case standardInput
        /// A file, by the path that reads it, and the name printed before its lines (the path,
        /// without the `./` of the working directory's tree when `-r` was given no operand).
        case file(path: String, name: String)
        /// A directory that could not be listed: its message, without `ipdata: `.
        case unreadable(String)
    }

    private let recursive: Bool
    /// What is left to search, the next at the end.
    private var pending: [Pending]

    private enum Pending {
        case operand(String)
        case entry(path: String, name: String)
    }

    /// The inputs of `operands` (`-` for standard input); with `recursive` and no operand, the
    /// working directory's tree.
    init(operands: [String], recursive: Bool) {
        self.recursive = recursive
        let operands = operands.isEmpty ? (recursive ? [Self.workingDirectory] : ["-"]) : operands
        pending = operands.reversed().map(Pending.operand)
    }

    /// The operand that stands for the working directory, when `-r` was given none.
    private static let workingDirectory = ""

    /// Whether `operands` name a directory that `-r` walks, so that names are printed as for
    /// several files (GNU grep names the files under a directory, not a lone file's lines).
    static func walksDirectory(operands: [String], recursive: Bool) -> Bool {
        guard recursive else { return false }
        return operands.isEmpty || operands.contains { $0 != "-" && kind(of: $0, following: true) == .directory }
    }

    mutating func next() -> Input? {
        while let item = pending.popLast() {
            switch item {
            case .operand("-"):
                return .standardInput
            case .operand(let operand):
                guard recursive,
                    operand == Self.workingDirectory || Self.kind(of: operand, following: true) == .directory
                else {
                    return .file(path: operand, name: operand)
                }
                if let problem = push(directory: operand == Self.workingDirectory ? "." : operand, name: operand) {
                    return .unreadable(problem)
                }
            case .entry(let path, let name):
                switch Self.kind(of: path, following: false) {
                case .regular: return .file(path: path, name: name)
                case .directory:
                    if let problem = push(directory: path, name: name) { return .unreadable(problem) }
                case .other: continue
                }
            }
        }
        return nil
    }

    /// Puts the entries of `directory` on `pending`, sorted; the message when it cannot be listed.
    private mutating func push(directory path: String, name: String) -> String? {
        guard let directory = opendir(path) else {
            return "cannot read \(path): \(String(cString: strerror(errno)))"
        }
        defer { closedir(directory) }
        var entries: [String] = []
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if entryName != ".", entryName != ".." { entries.append(entryName) }
        }
        let sorted = entries.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        // `dir/` and `dir` alike name `dir/file`, as GNU grep prints it.
        var prefix = name
        while prefix.count > 1, prefix.hasSuffix("/") { prefix.removeLast() }
        for entry in sorted.reversed() {
            let entryName = prefix.isEmpty ? entry : prefix == "/" ? "/" + entry : "\(prefix)/\(entry)"
            let entryPath = prefix.isEmpty ? entry : entryName
            pending.append(.entry(path: entryPath, name: entryName))
        }
        return nil
    }

    private enum Kind {
        case regular, directory, other
    }

    /// What is at `path`; a symbolic link is the link itself unless `following`. An operand that
    /// cannot be looked at is `.regular`, so that opening it names the problem; an entry of a
    /// tree that cannot (it went away) is `.other`, skipped.
    private static func kind(of path: String, following: Bool) -> Kind {
        var status = stat()
        guard (following ? stat(path, &status) : lstat(path, &status)) == 0 else {
            return following ? .regular : .other
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        default: return .other
        }
    }
}
