import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the API key comes from, and where `ipdata init` keeps it.
///
/// The key is the first of: `--api-key`, the `IPDATA_API_KEY` environment variable, the file
/// `$XDG_CONFIG_HOME/ipdata/config` (or `~/.config/ipdata/config` when `XDG_CONFIG_HOME` is unset,
/// empty or relative). The file holds the key alone on one line and has mode 0600.
enum Configuration {
    /// The environment variable that carries the key.
    static let keyVariable = "IPDATA_API_KEY"

    /// What to tell someone who has no key.
    static let howToSetKey = "no API key: run `ipdata init`, set IPDATA_API_KEY, or pass --api-key"

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

    /// The key to use, from `option` (the value of `--api-key`), the environment or the file.
    /// Throws a configuration error (exit status 2) that says how to set one when there is none.
    static func apiKey(option: String?, environment: [String: String]) throws -> String {
        if let option {
            guard let key = normalized(option) else { throw CommandError(.usage, "--api-key is empty") }
            return key
        }
        if let key = environment[keyVariable].flatMap(normalized) { return key }
        let url = fileURL(environment: environment)
        guard FileManager.default.fileExists(atPath: url.path) else { throw CommandError(.usage, howToSetKey) }
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
        return key
    }

    /// Stores `key` in the configuration file with mode 0600, creating its folder (mode 0700)
    /// when needed, and returns the file's path.
    static func store(apiKey key: String, environment: [String: String]) throws -> URL {
        let url = fileURL(environment: environment)
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CommandError(.usage, "cannot create \(folder.path): \(error.localizedDescription)")
        }
        // Created with mode 0600, and set to 0600 if the file was there already, before the key
        // is written: the key is never readable by others, not even for a moment.
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw CommandError(.usage, "cannot write \(url.path): \(Self.lastError)") }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else {
            throw CommandError(.usage, "cannot protect \(url.path): \(Self.lastError)")
        }
        let bytes = Array((key + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CommandError(.usage, "cannot write \(url.path): \(Self.lastError)") }
        return url
    }

    /// `text` without surrounding white space, or nil when nothing is left.
    static func normalized(_ text: String) -> String? {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return key.isEmpty ? nil : key
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}
