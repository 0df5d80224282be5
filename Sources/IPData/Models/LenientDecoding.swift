import Foundation

/// A model of the API's JSON whose fields are read one rule at a time, from either source:
/// `init(from:)` reads them from any `Decoder` (`JSONDecoder`, or yours), and the client reads
/// them from the `JSONNode` its own parser made of an answer (`init(json:)`), faster
/// (BENCHMARKS.md).
///
/// Each model lists its fields once, in `init(fields:)`, so both sources follow the same rules:
/// unknown keys are ignored, and a value of an unexpected JSON type is converted where its
/// meaning is clear (the conversions of `JSONNode`, such as `lenientInteger`) or read as nil,
/// so that one odd field never fails a whole answer. Only a value that is not a JSON object fails.
protocol LenientModel: Decodable {
    associatedtype CodingKeys: CodingKey
    init(fields: some LenientFields<CodingKeys>)
}

/// Where a `LenientModel` reads its fields from: a decoder's keyed container
/// (`ContainerFields`), or a parsed JSON object (`ObjectFields`).
protocol LenientFields<Key> {
    associatedtype Key: CodingKey
    func string(_ key: Key) -> String?
    func bool(_ key: Key) -> Bool?
    func integer(_ key: Key) -> Int?
    func double(_ key: Key) -> Double?
    /// An array of strings; numbers are converted, other elements are dropped.
    func strings(_ key: Key) -> [String]?
    /// An array of integers; numeric strings (also `"AS123"`) are converted, other elements dropped.
    func integers(_ key: Key) -> [Int]?
    /// A nested object; a value that is not an object reads as nil.
    func object<Model: LenientModel>(_ type: Model.Type, _ key: Key) -> Model?
    /// An array of objects; elements that are not objects are dropped, a non-array reads as nil.
    func objects<Model: LenientModel>(_ type: Model.Type, _ key: Key) -> [Model]?
}

extension LenientModel {
    /// The model of a JSON object; nil for any other value.
    init?(json value: JSONNode) {
        guard case .object(let object) = value else { return nil }
        self.init(fields: ObjectFields<CodingKeys>(object: object))
    }

    /// The model of the JSON object in `data`, read by the client's own parser; throws what
    /// `JSONDecoder` would: `dataCorrupted` for text that is not JSON, `typeMismatch` for JSON
    /// that is not an object.
    init(jsonData data: Data) throws {
        guard let model = Self(json: try JSONNode.parse(data)) else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                DecodingError.Context(codingPath: [], debugDescription: "Expected a JSON object, found another value."))
        }
        self = model
    }

    /// The models of a JSON array of objects in `data`, one per element, nil for an element
    /// that is not an object; throws for text that is not JSON, or JSON that is not an array.
    static func array(jsonData data: Data) throws -> [Self?] {
        guard case .array(let elements) = try JSONNode.parse(data) else {
            throw DecodingError.typeMismatch(
                [Any].self,
                DecodingError.Context(codingPath: [], debugDescription: "Expected a JSON array, found another value."))
        }
        return elements.map { Self(json: $0) }
    }
}

// MARK: - From a parsed JSON object

/// A model's fields read from a JSON object that the client's parser made.
struct ObjectFields<Key: CodingKey>: LenientFields {
    let object: JSONObject

    private func value(_ key: Key) -> JSONNode? { object[key.stringValue] }

    func string(_ key: Key) -> String? { value(key)?.lenientString }
    func bool(_ key: Key) -> Bool? { value(key)?.lenientBool }
    func integer(_ key: Key) -> Int? { value(key)?.lenientInteger }
    func double(_ key: Key) -> Double? { value(key)?.lenientDouble }

    func strings(_ key: Key) -> [String]? {
        guard case .array(let elements)? = value(key) else { return nil }
        return elements.compactMap(\.lenientString)
    }

    func integers(_ key: Key) -> [Int]? {
        guard case .array(let elements)? = value(key) else { return nil }
        return elements.compactMap(\.lenientInteger)
    }

    func object<Model: LenientModel>(_ type: Model.Type, _ key: Key) -> Model? {
        value(key).flatMap { Model(json: $0) }
    }

    func objects<Model: LenientModel>(_ type: Model.Type, _ key: Key) -> [Model]? {
        guard case .array(let elements)? = value(key) else { return nil }
        return elements.compactMap { Model(json: $0) }
    }
}

// MARK: - From a decoder

/// A model's fields read from a decoder's keyed container.
///
/// Each read first tries the documented type (the fast path of `JSONDecoder`), and only when that
/// fails reads the value as a `JSONScalar` and converts it by the rules of `JSONNode`.
struct ContainerFields<Key: CodingKey>: LenientFields {
    let container: KeyedDecodingContainer<Key>

    init(_ decoder: Decoder) throws {
        container = try decoder.container(keyedBy: Key.self)
    }

    private func scalar(_ key: Key) -> JSONNode? {
        (try? container.decode(JSONScalar.self, forKey: key))?.value
    }

    func string(_ key: Key) -> String? {
        do { return try container.decodeIfPresent(String.self, forKey: key) } catch {
            return scalar(key)?.lenientString
        }
    }

    func bool(_ key: Key) -> Bool? {
        do { return try container.decodeIfPresent(Bool.self, forKey: key) } catch { return scalar(key)?.lenientBool }
    }

    func integer(_ key: Key) -> Int? {
        do { return try container.decodeIfPresent(Int.self, forKey: key) } catch {
            return scalar(key)?.lenientInteger
        }
    }

    func double(_ key: Key) -> Double? {
        do { return try container.decodeIfPresent(Double.self, forKey: key) } catch {
            return scalar(key)?.lenientDouble
        }
    }

    func strings(_ key: Key) -> [String]? {
        if let strings = try? container.decodeIfPresent([String].self, forKey: key) { return strings }
        guard let scalars = try? container.decodeIfPresent([JSONScalar].self, forKey: key) else { return nil }
        return scalars.compactMap(\.value.lenientString)
    }

    func integers(_ key: Key) -> [Int]? {
        if let integers = try? container.decodeIfPresent([Int].self, forKey: key) { return integers }
        guard let scalars = try? container.decodeIfPresent([JSONScalar].self, forKey: key) else { return nil }
        return scalars.compactMap(\.value.lenientInteger)
    }

    func object<Model: LenientModel>(_ type: Model.Type, _ key: Key) -> Model? {
        try? container.decodeIfPresent(Model.self, forKey: key)
    }

    func objects<Model: LenientModel>(_ type: Model.Type, _ key: Key) -> [Model]? {
        guard let elements = try? container.decodeIfPresent([LenientElement<Model>].self, forKey: key) else {
            return nil
        }
        return elements.compactMap(\.element)
    }
}

/// Any JSON scalar, read from a decoder without failing, as a `JSONNode` (an object, an
/// array, or a number no Swift type holds read as `null`, which converts to nothing).
struct JSONScalar: Decodable {
    let value: JSONNode

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            value = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .number(number)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else {
            value = .null
        }
    }
}

/// Decodes an element of an array without failing the array: an element of the wrong shape
/// reads as nil and is dropped by the caller.
struct LenientElement<Element: Decodable>: Decodable {
    let element: Element?

    init(from decoder: Decoder) {
        element = try? Element(from: decoder)
    }
}
