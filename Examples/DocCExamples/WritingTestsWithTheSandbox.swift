// The one sample of IPDataTesting.docc/WritingTestsWithTheSandbox.md that is not a test, compiled
// but never run; the article's tests run in Tests/DocumentationSampleTests.
// `DocumentationSamplesTests` fails when a sample is not found in either place.
import IPData
import IPDataTesting

/// The sample of "A client with other settings".
enum WritingTestsWithTheSandbox {
    static func euClient() -> IPDataClient {
        let sandbox = IPDataSandbox()
        let client = IPDataClient(
            apiKey: "test",
            configuration: IPDataClient.Configuration(baseURL: IPDataClient.euBaseURL, connection: .transport(sandbox)))
        return client
    }
}
