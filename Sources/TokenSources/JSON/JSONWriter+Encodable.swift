public import Foundation

extension JSONWriter {
    /// A Codable model as a file or a terminal shows it: `JSONEncoder`'s pretty layout, keys
    /// sorted, slashes as they are, and a final newline. The one place these outputs are made
    /// (a baseline, a derivation, the CLI's suggest, variants and simulate).
    public static func prettyEncoded(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }
}
