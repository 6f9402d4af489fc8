public import ColorScience
public import TokenSources

/// Confirms or refutes what a source document claims about a pair.
public enum ClaimCheck {
    /// A stated ratio is supported when the measured ratio, rounded or floored to the claim's
    /// decimals, gives the claimed number (documents round either way). Minimum ratios and
    /// levels are judged on the unrounded ratio, as WCAG does.
    public static func evaluate(_ claim: Claim, ratio: Double, usage: ContrastUsage) -> ClaimResult {
        var failures: [String] = []
        var holds: [String] = []
        var stated: [String] = []
        if let claimed = claim.ratio {
            stated.append("\(CSSNumber.format(claimed)):1")
            let decimals = decimalPlaces(claimed)
            let scale = pow10(decimals)
            let rounded = (ratio * scale).rounded(.toNearestOrAwayFromZero) / scale
            let floored = (ratio * scale + 1e-9).rounded(.down) / scale
            if abs(rounded - claimed) > 1e-9 && abs(floored - claimed) > 1e-9 {
                failures.append("not \(CSSNumber.format(claimed)):1")
            }
        }
        if let minimum = claim.minimumRatio {
            stated.append("≥ \(CSSNumber.format(minimum)):1")
            if ratio < minimum { failures.append("below \(CSSNumber.format(minimum)):1") } else { holds.append("≥ \(CSSNumber.format(minimum)):1 holds") }
        }
        if let levelName = claim.level, let level = WCAGLevel(name: levelName) {
            stated.append(level.name)
            let judged = usage.isExempt ? ContrastUsage.text : usage
            let requirement = ContrastRequirement(usage: judged, level: level)
            if !requirement.isMet(by: ratio), let minimum = requirement.minimumRatio {
                failures.append("fails \(level.name) (needs \(CSSNumber.format(minimum)):1\(judged == .text ? "" : " for \(judged)"))")
            } else {
                holds.append("\(level.name) holds")
            }
        }
        let measured = "measured \(RatioFormat.display(ratio))"
        let message = "claimed \(stated.joined(separator: " ")); \(measured)"
            + (failures.isEmpty ? " — confirmed" : " — " + failures.joined(separator: ", ")
                + (holds.isEmpty ? "" : " (\(holds.joined(separator: ", ")))"))
        return ClaimResult(claim: claim, supported: failures.isEmpty, message: message)
    }

    static func decimalPlaces(_ value: Double) -> Int {
        let text = CSSNumber.format(value)
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return min(6, text.distance(from: dot, to: text.endIndex) - 1)
    }

    static func pow10(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<n { result *= 10 }
        return result
    }
}
