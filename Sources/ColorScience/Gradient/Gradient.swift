/// A CSS gradient (or a design-token gradient) as a background: its color stops, how the colors
/// between them are interpolated, and the colors a text on it meets.
///
/// Read from `linear-gradient()`, `radial-gradient()`, `conic-gradient()` and their
/// `repeating-` forms (CSS Images 3 §3, CSS Images 4 §3), or from a DTCG `gradient` token's
/// stops. The geometry (direction, shape, center) is checked for syntax but does not change
/// which colors are seen: every color of the gradient line between 0 and 1 is taken to lie under
/// the text somewhere (see ``contrast(foreground:backdrop:)``). docs/gradients.md has the rules.
public struct Gradient: Hashable, Sendable {
    /// The gradient function.
    public enum Kind: String, Sendable {
        case linear, radial, conic
    }

    public var kind: Kind
    /// Whether the stops repeat along the line (`repeating-linear-gradient()` and its siblings).
    public var repeating: Bool
    /// The interpolation actually used, as CSS would write it after `in`: `srgb`, `oklab`,
    /// `oklch shorter hue`… Without `in`, CSS Color 4 §12.1 chooses: `srgb` when every stop is a
    /// legacy sRGB color (hex, named, `rgb()`, `hsl()`, `hwb()`), `oklab` otherwise.
    public var interpolation: String
    /// The stops after CSS's position fix-up (CSS Images 3 §3.4.3), a two-position stop as two
    /// stops. Positions are fractions of the gradient line (0 its start, 1 its end; they may lie
    /// outside 0…1); nil for a position given as a length, whose fraction depends on the box.
    public var stops: [GradientStop]
    /// Whether some stop or hint position was a length (`px`, `em`, or `calc()` with one): its
    /// place on the line depends on the size of the box, so ``contrast(foreground:backdrop:)``
    /// takes every segment between two stops in full, and reported positions are estimates.
    public var hasLengthPositions: Bool

    /// Whether a stop holds a `light-dark()`, so the gradient depends on the color scheme it was
    /// read in (``init(css:scheme:)``).
    public var dependsOnScheme: Bool { stops.contains { $0.color.dependsOnScheme } }

    /// Whether colors past the end of the gradient line are seen: a radial gradient whose ending
    /// shape is not sized `farthest-corner` leaves part of the box beyond 100 %.
    var extendsPastEnd = false

    /// The longest text ``init(css:)`` reads, in UTF-8 bytes.
    public static let maximumLength = 8192

    /// Parses `linear-gradient(…)`, `radial-gradient(…)`, `conic-gradient(…)` or a `repeating-`
    /// form. The direction, angle, shape, size and position before the stops are checked for
    /// syntax; stops take 0, 1 or 2 positions (percentages or lengths; angles or percentages in a
    /// conic gradient), a bare position between two stops is a transition hint, and
    /// `in <space> [<hue method> hue]` sets the interpolation. One stop is a solid color
    /// (CSS Images 4, w3c/csswg-drafts#10092). A `light-dark()` stop needs ``init(css:scheme:)``.
    ///
    /// Throws a ``ColorParseError`` that names the byte where the problem starts and what was
    /// expected there: text that is not a gradient (`.notGradient`), an image such as `url()`
    /// (`.image`), no stop, an unknown color space, a stop that is not a color.
    public init(css text: String) throws(ColorParseError) {
        self = try GradientReader.read(text, scheme: nil)
    }

    /// ``init(css:)`` with the color scheme `light-dark()` stops are read in.
    public init(css text: String, scheme: ColorScheme?) throws(ColorParseError) {
        self = try GradientReader.read(text, scheme: scheme)
    }

    /// A DTCG `gradient` token (Design Tokens Format 2025.10 §9.7): its stops' colors, already
    /// resolved, and their positions as fractions of the gradient axis. Positions outside 0…1
    /// are clamped, as the format requires; a position before an earlier one moves up to it
    /// (CSS Images 3 §3.4.3). The interpolation follows CSS Color 4 §12.1 from the colors'
    /// ``ParsedColor/notation``s; a color outside sRGB keeps its unmapped components.
    ///
    /// Throws when there is no stop, when the two lists differ in length, or when a position is
    /// not a finite number.
    public init(stops colors: [ParsedColor], positions: [Double]) throws(ColorParseError) {
        func text() -> String {
            let written = zip(colors, positions).map { "\($0.color.hex) \($1)" }
            return "gradient [" + written.joined(separator: ", ") + "]"
        }
        guard !colors.isEmpty else {
            throw ColorParseError(code: .wrongArguments, message: "a gradient needs at least one stop", offset: 0, input: text())
        }
        guard colors.count == positions.count else {
            throw ColorParseError(code: .wrongArguments,
                                  message: "\(colors.count) stop color\(colors.count == 1 ? "" : "s") but \(positions.count) position\(positions.count == 1 ? "" : "s"); each stop needs one",
                                  offset: 0, input: text())
        }
        if let bad = positions.firstIndex(where: { !$0.isFinite }) {
            throw ColorParseError(code: .invalidArgument, message: "the position of stop \(bad + 1) is \(positions[bad]); expected a number from 0 to 1",
                                  offset: 0, input: text())
        }
        var highest = -Double.infinity
        var stops: [GradientStop] = []
        for (color, position) in zip(colors, positions) {
            highest = max(highest, min(1, max(0, position)))
            stops.append(GradientStop(color: color, position: highest))
        }
        self.init(kind: .linear, repeating: false, interpolation: "", stops: stops, hasLengthPositions: false)
        interpolation = InterpolationMethod.defaultMethod(for: stops).description
    }

    init(kind: Kind, repeating: Bool, interpolation: String, stops: [GradientStop], hasLengthPositions: Bool) {
        self.kind = kind
        self.repeating = repeating
        self.interpolation = interpolation
        self.stops = stops
        self.hasLengthPositions = hasLengthPositions
    }

    /// Whether `text` starts (after whitespace, ignoring ASCII case) with `linear-gradient(`,
    /// `radial-gradient(`, `conic-gradient(` or a `repeating-` form of one: a value to read with
    /// ``init(css:)`` rather than as a color.
    public static func isGradient(_ text: String) -> Bool {
        // Over the string's own bytes: it is asked of every value a theme resolves, so no slices
        // or iterators of the UTF-8 view, which are far slower per call.
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count, CSSTokenizer.isWhitespace(bytes[index]) { index += 1 }
            func dropPrefix(_ word: StaticString) -> Bool {
                guard CSSTokenizer.bytes(bytes, at: index, startWith: word) else { return false }
                index += word.utf8CodeUnitCount
                return true
            }
            _ = dropPrefix("repeating-")
            return (dropPrefix("linear") || dropPrefix("radial") || dropPrefix("conic")) && dropPrefix("-gradient(")
        }
    }

    /// The color of the gradient line at `position` (0 its start, 1 its end), gamut-mapped into
    /// sRGB with its alpha as interpolated (not composited over anything). Before the first stop
    /// it is the first stop's color, after the last the last one's; a repeating gradient repeats.
    /// At a position shared by two stops (a hard edge) it is the color after the edge.
    public func color(at position: Double) -> SRGB {
        GradientLine(self).color(at: position)
    }

    /// How `foreground` text contrasts with this gradient at its worst and best points: every
    /// stop and every color between them on the part of the gradient line the box shows.
    ///
    /// A translucent gradient color is composited over `backdrop`; with no backdrop, each point
    /// counts at its worst and best over every opaque backdrop, as ``ContrastMeasurement`` does
    /// for a translucent background. The worst point is never better than any stop the box
    /// shows, and no color of the line lies below it by more than the search's tolerance
    /// (docs/gradients.md).
    public func contrast(foreground: SRGB, backdrop: SRGB?) -> GradientContrast {
        GradientExtremes(line: GradientLine(self), foreground: foreground, backdrop: backdrop).search()
    }
}

/// One color stop of a ``Gradient``.
public struct GradientStop: Hashable, Sendable {
    /// The stop's color as it is shown alone (in sRGB, gamut-mapped).
    public var color: ParsedColor {
        didSet {
            written = nil
            isRelative = false
        }
    }
    /// Its place as a fraction of the gradient line, after fix-up; nil when it was a length.
    public var position: Double? {
        didSet { if let position { layoutPosition = position } }
    }

    /// The color as written (its own space and missing components), when it came from CSS text;
    /// nil means ``color`` (an sRGB color) is all there is.
    var written: SpacedColor?
    /// Whether the color was written as a relative color (`rgb(from …)`), which is not a legacy
    /// color for the choice of interpolation space.
    var isRelative = false
    /// Where the stop is drawn: ``position``, or for a length an estimate (CSS Images 3 §3.4.3
    /// with the length read as absent).
    var layoutPosition: Double
    /// The transition hint between this stop and the next, if one was given.
    var hintAfter: GradientHint?

    public init(color: ParsedColor, position: Double?) {
        self.color = color
        self.position = position
        self.layoutPosition = position ?? 0
    }

    /// The color in its own space, for interpolating.
    var spaced: SpacedColor {
        if let written { return written }
        if let unmapped = color.unmappedComponents {
            return SpacedColor(space: .srgb, unmapped, alpha: color.color.alpha, notation: color.notation)
        }
        return SpacedColor(color, notation: color.notation)
    }

    /// Whether the color is a legacy sRGB color (CSS Color 4 §12.1).
    var isLegacy: Bool {
        !isRelative && ["hex", "named", "rgb", "hsl", "hwb"].contains(color.notation)
    }
}

/// A transition hint (CSS Images 3 §3.4.2): where the halfway color between two stops lies.
enum GradientHint: Hashable, Sendable {
    /// A fraction of the gradient line.
    case at(Double)
    /// A length, whose fraction depends on the box.
    case length
}

/// How ``Gradient/contrast(foreground:backdrop:)`` found the text to fare on a gradient.
public struct GradientContrast: Hashable, Sendable {
    /// A point of the gradient line.
    public struct Point: Hashable, Sendable {
        /// Where on the gradient line, as a fraction (0 its start, 1 its end). For a gradient
        /// with length positions, an estimate.
        public var position: Double
        /// The gradient's color there (its alpha as interpolated, not composited).
        public var color: SRGB
        /// The WCAG ratio of the text there: at a translucent point with no backdrop, its worst
        /// (for ``GradientContrast/worst``) or best (for ``GradientContrast/best``) over every
        /// opaque backdrop.
        public var ratio: Double

        public init(position: Double, color: SRGB, ratio: Double) {
            self.position = position
            self.color = color
            self.ratio = ratio
        }
    }

    /// Where the text contrasts least: the ratio to judge it by.
    public var worst: Point
    /// Where it contrasts most.
    public var best: Point

    public init(worst: Point, best: Point) {
        self.worst = worst
        self.best = best
    }
}

/// A `<color-interpolation-method>` (CSS Color 4 §12.1): the space and, for a space with a hue,
/// how hues go around.
struct InterpolationMethod: Hashable, Sendable, CustomStringConvertible {
    var space: CSSSpace
    var hue: HueInterpolation

    init(space: CSSSpace, hue: HueInterpolation = .shorter) {
        self.space = space
        self.hue = hue
    }

    /// Reads `description`'s form back ("oklch longer hue", "srgb"); nil for anything else.
    init?(_ text: String) {
        let words = text.lowercased().split(separator: " ")
        guard let first = words.first, let space = CSSSpace(name: String(first)) else { return nil }
        switch words.count {
        case 1: self.init(space: space)
        case 3:
            guard space.hueIndex != nil, words[2] == "hue", let hue = HueInterpolation(rawValue: String(words[1])) else { return nil }
            self.init(space: space, hue: hue)
        default: return nil
        }
    }

    /// CSS Color 4 §12.1 without `in`: gamma-encoded sRGB when every stop is a legacy sRGB color
    /// (web compatibility), Oklab otherwise.
    static func defaultMethod(for stops: [GradientStop]) -> InterpolationMethod {
        InterpolationMethod(space: stops.allSatisfy(\.isLegacy) ? .srgb : .oklab)
    }

    var description: String {
        space.hueIndex == nil ? space.name : "\(space.name) \(hue.rawValue) hue"
    }
}
