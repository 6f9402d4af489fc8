import ColorScience
import TokenSources

/// What an audit measures in one theme: each check, badge and relation as an ``Auditor/Item``.
extension Auditor {
    // MARK: Items

    /// A check or a badge's implied check, in one shape.
    struct Item {
        var id: String
        var kind: CheckKind
        var description: String?
        var foreground: String
        var background: String
        var usage: ContrastUsage
        var level: WCAGLevel
        var apcaMinimum: Double?
        var fontSize: FontSize?
        var fontWeight: Int?
        var backdrop: String?
        var themes: [String]?
        var assumed: String?
        var claim: Claim?
        var pointer: JSONPointer
        var location: SourceLocation?
        var minimumRatio: Double?
        var file: String?
        /// Which relation of a focus or link check the item measures (``RelationName``).
        var relation: String?
        /// A requirement the relation fixes (SC 2.4.13, G183), in place of usage and level.
        var fixed: FixedRequirement?
        /// Measured and reported, never failing (SC 2.4.13 of a focus check at level AA).
        var exempt = false
        /// The check's own policy for contrast lost under a color-vision deficiency.
        var cvd: CVDPolicy?
        /// For a pair of a `distinct` group: the threshold and deficiencies.
        var distinct: CheckRelation.Distinct?

        func applies(to theme: String) -> Bool { themes.map { $0.contains(theme) } ?? true }
    }

    /// An expansion that would make more items than the caller allows: the least it would make.
    struct ExpansionLimit: Error {
        var atLeast: Int
    }

    /// The checks and badges of a palette that apply to one theme, with rule checks expanded
    /// over that theme's tokens. `ruleMatches` counts each rule's pairs over every theme.
    /// `room` is the most items the caller takes: a rule or a relation that would expand past
    /// it throws before a single pair is made (a `distinct: ["*"]` over 1,414 tokens built its
    /// million pairs, 1 GB, before the audit counted them).
    static func items(of palette: Palette, theme: String, tokens: [String], problems: inout [PaletteProblem], ruleMatches: inout [String: Int],
                      room: Int = .max, badgeGroups: BadgeGroups = BadgeGroups()) throws(ExpansionLimit) -> [Item] {
        var items: [Item] = []
        // Problems are said once, looked up in a set: 20,000 one-member "distinct" checks each
        // searched the whole list (113 s).
        var said = Set(problems)
        for check in palette.checks where check.applies(to: theme) {
            if case .pair = check.relation {} else {
                var found: [PaletteProblem] = []
                items += try relationItems(check, palette: palette, tokens: tokens, problems: &found, ruleMatches: &ruleMatches, room: room - items.count)
                for problem in found where said.insert(problem).inserted { problems.append(problem) }
                continue
            }
            var item = Item(id: check.id, kind: .check, description: check.description?.excerpt(280), foreground: check.foreground,
                            background: check.background, usage: check.effectiveUsage, level: check.level, apcaMinimum: check.apcaMinimum,
                            fontSize: check.fontSize, fontWeight: check.fontWeight, backdrop: check.backdrop, themes: check.themes,
                            assumed: check.assumed?.excerpt(280), claim: check.claim, pointer: check.pointer, location: check.location,
                            minimumRatio: check.minimumRatio, file: check.file)
            item.cvd = check.cvd
            guard check.isRule else {
                items.append(item)
                continue
            }
            let foregrounds = CheckRule.side(check.foreground, tokens: tokens, except: check.except)
            let backgrounds = CheckRule.side(check.background, tokens: tokens, except: check.except)
            let count = foregrounds.count * backgrounds.count
            if count > CheckRule.maximumPairsPerRule {
                let problem = PaletteProblem(.limitExceeded, "rule \"\(check.id)\" would expand to \(count) pairs (\(foregrounds.count) foregrounds × \(backgrounds.count) backgrounds); the limit is \(CheckRule.maximumPairsPerRule) per rule. Narrow its globs or add \"except\"",
                                             file: check.file ?? palette.file, pointer: check.pointer, location: check.location)
                if said.insert(problem).inserted { problems.append(problem) }
                ruleMatches[check.id, default: 0] += count  // it matched (too much): not also an empty rule
                continue
            }
            if count > room - items.count {
                // A token is never paired with itself: the pairs the rule would make.
                let pairs = count - Set(foregrounds).intersection(backgrounds).count
                if pairs > room - items.count { throw ExpansionLimit(atLeast: items.count + pairs) }
            }
            for fg in foregrounds {
                for bg in backgrounds where fg != bg {
                    var expanded = item
                    expanded.id = CheckRule.expandedID(check.id, foreground: fg, background: bg)
                    expanded.foreground = fg
                    expanded.background = bg
                    items.append(expanded)
                    ruleMatches[check.id, default: 0] += 1
                }
            }
        }
        let shown = palette.badges.indices.filter { palette.badges[$0].themes.map { $0.contains(theme) } ?? true }
        let themeBadges = shown.map { palette.badges[$0] }
        for badge in themeBadges {
            items.append(Item(id: "badge:\(badge.name)", kind: .badge, description: "Badge \"\(badge.name)\": its text on its background",
                              foreground: badge.text, background: badge.background, usage: .text, level: badge.level,
                              themes: badge.themes, claim: badge.claim, pointer: badge.pointer, location: badge.location))
            if let border = badge.border {
                items.append(Item(id: "badge:\(badge.name):border", kind: .badgeBorder,
                                  description: "Badge \"\(badge.name)\": its border against its background",
                                  foreground: border, background: badge.background,
                                  usage: palette.badgeBordersCarryMeaning ? .nonText : .decorative, level: .AA,
                                  themes: badge.themes, pointer: badge.pointer.appending("border"), location: badge.location))
            }
        }
        items += badgeGroups.items(for: shown) { badgeGroupItems(themeBadges, palette: palette) }
        return items
    }

    /// The badge-group checks of an audit's themes, made once for each set of badges a theme
    /// shows (nearly always all of them): each pair's id and description were made again for
    /// every theme.
    final class BadgeGroups {
        private var made: [[Int]: [Item]] = [:]

        func items(for badges: [Int], _ make: () -> [Item]) -> [Item] {
            if let known = made[badges] { return known }
            let items = make()
            made[badges] = items
            return items
        }
    }

    static func assumptions(of palette: Palette) -> [Assumption] {
        var list: [Assumption] = []
        var byToken: [String: Int] = [:]
        for theme in palette.themes {
            for token in theme.tokens {
                let ignored = token.unappliedProperties.filter { palette.ignoredProperties.contains($0.name) }.map { "\"\($0.name)\"" }
                let declared = ignored.isEmpty ? nil : "its property \(ignored.joined(separator: ", ")) is not applied: declared harmless by ignoreProperties"
                guard let reason = [token.assumed, declared].compactMap({ $0 }).joined(separator: "; ").nilIfEmpty else { continue }
                let key = "\(token.name)|\(token.value)|\(reason)"
                if let index = byToken[key] {
                    list[index].themes?.append(theme.name)
                } else {
                    byToken[key] = list.count
                    list.append(Assumption(token: token.name, themes: [theme.name], value: token.value, reason: reason, pointer: token.pointer))
                }
            }
        }
        for check in palette.checks {
            if let reason = check.assumed {
                list.append(Assumption(check: check.id, reason: reason, pointer: check.pointer.appending("assumed")))
            }
        }
        return list
    }
}
