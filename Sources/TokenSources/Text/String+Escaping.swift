extension String {
    /// User text made safe for a terminal and a CI log: control characters (C0 with the line
    /// break, DEL, C1, the line separators) and the bidirectional overrides written as `\xHH`,
    /// so a palette cannot move the cursor, recolor the screen, set the window title, reorder
    /// what is shown, or start a line of its own (a forged `error:` or a runner's `::command::`).
    public var terminalSafe: String {
        guard unicodeScalars.contains(where: Self.needsTerminalEscape) else { return self }
        return escaped { scalar in
            guard Self.needsTerminalEscape(scalar) else { return nil }
            return Array(String(scalar).utf8).map { "\\x" + ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    package static func needsTerminalEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029
            || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// The text with each Unicode scalar that `replacement` maps replaced: the one loop behind
    /// every renderer's escaping (HTML, XML, Markdown, JSON), each with its own table.
    package func escaped(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
