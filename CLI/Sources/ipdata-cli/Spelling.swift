/// What a mistyped word was meant to be: a command, a field.
enum Spelling {
    /// The word of `known` nearest to `word` in edits (case aside), when it is a likely typo: at
    /// most one edit away for words of up to four letters, two for longer ones; nil otherwise.
    static func closest(to word: String, among known: [String]) -> String? {
        let typed = Array(word.lowercased())
        let limit = typed.count >= 5 ? 2 : 1
        let scored = known.map { ($0, editDistance(typed, Array($0.lowercased()))) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The edits from `a` to `b`: insertions, deletions, substitutions and swaps of two
    /// neighbouring letters (`ctiy` is one edit from `city`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var (beforePrevious, previous) = ([Int](), Array(0...b.count))
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                var edits = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
                if i > 0, j > 0, a[i] == b[j - 1], a[i - 1] == b[j] { edits = min(edits, beforePrevious[j - 1] + 1) }
                current.append(edits)
            }
            (beforePrevious, previous) = (previous, current)
        }
        return previous[b.count]
    }
}
