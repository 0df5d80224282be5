/// The tokens of a `--where` expression (see `WhereParser` for the grammar): each with the
/// column, counted in characters from 1, where it starts, for messages.
struct WhereLexer {
    /// One token of the expression.
    struct Token: Equatable {
        enum Kind: Equatable {
            /// A field's dotted path (`threat.scores.threat_score`).
            case path(String)
            case integer(Int)
            case number(Double)
            case string(String)
            /// An address or a network (`10.0.0.0/8`, `2001:db8::/32`, `1.2.3.4`), unquoted.
            case network(String)
            case `true`, `false`, null
            case and, or, not, `in`
            /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
            case comparison(WhereExpression.Comparison)
            case openParenthesis, closeParenthesis, openBracket, closeBracket, comma
            /// After the last token.
            case end
        }

        let kind: Kind
        let column: Int
        /// The token as written, for messages (`'>='`); `the end` after the last.
        let text: String
    }

    /// The tokens of `text`, `.end` last; throws a `WhereError` for a character that starts no
    /// token, a string without its closing quote, or a number too large.
    static func tokens(of text: String) throws -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character.isWhitespace {
                index += 1
                continue
            }
            if let (kind, length) = symbol(in: characters, at: index) {
                tokens.append(Token(kind: kind, column: column, text: String(characters[index..<index + length])))
                index += length
                continue
            }
            if character == "'" || character == "\"" {
                guard let close = characters[(index + 1)...].firstIndex(of: character) else {
                    throw WhereError("a string opened with \(character) is not closed", column: column)
                }
                let string = String(characters[(index + 1)..<close])
                tokens.append(Token(kind: .string(string), column: column, text: String(characters[index...close])))
                index = close + 1
                continue
            }
            if let written = addressLike(in: characters, at: index) {
                guard AddressInterval(addressOrNetwork: written) != nil else {
                    throw WhereError("\(written) is no address or network", column: column)
                }
                tokens.append(Token(kind: .network(written), column: column, text: written))
                index += written.count
                continue
            }
            if character.isNumber
                || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber)
            {
                var end = index + 1
                while end < characters.count, characters[end].isNumber || characters[end] == "." { end += 1 }
                let written = String(characters[index..<end])
                if let integer = Int(written) {
                    tokens.append(Token(kind: .integer(integer), column: column, text: written))
                } else if let number = Double(written), number.isFinite, !written.hasSuffix(".") {
                    tokens.append(Token(kind: .number(number), column: column, text: written))
                } else {
                    throw WhereError("\(written) is no number", column: column)
                }
                index = end
                continue
            }
            if isNameCharacter(character) {
                var end = index + 1
                while end < characters.count, isNameCharacter(characters[end]) || characters[end] == "." { end += 1 }
                let word = String(characters[index..<end])
                tokens.append(Token(kind: keyword(word) ?? .path(word), column: column, text: word))
                index = end
                continue
            }
            switch character {
            case "=": throw WhereError("unexpected '='", column: column, hint: "compare with ==")
            case "&": throw WhereError("unexpected '&'", column: column, hint: "write and")
            case "|": throw WhereError("unexpected '|'", column: column, hint: "write or")
            case "!": throw WhereError("unexpected '!'", column: column, hint: "write not, or !=")
            default: throw WhereError("unexpected '\(character)'", column: column)
            }
        }
        tokens.append(Token(kind: .end, column: characters.count + 1, text: "the end"))
        return tokens
    }

    /// The operators and punctuation, longest first, with their kinds.
    private static let symbols: [(String, Token.Kind)] = [
        ("==", .comparison(.equal)), ("!=", .comparison(.notEqual)), ("<=", .comparison(.lessOrEqual)),
        (">=", .comparison(.greaterOrEqual)), ("<", .comparison(.less)), (">", .comparison(.greater)),
        ("(", .openParenthesis), (")", .closeParenthesis), ("[", .openBracket), ("]", .closeBracket),
        (",", .comma),
    ]

    private static func symbol(in characters: [Character], at index: Int) -> (Token.Kind, Int)? {
        for (written, kind) in symbols where characters[index...].starts(with: written) {
            return (kind, written.count)
        }
        return nil
    }

    /// The words that are no field's name. `and`, `or`, `not` and `in` in any case, as SQL reads
    /// them; `true`, `false` and `null` too.
    private static func keyword(_ word: String) -> Token.Kind? {
        switch word.lowercased() {
        case "and": return .and
        case "or": return .or
        case "not": return .not
        case "in": return .in
        case "true": return .true
        case "false": return .false
        case "null": return .null
        default: return nil
        }
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_")
    }

    /// The address or network written at `index` (`10.0.0.0/8`, `fc00::/7`, `1.2.3.4`), or nil
    /// when none starts there: the longest run of hex digits, dots, colons and `/` that holds a
    /// colon or three dots (a path such as `abc.def`, a number such as `1.5`, holds neither), and
    /// that no letter of a name follows.
    private static func addressLike(in characters: [Character], at index: Int) -> String? {
        var end = index
        while end < characters.count,
            characters[end].isHexDigit || characters[end] == "." || characters[end] == ":"
                || characters[end] == "/"
        {
            end += 1
        }
        let run = characters[index..<end]
        guard run.contains(":") || run.filter({ $0 == "." }).count == 3 else { return nil }
        guard end == characters.count || !isNameCharacter(characters[end]) else { return nil }
        return String(run)
    }
}
