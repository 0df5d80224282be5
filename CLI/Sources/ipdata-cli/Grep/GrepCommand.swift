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
        // -h is --no-filename, as in grep.
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

            As grep: -c counts the lines that hold an address in each file, -v selects the lines
            that hold none (with -o nothing is printed, as grep -ov), -r searches the files under
            a directory (in the order of their names, following no symbolic link inside it), and
            with several files or -r each line starts with its file's name (-H, -h to choose).
            --color (alone: auto) colours addresses, names and separators as GNU grep does, on a
            terminal unless NO_COLOR is set; --color=always colours a pipe too, and wins over
            NO_COLOR, as no-color.org asks of an option given for one run.

              ipdata grep -rc --public /var/log/nginx
              ipdata grep -v access.log

            Host names are not addresses, and are left alone unless --names asks for them: then a
            dotted name ending in a top-level domain's letters (www.example.com, in a URL or not;
            not in a mail address) is resolved by the system resolver, once a run, and stands for
            its addresses, printed in its place with -o; a name that does not resolve is no match.
            A file name such as notes.txt is asked of the resolver too.

              ipdata grep -o --names --public proxy.log | ipdata bulk

            Exit status: 0 a line was selected (one that holds an address; with -v, one that holds
            none); 1 none was; 2 usage error, or an input could not be read (it is named on
            standard error; the other inputs are still searched).
            """),
        helpNames: [.long])

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

    @Flag(
        help: ArgumentHelp(
            "also find host names (www.example.com: a dotted name ending in a top-level domain's letters), "
                + "resolved by the system resolver: a name that resolves stands for its addresses (printed with "
                + "-o), one that does not is no match"))
    var names = false

    @Flag(
        name: [.customShort("c"), .long],
        help: "print, for each file, the number of lines that hold an address (with -v: that hold none)")
    var count = false

    @Flag(
        name: [.customShort("v"), .customLong("invert-match")],
        help: "the lines that hold no address (with -o or -u: nothing is printed, as grep -ov)")
    var invertMatch = false

    @Flag(exclusivity: .chooseLast)
    var fileNames: FileNames?

    @Flag(
        name: [.customShort("r"), .long],
        help: ArgumentHelp(
            "search the files under each directory (none: the working directory), in the order of their names; "
                + "symbolic links inside it are not followed"))
    var recursive = false

    @Option(
        name: .customLong("color"),
        help: ArgumentHelp(
            "colour the addresses, file names and separators as GNU grep does: auto (--color alone, and the "
                + "default: when standard output is a terminal and NO_COLOR is unset), always (NO_COLOR too) or "
                + "never",
            valueName: "WHEN"))
    var color: GrepColors = .auto

    @OptionGroup(visibility: .private) var endpoint: EndpointOptions
    @OptionGroup(visibility: .private) var client: ClientOptions

    @Argument(
        help: ArgumentHelp("files of text, or directories with -r; - or none: standard input"), completion: .file())
    var files: [String] = []

    /// `-H` and `-h`, of which the last given counts.
    enum FileNames: EnumerableFlag {
        case withFilename, noFilename

        static func name(for value: Self) -> NameSpecification {
            switch value {
            case .withFilename: return [.customShort("H"), .customLong("with-filename")]
            case .noFilename: return [.customShort("h"), .customLong("no-filename")]
            }
        }

        static func help(for value: Self) -> ArgumentHelp? {
            switch value {
            case .withFilename: return "print the file's name before each line (the default for several files or -r)"
            case .noFilename: return "print no file name (the default for one file)"
            }
        }
    }

    mutating func validate() throws {
        try checked {
            try endpoint.refuse()
            try client.refuse()
            if ipv4, ipv6 { throw UsageError("use -4 or -6, not both") }
            if count, unique {
                throw UsageError("use -c or -u, not both (to count the addresses: ipdata grep -u FILE | wc -l)")
            }
        }
    }

    /// What to print, and which addresses count.
    struct Settings {
        var onlyMatching = false
        var unique = false
        var family: Family?
        var publicOnly = false
        var scanner = AddressScanner()
        /// `-v`: the lines that hold no address are selected.
        var invertMatch = false
        /// `-c`: a count of selected lines for each input, not the lines.
        var count = false
        /// Whether each line, address or count is preceded by its file's name.
        var printsFileNames = false
        var colors = false
        /// `--names`: host names are found too, and stand for the addresses they resolve to.
        var findsNames = false

        enum Family {
            case v4, v6
        }

        /// Whether `match` is one of the addresses asked for.
        func wants(_ match: AddressScanner.Match) -> Bool {
            wants(match.address)
        }

        /// Whether `address` is one of those asked for (`-4`, `-6`, `--public`).
        func wants(_ address: IPAddress) -> Bool {
            if let family {
                switch (family, address.bits) {
                case (.v4, .v4), (.v6, .v6): break
                default: return false
                }
            }
            return !publicOnly || address.scope == .public
        }
    }

    func run(environment: [String: String], console: Console) async throws -> ExitStatus {
        var settings = Settings()
        settings.unique = unique
        settings.onlyMatching = unique || onlyMatching
        settings.publicOnly = publicOnly
        settings.scanner.includesNetworks = cidrs
        settings.family = ipv4 ? .v4 : ipv6 ? .v6 : nil
        settings.invertMatch = invertMatch
        settings.count = count
        settings.findsNames = names
        switch fileNames {
        case .withFilename: settings.printsFileNames = true
        case .noFilename: settings.printsFileNames = false
        case nil:
            settings.printsFileNames =
                files.count > 1 || GrepInputs.walksDirectory(operands: files, recursive: recursive)
        }
        let isTerminal = Terminal.isTerminal(STDOUT_FILENO)
        settings.colors = color.isOn(environment: environment, isTerminal: isTerminal)
        if files.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input (-) can be read once") }
        if files.isEmpty && !recursive || files.contains("-"), isatty(STDIN_FILENO) == 1 {
            console.note("reading text from standard input; end with Ctrl-D")
        }
        let output = GrepOutput(escapesControlCharacters: isTerminal)
        // What was found is written before each wait for more input, unless it goes to a regular
        // file: a reader of a pipe or a terminal sees each line soon after it was written
        // (`tail -f access.log | ipdata grep -o`).
        let flushesEachRead = !GrepOutput.standardOutputIsARegularFile
        var grep = Grep(settings: settings, output: output)
        // As GNU grep: an input that cannot be read is named on standard error, the others are
        // still searched and their lines printed, and the exit status is 2.
        var someInputUnread = false
        var inputs = GrepInputs(operands: files, recursive: recursive)
        while let input = inputs.next() {
            do {
                let reader: LineReader
                switch input {
                case .unreadable(let message): throw CommandError(.usage, message)
                case .standardInput:
                    grep.start(input: Self.standardInputName)
                    reader = LineReader.standardInput(
                        maximumLineLength: Self.maximumLineLength, expected: "text", blockSize: Self.blockSize)
                case .file(let path, let name):
                    reader = try LineReader.file(
                        atPath: path, maximumLineLength: Self.maximumLineLength, expected: "text",
                        blockSize: Self.blockSize)
                    grep.start(input: name)
                }
                while let lines = try await reader.nextLines() {
                    guard grep.search(lines) else { return .success }  // standard output was closed
                    if flushesEachRead, !output.flush() { return .success }
                }
                guard grep.finishInput() else { return .success }
            } catch let error as CommandError {
                // What was found before it comes first, as it would on a terminal; a count is
                // printed for what was read.
                guard grep.finishInput(), output.flush() else { return .success }
                console.error(error.message)
                someInputUnread = true
            }
        }
        guard output.flush() else { return .success }
        if someInputUnread { return .usage }
        return grep.selectedSome ? .success : .lookupFailed
    }

    /// The name GNU grep prints for standard input.
    static let standardInputName = "(standard input)"
    /// A log line may be long, but not without end: 16 MiB.
    static let maximumLineLength = 16 * 1_048_576
    /// Reads of 1 MiB: fewer calls for large files.
    static let blockSize = 1_048_576
}

/// The search over a run's text, one input after another: what was selected, what was printed.
struct Grep {
    let settings: GrepCommand.Settings
    let output: GrepOutput
    /// Whether any line was selected: one that holds an address (with `-v`, one that holds none).
    private(set) var selectedSome = false
    /// The addresses printed, with `--unique`.
    private var printed: Set<String> = []
    /// The name printed before what is found in the input being searched.
    private var inputName = ""
    /// The lines selected in the input being searched, for `-c`; nil once it was printed.
    private var selectedInInput: Int?
    /// The ranges of the addresses in the line being printed, to colour.
    private var highlights: [Range<Int>] = []
    /// The addresses of the names found with `--names`.
    private var resolvedNames = ResolvedNames()

    init(settings: GrepCommand.Settings, output: GrepOutput) {
        self.settings = settings
        self.output = output
    }

    /// Begins the input printed as `name`.
    mutating func start(input name: String) {
        inputName = name
        selectedInInput = 0
    }

    /// Ends the input being searched: with `-c`, prints its count. False when standard output is
    /// closed.
    mutating func finishInput() -> Bool {
        guard settings.count, let count = selectedInInput else { return true }
        selectedInInput = nil
        writeFileName()
        output.append(text: String(count))
        return output.endLine()
    }

    /// Searches whole lines and prints what was selected; false when standard output is closed.
    mutating func search(_ lines: ArraySlice<UInt8>) -> Bool {
        lines.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end: Int
                if let newline = memchr(buffer.baseAddress! + start, 0x0A, buffer.count - start) {
                    end = buffer.baseAddress!.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                } else {
                    end = buffer.count
                }
                guard search(line: UnsafeBufferPointer(rebasing: buffer[start..<end])) else { return false }
                start = end + 1
            }
            return true
        }
    }

    /// Searches one line (without its `\n`, with the `\r` of a `\r\n`); false when standard output
    /// is closed.
    private mutating func search(line: UnsafeBufferPointer<UInt8>) -> Bool {
        if settings.findsNames { return searchWithNames(line: line) }
        var holdsAddress = false
        var open = true
        // Each address printed as it is found with -o; the ranges to colour when the line is
        // printed coloured; otherwise the first address decides the line.
        let printsAddresses = settings.onlyMatching && !settings.invertMatch && !settings.count
        let collectsHighlights = settings.colors && !settings.onlyMatching && !settings.invertMatch && !settings.count
        highlights.removeAll(keepingCapacity: true)
        settings.scanner.scan(line) { match in
            guard settings.wants(match) else { return match.range.upperBound }
            holdsAddress = true
            if printsAddresses {
                open = write(address: match.text)
                return open ? match.range.upperBound : nil
            }
            guard collectsHighlights else { return nil }
            highlights.append(match.range)
            return match.range.upperBound
        }
        guard open else { return false }
        return select(line: line, holdsAddress: holdsAddress)
    }

    /// `search(line:)` with `--names`: the addresses in the line, and the addresses of the names
    /// in it that resolve (each name resolved once a run, see `resolvedNames`), in the order
    /// they are written.
    private mutating func searchWithNames(line: UnsafeBufferPointer<UInt8>) -> Bool {
        var found: [(range: Range<Int>, addresses: [String])] = []
        settings.scanner.scan(line) { match in
            if settings.wants(match) { found.append((match.range, [match.text])) }
            return match.range.upperBound
        }
        for name in HostNameScanner.names(in: line) where !found.contains(where: { $0.range.overlaps(name.range) }) {
            let addresses = resolvedNames.addresses(of: name.text).filter { IPAddress($0).map(settings.wants) == true }
            if !addresses.isEmpty { found.append((name.range, addresses)) }
        }
        found.sort { $0.range.lowerBound < $1.range.lowerBound }
        highlights.removeAll(keepingCapacity: true)
        if settings.onlyMatching, !settings.invertMatch, !settings.count {
            for address in found.flatMap(\.addresses) {
                guard write(address: address) else { return false }
            }
        } else if settings.colors, !settings.onlyMatching, !settings.invertMatch, !settings.count {
            highlights = found.map(\.range)
        }
        return select(line: line, holdsAddress: !found.isEmpty)
    }

    /// Counts or prints `line` when it is selected (it holds an address, or with `-v` none);
    /// false when standard output is closed.
    private mutating func select(line: UnsafeBufferPointer<UInt8>, holdsAddress: Bool) -> Bool {
        guard holdsAddress != settings.invertMatch else { return true }
        selectedSome = true
        if settings.count {
            selectedInInput? += 1
            return true
        }
        // The addresses were printed, or with -v there are none to print (grep -ov prints nothing).
        if settings.onlyMatching { return true }
        // The whole line, once, however many addresses it holds, byte for byte (a `\r` before its
        // `\n` too).
        writeFileName()
        var written = 0
        for range in highlights {
            output.append(text: UnsafeBufferPointer(rebasing: line[written..<range.lowerBound]))
            output.append(raw: GrepColors.matchStart)
            output.append(text: UnsafeBufferPointer(rebasing: line[range]))
            output.append(raw: GrepColors.end)
            written = range.upperBound
        }
        output.append(text: UnsafeBufferPointer(rebasing: line[written...]), endsLine: true)
        return output.endLine()
    }

    /// Writes `address` on a line of its own, once with `--unique`; false when standard output is
    /// closed.
    private mutating func write(address: String) -> Bool {
        if settings.unique {
            guard printed.insert(address).inserted else { return true }
        }
        writeFileName()
        if settings.colors { output.append(raw: GrepColors.matchStart) }
        output.append(text: address)
        if settings.colors { output.append(raw: GrepColors.end) }
        return output.endLine()
    }

    /// The input's name and `:`, when names are printed.
    private func writeFileName() {
        guard settings.printsFileNames else { return }
        if settings.colors {
            output.append(raw: GrepColors.fileNameStart)
            output.append(text: inputName)
            output.append(raw: GrepColors.end + GrepColors.separatorStart + ":" + GrepColors.end)
        } else {
            output.append(text: inputName)
            output.append(raw: ":")
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

    /// Appends text of the input (a line, a part of one, a file name); on a terminal, its control
    /// characters written out. A terminal is shown the `\r` of a `\r\n` line end as it is: the
    /// last part of a line says so with `endsLine`.
    func append(text: UnsafeBufferPointer<UInt8>, endsLine: Bool = false) {
        guard escapesControlCharacters else {
            buffer.append(contentsOf: text)
            return
        }
        let endsWithCR = endsLine && text.last == UInt8(ascii: "\r")
        let kept = UnsafeBufferPointer(rebasing: endsWithCR ? text.dropLast() : text[...])
        buffer.append(contentsOf: TerminalText.escaped(String(decoding: kept, as: UTF8.self)).utf8)
        if endsWithCR { buffer.append(UInt8(ascii: "\r")) }
    }

    func append(text: String) {
        var text = text
        text.withUTF8 { append(text: $0) }
    }

    /// Appends `sequence` as it is: a colour, a separator.
    func append(raw sequence: String) {
        buffer.append(contentsOf: sequence.utf8)
    }

    /// Ends the line appended; false once standard output is closed (`ipdata grep … | head`).
    func endLine() -> Bool {
        buffer.append(UInt8(ascii: "\n"))
        return buffer.count < Self.flushSize || flush()
    }

    /// Writes `line` (without its `\n`) and a `\n`, as `ipdata cidr` prints; false once standard
    /// output is closed.
    func write(line: UnsafeBufferPointer<UInt8>) -> Bool {
        append(text: line, endsLine: true)
        return endLine()
    }

    func write(line: String) -> Bool {
        var line = line
        return line.withUTF8 { write(line: $0) }
    }

    /// Whether standard output is a regular file, which may be written in large blocks.
    static var standardOutputIsARegularFile: Bool {
        var status = stat()
        return fstat(STDOUT_FILENO, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
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

/// write(2), by a name that no method of `GrepOutput` hides.
private func writeToDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
