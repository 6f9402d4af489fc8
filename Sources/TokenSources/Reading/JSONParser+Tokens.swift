extension JSONParser {
    /// The most repeated keys one document reports one by one; the rest are counted in one more.
    static let reportedDuplicates = 20

    /// A token, resolver or checks document read as the builds that make it read it: a key
    /// given twice keeps its last value (JSON5's own rule; Primer publishes JSON5 its build reads
    /// this way) and is a `duplicate-key` warning at the later key, naming the earlier one.
    static func parseTokens(_ bytes: [UInt8], file: String?, warnings: inout [PaletteProblem]) throws(SyntaxError) -> JSONValue {
        var duplicates: [DuplicateKey] = []
        let value = try parse(bytes, duplicates: &duplicates)
        for duplicate in duplicates.prefix(reportedDuplicates) {
            warnings.append(PaletteProblem(.duplicateKey, "the key \"\(duplicate.key.excerpt(60))\" is given again here (first at line \(duplicate.earlier.line), column \(duplicate.earlier.column)); the last value is read, as JSON5 and token builds read it", file: file, location: duplicate.location, severity: .warning))
        }
        if duplicates.count > reportedDuplicates, let first = duplicates.dropFirst(reportedDuplicates).first {
            warnings.append(PaletteProblem(.duplicateKey, "\(duplicates.count - reportedDuplicates) more keys are given twice in their objects, the first of them here; the last value of each is read", file: file, location: first.location, severity: .warning))
        }
        return value
    }
}
