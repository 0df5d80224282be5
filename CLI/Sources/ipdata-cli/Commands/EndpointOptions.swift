import ArgumentParser
import IPData

/// Where requests go: `--eu` or `--base-url`. Declared by `ipdata` itself and by each command,
/// as `ClientOptions` is; checked by `CommonOptions`.
struct EndpointOptions: ParsableArguments {
    @Flag(help: "use the EU endpoint, \(IPDataClient.euBaseURL.absoluteString)")
    var eu = false

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp(
            "send requests to URL (a gateway, a test server; default: $IPDATA_BASE_URL, else the global endpoint)",
            valueName: "URL"))
    var baseURL: String?

    /// Throws a usage error for `--eu` or `--base-url`, given to a command that takes neither.
    func refuse() throws {
        if eu { throw UsageError("unknown option --eu") }
        if baseURL != nil { throw UsageError("unknown option --base-url") }
    }
}
