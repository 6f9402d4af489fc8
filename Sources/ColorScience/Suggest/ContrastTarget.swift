/// What a suggested color must reach: a WCAG ratio, an APCA Lc, or both.
public struct ContrastTarget: Hashable, Sendable, CustomStringConvertible {
    /// The minimum WCAG 2.x ratio, if any.
    public var minimumRatio: Double?
    /// The minimum APCA |Lc| (text on background), if any.
    public var minimumLc: Double?

    public init(ratio: Double? = nil, lc: Double? = nil) {
        self.minimumRatio = ratio
        self.minimumLc = lc
    }

    /// The ratio a WCAG requirement asks for (nil for exempt usages, which need nothing).
    public init?(_ requirement: ContrastRequirement) {
        guard let ratio = requirement.minimumRatio else { return nil }
        self.init(ratio: ratio)
    }

    public static func ratio(_ value: Double) -> ContrastTarget { ContrastTarget(ratio: value) }
    public static func lc(_ value: Double) -> ContrastTarget { ContrastTarget(lc: value) }
    /// AA for a usage (`.AA(.text)` is 4.5:1).
    public static func AA(_ usage: ContrastUsage) -> ContrastTarget { ContrastTarget(ratio: ContrastRequirement(usage: usage, level: .AA).minimumRatio) }
    public static func AAA(_ usage: ContrastUsage) -> ContrastTarget { ContrastTarget(ratio: ContrastRequirement(usage: usage, level: .AAA).minimumRatio) }

    /// Parses `4.5`, `4.5:1`, `AA`, `AAA`, `AA-large`, `Lc60` or `AA+Lc60`.
    public init?(parsing text: String) {
        var ratio: Double?, lc: Double?
        for part in text.split(separator: "+") {
            let p = part.lowercased()
            if p.hasPrefix("lc") {
                guard let v = Double(p.dropFirst(2)), v > 0, v <= 110 else { return nil }
                lc = v
            } else if p == "aa" {
                ratio = 4.5
            } else if p == "aaa" {
                ratio = 7
            } else if p == "aa-large" || p == "aaa-large" {
                ratio = p == "aa-large" ? 3 : 4.5
            } else {
                let number = p.hasSuffix(":1") ? String(p.dropLast(2)) : String(p)
                guard let v = Double(number), v >= 1, v <= 21 else { return nil }
                ratio = v
            }
        }
        guard ratio != nil || lc != nil else { return nil }
        self.init(ratio: ratio, lc: lc)
    }

    /// Whether `foreground` on `background` (opaque) reaches the target.
    public func isMet(foreground: SRGB, background: SRGB) -> Bool {
        if let minimumRatio, foreground.contrastRatio(with: background) < minimumRatio { return false }
        if let minimumLc, abs(APCA.lightnessContrast(text: foreground, background: background)) < minimumLc { return false }
        return true
    }

    /// ``isMet(foreground:background:)`` with the WCAG luminances already worked out (a search
    /// compares one fixed color with many candidates, and a ladder rung with many fixed colors).
    public func isMet(foreground: MeasuredColor, background: MeasuredColor) -> Bool {
        if let minimumRatio, WCAG.contrastRatio(luminance: foreground.luminance, background.luminance) < minimumRatio { return false }
        if let minimumLc, abs(APCA.lightnessContrast(text: foreground.color, background: background.color)) < minimumLc { return false }
        return true
    }

    /// Whether some color might meet the target against a fixed color, when all that is known
    /// of it is that its luminances lie within `bounds`; false only when no such color can (the
    /// searches pass over whole ranges of candidates on it).
    ///
    /// Both the ratio and |Lc| fall as the color's luminance nears the fixed color's and rise
    /// as it moves away, on either side: so the best any such color can do is what a color at
    /// one end of the bounds does. The thresholds are eased by far more than rounding, so a
    /// color exactly at the threshold is never ruled out.
    func mayBeMet(within bounds: NearestPassing.LuminanceBounds, against fixedLuminance: Double, screenLuminance fixedScreen: Double,
                  candidateIsForeground: Bool) -> Bool {
        if let minimumRatio {
            let best = max(WCAG.contrastRatio(luminance: bounds.luminance.low, fixedLuminance),
                           WCAG.contrastRatio(luminance: bounds.luminance.high, fixedLuminance))
            if best < minimumRatio * (1 - 1e-12) { return false }
        }
        if let minimumLc {
            func lc(_ screen: Double) -> Double {
                abs(candidateIsForeground
                    ? APCA.lightnessContrast(textLuminance: screen, backgroundLuminance: fixedScreen)
                    : APCA.lightnessContrast(textLuminance: fixedScreen, backgroundLuminance: screen))
            }
            if max(lc(bounds.screenLuminance.low), lc(bounds.screenLuminance.high)) < minimumLc - 1e-9 { return false }
        }
        return true
    }

    public var description: String {
        [minimumRatio.map { "\(RatioFormat.trimmed($0)):1" }, minimumLc.map { "Lc \(RatioFormat.trimmed($0))" }]
            .compactMap { $0 }.joined(separator: " and ")
    }
}

extension RatioFormat {
    /// `4.5`, `7`, `60`, `-0.25`: a number without trailing zeros (an integral one without its
    /// `.0`), the short way CSS and messages write it.
    public static func trimmed(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}

/// A color with its WCAG relative luminance, worked out once.
public struct MeasuredColor: Hashable, Sendable {
    public let color: SRGB
    public let luminance: Double

    public init(_ color: SRGB) {
        self.color = color
        luminance = color.relativeLuminance
    }

    /// A color whose luminance is already known (a kept ladder rung).
    init(color: SRGB, luminance: Double) {
        self.color = color
        self.luminance = luminance
    }
}
