import ColorScience
import TokenSources

/// Evaluation: one check measured on its resolved pair, into a result.
extension Auditor {
    /// Evaluates one check and appends its result to `results`, or returns the problem that
    /// kept it from being measured. (A result is large: appended where it is made, it is not
    /// copied out of a `Result` and destroyed there.) When `deferred` is not nil, a failing
    /// check's suggestions are not computed but appended there (with `position`, its theme and
    /// result index) for ``computeInParallel(_:threads:shouldStop:)``.
    func evaluate(_ item: Item, with resolver: inout ThemeResolver, suggestionsLeft: inout Int, deferred: inout [PendingSuggestion]?,
                  at position: (theme: Int, result: Int), into results: inout [CheckResult]) -> PaletteProblem? {
        let fg: ResolvedColor, bg: ResolvedColor
        switch resolver.resolve(item.foreground, at: item.pointer.appending(item.kind.foregroundField), location: item.location, referenceFile: item.file) {
        case .success(let c): fg = c
        case .failure(let p): return p
        }
        let backgroundPointer = item.pointer.appending("background")
        switch item.kind == .distinct
            ? resolver.resolve(item.background, at: backgroundPointer, location: item.location, referenceFile: item.file)
            : resolver.resolveBackground(item.background, at: backgroundPointer, location: item.location, referenceFile: item.file) {
        case .success(let c): bg = c
        case .failure(let p): return p
        }
        if item.kind == .distinct {
            results.append(Auditor.distinctResult(item, first: fg, second: bg, resolver: &resolver))
            return nil
        }
        var backdrop: ResolvedColor?
        let translucent = bg.gradient.map { $0.stops.contains { !$0.color.color.isOpaque } } ?? !bg.color.isOpaque
        if let reference = item.backdrop ?? (translucent ? resolver.theme.backdrop : nil) {
            switch resolver.resolve(reference, at: item.pointer.appending("backdrop"), location: item.location, referenceFile: item.file) {
            case .success(let c) where !c.color.isOpaque && translucent:
                // A backdrop is the opaque surface underneath. A translucent one was ignored
                // (the result was the range over unknown backdrops) while the report named it.
                let whose = item.backdrop == nil ? "the backdrop of theme '\(resolver.theme.name)'" : "the backdrop"
                let shown = c.token == nil ? "\"\(reference)\"" : "\"\(reference)\" (\(c.hex))"
                let pointer = item.backdrop == nil ? JSONPointer(["themes", resolver.theme.name, "backdrop"]) : item.pointer.appending("backdrop")
                return resolver.problem(.invalidValue, "\(whose), \(shown), is translucent; a backdrop is the opaque surface underneath (give an opaque color or token)",
                                        pointer, item.backdrop == nil ? nil : item.location, file: item.file)
            case .success(let c): backdrop = c
            case .failure(let p): return p
            }
        }
        if let gradient = bg.gradient {
            results.append(Auditor.gradientResult(item, fg: fg, bg: bg, gradient: gradient, backdrop: backdrop, theme: resolver.theme.name,
                                                  suggest: suggestionsLeft > 0, cvdDefault: cvdPolicy))
            return nil
        }
        let measurement = ContrastMeasurement(foreground: fg.color, background: bg.color, backdrop: backdrop?.color)
        let limit = limits.maximumSuggestions
        results.append(Auditor.result(item, fg: fg, bg: bg, backdrop: backdrop, theme: resolver.theme.name, measurement: measurement,
                                      suggest: suggestionsLeft > 0 && deferred == nil, cvdDefault: cvdPolicy))
        let last = results.count - 1
        // A check failed only as a deficiency sees it already meets its target in normal
        // vision: the nearest-color search (normal vision) has nothing to suggest for it.
        let failsInNormalVision = results[last].verdict == .fail && !(results[last].cvd?.verdict == "fail" && results[last].reasons?.count == 1)
        if failsInNormalVision && results[last].range == nil {
            if suggestionsLeft > 0 {
                suggestionsLeft -= 1
                if deferred != nil,
                   let inputs = Auditor.suggestionInputs(verdict: .fail, measurement: measurement, required: results[last].required, apca: item.apcaMinimum) {
                    deferred!.append(PendingSuggestion(theme: position.theme, result: position.result,
                                                       foreground: inputs.foreground, background: inputs.background, target: inputs.target))
                }
            } else if let limit {
                let note = limit == 0 ? "suggestions off for this request" : "suggestions omitted: limit \(limit) per request"
                results[last].suggestions = Suggestions(foreground: [], background: [], both: nil, notes: [note])
            }
        }
        return nil
    }

    static func result(_ item: Item, fg: ResolvedColor, bg: ResolvedColor, backdrop: ResolvedColor?, theme: String,
                       measurement m: ContrastMeasurement, suggest: Bool = true, cvdDefault: CVDPolicy = .warn) -> CheckResult {
        let requirement = ContrastRequirement(usage: item.usage, level: item.level)
        var reasons: [String] = []
        var verdict = Verdict.exempt
        var required = item.fixed?.ratio ?? requirement.minimumRatio
        let criterion = item.fixed?.criterion ?? requirement.successCriterion
        if item.exempt {
            required = nil
        } else if let fixed = item.fixed {
            verdict = .pass
            if m.ratio < fixed.ratio {
                verdict = .fail
                let technique = fixed.technique.map { " (technique \($0))" } ?? ""
                reasons.append("\(RatioFormat.display(m.ratio)) between \(fixed.what) is below the \(CSSNumber.format(fixed.ratio)):1 that SC \(fixed.criterion) \(fixed.level.name)\(technique) requires")
            }
        } else if let minimum = requirement.minimumRatio {
            verdict = .pass
            if m.ratio < minimum {
                verdict = .fail
                let worst = m.isRange ? " (worst case over unknown backdrops)" : ""
                reasons.append("\(RatioFormat.display(m.ratio))\(worst) is below the \(CSSNumber.format(minimum)):1 that SC \(requirement.successCriterion ?? "") \(item.level.name) requires for \(item.usage)")
            }
        }
        if let house = item.minimumRatio {
            if verdict == .exempt { verdict = .pass }
            required = max(required ?? 0, house)
            if m.ratio < house {
                verdict = .fail
                reasons.append("\(RatioFormat.display(m.ratio)) is below the check's minimumRatio of \(CSSNumber.format(house)):1")
            }
        }
        if requirement.minimumRatio != nil || item.minimumRatio != nil {
            if let lc = item.apcaMinimum, abs(m.apca) < lc {
                verdict = .fail
                reasons.append("APCA Lc \(formatLc(m.apca)) is below the required Lc \(CSSNumber.format(lc))")
            }
        }
        var assumed: [String] = []
        if let a = item.assumed { assumed.append(a) }
        // Their assumptions only: a list of the colors themselves would copy each.
        for colorAssumed in [fg.assumed, bg.assumed, backdrop?.assumed] {
            if let a = colorAssumed, !assumed.contains(a) { assumed.append(a) }
        }
        var composited: CompositedPair?
        if let f = m.effectiveForeground, let b = m.effectiveBackground, !(fg.color.isOpaque && bg.color.isOpaque) {
            composited = CompositedPair(foreground: f.hex, background: b.hex)
        }
        var suggestions: Suggestions?
        if suggest, let inputs = suggestionInputs(verdict: verdict, measurement: m, required: required, apca: item.apcaMinimum) {
            suggestions = Auditor.suggestions(foreground: inputs.foreground, background: inputs.background, target: inputs.target)
        }
        var range: RatioRange?
        if m.isRange, let worst = m.worstBackdrop, let best = m.bestBackdrop {
            range = RatioRange(worst: m.ratio, best: m.bestRatio, worstBackdrop: worst.hex, bestBackdrop: best.hex)
        }
        let cvd = simulatedContrast(m, required: item.exempt ? nil : required, normalVerdict: verdict, policy: item.cvd ?? cvdDefault)
        if cvd?.verdict == "fail" {
            verdict = .fail
            reasons.append("\(cvd!.display) under simulated \(cvd!.deficiency) is below the \(CSSNumber.format(required ?? 0)):1 required (\"cvd\": \"fail\")")
        }
        // Made in the one expression that returns it: a result built and then changed was copied.
        return CheckResult(
            id: item.id, kind: item.kind, description: item.description, usage: item.usage, level: item.level,
            criterion: criterion, required: required,
            fontSize: item.fontSize?.description, fontWeight: item.fontWeight,
            foreground: fg, background: bg, backdrop: backdrop, composited: composited,
            ratio: m.ratio, display: RatioFormat.display(m.ratio), range: range, apca: m.apca, apcaRequired: item.apcaMinimum,
            achieved: AchievedLevel(ratio: m.ratio), verdict: verdict, reasons: reasons.isEmpty ? nil : reasons,
            claim: item.claim.map { ClaimCheck.evaluate($0, ratio: m.ratio, usage: item.usage) },
            suggestions: noted(suggestions, foreground: fg, background: bg),
            fixes: suggestions.flatMap { fixes($0, foreground: fg, background: bg, kind: item.kind, pointer: item.pointer, theme: theme) },
            assumed: assumed.isEmpty ? nil : assumed, pointer: item.pointer, line: item.location?.line,
            relation: item.relation, technique: item.fixed?.technique, cvd: cvd)
    }


    public static func formatLc(_ lc: Double) -> String {
        let tenths = (lc * 10).rounded(.towardZero) / 10
        return String(tenths)
    }
}
