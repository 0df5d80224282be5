/// The discussion of a command's help as ArgumentParser wraps it: each paragraph on one line, so
/// that it is wrapped to the terminal's width, and indented lines (examples, lists) kept as
/// they are.
enum HelpProse {
    /// `text` with the lines of each paragraph joined by spaces; blank and indented lines, and
    /// the line after either, start a new line.
    static func flowed(_ text: String) -> String {
        var lines: [String] = []
        var joins = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let isProse = !line.isEmpty && !line.hasPrefix(" ")
            if isProse, joins, let last = lines.popLast() {
                lines.append(last + " " + line)
            } else {
                lines.append(String(line))
            }
            joins = isProse
        }
        return lines.joined(separator: "\n")
    }
}
