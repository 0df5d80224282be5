import ArgumentParser
import CLILibC
import Foundation
import IPData

/// `ipdata grep [FILE…|-]`: the IPv4 and IPv6 addresses in any text (logs, exports, mail), found
/// by `AddressScanner`, as lines that hold one (as grep prints) or as the addresses alone (`-o`).
/// Its output feeds `ipdata bulk`. Needs no key and sends nothing.
struct GrepCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "grep",
        abstract: "find the IP addresses in any text",
        usage: "ipdata grep [OPTIONS] [FILE… | -]",
        discussion: HelpProse.flowed(
            """
            Find the IPv4 and IPv6 addresses in the files (or standard input, `-`, the default), in
            any text: log lines, CSV, JSON, mail headers. Prints the lines that hold one, or with -o
            the addresses alone, ready for ipdata bulk. Needs no API key and sends nothing.

            Addresses are found as logs write them: 1.2.3.4:443, [2001:db8::1]:8080, fe80::1%eth0,
            quoted or in a URL (its host or path: /v1/lookup/8.8.8.8). ::ffff:1.2.3.4 is printed
            as 1.2.3.4, IPv6 in its short form, and a reverse-DNS name as the address it names
            (4.3.2.1.in-addr.arpa is 1.2.3.4). Lines are printed byte for byte, CR included.
            These are no addresses: versions (1.2.3.4.5, Chrome/119.0.0.0), dates, times, parts
            over 255, MAC addresses, and IPv4 with a leading zero (010.1.1.1: C libraries read it
            as octal or decimal, and the API refuses it).

              ipdata grep -o --public access.log
              ipdata grep --unique /var/log/auth.log | ipdata bulk --format csv -f ip,country_code,threat.is_threat
              zcat old.log.gz | ipdata grep -6 -o

            Exit status: 0 an address was found; 1 none was; 2 usage error, or an input could not
            be read (it is named on standard error; the other inputs are still searched).
            """))

    @Flag(name: [.customShort("o"), .long], help: "print each address found on a line of its own, not the lines")
    var onlyMatching = false

    @Flag(name: [.customShort("4"), .customLong("ipv4")], help: "only IPv4 addresses")
    var ipv4 = false

    @Flag(name: [.customShort("6"), .customLong("ipv6")], help: "only IPv6 addresses")
    var ipv6 = false

    @Flag(
        name: .customLong("public"),
        help: "leave out private, loopback, link-local, documentation, CGNAT, multicast and reserved addresses")
    var publicOnly = false

    @Flag(name: [.customShort("u"), .long], help: "print each address once, in the order first found (implies -o)")
    var unique = false

    @Flag(
        help: ArgumentHelp(
            "take 10.0.0.0/8 as a network, printed with its prefix length; 10.0.0.1/8 is printed as the network "
                + "that holds it, 10.0.0.0/8"))
    var cidrs = false

    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(help: ArgumentHelp("files of text; - or none: standard input"), completion: .file())
    var files: [String] = []

    mutating func validate() throws {
        try checked {
            try endpoint.refuse()
            try client.refuse()
            if ipv4, ipv6 { throw UsageError("use -4 or -6, not both") }
        }
    }

    /// What to print, and which addresses count.
    struct Settings {
        var onlyMatching = false
        var unique = false
        var family: Family?
        var publicOnly = false
        var scanner = AddressScanner()

        enum Family {
            case v4, v6
        }

        /// Whether `match` is one of the addresses asked for.
        func wants(_ match: AddressScanner.Match) -> Bool {
            if let family {
                switch (family, match.address.bits) {
                case (.v4, .v4), (.v6, .v6): break
                default: return false
                }
            }
            return !publicOnly || match.address.scope == .public
        }
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        var settings = Settings()
        settings.unique = unique
        settings.onlyMatching = unique || onlyMatching
        settings.publicOnly = publicOnly
        settings.scanner.includesNetworks = cidrs
        settings.family = ipv4 ? .v4 : ipv6 ? .v6 : nil
        let inputs = files.isEmpty ? ["-"] : files
        if inputs.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input (-) can be read once") }
        if inputs.contains("-"), isatty(STDIN_FILENO) == 1 {
            console.note("reading text from standard input; end with Ctrl-D")
        }
        let output = GrepOutput(escapesControlCharacters: Terminal.isTerminal(STDOUT_FILENO))
        var grep = Grep(settings: settings, output: output)
        // As GNU grep: an input that cannot be read is named on standard error, the others are
        // still searched and their lines printed, and the exit status is 2.
        var someInputUnread = false
        for input in inputs {
            do {
                let reader =
                    input == "-"
                    ? LineReader.standardInput(
                        maximumLineLength: Self.maximumLineLength, expected: "text", blockSize: Self.blockSize)
                    : try LineReader.file(
                        atPath: input, maximumLineLength: Self.maximumLineLength, expected: "text",
                        blockSize: Self.blockSize)
                while let lines = try await reader.nextLines() {
                    guard grep.search(lines) else { return .success }  // standard output was closed
                }
            } catch let error as CommandError {
                // What was found before it comes first, as it would on a terminal.
                guard output.flush() else { return .success }
                console.error(error.message)
                someInputUnread = true
            }
        }
        guard output.flush() else { return .success }
        if someInputUnread { return .usage }
        return grep.found ? .success : .lookupFailed
    }

    /// A log line may be long, but not without end: 16 MiB.
    static let maximumLineLength = 16 * 1_048_576
    /// Reads of 1 MiB: fewer calls for large files.
    static let blockSize = 1_048_576
}

/// The search over a run's text: what was found, what was printed.
struct Grep {
    let settings: GrepCommand.Settings
    let output: GrepOutput
    /// Whether any address was found.
    private(set) var found = false
    /// The addresses printed, with `--unique`.
    private var printed: Set<String> = []

    init(settings: GrepCommand.Settings, output: GrepOutput) {
        self.settings = settings
        self.output = output
    }

    /// Searches whole lines and prints what was found; false when standard output is closed.
    mutating func search(_ lines: ArraySlice<UInt8>) -> Bool {
        lines.withUnsafeBufferPointer { buffer in
            var open = true
            settings.scanner.scan(buffer) { match in
                guard settings.wants(match) else { return match.range.upperBound }
                found = true
                if settings.onlyMatching {
                    let text = match.text
                    if settings.unique {
                        guard printed.insert(text).inserted else { return match.range.upperBound }
                    }
                    open = output.write(line: text)
                    return open ? match.range.upperBound : nil
                }
                // The whole line, once, however many addresses it holds, byte for byte (a `\r`
                // before its `\n` too); then the next line.
                let newline = UInt8(ascii: "\n")
                let start = buffer[..<match.range.lowerBound].lastIndex(of: newline).map { $0 + 1 } ?? 0
                let end = buffer[match.range.upperBound...].firstIndex(of: newline) ?? buffer.count
                open = output.write(line: UnsafeBufferPointer(rebasing: buffer[start..<end]))
                return open ? end + 1 : nil
            }
            return open
        }
    }
}

/// Standard output, written in blocks of 256 KiB; control characters written out (`\x1b`) when it
/// is a terminal, so that a log line cannot drive the terminal.
final class GrepOutput {
    private var buffer: [UInt8] = []
    private let escapesControlCharacters: Bool
    private var isOpen = true

    init(escapesControlCharacters: Bool) {
        self.escapesControlCharacters = escapesControlCharacters
        buffer.reserveCapacity(Self.flushSize + 4096)
    }

    private static let flushSize = 262_144

    /// Writes `line` (without its `\n`) and a `\n`; false once standard output is closed
    /// (`ipdata grep … | head`). A terminal is shown the `\r` of a `\r\n` line end as it is.
    func write(line: UnsafeBufferPointer<UInt8>) -> Bool {
        if escapesControlCharacters {
            let endsWithCR = line.last == UInt8(ascii: "\r")
            let text = UnsafeBufferPointer(rebasing: endsWithCR ? line.dropLast() : line[...])
            buffer.append(contentsOf: TerminalText.escaped(String(decoding: text, as: UTF8.self)).utf8)
            if endsWithCR { buffer.append(UInt8(ascii: "\r")) }
        } else {
            buffer.append(contentsOf: line)
        }
        buffer.append(UInt8(ascii: "\n"))
        return buffer.count < Self.flushSize || flush()
    }

    func write(line: String) -> Bool {
        var line = line
        return line.withUTF8 { write(line: $0) }
    }

    /// Writes what is held; false once standard output is closed.
    func flush() -> Bool {
        var written = 0
        while isOpen, written < buffer.count {
            let count = buffer[written...].withUnsafeBytes {
                writeToDescriptor(STDOUT_FILENO, $0.baseAddress, $0.count)
            }
            if count >= 0 {
                written += count
            } else if errno != EINTR {
                isOpen = false
            }
        }
        buffer.removeAll(keepingCapacity: true)
        return isOpen
    }
}

/// write(2), by a name that `GrepOutput.write(line:)` does not hide.
private func writeToDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
