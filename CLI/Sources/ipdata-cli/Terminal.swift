import CLILibC
import Foundation

/// What the tool knows of the terminal it writes to: whether a descriptor is one, and how wide it
/// is. The table and the progress bar are fitted to that width.
enum Terminal {
    /// The width used when nothing says otherwise.
    static let defaultWidth = 80

    /// Whether `descriptor` (1 for standard output, 2 for standard error) is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The width in columns to fit output to: `COLUMNS` when it is a whole number above 0, else
    /// the width of the first of `descriptors` that is a terminal and knows its size, else 80.
    ///
    /// - Parameters:
    ///   - descriptors: The descriptors to ask, in order (standard output first for the table,
    ///     standard error for the progress bar).
    ///   - columnsVariable: The value of `COLUMNS`, if it is set.
    static func width(of descriptors: [Int32], columnsVariable: String?) -> Int {
        if let columnsVariable, let columns = Int(columnsVariable.trimmingCharacters(in: .whitespaces)), columns > 0 {
            return columns
        }
        for descriptor in descriptors {
            if let columns = windowColumns(descriptor) { return columns }
        }
        return defaultWidth
    }

    /// Whether results written to `outputPath` (`--output`; nil or `-` for standard output)
    /// reach a terminal: standard output is one, and the path, if any, names it (`/dev/stdout`,
    /// `/proc/self/fd/1`, the terminal's own device).
    static func showsOutput(at outputPath: String?) -> Bool {
        guard isTerminal(STDOUT_FILENO) else { return false }
        guard let outputPath, outputPath != "-" else { return true }
        var named = stat()
        var output = stat()
        guard stat(outputPath, &named) == 0, fstat(STDOUT_FILENO, &output) == 0 else { return false }
        return (named.st_mode & S_IFMT) == S_IFCHR && named.st_rdev == output.st_rdev
    }

    /// `width(of:columnsVariable:)` with this process's `COLUMNS`.
    static func width(of descriptors: [Int32]) -> Int {
        width(of: descriptors, columnsVariable: ProcessInfo.processInfo.environment["COLUMNS"])
    }

    /// The columns of the terminal at `descriptor` (`ioctl` `TIOCGWINSZ`), or nil when it is no
    /// terminal or reports no size (a pseudo-terminal nobody sized reports 0).
    private static func windowColumns(_ descriptor: Int32) -> Int? {
        guard isTerminal(descriptor) else { return nil }
        var size = winsize()
        guard ioctl(descriptor, windowSizeRequest, &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    #if canImport(Darwin)
    // `_IOR('t', 104, struct winsize)`: a function-like macro, which Swift does not import.
    private static let windowSizeRequest: UInt = 0x4008_7468
    #else
    // Glibc and Musl define it as a number (0x5413 on Linux).
    private static let windowSizeRequest = UInt(TIOCGWINSZ)
    #endif
}
