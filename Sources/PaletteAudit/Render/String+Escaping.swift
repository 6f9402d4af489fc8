extension String {
    /// The text with each Unicode scalar that `replacement` maps replaced: the one loop behind
    /// every renderer's escaping (HTML, XML, Markdown, JSON), each with its own table.
    func escaped(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
