/// The `Forwarded` header of RFC 7239: `for=192.0.2.60;proto=http, for="[2001:db8::17]:4711"`.
enum ForwardedHeader {
    /// The `for=` hop of every element of every line, in order; `.unknown` for an element without
    /// one, or whose `for` is `unknown`, an obfuscated identifier (`_hidden`) or not an address.
    /// nil when a line is not the header's syntax (an unclosed quote, a pair without `=`, two
    /// `for` in one element): a header that cannot be read is not believed.
    static func forHops(_ lines: [String]) -> [ClientAddressResolver.Hop]? {
        var hops: [ClientAddressResolver.Hop] = []
        for line in lines {
            guard let elements = elements(of: line) else { return nil }
            for pairs in elements {
                let values = pairs.filter { $0.name == "for" }.map(\.value)
                guard values.count <= 1 else { return nil }
                let address = values.first.flatMap { ClientAddressResolver.address(inEntry: $0) }
                hops.append(address.map(ClientAddressResolver.Hop.address) ?? .unknown)
            }
        }
        return hops
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
