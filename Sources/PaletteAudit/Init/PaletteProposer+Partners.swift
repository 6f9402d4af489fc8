import ColorScience
import TokenSources

/// Named partners: the background a foreground's name says it sits on.
extension PaletteProposer {
    /// The foregrounds named for the background they sit on (on-X, X-foreground, and an on-X
    /// on each variant named alike), those foregrounds, and each background's own text tokens.
    func namedPartners() -> (partnerOf: [(name: String, partner: String, word: String)], partnered: Set<String>, ownText: [String: Set<String>]) {
        var partnerOf: [(name: String, partner: String, word: String)] = []
        var partneredSet: Set<String> = []
        var ownText: [String: Set<String>] = [:]
        for name in allNames {
            guard let role = roles[name], role.role == .foreground, !role.disabled, let partner = partner(of: name, role: role) else { continue }
            guard !themesHaving([name, partner]).isEmpty else { continue }
            partnerOf.append((name, partner, Self.sitsOnRange(of: name) != nil ? "on" : role.word ?? ""))
            partneredSet.insert(name)
            ownText[partner, default: []].insert(name)
        }
        // An on-X whose X is a variant (`fgColor.onEmphasis` on `bgColor.emphasis`) sits on
        // that variant of every family named alike (`bgColor.accent.emphasis`,
        // `display.blue.bgColor.emphasis`): the same role segment, the same last word, and no
        // text of their own.
        let firstPass = ownText
        var variants: [String: [String]] = [:]
        for name in allNames where roles[name]?.role == .background && !(roles[name]?.disabled ?? true) && firstPass[name] == nil {
            guard let segment = roleSegment(of: name), let last = tailWords(of: name).last else { continue }
            variants[segment + "\u{0}" + last, default: []].append(name)
        }
        for (name, partner, word) in partnerOf where word == "on" {
            guard let segment = roleSegment(of: partner), let tail = tailWords(of: partner).first, tailWords(of: partner).count == 1,
                  let onRange = Self.sitsOnRange(of: name) else { continue }
            let after = TokenNameRole.words(of: name).filter { $0.range.lowerBound > onRange.lowerBound }
            guard after.count == 1, after[0].text.lowercased() == tail else { continue }
            for other in variants[segment + "\u{0}" + tail] ?? [] where other != partner && !themesHaving([name, other]).isEmpty {
                partnerOf.append((name, other, "on"))
                ownText[other, default: []].insert(name)
            }
        }
        return (partnerOf, partneredSet, ownText)
    }

    /// The background `name` is named for: `on-primary` → `primary`, `colorOnPrimary` →
    /// `colorPrimary`, `card-foreground` → `card`, when that token exists and is no foreground.
    func partner(of name: String, role: TokenNameRole) -> String? {
        guard let word = role.word, let range = role.wordRange else { return nil }
        let bytes = Array(name.utf8)
        let separators: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/")]
        var candidates: [String] = []
        switch word.lowercased() {
        case "on":
            // Drop the word and the separator after it.
            var end = range.upperBound
            if end < bytes.count, separators.contains(bytes[end]) { end += 1 }
            let rest = Array(bytes[end...])
            let head = Array(bytes[..<range.lowerBound])
            candidates.append(String(decoding: head + rest, as: UTF8.self))
            // `onPrimary` at the start: `primary`.
            if head.isEmpty, let first = rest.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") {
                candidates.append(String(decoding: [first + 32] + rest.dropFirst(), as: UTF8.self))
            }
        case "foreground", "fg":
            // (`fgColor.onEmphasis` is no X-fg: it is asked below what it sits on.)
            guard range.upperBound == bytes.count || separators.contains(bytes[range.upperBound]) else { break }
            var start = range.lowerBound
            if start > 0, separators.contains(bytes[start - 1]) { start -= 1 }
            guard start > 0 else { break }
            candidates.append(String(decoding: bytes[..<start] + bytes[range.upperBound...], as: UTF8.self))
        default:
            break
        }
        let found = candidates.first { candidate in
            candidate != name && roles[candidate].map { $0.role != .foreground && $0.role != .nonText && !$0.disabled } ?? false
        }
        return found ?? sitsOnPartner(of: name, role: role)
    }

    /// The background a foreground named by another word (`text`) sits on, when the name also
    /// says `on X`: X in the background group the name's role word stands for
    /// (`color.text.on-brand` → `color.background.brand`; Figma's `color.text.brand.on-brand` →
    /// `color.background.brand.default`), when that token exists and is no foreground.
    func sitsOnPartner(of name: String, role: TokenNameRole) -> String? {
        guard let onRange = Self.sitsOnRange(of: name), let roleRange = role.wordRange, roleRange.upperBound <= onRange.lowerBound,
              let roleWord = role.word, TokenNameRole.foregroundWords.contains(roleWord.lowercased()) else { return nil }
        let bytes = Array(name.utf8)
        var restStart = onRange.upperBound
        if restStart < bytes.count, !bytes[restStart].isLetterOrDigit { restStart += 1 }
        var headEnd = onRange.lowerBound
        // No separator before `On` (`textOnBrand`): camelCase, the rest joined as written.
        var separator = ""
        if headEnd > 0, !bytes[headEnd - 1].isLetterOrDigit {
            separator = String(UnicodeScalar(bytes[headEnd - 1]))
            headEnd -= 1
        }
        guard restStart < bytes.count, headEnd >= roleRange.upperBound else { return nil }
        let rest = String(decoding: bytes[restStart...], as: UTF8.self)
        let before = String(decoding: bytes[..<roleRange.lowerBound], as: UTF8.self)
        let after = String(decoding: bytes[roleRange.upperBound..<headEnd], as: UTF8.self)
        let capitalized = roleWord.first?.isUppercase == true
        var candidates: [String] = []
        for word in ["background", "bg", "surface"] {
            let head = before + (capitalized ? word.prefix(1).uppercased() + word.dropFirst() : word) + after
            candidates += [head + separator + rest, head + separator + rest + separator + "default"]
            // `fgColor.onEmphasis`: the word after a camel-case `on` is capitalized only by the join.
            if separator.isEmpty == false, let first = rest.first, first.isUppercase {
                candidates.append(head + separator + first.lowercased() + rest.dropFirst())
            }
            // `color.text.brand.on-brand`: the family is already in the group, so its default;
            // `color.text.brand.on-brand-secondary`: the family's `secondary`.
            let family = after.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).last.map(String.init)
            if let family, !separator.isEmpty {
                if rest == family { candidates += [head + separator + "default", head] }
                for joiner in ["-", "_"] where rest.hasPrefix(family + joiner) {
                    let variant = String(rest.dropFirst(family.count + 1))
                    candidates += [head + separator + variant]
                }
            }
        }
        return candidates.first { candidate in
            candidate != name && roles[candidate].map { $0.role == .background && !$0.disabled } ?? false
        }
    }

    /// Where an `on` word with a word after it is in `name` (`on-brand`, `onBrand`), if any.
    static func sitsOnRange(of name: String) -> Range<Int>? {
        let words = TokenNameRole.words(of: name)
        for (index, word) in words.enumerated() where word.text.lowercased() == "on" && index + 1 < words.count {
            return word.range
        }
        return nil
    }
}

private extension UInt8 {
    var isLetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || self >= 0x80
    }
}
