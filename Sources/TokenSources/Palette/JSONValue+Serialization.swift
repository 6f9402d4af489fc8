extension JSONValue {
    /// The value as JSON text with two-space indents, members in their order, and a final
    /// newline at the top level: how palette files are written back.
    public func serialized() -> String {
        var w = JSONWriter(layout: .document)
        write(&w)
        w.endLine()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// Writes the value as the next value of `w`; a list of at most eight strings and numbers
    /// stays on one line.
    public func write(_ w: inout JSONWriter) {
        switch self {
        case .null: w.null()
        case .bool(let b, _): w.bool(b)
        case .number(let n, _): w.number(n)
        case .string(let s, _): w.string(s)
        case .array(let items, _):
            let simple = items.count <= 8 && items.allSatisfy { if case .string = $0 { true } else if case .number = $0 { true } else { false } }
            w.array(simple ? .inline : .normal) { w in
                for item in items { item.write(&w) }
            }
        case .object(let members, _):
            w.object { w in
                for member in members {
                    w.key(member.key)
                    member.value.write(&w)
                }
            }
        }
    }

    /// This object with `key` set to `value` (replaced in place, or appended).
    public func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members, let location) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key: key, keyLocation: location, value: value))
        }
        return .object(members, location)
    }
}
