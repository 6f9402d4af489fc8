import ColorScience
import TokenSources

/// The names of the relations a focus or link check measures, as results report them.
public enum RelationName {
    /// The focus indicator against a surface it is drawn on (SC 1.4.11).
    public static let adjacent = "adjacent"
    /// The focus indicator against the unfocused color of the same pixels (SC 2.4.13).
    public static let change = "change"
    /// The link against the text around it (G183, SC 1.4.1).
    public static let linkVersusText = "link-vs-text"
    /// The link against the background (SC 1.4.3, or 1.4.6 at AAA).
    public static let linkOnBackground = "link-on-background"
    /// The text around the link against the background.
    public static let textOnBackground = "text-on-background"
}

extension Auditor {
    /// The results a `distinct`, `focus` or `link` check expands to in one theme.
    static func relationItems(_ check: Check, palette: Palette, tokens: [String], problems: inout [PaletteProblem],
                              ruleMatches: inout [String: Int], room: Int = .max) throws(ExpansionLimit) -> [Item] {
        func names(_ references: [String]) -> [String] {
            var seen: Set<String> = []
            return references.flatMap { CheckRule.side($0, tokens: tokens, except: check.except) }.filter { seen.insert($0).inserted }
        }
        var items: [Item] = []
        func tooMany(_ count: Int, _ what: String) throws(ExpansionLimit) -> Bool {
            if count <= CheckRule.maximumPairsPerRule && count > room { throw ExpansionLimit(atLeast: count) }
            guard count > CheckRule.maximumPairsPerRule else { return false }
            let problem = PaletteProblem(.limitExceeded, "check \"\(check.id)\" would expand to \(count) \(what); the limit is \(CheckRule.maximumPairsPerRule) per check. Narrow its globs or add \"except\"",
                                         file: check.file ?? palette.file, pointer: check.pointer, location: check.location)
            if !problems.contains(problem) { problems.append(problem) }
            // It matched (too much): not also an empty rule.
            if check.isRule { ruleMatches[check.id, default: 0] += count }
            return true
        }
        // One result of a focus or link check: a pair with the relation it measures.
        var seen: Set<String> = []
        func add(_ kind: CheckKind, _ id: String, _ relation: String, _ fg: String, _ bg: String, usage: ContrastUsage, level: WCAGLevel,
                 fixed: FixedRequirement?, exempt: Bool = false, description: String) {
            guard fg != bg, seen.insert(id).inserted else { return }
            items.append(Item(id: id, kind: kind, description: check.description ?? description, foreground: fg, background: bg,
                              usage: usage, level: level, themes: check.themes, pointer: check.pointer, location: check.location,
                              file: check.file, relation: relation, fixed: fixed, exempt: exempt, cvd: check.cvd))
        }
        switch check.relation {
        case .pair:
            return []
        case .distinct(let group):
            let members = names(group.members)
            if members.count < 2 && !check.isRule {
                // A group of one tells nothing apart: said, not passed over (a glob that matches
                // fewer than two is an empty rule, below).
                let problem = PaletteProblem(.invalidValue, "\"distinct\" check \"\(check.id)\" names \(members.count == 1 ? "one member (\(members[0]))" : "no member"); a group that must stay distinguishable needs at least two",
                                             file: check.file ?? palette.file, pointer: check.pointer.appending("distinct"), location: check.location)
                if !problems.contains(problem) { problems.append(problem) }
                return []
            }
            if try tooMany(members.count * (members.count - 1) / 2, "pairs (\(members.count) members)") { return [] }
            for (i, first) in members.enumerated() {
                for second in members[(i + 1)...] {
                    items.append(Item(id: "\(check.id)[\(first) vs \(second)]", kind: .distinct, description: check.description,
                                      foreground: first, background: second, usage: .nonText, level: check.level, themes: check.themes,
                                      pointer: check.pointer, location: check.location, file: check.file, distinct: group))
                }
            }
        case .focus(let focus):
            let indicators = names([focus.indicator])
            let surfaces = names(focus.adjacent)
            let unfocused = focus.unfocused.map { names([$0]) } ?? []
            if try tooMany(indicators.count * (surfaces.count + unfocused.count), "pairs") { return [] }
            for indicator in indicators {
                for surface in surfaces {
                    add(.focus, "\(check.id)[\(indicator) on \(surface)]", RelationName.adjacent, indicator, surface, usage: .nonText, level: .AA,
                        fixed: nil, description: "The focus indicator against a surface it is drawn on")
                }
                for before in unfocused {
                    add(.focus, "\(check.id)[\(indicator) vs \(before)]", RelationName.change, indicator, before, usage: .nonText, level: .AAA,
                        fixed: FixedRequirement(ratio: 3, criterion: "2.4.13", level: .AAA, technique: nil,
                                                what: "the focused and unfocused states of the indicator's pixels"),
                        exempt: check.level < .AAA, description: "The focus indicator against the same pixels unfocused")
                }
            }
        case .link(let link):
            let links = names([link.link]), texts = names([link.text]), backgrounds = names([link.background])
            if try tooMany(links.count * texts.count * backgrounds.count * 3, "pairs") { return [] }
            func addLink(_ id: String, _ relation: String, _ fg: String, _ bg: String, fixed: FixedRequirement?, description: String) {
                add(.link, id, relation, fg, bg, usage: .text, level: fixed?.level ?? check.level, fixed: fixed, description: description)
            }
            for l in links {
                for t in texts where !link.underlined {
                    addLink("\(check.id)[\(l) vs \(t)]", RelationName.linkVersusText, l, t,
                        fixed: FixedRequirement(ratio: 3, criterion: "1.4.1", level: .A, technique: "G183", what: "the link and the text around it"),
                        description: "A link told apart by color alone, against the text around it (G183)")
                }
                for b in backgrounds {
                    addLink("\(check.id)[\(l) on \(b)]", RelationName.linkOnBackground, l, b, fixed: nil, description: "The link on the background")
                }
            }
            for t in texts {
                for b in backgrounds {
                    addLink("\(check.id)[\(t) on \(b)]", RelationName.textOnBackground, t, b, fixed: nil, description: "The text around the link on the background")
                }
            }
        }
        if check.isRule { ruleMatches[check.id, default: 0] += items.count }
        return items
    }

    /// The badges of a palette form a group that must stay distinguishable: one `distinct`
    /// result per pair of badge backgrounds, with the id `badges[NAME vs NAME]`.
    static func badgeGroupItems(_ badges: [Badge], palette: Palette) -> [Item] {
        guard badges.count >= 2 else { return [] }
        var items: [Item] = []
        for (i, first) in badges.enumerated() {
            for second in badges[(i + 1)...] {
                items.append(Item(id: "badges[\(first.name) vs \(second.name)]", kind: .distinct,
                                  description: "Badges \"\(first.name)\" and \"\(second.name)\": their backgrounds must stay distinguishable",
                                  foreground: first.background, background: second.background, usage: .nonText, level: .AA,
                                  themes: nil, pointer: first.pointer.appending("background"), location: first.location,
                                  distinct: CheckRelation.Distinct(members: [])))
            }
        }
        return items
    }

    /// What a rule check is, for the problem that says it matched nothing.
    static func ruleDescription(_ check: Check) -> String {
        switch check.relation {
        case .pair: "\(check.foreground) on \(check.background)"
        case .distinct(let d): "distinct \(d.members.joined(separator: ", "))"
        case .focus(let f): "focus \(f.indicator) on \(f.adjacent.joined(separator: ", "))"
        case .link(let l): "link \(l.link) in \(l.text) on \(l.background)"
        }
    }
}

// MARK: Color-vision deficiency

extension Auditor {
    /// The lowest WCAG ratio of a measured pair under each audited deficiency, judged against
    /// `required`: `warn` or `fail` (by `policy`) when the pair passes in normal vision and not
    /// under the simulation. With a translucent background over an unknown backdrop, the pair
    /// is simulated over the backdrop that is worst in normal vision.
    static func simulatedContrast(_ m: ContrastMeasurement, required: Double?, normalVerdict: Verdict, policy: CVDPolicy,
                                  deficiencies: [ColorVisionDeficiency] = ColorVisionDeficiency.audited) -> SimulatedContrast? {
        var fg = m.effectiveForeground, bg = m.effectiveBackground
        if fg == nil || bg == nil, let worst = m.worstBackdrop {
            let over = ContrastMeasurement(foreground: m.foreground, background: m.background, backdrop: worst)
            fg = over.effectiveForeground
            bg = over.effectiveBackground
        }
        guard let fg, let bg, !deficiencies.isEmpty else { return nil }
        // Measured in linear light as simulated (no encoding and decoding again), each color
        // decoded once, the ratios on the stack (this runs for every pair of a batch); only the
        // named deficiency's colors are encoded, for the answer.
        let fgLinear = fg.linear, bgLinear = bg.linear
        let found = withUnsafeTemporaryAllocation(of: Double.self, capacity: deficiencies.count) { ratios in
            for (i, deficiency) in deficiencies.enumerated() {
                let f = deficiency.simulatedLinear(linear: fgLinear), b = deficiency.simulatedLinear(linear: bgLinear)
                ratios.initializeElement(at: i, to: WCAG.contrastRatio(luminance: WCAG.relativeLuminance(linear: f), WCAG.relativeLuminance(linear: b)))
            }
            return ColorVisionDeficiency.lowest(count: deficiencies.count) { ratios[$0] }
        }
        guard let named = found else { return nil }
        let lowest = (deficiency: deficiencies[named.index], ratio: named.value)
        let seenForeground = ColorVisionDeficiency.encoded(lowest.deficiency.simulatedLinear(linear: fgLinear), alpha: fg.alpha)
        let seenBackground = ColorVisionDeficiency.encoded(lowest.deficiency.simulatedLinear(linear: bgLinear), alpha: bg.alpha)
        var verdict: String?
        if let required, normalVerdict != .exempt, m.ratio >= required {
            verdict = lowest.ratio >= required ? "pass" : policy == .fail ? "fail" : "warn"
        }
        return SimulatedContrast(deficiency: lowest.deficiency.name, ratio: lowest.ratio, display: RatioFormat.display(lowest.ratio),
                                 foreground: seenForeground.hex, background: seenBackground.hex, verdict: verdict,
                                 deficiencies: deficiencies == ColorVisionDeficiency.audited ? ColorVisionDeficiency.auditedNames : deficiencies.map(\.name))
    }

    /// Two members of a group that must stay distinguishable: `fail` when they are not told
    /// apart in normal vision, or are in normal vision and not under a simulated deficiency.
    /// Translucent members are judged as seen over the theme's backdrop (opaque white when the
    /// theme names none, which the result's assumptions say).
    static func distinctResult(_ item: Item, first: ResolvedColor, second: ResolvedColor, resolver: inout ThemeResolver) -> CheckResult {
        let group = item.distinct ?? CheckRelation.Distinct(members: [])
        let threshold = group.threshold ?? Distinguishability.defaultThreshold
        let deficiencies = group.deficiencies ?? ColorVisionDeficiency.audited
        var assumed: [String] = []
        for colorAssumed in [first.assumed, second.assumed] { if let a = colorAssumed, !assumed.contains(a) { assumed.append(a) } }
        var surface = SRGB.white
        if !(first.color.isOpaque && second.color.isOpaque) {
            if let backdrop = distinctSurface(&resolver) {
                surface = backdrop
            } else {
                assumed.append("translucent members are judged over white (the theme names no backdrop)")
            }
        }
        let a = seenInGroup(first.color, over: surface), b = seenInGroup(second.color, over: surface)
        let assessment = Distinguishability.assess(resolver.distinguishable.prepared(a, under: deficiencies),
                                                   resolver.distinguishable.prepared(b, under: deficiencies), threshold: threshold)
        var reasons: [String] = []
        let metric = Distinguishability.metric
        if assessment.indistinctInNormalVision {
            reasons.append("\(a.hex) and \(b.hex) differ by \(metric) \(format1(assessment.normalDifference)), below the \(CSSNumber.format(threshold)) that tells them apart, even in normal vision")
        } else if assessment.confusable, let deficiency = assessment.worstDeficiency, let d = assessment.simulatedDifference,
                  let sa = assessment.simulatedFirst, let sb = assessment.simulatedSecond {
            reasons.append("confusable under \(deficiency.name): \(metric) \(format1(d)) (seen as \(sa.hex) and \(sb.hex)), below the \(CSSNumber.format(threshold)) that tells them apart; \(format1(assessment.normalDifference)) in normal vision")
        }
        let failed = assessment.indistinctInNormalVision || assessment.confusable
        let ratio = a.contrastRatio(with: b)
        var simulated: CompositedPair?
        if let sa = assessment.simulatedFirst, let sb = assessment.simulatedSecond { simulated = CompositedPair(foreground: sa.hex, background: sb.hex) }
        // Made in the one expression that returns it: a result built and then changed was copied.
        return CheckResult(
            id: item.id, kind: .distinct, description: item.description, usage: item.usage, level: item.level,
            criterion: nil, required: nil, fontSize: nil, fontWeight: nil, foreground: first, background: second, backdrop: nil,
            composited: first.color.isOpaque && second.color.isOpaque ? nil : CompositedPair(foreground: a.hex, background: b.hex),
            ratio: ratio, display: RatioFormat.display(ratio), range: nil, apca: APCA.lightnessContrast(text: a, background: b), apcaRequired: nil,
            achieved: AchievedLevel(ratio: ratio), verdict: failed ? .fail : .pass, reasons: reasons.isEmpty ? nil : reasons,
            claim: nil, suggestions: nil, fixes: nil, assumed: assumed.isEmpty ? nil : assumed, pointer: item.pointer, line: item.location?.line,
            distinction: Distinction(metric: metric, threshold: threshold, difference: rounded(assessment.normalDifference),
                                     deficiency: assessment.worstDeficiency?.name, simulatedDifference: assessment.simulatedDifference.map(rounded),
                                     simulated: simulated, confusable: assessment.confusable, indistinct: assessment.indistinctInNormalVision,
                                     deficiencies: deficiencies == ColorVisionDeficiency.audited ? ColorVisionDeficiency.auditedNames : deficiencies.map(\.name)))
    }

    /// What translucent members of a `distinct` group are seen over: the theme's backdrop
    /// (itself over white when translucent), or nil when the theme names none or it does not
    /// resolve (they are then judged over white, and the result says so). One answer for the
    /// check and for the suggestions weighed against its members.
    static func distinctSurface(_ resolver: inout ThemeResolver) -> SRGB? {
        guard let reference = resolver.theme.backdrop, case .success(let backdrop) = resolver.resolve(reference) else { return nil }
        return backdrop.color.isOpaque ? backdrop.color : backdrop.color.composited(over: .white)
    }

    /// A member of a `distinct` group as its check weighs it: itself when opaque, else
    /// composited over `surface` (``distinctSurface(_:)``, or white). The check, the suggestions
    /// kept clear of its members and `contrast derive` all weigh members so.
    static func seenInGroup(_ color: SRGB, over surface: SRGB) -> SRGB {
        color.isOpaque ? color : color.composited(over: surface)
    }

    /// A difference to four decimals, as reports carry it.
    static func rounded(_ value: Double) -> Double { (value * 10000).rounded() / 10000 }

    /// A difference to one decimal, as messages show it.
    static func format1(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return String(tenths)
    }

    /// A ΔE-OK to three decimals, as the text outputs show it (`0.004`): one formatting for
    /// every one of them.
    static func format3(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return String(value) }
        let thousandths = Int((abs(value) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return (value < 0 && thousandths > 0 ? "-" : "") + "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

// MARK: Suggestions keep groups distinct

/// A suggested color weighed against the partners of one group member.
private struct ClashKey: Hashable {
    var member: String
    var hex: String
}

/// The other member of a passing `distinct` check, named in words only when a suggestion
/// clashes with it.
struct Partner {
    var check: String
    var token: String
    var hex: String
    /// It is the check's second member (a badge pair's background side).
    var second: Bool

    /// Its badge (`badge danger (#d1242f)`) for a badge pair, else its token.
    var name: String {
        if check.hasPrefix("badges["), check.hasSuffix("]"),
           let members = Partner.sides(of: check.dropFirst("badges[".count).dropLast()) {
            return "badge \(second ? members.after : members.before) (\(hex))"
        }
        return token
    }

    /// The text before and after the one ` vs ` in `pair`, or nil when it has none or more than
    /// one. (Found over its bytes, without splitting the string, which is far slower.)
    static func sides(of pair: Substring) -> (before: Substring, after: Substring)? {
        let separator = Array(" vs ".utf8), bytes = pair.utf8
        var matches: [String.Index] = []
        var index = bytes.startIndex
        while index != bytes.endIndex, matches.count < 2 {
            if bytes[index...].starts(with: separator) {
                matches.append(index)
                index = bytes.index(index, offsetBy: separator.count)
            } else {
                index = bytes.index(after: index)
            }
        }
        guard matches.count == 1, let at = matches.first else { return nil }
        // The separator is ASCII, so both ends are between Unicode scalars. (The check's id was
        // joined as `badges[a vs b]`, so its bytes are where to look: `split` would not see a
        // ` vs ` whose last space a combining mark follows.)
        return (pair[..<at], pair[bytes.index(at, offsetBy: separator.count)...])
    }
}

extension Auditor {
    /// Leaves out suggested colors that would make a member of a `distinct` group (or a badge
    /// background) confusable with a partner it is told apart from now, and says so.
    /// `surfaces` holds, for each theme, what its `distinct` checks saw translucent members over
    /// (``distinctSurface(_:)``; white when nil or absent): a translucent partner, or a
    /// translucent suggestion, is weighed as seen there, as the check weighed it.
    static func keepGroupsDistinct(_ themes: inout [ThemeReport], surfaces: [SRGB?]) {
        // The deficiencies of each list of names (most checks name the same ones), read once.
        var deficienciesNamed: [[String]: [ColorVisionDeficiency]] = [:]
        for t in themes.indices {
            // Each partner with its deficiencies read once (not once per suggestion weighed).
            var partners: [String: [(partner: Partner, color: SRGB, threshold: Double, deficiencies: [ColorVisionDeficiency])]] = [:]
            for r in themes[t].results where r.kind == .distinct && r.verdict == .pass {
                guard let d = r.distinction else { continue }
                let a = r.foreground.token ?? r.foreground.reference, b = r.background.token ?? r.background.reference
                if deficienciesNamed[d.deficiencies] == nil {
                    deficienciesNamed[d.deficiencies] = d.deficiencies.compactMap(ColorVisionDeficiency.init(name:))
                }
                let deficiencies = deficienciesNamed[d.deficiencies] ?? []
                partners[a, default: []].append((Partner(check: r.id, token: b, hex: r.background.hex, second: true), r.background.color, d.threshold, deficiencies))
                partners[b, default: []].append((Partner(check: r.id, token: a, hex: r.foreground.hex, second: false), r.foreground.color, d.threshold, deficiencies))
            }
            guard !partners.isEmpty else { continue }
            let surface = (t < surfaces.count ? surfaces[t] : nil) ?? .white
            func seen(_ color: SRGB) -> SRGB { seenInGroup(color, over: surface) }
            // The same color weighed against the same member's partners (another check's
            // suggestion) has the same answer: each is assessed once.
            var clashes: [ClashKey: String?] = [:]
            var prepared = Distinguishability.PreparedColors()
            for i in themes[t].results.indices {
                guard var suggestions = themes[t].results[i].suggestions else { continue }
                let (foreground, background) = (themes[t].results[i].foreground, themes[t].results[i].background)
                var notes = suggestions.notes ?? []
                func clash(_ hex: String, for color: ResolvedColor) -> String? {
                    let member = color.token ?? color.reference
                    guard let list = partners[member] else { return nil }
                    let key = ClashKey(member: member, hex: hex)
                    if let known = clashes[key] { return known }
                    var found: String?
                    if let candidate = (try? SRGB(css: hex)).map(seen) {
                        for partner in list {
                            let a = Distinguishability.assess(prepared.prepared(candidate, under: partner.deficiencies),
                                                              prepared.prepared(seen(partner.color), under: partner.deficiencies), threshold: partner.threshold)
                            if a.confusable || a.indistinctInNormalVision { found = partner.partner.name; break }
                        }
                    }
                    clashes[key] = .some(found)
                    return found
                }
                func keep(_ list: [SuggestedColor], _ color: ResolvedColor, _ side: String) -> [SuggestedColor] {
                    list.filter { s in
                        guard let other = clash(s.hex, for: color) else { return true }
                        notes.append("the \(side) \(s.hex) (\(s.direction)) is left out: it would be confusable with \(other), which it must stay distinguishable from")
                        return false
                    }
                }
                let before = suggestions.foreground.count + suggestions.background.count + (suggestions.both == nil ? 0 : 1)
                suggestions.foreground = keep(suggestions.foreground, foreground, "foreground")
                suggestions.background = keep(suggestions.background, background, "background")
                if let both = suggestions.both, let other = clash(both.foreground.hex, for: foreground) ?? clash(both.background.hex, for: background) {
                    notes.append("the pair \(both.foreground.hex) on \(both.background.hex) is left out: it would be confusable with \(other), which it must stay distinguishable from")
                    suggestions.both = nil
                }
                let after = suggestions.foreground.count + suggestions.background.count + (suggestions.both == nil ? 0 : 1)
                guard after != before else { continue }
                if after == 0 { notes.append("no suggestion keeps every group distinguishable") }
                suggestions.notes = notes
                Auditor.attach(suggestions, to: &themes[t].results[i], theme: themes[t].name)
            }
        }
    }
}

// MARK: Words for every rendering

extension CheckResult {
    /// What is measured, in one line: "a #0969da on b #ffffff: 5.19:1, APCA Lc 74.9, best level AA",
    /// or for a distinct pair "a #1a7f37 vs b #d1242f: CIEDE2000 66.1; 12.0 under deuteranopia".
    public var measuredLine: String {
        if let d = distinction {
            var line = "\(foreground.reference) \(foreground.hex) vs \(background.reference) \(background.hex): \(d.metric) \(Auditor.format1(d.difference))"
            if let deficiency = d.deficiency, let simulated = d.simulatedDifference { line += "; \(Auditor.format1(simulated)) under \(deficiency)" }
            return line
        }
        let versus = relation == RelationName.change || relation == RelationName.linkVersusText
        var line = "\(foreground.reference) \(foreground.hex) \(versus ? "vs" : "on") \(background.reference) \(background.hex): \(display), APCA Lc \(Auditor.formatLc(apca)), best level \(achieved)"
        if let gradient { line += "; gradient worst at \(Auditor.percent(gradient.worst.position)), best \(gradient.best.display) at \(Auditor.percent(gradient.best.position))" }
        return line
    }

    /// Why it fails, in one line: "4.12:1 is below 4.5:1 (text AA, SC 1.4.3)", "APCA Lc 98.6
    /// is below the required Lc 100 (12.63:1 meets 4.5:1)", "confusable under deuteranopia: …".
    public var failureSummary: String {
        if distinction != nil { return reasons?.first ?? "not told apart" }
        let requiredText = required.map { "\(CSSNumber.format($0)):1" } ?? "?"
        let basis = technique.map { "\($0), SC \(criterion ?? "") \(level)" } ?? "\(usage) \(level), SC \(criterion ?? "")"
        let meetsRatio = ratio >= (required ?? 0)
        if let lc = apcaRequired, abs(apca) < lc, meetsRatio {
            return "APCA Lc \(Auditor.formatLc(apca)) is below the required Lc \(CSSNumber.format(lc)) (\(display) meets \(requiredText), \(basis))"
        }
        if let cvd, cvd.verdict == "fail", meetsRatio {
            return "\(cvd.display) under simulated \(cvd.deficiency) is below \(requiredText) (\(basis))"
        }
        return "\(display) is below \(requiredText) (\(basis))"
    }

    /// The reasons a line that leads with ``failureSummary`` adds (not the one it begins with).
    var reasonsBesideSummary: [String] {
        let summary = failureSummary
        return (reasons ?? []).filter { !summary.hasPrefix($0) }
    }

    /// What it is measured by, short: "5.19:1", or for a distinct pair its color difference
    /// ("CIEDE2000 4.1 under deuteranopia", the smallest), never a contrast ratio.
    public var measuredShort: String {
        guard let d = distinction else { return display }
        if let deficiency = d.deficiency, let simulated = d.simulatedDifference, simulated < d.difference {
            return "\(d.metric) \(Auditor.format1(simulated)) under \(deficiency)"
        }
        return "\(d.metric) \(Auditor.format1(d.difference))"
    }

    /// What it needs, short: "4.5:1", "4.5:1 and Lc 60" (an APCA target as well), "CIEDE2000 ≥ 9"
    /// for a distinct pair, or "exempt".
    public var needsShort: String {
        if let d = distinction { return "\(d.metric) ≥ \(CSSNumber.format(d.threshold))" }
        guard let required else { return "exempt" }
        return "\(CSSNumber.format(required)):1" + (apcaRequired.map { " and Lc \(CSSNumber.format($0))" } ?? "")
    }

    /// The color-vision warning, when the check passes in normal vision and not as simulated.
    public var colorVisionWarning: String? {
        guard let cvd, cvd.verdict == "warn" else { return nil }
        return "color vision: \(cvd.display) under simulated \(cvd.deficiency) (\(cvd.foreground) on \(cvd.background)) is below the \(CSSNumber.format(required ?? 0)):1 it meets in normal vision"
    }
}
