import ColorScience

/// Checks, badges and claims: the pairs a palette must keep apart, in a palette or in a checks
/// document (`--checks`, a `NAME.checks.json` sidecar).
extension PaletteDecoder {
    // MARK: Checks and badges

    /// The longest check id, in UTF-8 bytes.
    static let maximumCheckIDBytes = 256
    static let checkFields = ["id", "description", "foreground", "background", "usage", "level", "apca", "fontSize",
                              "fontWeight", "backdrop", "themes", "assumed", "claim", "minimumRatio", "except", "cvd", "palettes"]

    mutating func decodeChecks(_ value: JSONValue, at pointer: JSONPointer) -> [Check] {
        guard case .array(let items, _) = value else {
            problem(.wrongType, "\"checks\" must be an array of checks, found \(value.typeName)", at: pointer, value)
            return []
        }
        if items.count > limits.maximumChecks {
            problem(.limitExceeded, "there are \(items.count) checks; the limit is \(limits.maximumChecks)", at: pointer, value)
            return []
        }
        var checks: [Check] = []
        var ids: Set<String> = []
        for (index, item) in items.enumerated() {
            let itemPointer = pointer.appending(index)
            guard let members = item.members else {
                problem(.wrongType, "a check must be an object with \"foreground\" and \"background\", found \(item.typeName)", at: itemPointer, item)
                continue
            }
            if let relationCheck = decodeRelationCheck(members, item, at: itemPointer, ids: &ids) {
                checks.append(contentsOf: relationCheck)
                continue
            }
            var fields = Fields(members, itemPointer)
            let foreground = string(&fields, "foreground", required: true, what: "a check")
            let background = string(&fields, "background", required: true, what: "a check")
            var usage = ContrastUsage.text
            if let text = string(&fields, "usage", what: "a check") {
                if let known = ContrastUsage(name: text) { usage = known } else {
                    problem(.invalidValue, "\"\(text)\" is not a usage; expected text, large-text, non-text, decorative or disabled", at: itemPointer.appending("usage"), fields.value("usage"))
                }
            }
            let level = decodeLevel(&fields, at: itemPointer)
            var check = Check(id: "", foreground: foreground ?? "", background: background ?? "", usage: usage, level: level,
                              pointer: itemPointer, location: item.location)
            check.description = string(&fields, "description", what: "a check")
            check.backdrop = string(&fields, "backdrop", what: "a check")
            check.assumed = string(&fields, "assumed", what: "a check")
            if let apca = fields.value("apca") {
                if case .number(let v, _) = apca, v > 0, v <= 110 { check.apcaMinimum = v } else {
                    problem(.invalidValue, "\"apca\" must be the minimum |Lc|, a number from 1 to 110 (like 60), found \(apca.typeName)", at: itemPointer.appending("apca"), apca)
                }
            }
            if let size = fields.value("fontSize") {
                switch size {
                case .string(let text, _) where FontSize(parsing: text) != nil: check.fontSize = FontSize(parsing: text)
                case .number(let px, _) where px > 0: check.fontSize = FontSize(pixels: px)
                default:
                    problem(.invalidValue, "\"fontSize\" must be a size like \"16px\" or \"12pt\", found \(size.stringValue.map { "\"\($0)\"" } ?? size.typeName)", at: itemPointer.appending("fontSize"), size)
                }
            }
            if let weight = fields.value("fontWeight") {
                if case .number(let w, _) = weight, w >= 1, w <= 1000, w == w.rounded() { check.fontWeight = Int(w) } else {
                    problem(.invalidValue, "\"fontWeight\" must be a number from 1 to 1000 (400 regular, 700 bold)", at: itemPointer.appending("fontWeight"), weight)
                }
            }
            check.file = file
            if let minimum = fields.value("minimumRatio") {
                if case .number(let v, _) = minimum, v >= 1, v <= 21 { check.minimumRatio = v } else {
                    problem(.invalidValue, "\"minimumRatio\" must be a contrast ratio from 1 to 21 (4.5 for \"4.5:1\")", at: itemPointer.appending("minimumRatio"), minimum)
                }
            }
            if let except = fields.value("except") {
                if case .array(let patterns, _) = except, patterns.allSatisfy({ $0.stringValue != nil }) {
                    check.except = patterns.compactMap(\.stringValue)
                } else {
                    problem(.wrongType, "\"except\" must be an array of token-name globs like [\"*.disabled\"]", at: itemPointer.appending("except"), except)
                }
                if !check.isRule {
                    problem(.invalidValue, "\"except\" applies only to rule checks, whose foreground or background is a glob like \"fgColor.*\"", at: itemPointer.appending("except"), except)
                }
            }
            check.themes = decodeThemeList(&fields, at: itemPointer)
            if let palettes = fields.value("palettes") {
                if case .array(let names, _) = palettes, names.allSatisfy({ $0.stringValue != nil }) {
                    check.palettes = names.compactMap(\.stringValue)
                } else {
                    problem(.wrongType, "\"palettes\" must be an array of palette names", at: itemPointer.appending("palettes"), palettes)
                }
            }
            check.claim = decodeClaim(&fields, at: itemPointer)
            check.cvd = decodeCVDPolicy(&fields, at: itemPointer)
            let written = string(&fields, "id", what: "a check")
            var id = written ?? "\(check.foreground)-on-\(check.background)"
            // An id is copied into every result of the check (and of each pair a rule expands
            // to): a long one is refused, not copied a million times.
            if written != nil, id.utf8.count > PaletteDecoder.maximumCheckIDBytes {
                problem(.limitExceeded, "check id \"\(id.excerpt(60))\" is \(id.utf8.count) bytes; an id is at most \(PaletteDecoder.maximumCheckIDBytes)",
                        at: itemPointer.appending("id"), fields.value("id") ?? item)
                id = id.excerpt(60)
            }
            if ids.contains(id) {
                problem(.duplicateName, "check id \"\(id)\" is used twice; give each check a unique \"id\"", at: itemPointer.appending("id"), fields.value("id") ?? item)
            }
            ids.insert(id)
            check.id = id
            finish(fields, allowed: PaletteDecoder.checkFields, what: "a check")
            if foreground != nil && background != nil { checks.append(check) }
        }
        return checks
    }

    mutating func decodeLevel(_ fields: inout Fields, at pointer: JSONPointer) -> WCAGLevel {
        guard let text = string(&fields, "level", what: "an entry") else { return .AA }
        if let level = WCAGLevel(name: text) { return level }
        problem(.invalidValue, "\"\(text)\" is not a level; expected AA or AAA", at: pointer.appending("level"), fields.value("level"))
        return .AA
    }

    mutating func decodeThemeList(_ fields: inout Fields, at pointer: JSONPointer) -> [String]? {
        guard let value = fields.value("themes") else { return nil }
        guard case .array(let items, _) = value, items.allSatisfy({ $0.stringValue != nil }) else {
            problem(.wrongType, "\"themes\" must be an array of theme names", at: pointer.appending("themes"), value)
            return nil
        }
        return items.compactMap(\.stringValue)
    }

    static let claimFields = ["ratio", "minimumRatio", "level", "quote", "where"]

    mutating func decodeClaim(_ fields: inout Fields, at pointer: JSONPointer) -> Claim? {
        guard let value = fields.value("claim") else { return nil }
        let claimPointer = pointer.appending("claim")
        guard let members = value.members else {
            problem(.wrongType, "\"claim\" must be an object like {\"ratio\": 6.8, \"level\": \"AAA\"}, found \(value.typeName)", at: claimPointer, value)
            return nil
        }
        var claimFields = Fields(members, claimPointer)
        var claim = Claim()
        for key in ["ratio", "minimumRatio"] {
            if let number = claimFields.value(key) {
                if case .number(let v, _) = number, v >= 1, v <= 21 {
                    if key == "ratio" { claim.ratio = v } else { claim.minimumRatio = v }
                } else {
                    problem(.invalidValue, "\"\(key)\" must be a contrast ratio from 1 to 21 (6.8 for \"6.8:1\")", at: claimPointer.appending(key), number)
                }
            }
        }
        if let level = string(&claimFields, "level", what: "a claim") {
            if WCAGLevel(name: level) != nil { claim.level = level.uppercased() } else {
                problem(.invalidValue, "\"\(level)\" is not a level; expected AA or AAA", at: claimPointer.appending("level"), claimFields.value("level"))
            }
        }
        claim.quote = string(&claimFields, "quote", what: "a claim")
        claim.where = string(&claimFields, "where", what: "a claim")
        finish(claimFields, allowed: PaletteDecoder.claimFields, what: "a claim")
        if claim.ratio == nil && claim.minimumRatio == nil && claim.level == nil {
            problem(.invalidValue, "a claim must state a \"ratio\", a \"minimumRatio\" or a \"level\"", at: claimPointer, value)
            return nil
        }
        return claim
    }

    static let badgeFields = ["name", "background", "text", "border", "level", "themes", "claim"]

    mutating func decodeBadges(_ value: JSONValue, at pointer: JSONPointer) -> [Badge] {
        guard case .array(let items, _) = value else {
            problem(.wrongType, "\"badges\" must be an array of badges, found \(value.typeName)", at: pointer, value)
            return []
        }
        var badges: [Badge] = []
        var names: Set<String> = []
        for (index, item) in items.enumerated() {
            let itemPointer = pointer.appending(index)
            guard let members = item.members else {
                problem(.wrongType, "a badge must be an object with \"name\", \"background\" and \"text\", found \(item.typeName)", at: itemPointer, item)
                continue
            }
            var fields = Fields(members, itemPointer)
            let name = string(&fields, "name", required: true, what: "a badge")
            let background = string(&fields, "background", required: true, what: "a badge")
            let text = string(&fields, "text", required: true, what: "a badge")
            var badge = Badge(name: name ?? "", background: background ?? "", text: text ?? "", pointer: itemPointer, location: item.location)
            badge.border = string(&fields, "border", what: "a badge")
            badge.level = decodeLevel(&fields, at: itemPointer)
            badge.themes = decodeThemeList(&fields, at: itemPointer)
            badge.claim = decodeClaim(&fields, at: itemPointer)
            finish(fields, allowed: PaletteDecoder.badgeFields, what: "a badge")
            if let name {
                if names.contains(name) {
                    problem(.duplicateName, "badge \"\(name)\" is defined twice", at: itemPointer.appending("name"), fields.value("name"))
                    continue
                }
                names.insert(name)
            }
            if name != nil && background != nil && text != nil { badges.append(badge) }
        }
        return badges
    }

    // MARK: Checks documents

    mutating func setFile(_ path: String?) { file = path }

    var problemsSoFar: [PaletteProblem] { problems }

    /// `{"checks": [...], "badges": [...]}`, the checks that go with a standalone token file.
    public mutating func checksAndBadges(_ document: JSONValue, at pointer: JSONPointer = JSONPointer()) -> (checks: [Check], badges: [Badge]) {
        guard let members = document.members else {
            problem(.wrongType, "a checks document must be an object with \"checks\" (and optionally \"badges\"), found \(document.typeName)", at: pointer, document)
            return ([], [])
        }
        var fields = Fields(members, pointer)
        let checks = fields.value("checks").map { decodeChecks($0, at: pointer.appending("checks")) } ?? []
        let badges = fields.value("badges").map { decodeBadges($0, at: pointer.appending("badges")) } ?? []
        if let names = fields.value("themeNames") {
            if let members = names.members {
                for member in members {
                    guard let to = member.value.stringValue, !to.isEmpty else {
                        problem(.wrongType, "\"themeNames\" maps a theme's name to a new name (a string), found \(member.value.typeName) for \"\(member.key)\"", at: pointer.appending("themeNames").appending(member.key), member.value)
                        continue
                    }
                    themeRenames.append((member.key, to, pointer.appending("themeNames").appending(member.key), member.value.location))
                }
            } else {
                problem(.wrongType, "\"themeNames\" must be an object like {\"dark_dimmed\": \"dimmed\"}, found \(names.typeName)", at: pointer.appending("themeNames"), names)
            }
        }
        if let ignore = fields.value("ignoreProperties") {
            if case .array(let items, _) = ignore, items.allSatisfy({ $0.stringValue != nil }) {
                ignoredProperties += items.compactMap(\.stringValue)
            } else {
                problem(.wrongType, "\"ignoreProperties\" must be an array of property names declared harmless, like [\"modify\"], found \(ignore.typeName)", at: pointer.appending("ignoreProperties"), ignore)
            }
        }
        finish(fields, allowed: ChecksDocumentFormat.members, what: "a checks document")
        return (checks, badges)
    }
}
