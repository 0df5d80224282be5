import IPDataTesting

/// What `ipdata --help` says about `--sandbox`: the sample addresses that have answers of their
/// own, taken from the sandbox's scenarios so that the list never goes stale.
enum SandboxHelp {
    static let text: String = {
        let samples = IPDataScenario.addresses.compactMap { scenario in scenario.ip.map { ($0, scenario.name) } }
        let width = samples.map(\.0.count).max() ?? 0
        let privateIP = IPDataScenario.privateIP.ip ?? ""
        var text = """
            --sandbox answers these addresses with sample data of their own, any other public address as
            the residential one, a private one (such as \(privateIP)) with the API's error, and AS15169 as
            an ASN (try ipdata --sandbox \(IPDataScenario.torExit.ip ?? "")):

            """
        for (ip, name) in samples {
            text += "  " + ip + String(repeating: " ", count: width - ip.count) + "  " + name + "\n"
        }
        return String(text.dropLast())
    }()
}
