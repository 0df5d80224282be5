/// One place of a record's addresses, as `--key` or `--column` names it: a JSON key (a dotted
/// path into nested objects: `source.ip`), a CSV or Zeek column by name, or a column number
/// from 1.
///
/// A dot separates the steps of a path; `\.` is a dot inside a name (`id\.orig_h` is the key
/// `"id.orig_h"` itself). A path whose steps are not there is also tried as a name with dots,
/// so that `id.orig_h` finds Zeek's flat `{"id.orig_h": …}` too.
struct AddressKey: Equatable, Sendable {
    /// The key as the user wrote it.
    let written: String
    /// The steps of the path, escapes undone: `source.ip` is `source`, then `ip`.
    let steps: [String]
    /// Whether a step was written with `\.`: then the steps are taken as written, never joined.
    let isEscaped: Bool

    init(_ written: String) {
        self.written = written
        var steps = [""]
        var escaped = false
        var characters = written.makeIterator()
        while let character = characters.next() {
            if character == "\\" {
                let next = characters.next()
                if next == "." {
                    steps[steps.count - 1].append(".")
                    escaped = true
                } else {
                    steps[steps.count - 1].append("\\")
                    if let next { steps[steps.count - 1].append(next) }
                }
            } else if character == "." {
                steps.append("")
            } else {
                steps[steps.count - 1].append(character)
            }
        }
        self.steps = steps
        self.isEscaped = escaped
    }

    /// The keys of a comma-separated list (`src_ip,dest_ip`), in order, each once.
    static func list(_ text: String) -> [AddressKey] {
        var keys: [AddressKey] = []
        for item in text.split(separator: ",") {
            let key = AddressKey(item.trimmingCharacters(in: .whitespaces))
            if !key.written.isEmpty, !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The name as one field: the steps joined by dots (a CSV header name, a Zeek field).
    var name: String { steps.joined(separator: ".") }

    /// The last step: what a key beside the address is named after (`ip` of `source.ip`).
    var lastStep: String { steps.last ?? written }

    /// The column number from 1 that the key names, if it is one.
    var number: Int? {
        guard let number = Int(written), number >= 1 else { return nil }
        return number
    }

    /// The steps of the member that holds the address in `object`, each a member's name: the
    /// path itself, or, where a step is missing, steps joined by dots into one name; nil when
    /// the object has no such member.
    func members(in object: JSONValue) -> [String]? {
        if isEscaped { return Self.follow(steps[...], in: object, joining: false) }
        return Self.follow(steps[...], in: object, joining: true)
    }

    /// The value at the key in `object`, or nil.
    func value(in object: JSONValue) -> JSONValue? {
        guard let members = members(in: object) else { return nil }
        return object.value(atMembers: members)
    }

    private static func follow(_ steps: ArraySlice<String>, in value: JSONValue, joining: Bool) -> [String]? {
        guard case .object(let members) = value, !steps.isEmpty else { return nil }
        let ends = joining ? Array(steps.indices) : [steps.startIndex]
        for end in ends {
            let name = steps[steps.startIndex...end].joined(separator: ".")
            guard let member = members[name] else { continue }
            let rest = steps[(end + 1)...]
            if rest.isEmpty { return [name] }
            if let deeper = follow(rest, in: member, joining: joining) { return [name] + deeper }
        }
        return nil
    }

    /// The ECS side of this key (`source`, `destination`, `client`, `server`, `host`…): the
    /// object of ECS that its address belongs to; nil for a key ECS has no side for.
    var ecsSide: String? {
        let name = self.name.lowercased()
        if steps.count >= 2, steps.last?.lowercased() == "ip" {
            return steps.dropLast().joined(separator: ".")
        }
        switch name {
        case "src_ip", "src", "srcip", "source_ip", "src_addr", "id.orig_h", "orig_h", "remote_addr", "remote_ip":
            return "source"
        case "dest_ip", "dst_ip", "dest", "dst", "dstip", "destination_ip", "dst_addr", "id.resp_h", "resp_h":
            return "destination"
        case "client_ip", "client", "clientip", "client_addr", "c-ip": return "client"
        case "server_ip", "server", "server_addr", "s-ip": return "server"
        case "host_ip", "host": return "host"
        default: return nil
        }
    }
}

extension JSONValue {
    /// The value reached through `members`, each a member's name (no dots are split).
    func value(atMembers members: [String]) -> JSONValue? {
        var value = self
        for member in members {
            guard case .object(let object) = value, let next = object[member] else { return nil }
            value = next
        }
        return value
    }
}
