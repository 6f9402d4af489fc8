/// Apple's iOS/iPadOS UIKit dynamic system colors in their four appearances: what a color set's
/// `"reference": "systemBlueColor"` and a palette's `{ios.systemBlue}` resolve to.
///
/// The one record of these values is `docs/data/apple-system-colors.json`, embedded in the
/// binary at build time and read here at first use. It gives each value's source (Apple's HIG
/// for the tints and grays of iOS/iPadOS 26; community transcriptions of iOS 13-era UIKit for
/// backgrounds, labels, separators and fills, for which Apple publishes no numbers), the values
/// the sources disagree on, and the HIG values before June 2025. Edit the JSON, not this file.
/// macOS AppKit colors are not in the table yet.
enum AppleSystemColors {
    struct Entry: Sendable {
        /// light, dark, light high contrast, dark high contrast (CSS colors; translucent ones,
        /// such as labels, separators and fills, carry their alpha).
        var values: [String]
        /// Whether Apple publishes these numbers (the HIG's tints and grays) or they come from
        /// community transcriptions of UIKit (backgrounds, labels, separators, fills).
        var applePublished: Bool
    }

    /// The appearances in the order of ``Entry/values``, as the JSON names them.
    static let appearances = ["light", "dark", "lightHighContrast", "darkHighContrast"]

    static let table: [String: Entry] = read(PackageResources.apple_system_colors_json)

    /// The entries of the JSON record. The record is part of the build, and a unit test reads
    /// every entry, so a malformed record fails the tests rather than a user's audit; here an
    /// entry that lacks an appearance is left out (and its name reported as unknown).
    static func read(_ bytes: [UInt8]) -> [String: Entry] {
        guard let document = try? JSONParser.parse(bytes, dialect: .json), let colors = document["colors"]?.members else { return [:] }
        var table: [String: Entry] = [:]
        for member in colors {
            let entry = member.value
            let values = appearances.compactMap { appearance -> String? in
                guard let hex = entry[appearance]?.stringValue else { return nil }
                // The alpha the source publishes, exactly ("0.3"), rather than its 8-bit rounding.
                if hex.utf8.count == 9, case .number(let alpha, _)? = entry["alpha"]?[appearance] {
                    let channels = [1, 3, 5].map { Int(hex.dropFirst($0).prefix(2), radix: 16) ?? 0 }
                    return "rgb(\(channels[0]) \(channels[1]) \(channels[2]) / \(String(alpha)))"
                }
                return hex
            }
            guard values.count == appearances.count else { continue }
            var published = false
            if case .bool(let flag, _)? = entry["apple_published"] { published = flag }
            table[member.key] = Entry(values: values, applePublished: published)
        }
        return table
    }

    static var names: [String] { table.keys.sorted() }

    /// The color for a UIKit name (`systemBlue`) or the name Xcode writes (`systemBlueColor`).
    static func value(_ reference: String, dark: Bool, highContrast: Bool) -> String? {
        let name = table[reference] != nil ? reference : reference.hasSuffix("Color") ? String(reference.dropLast(5)) : reference
        guard let entry = table[name] else { return nil }
        return entry.values[(dark ? 1 : 0) + (highContrast ? 2 : 0)]
    }
}
