import IPData

/// A parsed `--where` expression (see `WhereParser`), evaluated against one lookup answer.
///
/// The logic has two values: every comparison is true or false, never an error.
/// - A path the answer lacks is `null`.
/// - `==` is true for values of one type that are equal (numbers by value, `1 == 1.0`; text
///   exactly, case included), and for an address or network written unquoted, for an address
///   text inside it. `!=` is its negation: `threat.is_tor != true` holds for a missing value.
/// - `<`, `<=`, `>`, `>=` compare numbers with numbers and text with text (byte order);
///   anything else, `null` included, is false.
/// - A bare path (or literal) is true only when its value is `true`.
indirect enum WhereExpression: Equatable {
    case or(WhereExpression, WhereExpression)
    case and(WhereExpression, WhereExpression)
    case not(WhereExpression)
    case compare(Operand, Comparison, Operand)
    /// The value is one of the list's (by `==`; an address inside one of its networks).
    case member(Operand, [Operand])
    /// The value is `true`.
    case truth(Operand)

    enum Comparison: Equatable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }

    /// A side of a comparison: a field's value or a literal.
    enum Operand: Equatable {
        /// A dotted path, as `-f` reads one: `asn.name`, `languages.0.name`.
        case path(String)
        case value(JSONValue)
        /// An address or network written unquoted.
        case network(AddressInterval)
    }

    /// The dotted paths the expression reads, each once, in order.
    var paths: [String] {
        var paths: [String] = []
        func add(_ operand: Operand) {
            if case .path(let path) = operand, !paths.contains(path) { paths.append(path) }
        }
        func walk(_ expression: WhereExpression) {
            switch expression {
            case .or(let left, let right), .and(let left, let right):
                walk(left)
                walk(right)
            case .not(let inner): walk(inner)
            case .compare(let left, _, let right):
                add(left)
                add(right)
            case .member(let operand, let list):
                add(operand)
                list.forEach(add)
            case .truth(let operand): add(operand)
            }
        }
        walk(self)
        return paths
    }

    /// The first names of `paths` (`threat` of `threat.is_tor`), each once, in order: what
    /// `fields=` sends for them.
    static func topLevelNames(of paths: [String]) -> [String] {
        var names: [String] = []
        for path in paths {
            let name = String(path.prefix { $0 != "." })
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Whether the answer whose values `value(path)` gives (nil where it has none) satisfies the
    /// expression.
    func holds(_ value: (String) -> JSONValue?) -> Bool {
        switch self {
        case .or(let left, let right): return left.holds(value) || right.holds(value)
        case .and(let left, let right): return left.holds(value) && right.holds(value)
        case .not(let inner): return !inner.holds(value)
        case .compare(let left, let comparison, let right):
            return Self.compare(left.resolved(value), comparison, right.resolved(value))
        case .member(let operand, let list):
            let resolved = operand.resolved(value)
            return list.contains { Self.compare(resolved, .equal, $0.resolved(value)) }
        case .truth(let operand):
            return operand.resolved(value) == .value(.bool(true))
        }
    }

    /// What an operand stands for once the answer's values are read.
    fileprivate enum Resolved: Equatable {
        case value(JSONValue)
        case network(AddressInterval)
    }

    private static func compare(_ left: Resolved, _ comparison: Comparison, _ right: Resolved) -> Bool {
        switch comparison {
        case .equal: return equal(left, right)
        case .notEqual: return !equal(left, right)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard case .value(let left) = left, case .value(let right) = right,
                let order = order(left, right)
            else { return false }
            switch comparison {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        }
    }

    private static func equal(_ left: Resolved, _ right: Resolved) -> Bool {
        switch (left, right) {
        case (.value(let left), .value(let right)):
            if let order = order(left, right) { return order == 0 }
            return left == right
        case (.network(let network), .value(let value)), (.value(let value), .network(let network)):
            guard case .string(let text) = value, let address = IPAddress(text) else { return false }
            let (family, number) = AddressInterval.number(of: address.unmappingIPv4)
            return family == network.family && network.first <= number && number <= network.last
        case (.network(let left), .network(let right)):
            return left == right
        }
    }

    /// -1, 0 or 1 for two numbers or two texts; nil for anything else.
    private static func order(_ left: JSONValue, _ right: JSONValue) -> Int? {
        switch (left, right) {
        case (.string(let left), .string(let right)):
            return left.utf8.elementsEqual(right.utf8) ? 0 : left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1
        case (.integer(let left), .integer(let right)):
            return left == right ? 0 : left < right ? -1 : 1
        default:
            guard let left = left.numberValue, let right = right.numberValue else { return nil }
            return left == right ? 0 : left < right ? -1 : 1
        }
    }
}

extension WhereExpression.Operand {
    fileprivate func resolved(_ value: (String) -> JSONValue?) -> WhereExpression.Resolved {
        switch self {
        case .path(let path): return .value(value(path) ?? .null)
        case .value(let literal): return .value(literal)
        case .network(let network): return .network(network)
        }
    }
}

extension JSONValue {
    /// The number, integer or decimal; nil for anything else.
    fileprivate var numberValue: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .number(let number): return number
        default: return nil
        }
    }
}
