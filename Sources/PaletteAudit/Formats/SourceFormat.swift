/// What a document is, judged from its content (never from a flag).
public enum SourceFormat: String, Sendable {
    /// This project's palette format (`themes`, or `tokens` with `checks`).
    case palette
    /// A DTCG Resolver Module 2025.10 document (`resolutionOrder`, `sets`, `modifiers`).
    case resolver
    /// A Tokens Studio file with its sets at the top level (and `$themes`, `$metadata`).
    case tokensStudio
    /// Tokens Studio's `$themes.json` or `$metadata.json`, part of a multi-file set.
    case tokensStudioMetadata
    /// A DTCG token file (`$value`).
    case dtcg
    /// Style Dictionary's classic format (`value`), or its built `json` output.
    case styleDictionary
    /// Names mapped to color strings (a flat or nested token file, Style Dictionary's `json/flat`).
    case plainTokens
    /// A checks document: `{"checks": […]}` for a token source.
    case checks
    /// None of the above.
    case unknown

    public var displayName: String {
        switch self {
        case .palette: "contrast palette"
        case .resolver: "DTCG resolver 2025.10"
        case .tokensStudio: "Tokens Studio"
        case .tokensStudioMetadata: "Tokens Studio $themes/$metadata"
        case .dtcg: "DTCG tokens"
        case .styleDictionary: "Style Dictionary"
        case .plainTokens: "plain tokens (name → color)"
        case .checks: "checks document"
        case .unknown: "unknown"
        }
    }

    static let accepted = "a contrast palette ({\"themes\": …}), DTCG tokens ($value), a DTCG resolver (resolutionOrder), Tokens Studio (value/type, $themes, $metadata), Style Dictionary (value), or a flat map of names to colors"

    /// Detects the format of a parsed document. `path` only tells `$themes.json` apart.
    public static func detect(_ document: JSONValue, path: String? = nil) -> SourceFormat {
        let base = path.map { String($0.split(separator: "/").last ?? "") } ?? ""
        if base == "$themes.json" || base == "$metadata.json" { return .tokensStudioMetadata }
        if case .array(let items, _) = document {
            return items.contains(where: { $0["selectedTokenSets"] != nil }) ? .tokensStudioMetadata : .unknown
        }
        guard let members = document.members else { return .unknown }
        let keys = Set(members.map(\.key))
        if keys.contains("$themes") || document["$metadata"]?["tokenSetOrder"] != nil { return .tokensStudio }
        if document["tokenSetOrder"] != nil && keys.count <= 4 { return .tokensStudioMetadata }
        if keys.contains("resolutionOrder") || (base.hasSuffix(".resolver.json") && (keys.contains("sets") || keys.contains("modifiers"))) {
            return .resolver
        }
        if let themes = document["themes"], themes.members != nil, !keys.contains("$value") { return .palette }
        if !keys.contains("$value"), let tokens = document["tokens"], tokens.members != nil,
           keys.isSubset(of: ["name", "description", "source", "tokens", "checks", "badges", "badgeBordersCarryMeaning"]) {
            return .palette
        }
        if keys.isSubset(of: ["checks", "badges", "$schema"]) && keys.contains("checks") { return .checks }
        var sawDollarValue = false, sawValue = false, sawStudio = false, sawColorString = false
        var stack = [document]
        var visited = 0
        while let next = stack.popLast(), visited < 200_000 {
            visited += 1
            switch next {
            case .object(let inner, _):
                for member in inner {
                    switch member.key {
                    case "$value": sawDollarValue = true
                    case "value" where inner.contains(where: { $0.key == "type" || $0.key == "comment" || $0.key == "original" }) || member.value.stringValue != nil:
                        sawValue = true
                    case "studio.tokens": sawStudio = true
                    default: break
                    }
                    stack.append(member.value)
                }
            case .string(let text, _):
                if !sawColorString && PaletteDecoder.couldBeColor(text) { sawColorString = true }
            default: break
            }
        }
        if sawStudio && (sawValue || sawDollarValue) { return .tokensStudio }
        if sawDollarValue { return .dtcg }
        if sawValue { return .styleDictionary }
        if sawColorString { return .plainTokens }
        return .unknown
    }

    /// A short description of what the document looked like, for "unknown format" messages.
    static func describe(_ document: JSONValue) -> String {
        switch document {
        case .object(let members, _):
            let keys = members.prefix(5).map { "\"\($0.key)\"" }.joined(separator: ", ")
            return members.isEmpty ? "an empty object" : "an object with keys \(keys)\(members.count > 5 ? ", …" : "") and no color values"
        default:
            return document.typeName
        }
    }
}
