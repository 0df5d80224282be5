import Foundation

extension Configuration {
    /// Where `apiKey(option:environment:)` takes the key from, for `--verbose`: `--api-key`,
    /// `IPDATA_API_KEY`, or the configuration file's path. Kept apart from `Configuration.swift`
    /// so that the order it follows is easy to compare with `apiKey(option:environment:)`.
    static func keySource(option: String?, environment: [String: String]) -> String {
        if option != nil { return "--api-key" }
        if environment[keyVariable].flatMap(normalized) != nil { return keyVariable }
        return fileURL(environment: environment).path
    }
}
