import ColorScience

/// The checks that relate more than one pair: `distinct` groups, `focus` indicators and `link`
/// colors (``CheckRelation``), in a palette's or a checks document's `"checks"`.
extension PaletteDecoder {
    static let distinctFields = ["id", "description", "distinct", "threshold", "deficiencies", "themes", "except", "level"]
    static let focusFields = ["id", "description", "focus", "unfocused", "adjacent", "themes", "except", "level", "cvd"]
    static let linkFields = ["id", "description", "link", "text", "background", "underlined", "themes", "except", "level", "cvd"]

    /// The check an entry with `distinct`, `focus` or `link` describes, or nil when the entry has
    /// none of them (an ordinary pair). An entry that cannot be read is reported and yields [].
    mutating func decodeRelationCheck(_ members: [JSONMember], _ item: JSONValue, at pointer: JSONPointer, ids: inout Set<String>) -> [Check]? {
        let kinds = ["distinct", "focus", "link"].filter { key in members.contains { $0.key == key } }
        guard let kind = kinds.first else { return nil }
        if kinds.count > 1 {
            problem(.invalidValue, "a check is one kind: it has both \"\(kinds[0])\" and \"\(kinds[1])\"; split it into two checks", at: pointer, item)
            return []
        }
        var fields = Fields(members, pointer)
        if members.contains(where: { $0.key == "foreground" }) {
            problem(.invalidValue, "a \"\(kind)\" check has no \"foreground\"; \(PaletteDecoder.relationHint(kind))", at: pointer.appending("foreground"), fields.value("foreground"))
        }
        let relation: CheckRelation?
        let allowed: [String]
        switch kind {
        case "distinct":
            allowed = PaletteDecoder.distinctFields
            relation = decodeDistinct(&fields, at: pointer)
        case "focus":
            allowed = PaletteDecoder.focusFields
            relation = decodeFocus(&fields, at: pointer)
        default:
            allowed = PaletteDecoder.linkFields
            relation = decodeLink(&fields, at: pointer)
        }
        // A focus check judges SC 2.4.13 (AAA) unless it asks for AA only.
        let hasLevel = members.contains { $0.key == "level" }
        let level = decodeLevel(&fields, at: pointer)
        var check = Check(id: "", foreground: "", background: "", usage: kind == "link" ? .text : .nonText,
                          level: kind == "focus" && !hasLevel ? .AAA : level, pointer: pointer, location: item.location)
        check.description = string(&fields, "description", what: "a check")
        check.themes = decodeThemeList(&fields, at: pointer)
        check.file = file
        if kind != "distinct" { check.cvd = decodeCVDPolicy(&fields, at: pointer) }
        if let except = fields.value("except") {
            if case .array(let patterns, _) = except, patterns.allSatisfy({ $0.stringValue != nil }) {
                check.except = patterns.compactMap(\.stringValue)
            } else {
                problem(.wrongType, "\"except\" must be an array of token-name globs like [\"*.disabled\"]", at: pointer.appending("except"), except)
            }
        }
        let id = string(&fields, "id", what: "a check") ?? relation.map { PaletteDecoder.defaultID($0) } ?? kind
        if ids.contains(id) {
            problem(.duplicateName, "check id \"\(id)\" is used twice; give each check a unique \"id\"", at: pointer.appending("id"), fields.value("id") ?? item)
        }
        ids.insert(id)
        check.id = id
        finish(fields, allowed: allowed, what: "a \"\(kind)\" check")
        guard let relation else { return [] }
        check.relation = relation
        return [check]
    }

    static func relationHint(_ kind: String) -> String {
        switch kind {
        case "distinct": "it names its members: {\"distinct\": [\"color.status.*.background\"]}"
        case "focus": "it names the indicator, the unfocused color and the surfaces: {\"focus\": \"color.focus.ring\", \"unfocused\": \"color.border.default\", \"adjacent\": [\"color.bg.*\"]}"
        default: "it names the link, the text around it and the background: {\"link\": \"color.fg.link\", \"text\": \"color.fg.default\", \"background\": \"color.bg.default\"}"
        }
    }

    static func defaultID(_ relation: CheckRelation) -> String {
        switch relation {
        case .pair: "pair"
        case .distinct(let d): "distinct-\(d.members.joined(separator: "-"))"
        case .focus(let f): "focus-\(f.indicator)"
        case .link(let l): "link-\(l.link)"
        }
    }

    /// One name or a list of names (`"color.bg.*"` or `["color.bg.*", "color.surface"]`).
    mutating func nameList(_ fields: inout Fields, _ key: String, what: String, required: Bool) -> [String]? {
        guard let value = fields.value(key) else {
            if required {
                problems.append(PaletteProblem(.missingField, "\(what) needs \"\(key)\"", file: file, pointer: fields.pointer, location: nil))
            }
            return nil
        }
        if let one = value.stringValue, !one.isEmpty { return [one] }
        if case .array(let items, _) = value, !items.isEmpty, items.allSatisfy({ ($0.stringValue ?? "").isEmpty == false }) {
            if items.count > limits.maximumChecks {
                problem(.limitExceeded, "\"\(key)\" lists \(items.count) names; the limit is \(limits.maximumChecks)", at: fields.pointer.appending(key), value)
                return nil
            }
            return items.compactMap(\.stringValue)
        }
        problem(.wrongType, "\"\(key)\" must be a token name, a glob like \"color.bg.*\", or a non-empty array of them, found \(value.typeName)", at: fields.pointer.appending(key), value)
        return nil
    }

    mutating func decodeDistinct(_ fields: inout Fields, at pointer: JSONPointer) -> CheckRelation? {
        let members = nameList(&fields, "distinct", what: "a \"distinct\" check", required: true)
        var distinct = CheckRelation.Distinct(members: members ?? [])
        if let threshold = fields.value("threshold") {
            if case .number(let v, _) = threshold, v > 0, v <= 100 { distinct.threshold = v } else {
                problem(.invalidValue, "\"threshold\" must be the smallest \(Distinguishability.metric) difference that counts as told apart, a number above 0 and at most 100 (the default is \(CSSNumber.format(Distinguishability.defaultThreshold)))", at: pointer.appending("threshold"), threshold)
            }
        }
        if let list = fields.value("deficiencies") {
            if case .array(let items, _) = list, !items.isEmpty, items.allSatisfy({ $0.stringValue != nil }) {
                var parsed: [ColorVisionDeficiency] = []
                for (index, item) in items.enumerated() {
                    guard let name = item.stringValue else { continue }
                    if let deficiency = ColorVisionDeficiency(name: name) {
                        if !parsed.contains(deficiency) { parsed.append(deficiency) }
                    } else {
                        problem(.invalidValue, "\"\(name)\" is not a color-vision deficiency; expected one of \(ColorVisionDeficiency.all.map(\.name).joined(separator: ", "))", at: pointer.appending("deficiencies").appending(index), item)
                    }
                }
                if !parsed.isEmpty { distinct.deficiencies = parsed }
            } else {
                problem(.wrongType, "\"deficiencies\" must be a non-empty array of names like [\"deuteranopia\", \"protanopia\"]", at: pointer.appending("deficiencies"), list)
            }
        }
        return members == nil ? nil : .distinct(distinct)
    }

    mutating func decodeFocus(_ fields: inout Fields, at pointer: JSONPointer) -> CheckRelation? {
        let indicator = nonEmptyString(&fields, "focus", what: "a \"focus\" check")
        let unfocused = nonEmptyString(&fields, "unfocused", what: "a \"focus\" check", required: false)
        let adjacent = nameList(&fields, "adjacent", what: "a \"focus\" check (the surfaces the indicator is drawn on)", required: true)
        guard let indicator, let adjacent else { return nil }
        return .focus(CheckRelation.Focus(indicator: indicator, unfocused: unfocused, adjacent: adjacent))
    }

    mutating func decodeLink(_ fields: inout Fields, at pointer: JSONPointer) -> CheckRelation? {
        let link = nonEmptyString(&fields, "link", what: "a \"link\" check")
        let text = nonEmptyString(&fields, "text", what: "a \"link\" check (the color of the text around the link)")
        let background = nonEmptyString(&fields, "background", what: "a \"link\" check")
        var underlined = false
        if let flag = fields.value("underlined") {
            if case .bool(let b, _) = flag { underlined = b } else {
                problem(.wrongType, "\"underlined\" must be true or false, found \(flag.typeName)", at: pointer.appending("underlined"), flag)
            }
        }
        guard let link, let text, let background else { return nil }
        return .link(CheckRelation.Link(link: link, text: text, background: background, underlined: underlined))
    }

    mutating func nonEmptyString(_ fields: inout Fields, _ key: String, what: String, required: Bool = true) -> String? {
        guard let text = string(&fields, key, required: required, what: what) else { return nil }
        if text.isEmpty {
            problem(.invalidValue, "\"\(key)\" must name a token or a color, found an empty string", at: fields.pointer.appending(key), fields.value(key))
            return nil
        }
        return text
    }

    mutating func decodeCVDPolicy(_ fields: inout Fields, at pointer: JSONPointer) -> CVDPolicy? {
        guard let text = string(&fields, "cvd", what: "a check") else { return nil }
        if let policy = CVDPolicy(name: text) { return policy }
        problem(.invalidValue, "\"cvd\" must be \"warn\" (a contrast lost under a simulated color-vision deficiency is a warning, the default) or \"fail\" (it fails the check), found \"\(text)\"", at: pointer.appending("cvd"), fields.value("cvd"))
        return nil
    }
}
