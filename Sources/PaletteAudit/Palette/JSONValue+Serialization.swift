extension JSONValue {
    /// The value as JSON text with two-space indents, members in their order, and a final
    /// newline at the top level: how palette files are written back.
    public func serialized() -> String {
        var out = ""
        write(to: &out, indent: 0)
        return out + "\n"
    }

    private func write(to out: inout String, indent: Int) {
        let pad = String(repeating: "  ", count: indent)
        switch self {
        case .null: out += "null"
        case .bool(let b, _): out += b ? "true" : "false"
        case .number(let n, _): out += CSSNumber.format(n)
        case .string(let s, _): out += JSONValue.quoted(s)
        case .array(let items, _):
            if items.isEmpty { out += "[]"; return }
            let simple = items.allSatisfy { if case .string = $0 { true } else if case .number = $0 { true } else { false } }
            if simple && items.count <= 8 {
                out += "[" + items.map { $0.serialized().dropLast() }.joined(separator: ", ") + "]"
                return
            }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += pad + "  "
                item.write(to: &out, indent: indent + 1)
                out += index < items.count - 1 ? ",\n" : "\n"
            }
            out += pad + "]"
        case .object(let members, _):
            if members.isEmpty { out += "{}"; return }
            out += "{\n"
            for (index, member) in members.enumerated() {
                out += pad + "  " + JSONValue.quoted(member.key) + ": "
                member.value.write(to: &out, indent: indent + 1)
                out += index < members.count - 1 ? ",\n" : "\n"
            }
            out += pad + "}"
        }
    }

    public static func quoted(_ text: String) -> String {
        // Most strings need no escaping: check the bytes once and copy them whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            return "\"" + text + "\""
        }
        let escaped = text.escaped { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default:
                scalar.value < 0x20 ? "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16) : nil
            }
        }
        return "\"" + escaped + "\""
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
