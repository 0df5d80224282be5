/// The `Forwarded` header of RFC 7239: `for=192.0.2.60;proto=http, for="[2001:db8::17]:4711"`.
enum ForwardedHeader {
    /// The `for=` hop of every element of every line, in order. An element is `.unknown` when it
    /// has no `for`, when its `for` is `unknown`, an obfuscated identifier (`_hidden`) or not an
    /// address, and when it is not the header's syntax (an unclosed quote, a pair without `=`, two
    /// `for`). A bad element spoils itself alone: the elements your proxies appended, on its
    /// right, are still read, and the resolver stops at the first bad one it reaches.
    static func forHops(_ lines: [String]) -> [ClientAddressResolver.Hop] {
        lines.flatMap { line in
            elementTexts(of: line).compactMap { text -> ClientAddressResolver.Hop? in
                guard let elements = elements(of: String(text)) else { return .unknown }
                guard let pairs = elements.first else { return nil }  // an empty element stands for nothing
                let values = pairs.filter { $0.name == "for" }.map(\.value)
                guard values.count == 1, let address = ClientAddressResolver.address(inEntry: values[0]) else {
                    return .unknown
                }
                return .address(address)
            }
        }
    }

    /// The texts of a line's elements, in order: split at the commas outside quotes, the quotes
    /// counted from the right, where your proxies write. A client's unclosed quote on the left
    /// then swallows only the client's own elements, never those appended after them.
    static func elementTexts(of line: String) -> [Substring] {
        var texts: [Substring] = []
        var end = line.endIndex
        var quoted = false
        var index = line.endIndex
        while index > line.startIndex {
            index = line.index(before: index)
            switch line[index] {
            case "\"" where !isEscaped(line, index):
                quoted.toggle()
            case "," where !quoted:
                texts.append(line[line.index(after: index)..<end])
                end = index
            default:
                break
            }
        }
        texts.append(line[line.startIndex..<end])
        return texts.reversed()
    }

    /// Whether the character at `index` follows an odd number of backslashes.
    private static func isEscaped(_ line: String, _ index: String.Index) -> Bool {
        var count = 0
        var before = index
        while before > line.startIndex {
            before = line.index(before: before)
            guard line[before] == "\\" else { break }
            count += 1
        }
        return count % 2 == 1
    }

    /// The elements of a line (split at commas outside quotes), each a list of its pairs (split at
    /// semicolons), names in lower case and quoted values unquoted; nil if the line is malformed.
    /// Empty elements are left out.
    static func elements(of line: String) -> [[(name: String, value: String)]]? {
        var elements: [[(name: String, value: String)]] = []
        var pairs: [(name: String, value: String)] = []
        var token = ""
        var name: String?
        var quoted = false
        var escaped = false
        var wasQuoted = false

        func endPair() -> Bool {
            let trimmed = Substring(token).trimmingSpaces
            defer {
                token = ""
                name = nil
                wasQuoted = false
            }
            guard let name else { return trimmed.isEmpty }  // `a;;b` or a trailing `;` is harmless
            guard !name.isEmpty, wasQuoted || !trimmed.isEmpty else { return false }
            pairs.append((name, wasQuoted ? token : String(trimmed)))
            return true
        }

        for character in line {
            if quoted {
                if escaped {
                    token.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                } else {
                    token.append(character)
                }
                continue
            }
            switch character {
            case "\"":
                // A quoted value starts right after `=`.
                guard name != nil, Substring(token).trimmingSpaces.isEmpty, !wasQuoted else { return nil }
                token = ""
                quoted = true
                wasQuoted = true
            case "=":
                guard name == nil else { return nil }
                name = String(Substring(token).trimmingSpaces).lowercased()
                token = ""
            case ";":
                guard endPair() else { return nil }
            case ",":
                guard endPair() else { return nil }
                elements.append(pairs)
                pairs = []
            default:
                // Nothing but spaces may follow a closing quote.
                guard !wasQuoted || character == " " || character == "\t" else { return nil }
                if !wasQuoted { token.append(character) }
            }
        }
        guard !quoted, endPair() else { return nil }
        elements.append(pairs)
        // Empty elements (`a, , b`) are allowed in a header list and stand for nothing.
        return elements.filter { !$0.isEmpty }
    }
}
