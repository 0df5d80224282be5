// The Swift sample of IPData.docc/IPData.md, compiled but never run. `DocumentationSamplesTests`
// fails when a sample of the catalogs is not found, line for line, in this folder or in
// Tests/DocumentationSampleTests; keep the two in step.
import IPData

/// The sample on the IPData module's landing page.
enum Overview {
    // The sample lines up its end-of-line comments, which swift-format would undo.
    // swift-format-ignore
    static func firstLookup() async throws {
        let client = IPDataClient(apiKey: "YOUR_API_KEY")

        let info = try await client.lookup("8.8.8.8")
        print(info.city ?? "")           // Mountain View
        print(info.countryName ?? "")    // United States
        print(info.threat?.isVPN ?? false)
    }
}
