import CLILibC
import Foundation
import IPData

/// Where the API key comes from, and where `ipdata init` keeps it.
///
/// The key is the first of: `--api-key`, the `IPDATA_API_KEY` environment variable, the file
/// `$XDG_CONFIG_HOME/ipdata/config` (or `~/.config/ipdata/config` when `XDG_CONFIG_HOME` is unset,
/// empty or relative). The file holds the key alone on one line and has mode 0600; it may be a
/// symbolic link (a dotfile manager's), which is followed both ways.
enum Configuration {
    /// The environment variable that carries the key.
    static let keyVariable = "IPDATA_API_KEY"

    /// The environment variable that says where requests go when `--base-url` and `--eu` do not
    /// (a gateway, a test server), read by `CommonOptions.baseURL(_:environment:)`.
    static let baseURLVariable = "IPDATA_BASE_URL"

    /// Where to get a key: a free account on ipdata.co.
    static let signUpURL = "https://ipdata.co/sign-up.html"

    /// What to tell someone who has no key.
    static let howToSetKey =
        "no API key: run `ipdata init`, set IPDATA_API_KEY, or pass --api-key (get a free key at \(signUpURL))"

    /// Where the key of a run came from.
    enum KeySource: Equatable {
        /// `--api-key`.
        case option
        /// `IPDATA_API_KEY`, and the configuration file it overrides, if there is one.
        case environment(overriding: URL?)
        /// The configuration file.
        case file(URL)

        /// Where the key came from, as `--verbose` says it: `--api-key`, `IPDATA_API_KEY`, or the
        /// configuration file's path.
        var name: String {
            switch self {
            case .option: return "--api-key"
            case .environment(let file?): return "IPDATA_API_KEY (which overrides \(file.path))"
            case .environment(nil): return "IPDATA_API_KEY"
            case .file(let file): return file.path
            }
        }

        /// What the line for a refused key (401) adds: where the key came from and what to do.
        var refusedAdvice: String {
            switch self {
            case .option:
                return "the key came from --api-key: check it"
            case .environment(let file?):
                return "the key came from IPDATA_API_KEY, which overrides the config file \(file.path): "
                    + "fix or unset IPDATA_API_KEY"
            case .environment(nil):
                return "the key came from IPDATA_API_KEY: check it, or unset it and run `ipdata init`"
            case .file(let file):
                return "the key came from the config file \(file.path): run `ipdata init` with a valid key"
            }
        }
    }

    /// A key, where it came from, and what to warn about (a configuration file that others can read).
    struct ResolvedKey: Equatable {
        let value: String
        let source: KeySource
        let warning: String?
    }

    /// Where the key of this run came from, once `load` found it; for the line of a refused key.
    private static let currentSource = Locked<KeySource?>(nil)
    static var source: KeySource? { currentSource.withLock { $0 } }

    /// The key to use (see `resolve`): prints its warning on `console`, has `console` redact it,
    /// and records where it came from for the line of a refused key.
    static func load(option: String?, environment: [String: String], console: Console) throws -> String {
        let key = try resolve(option: option, environment: environment)
        console.addSecret(key.value)
        if let warning = key.warning { console.warning(warning) }
        currentSource.withLock { $0 = key.source }
        return key.value
    }

    /// The configuration file's path for `environment`.
    static func fileURL(environment: [String: String]) -> URL {
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("ipdata", isDirectory: true).appendingPathComponent("config")
    }

    /// The key to use and where it came from: `option` (the value of `--api-key`), else
    /// `IPDATA_API_KEY`, else the file, with a warning when others may read the file. Throws a
    /// configuration error (exit status 2) that says how to set one when there is none.
    static func resolve(option: String?, environment: [String: String]) throws -> ResolvedKey {
        if let option {
            guard let key = normalized(option) else { throw CommandError(.usage, "--api-key is empty") }
            return ResolvedKey(value: key, source: .option, warning: nil)
        }
        let url = fileURL(environment: environment)
        // `fileExists` follows a symbolic link: a link to nowhere is no file.
        let fileExists = FileManager.default.fileExists(atPath: url.path)
        if let key = environment[keyVariable].flatMap(normalized) {
            return ResolvedKey(value: key, source: .environment(overriding: fileExists ? url : nil), warning: nil)
        }
        guard fileExists else { throw CommandError(.usage, howToSetKey) }
        let contents: String
        do {
            contents = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw CommandError(.usage, "cannot read \(url.path): \(error.localizedDescription)")
        }
        let firstLine = contents.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard let key = normalized(firstLine) else {
            throw CommandError(.usage, "\(url.path) is empty: \(howToSetKey)")
        }
        return ResolvedKey(value: key, source: .file(url), warning: exposureWarning(url))
    }

    /// A warning when the file (the one a link points to) grants its group or others any access,
    /// as ssh warns about a private key; nil when only its owner may read it.
    static func exposureWarning(_ url: URL) -> String? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        let mode = Int(status.st_mode) & 0o777
        guard mode & 0o077 != 0 else { return nil }
        return "warning: \(url.path) holds your API key and others can read it (mode "
            + String(format: "%04o", mode) + "): run chmod 600 \(url.path)"
    }

    /// Stores `key` in the configuration file with mode 0600, creating its folder (mode 0700)
    /// when needed, and returns the file's path. When the file is a symbolic link (a dotfile
    /// manager's), the key goes to the file it points to and the link stays.
    static func store(apiKey key: String, environment: [String: String]) throws -> URL {
        let url = fileURL(environment: environment)
        let target = try linkTarget(of: url)
        let folder = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CommandError(.usage, "cannot create \(folder.path): \(error.localizedDescription)")
        }
        // Created with mode 0600, and set to 0600 if the file was there already, before the key
        // is written: the key is never readable by others, not even for a moment. O_NOFOLLOW: links
        // were followed above, and one put in the target's place since then is refused.
        let descriptor = open(target.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CommandError(.usage, "cannot write \(target.path): \(Self.lastError)") }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else {
            throw CommandError(.usage, "cannot protect \(target.path): \(Self.lastError)")
        }
        let bytes = Array((key + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw CommandError(.usage, "cannot write \(target.path): \(Self.lastError)")
        }
        return url
    }

    /// The file `url` names once symbolic links are followed (to a file that need not exist
    /// yet), or `url` when it is no link. Throws after 32 links, as the kernel gives up after 40.
    static func linkTarget(of url: URL) throws -> URL {
        var current = url
        for _ in 0..<32 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else {
                return current
            }
            current =
                destination.hasPrefix("/")
                ? URL(fileURLWithPath: destination)
                : current.deletingLastPathComponent().appendingPathComponent(destination)
        }
        throw CommandError(.usage, "cannot write \(url.path): too many symbolic links")
    }

    /// `text` without surrounding white space, or nil when nothing is left.
    static func normalized(_ text: String) -> String? {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return key.isEmpty ? nil : key
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}
