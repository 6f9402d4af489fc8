/// Where the listed values are written in the document: what an editor needs to change a
/// token, a check's color or add an override by replacing bytes, without reading the document
/// a second time with a reader of its own (which would disagree with this one on JSON5, or on
/// a stylesheet).
extension TokenListing {
    /// Sets the ``Entry/span`` of every token written in `document` (the text `palette` was read
    /// from: a JSON or JSON5 document, or a stylesheet), the ``overrideParents`` where
    /// overrides of inherited tokens go in a JSON palette, and ``checkColors`` (the color fields
    /// of its checks and badges).
    ///
    /// Tokens written in other files (imports, `$ref`s) get no span. A JSON document that does
    /// not parse gets none at all (its listing has the syntax error as a problem).
    public mutating func locate(in document: [UInt8], palette: Palette, stylesheet: Bool) {
        // The listing's themes are the palette's, in order, each with its own tokens in order.
        guard themes.count == palette.themes.count,
              zip(themes, palette.themes).allSatisfy({ $0.tokens.count == $1.tokens.count }) else { return }
        // Byte ranges first; lines and columns for all of them at the end, in one pass.
        var tokenRanges: [(theme: Int, token: Int, range: Range<Int>)] = []
        var parentRanges: [(pointer: JSONPointer, range: Range<Int>, membersEnd: Int)] = []
        var checkRanges: [(pointer: JSONPointer, range: Range<Int>, owner: String?)] = []
        // A DTCG color object's members (`components/0`…, `alpha`, `hex`, `colorSpace`).
        var memberRanges: [(theme: Int, token: Int, member: String, range: Range<Int>)] = []
        if stylesheet {
            var offsets = Set<Int>()
            for theme in palette.themes {
                for token in theme.tokens where token.file == nil { if let l = token.location { offsets.insert(l.offset) } }
            }
            let ranges = StylesheetReader.valueRanges(in: document, declarationsAt: offsets)
            for (t, theme) in palette.themes.enumerated() {
                for (i, token) in theme.tokens.enumerated() where token.file == nil {
                    if let offset = token.location?.offset, let range = ranges[offset] { tokenRanges.append((t, i, range)) }
                }
            }
        } else {
            var repeated: [JSONParser.DuplicateKey] = []  // said by the read; the spans follow the value read
            guard let root = try? JSONParser.parse(document, duplicates: &repeated) else { return }
            guard let chains = overrideChains(palette) else { return }
            // The pointers wanted, found in one walk of the document.
            var wanted = Set<String>()
            for theme in palette.themes {
                for token in theme.tokens where token.file == nil { wanted.insert(token.pointer.description) }
            }
            for chain in chains { for pointer in chain { wanted.insert(pointer.description) } }
            let (checkFields, owners) = Self.checkColorFields(palette)
            for field in checkFields { wanted.insert(field.description) }
            let found = Self.values(in: root, at: wanted)

            func range(_ value: JSONValue) -> Range<Int>? {
                guard let end = try? JSONParser.endOfValue(startingAt: value.location, in: document) else { return nil }
                return value.location.offset..<end.offset
            }
            for (t, theme) in palette.themes.enumerated() {
                for (i, token) in theme.tokens.enumerated() where token.file == nil {
                    if let value = found[token.pointer.description], let r = range(value) {
                        tokenRanges.append((t, i, r))
                        for (member, r) in Self.colorMemberRanges(of: value, range: range) { memberRanges.append((t, i, member, r)) }
                    }
                }
            }
            // Many overrides go into one object: each is listed once.
            var listed = Set<String>()
            for chain in chains {
                // The deepest object on the way that is written.
                guard let parent = chain.first(where: { found[$0.description] != nil }),
                      let value = found[parent.description], listed.insert(parent.description).inserted,
                      case .object(let members, _) = value, let r = range(value) else { continue }
                // A new member goes after the last one's value (before any comma or comment
                // that follows it), or just inside an empty object's `{`.
                if let last = members.last {
                    if let end = range(last.value)?.upperBound { parentRanges.append((parent, r, end)) }
                } else {
                    parentRanges.append((parent, r, r.lowerBound + 1))
                }
            }
            for field in checkFields {
                if let value = found[field.description], case .string = value, let r = range(value) { checkRanges.append((field, r, owners[field.description])) }
            }
        }
        let starts = tokenRanges.map(\.range.lowerBound) + parentRanges.map(\.range.lowerBound) + checkRanges.map(\.range.lowerBound)
            + memberRanges.map(\.range.lowerBound)
        let positions = LineLocator.positions(of: starts, in: document)
        func span(_ range: Range<Int>) -> Span {
            let position = positions[range.lowerBound] ?? (line: 1, column: 1)
            return Span(start: range.lowerBound, end: range.upperBound, line: position.line, column: position.column)
        }
        for (t, i, range) in tokenRanges { themes[t].tokens[i].span = span(range) }
        for (t, i, member, range) in memberRanges {
            var members = themes[t].tokens[i].members ?? ColorMembers()
            switch member {
            case "colorSpace": members.colorSpace = span(range)
            case "alpha": members.alpha = span(range)
            case "hex": members.hex = span(range)
            default: members.components = (members.components ?? []) + [span(range)]  // in order
            }
            themes[t].tokens[i].members = members
        }
        if !stylesheet {
            checkColors = checkRanges.map { Place(owner: $0.owner, pointer: $0.pointer, span: span($0.range)) }
            overrideParents = parentRanges.sorted { $0.pointer < $1.pointer }.map { OverrideParent(pointer: $0.pointer, span: span($0.range), membersEnd: $0.membersEnd) }
        }
    }

    /// Where a DTCG color object's members are written (`colorSpace`, `components/0`…,
    /// `alpha`, `hex`), by `range`; none for a value that is no object, and none for a member
    /// written twice (the whole value is rewritten then).
    static func colorMemberRanges(of value: JSONValue, range: (JSONValue) -> Range<Int>?) -> [(member: String, range: Range<Int>)] {
        guard case .object(let members, _) = value else { return [] }
        var found: [(member: String, range: Range<Int>)] = []
        for name in ["colorSpace", "components", "alpha", "hex"] {
            let written = members.filter { $0.key == name }
            guard written.count == 1, let member = written.first else { continue }  // a repeated key: the whole value is rewritten
            if name == "components" {
                guard case .array(let items, _) = member.value else { continue }
                let ranges = items.map { item -> Range<Int>? in
                    if case .number = item { return range(item) }
                    return nil
                }
                guard !ranges.isEmpty, ranges.allSatisfy({ $0 != nil }) else { continue }
                for (k, r) in ranges.enumerated() { found.append(("components/\(k)", r!)) }
            } else if let r = range(member.value) {
                found.append((name, r))
            }
        }
        return found
    }

    /// For each object an override of an inherited token goes in, the objects on the way up
    /// from it to the root, deepest first; nil when the read's budget runs out.
    func overrideChains(_ palette: Palette) -> [[JSONPointer]]? {
        // Each theme's own tokens by name, to find the one an inherited token comes from.
        var own: [String: [String: Token]] = [:]
        for theme in palette.themes {
            own[theme.name] = Dictionary(theme.tokens.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        // The objects on the way up from where an override of each inherited token goes to
        // the root, deepest first: once for each object an override goes in (the override's
        // own pointer is not written, the token being inherited), so that a thousand themes
        // inheriting 4,000 tokens hold a chain per theme's tokens object, not 4 million.
        var chains: [[JSONPointer]] = []
        var chained = Set<String>()
        for (t, theme) in palette.themes.enumerated() {
            for inherited in themes[t].inherited {
                guard let token = own[inherited.from]?[inherited.name], token.file == nil,
                      let target = Palette.overridePointer(of: token.pointer, in: theme.name), !target.segments.isEmpty else { continue }
                var segments = target.segments
                segments.removeLast()
                guard chained.insert(JSONPointer(segments).description).inserted else { continue }
                var chain = [JSONPointer(segments)]
                while !segments.isEmpty {
                    segments.removeLast()
                    chain.append(JSONPointer(segments))
                }
                guard ReadBudget.charge(chain.count * (128 + 32 * chain.count), for: "the places of the listing's overrides", file: palette.file) else { return nil }
                chains.append(chain)
            }
        }
        return chains
    }

    /// The color fields of the document's checks and badges, sorted, with the check (or
    /// `badge:NAME`) each belongs to.
    static func checkColorFields(_ palette: Palette) -> (fields: [JSONPointer], owners: [String: String]) {
        let colorFields = CheckKind.all.map(\.foregroundField) + ["background"]
        var checkFields: [JSONPointer] = [], seen = Set<String>(), owners: [String: String] = [:]
        for check in palette.checks where check.file == nil && !check.pointer.segments.isEmpty {
            for field in colorFields {
                let pointer = check.pointer.appending(field)
                if seen.insert(pointer.description).inserted { checkFields.append(pointer); owners[pointer.description] = check.id }
            }
        }
        // A badge's colors are measured as a check's are (its text and border on its
        // background): each is a place a fix goes.
        for badge in palette.badges where !badge.pointer.segments.isEmpty {
            for field in ["text", "background", "border"] {
                let pointer = badge.pointer.appending(field)
                if seen.insert(pointer.description).inserted { checkFields.append(pointer); owners[pointer.description] = "badge:\(badge.name)" }
            }
        }
        checkFields.sort()
        return (checkFields, owners)
    }

    /// The values of `root` at the pointers `wanted` (as text), found in one walk that enters
    /// only the members on the way to one of them.
    static func values(in root: JSONValue, at wanted: Set<String>) -> [String: JSONValue] {
        var onTheWay = Set<String>()
        for pointer in wanted {
            onTheWay.insert(pointer)
            var index = pointer.endIndex
            while let slash = pointer[..<index].lastIndex(of: "/") {
                onTheWay.insert(String(pointer[..<slash]))
                index = slash
            }
        }
        var found: [String: JSONValue] = [:]
        var stack: [(String, JSONValue)] = [("", root)]
        while let (pointer, value) = stack.popLast() {
            if wanted.contains(pointer) { found[pointer] = value }
            switch value {
            case .object(let members, _):
                for member in members {
                    let key = member.key.contains(where: { $0 == "~" || $0 == "/" })
                        ? member.key.replacing("~", with: "~0").replacing("/", with: "~1") : member.key
                    let child = pointer + "/" + key
                    if onTheWay.contains(child) { stack.append((child, member.value)) }
                }
            case .array(let items, _):
                for (index, item) in items.enumerated() {
                    let child = pointer + "/" + String(index)
                    if onTheWay.contains(child) { stack.append((child, item)) }
                }
            default:
                break
            }
        }
        return found
    }
}

/// Lines and columns of byte offsets in a text.
private enum LineLocator {
    /// The line and column (from 1, the column in characters) of each offset, found in one
    /// pass over the text in offset order: linear, however long its lines.
    static func positions(of offsets: [Int], in bytes: [UInt8]) -> [Int: (line: Int, column: Int)] {
        var result: [Int: (line: Int, column: Int)] = [:]
        var line = 1, column = 1, position = 0
        for offset in Set(offsets).sorted() {
            let target = min(offset, bytes.count)
            var from = position
            while position < target {
                if bytes[position] == 0x0A {
                    line += 1
                    column = 1
                    from = position + 1
                }
                position += 1
            }
            column += String(decoding: bytes[from..<target], as: UTF8.self).count
            result[offset] = (line, column)
        }
        return result
    }
}
