import ColorScience
public import Foundation
public import TokenSources

extension Derivation {
    /// The palette file `document` with the derived theme set in it (replacing a theme of that
    /// name, else added after the others), every other member in its place and order, as text
    /// to write back. Nil when the document has no `"themes"` object.
    public func written(into document: JSONValue) -> String? {
        guard let themes = document["themes"], themes.members != nil else { return nil }
        let location = document.location
        let members: [JSONMember] = tokens.map { t in
            JSONMember(key: t.token, keyLocation: location, value: .object([
                JSONMember(key: "$type", keyLocation: location, value: .string("color", location)),
                JSONMember(key: "$value", keyLocation: location, value: .string(t.value, location)),
                JSONMember(key: "$description", keyLocation: location, value: .string("derived from \(from) \(t.from): \(t.reason)", location)),
            ], location))
        }
        let theme = JSONValue.object([
            JSONMember(key: "description", keyLocation: location, value: .string(palette.theme(named: to)?.description ?? "", location)),
            JSONMember(key: "tokens", keyLocation: location, value: .object(members, location)),
        ], location)
        return document.setting("themes", to: themes.setting(to, to: theme)).serialized()
    }

    /// What `contrast derive --format json` prints: the changes, the audit's summary and what
    /// stays unresolved.
    public func reportJSON() throws -> Data {
        struct Output: Encodable {
            var from: String, to: String, surface: String
            var tokens: [DerivedToken]
            var summary: AuditSummary
            var unresolved: [String]
        }
        return try JSONWriter.prettyEncoded(Output(from: from, to: to, surface: surface, tokens: tokens, summary: report.summary, unresolved: unresolved))
    }
}
