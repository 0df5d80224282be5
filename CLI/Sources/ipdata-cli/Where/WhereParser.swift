import IPData

/// Reads a `--where` expression into a `WhereExpression`, by recursive descent over the tokens
/// of `WhereLexer`:
///
///     expression := conjunction ("or" conjunction)*
///     conjunction := negation ("and" negation)*
///     negation   := "not" negation | "(" expression ")" | comparison
///     comparison := operand [ ("==" | "!=" | "<" | "<=" | ">" | ">=") operand
///                           | ["not"] "in" ( "[" [operand ("," operand)*] "]" | network ) ]
///     operand    := path | number | string | true | false | null | network
///
/// `or` binds loosest, then `and`, then `not`; a comparison is read whole before `not` applies
/// to it (`not a >= 80` is `not (a >= 80)`, as in Python and SQL). `and` and `or` group from
/// the left.
struct WhereParser {
    private let tokens: [WhereLexer.Token]
    private var index = 0
    /// The top-level field names an answer can have; nil to accept any.
    private let knownFields: [String]?

    /// The expression of `text`; throws a `WhereError` that says what is wrong and where. With
    /// `knownFields`, a path whose first name is none of them is refused, with the name meant
    /// when one is close.
    static func parse(_ text: String, knownFields: [String]? = IPResponse.fieldNames) throws -> WhereExpression {
        var parser = WhereParser(tokens: try WhereLexer.tokens(of: text), knownFields: knownFields)
        guard parser.current.kind != .end else { throw WhereError("the expression is empty", column: 1) }
        let expression = try parser.expression()
        guard parser.current.kind == .end else {
            throw WhereError("expected and, or or the end, not \(parser.current.quoted)", column: parser.current.column)
        }
        return expression
    }

    private init(tokens: [WhereLexer.Token], knownFields: [String]?) {
        self.tokens = tokens
        self.knownFields = knownFields
    }

    private var current: WhereLexer.Token { tokens[index] }

    private mutating func advance() -> WhereLexer.Token {
        defer { index = min(index + 1, tokens.count - 1) }
        return tokens[index]
    }

    private mutating func expression() throws -> WhereExpression {
        var left = try conjunction()
        while current.kind == .or {
            _ = advance()
            left = .or(left, try conjunction(after: "or"))
        }
        return left
    }

    private mutating func conjunction(after previous: String? = nil) throws -> WhereExpression {
        var left = try negation(after: previous)
        while current.kind == .and {
            _ = advance()
            left = .and(left, try negation(after: "and"))
        }
        return left
    }

    private mutating func negation(after previous: String?) throws -> WhereExpression {
        switch current.kind {
        case .not:
            _ = advance()
            return .not(try negation(after: "not"))
        case .openParenthesis:
            let open = advance()
            let inner = try expression()
            guard current.kind == .closeParenthesis else {
                throw WhereError(
                    "expected ')' to close the '(' at column \(open.column), not \(current.quoted)",
                    column: current.column)
            }
            _ = advance()
            return inner
        default:
            return try comparison(after: previous)
        }
    }

    private mutating func comparison(after previous: String?) throws -> WhereExpression {
        let left = try operand(after: previous)
        switch current.kind {
        case .comparison(let comparison):
            let symbol = advance()
            return .compare(left, comparison, try operand(after: symbol.text))
        case .in:
            _ = advance()
            return .member(left, try list())
        case .not where tokens[index + 1].kind == .in:
            _ = advance()
            _ = advance()
            return .not(.member(left, try list()))
        default:
            return .truth(left)
        }
    }

    /// What follows `in`: a list in brackets, or one network.
    private mutating func list() throws -> [WhereExpression.Operand] {
        if case .network = current.kind { return [try operand(after: "in")] }
        guard current.kind == .openBracket else {
            throw WhereError(
                "expected a list ['a', 'b'] or a network after 'in', not \(current.quoted)", column: current.column)
        }
        _ = advance()
        var items: [WhereExpression.Operand] = []
        if current.kind == .closeBracket {
            _ = advance()
            return items
        }
        while true {
            items.append(try operand(after: items.isEmpty ? "[" : ","))
            switch current.kind {
            case .comma: _ = advance()
            case .closeBracket:
                _ = advance()
                return items
            default:
                throw WhereError("expected ',' or ']' in the list, not \(current.quoted)", column: current.column)
            }
        }
    }

    private mutating func operand(after previous: String?) throws -> WhereExpression.Operand {
        let token = current
        let operand: WhereExpression.Operand
        switch token.kind {
        case .path(let path):
            try check(path, at: token.column)
            operand = .path(path)
        case .integer(let integer): operand = .value(.integer(integer))
        case .number(let number): operand = .value(.number(number))
        case .string(let string): operand = .value(.string(string))
        case .true: operand = .value(.bool(true))
        case .false: operand = .value(.bool(false))
        case .null: operand = .value(.null)
        case .network(let written):
            guard let network = AddressInterval(addressOrNetwork: written) else {
                throw WhereError("\(written) is no address or network", column: token.column)
            }
            operand = .network(network)
        default:
            let place = previous.map { " after '\($0)'" } ?? ""
            let found = token.kind == .end ? "" : ", not \(token.quoted)"
            throw WhereError("expected a value\(place)\(found)", column: token.column)
        }
        _ = advance()
        return operand
    }

    /// Refuses a path with an empty step (`threat..is_tor`), or whose first name no answer has.
    private func check(_ path: String, at column: Int) throws {
        let steps = path.split(separator: ".", omittingEmptySubsequences: false)
        guard !steps.contains(where: \.isEmpty) else {
            throw WhereError("\(path) is no field path such as threat.is_tor", column: column)
        }
        guard let knownFields, !knownFields.contains(String(steps[0])) else { return }
        let name = String(steps[0])
        if let close = Spelling.closest(to: name, among: knownFields) {
            throw WhereError("unknown field \(name)", column: column, hint: "did you mean \(close)?")
        }
        throw WhereError(
            "unknown field \(name)", column: column, hint: "the fields are \(knownFields.joined(separator: ", "))")
    }
}

extension WhereLexer.Token {
    /// The token for a message: `'>='`, or `the end`.
    fileprivate var quoted: String {
        switch kind {
        case .end: return "the end"
        case .string: return text
        default: return "'\(text)'"
        }
    }
}
