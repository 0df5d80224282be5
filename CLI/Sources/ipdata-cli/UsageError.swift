/// A command line that cannot be understood: exit status 2, one line that names the option but
/// never repeats a value, which could be an API key.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
