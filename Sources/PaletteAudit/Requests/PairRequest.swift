public import ColorScience

/// A request the CLI and the HTTP API both take, found wrong: the field at fault and why.
public struct RequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field (`fg`, `target`, `on/2`…), as the request named it.
    public var field: String
    public var message: String

    public init(field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { message }
}

/// One pair to measure, as `contrast check`, `check --batch`, `GET`/`POST /v1/contrast` take it.
///
/// One reading for every edge: `fg`/`bg` (or `foreground`/`background`), optional `backdrop`
/// (opaque), `usage` (text, large-text, non-text), `level` (AA, AAA), `scheme` (light or dark,
/// the color scheme `light-dark()` colors are read in) and `id` (a string or a number, echoed
/// back). An unknown field is refused, never ignored.
public struct PairRequest: Hashable, Sendable {
    public var foreground: String?
    public var background: String?
    public var backdrop: String?
    public var usage: String?
    public var level: String?
    public var scheme: String?
    public var id: String?

    public static let fields = ["fg", "bg", "foreground", "background", "backdrop", "usage", "level", "scheme", "id"]

    public init(foreground: String?, background: String?, backdrop: String? = nil, usage: String? = nil, level: String? = nil,
                scheme: String? = nil, id: String? = nil) {
        self.foreground = foreground
        self.background = background
        self.backdrop = backdrop
        self.usage = usage
        self.level = level
        self.scheme = scheme
        self.id = id
    }

    /// Reads a JSON object. `at` prefixes messages (`/pairs/3`).
    public init(json object: JSONValue, at path: @autoclosure () -> String = "") throws(RequestError) {
        // The pointer is only made for an error message (a 10,000-pair request reads 10,000).
        guard let members = object.members else {
            let pointer = path()
            throw RequestError(field: "", "\(pointer.isEmpty ? "the pair" : pointer) must be an object like {\"fg\": \"#777\", \"bg\": \"#fff\"}, found \(object.typeName)")
        }
        func text(_ member: JSONMember) throws(RequestError) -> String {
            guard let s = member.value.stringValue else {
                let pointer = path()
                throw RequestError(field: member.key, "\(pointer)/\(member.key) must be a string, found \(member.value.typeName)")
            }
            return s
        }
        for member in members {
            if member.key == "id" {
                switch member.value {
                case .string(let s, _): id = s
                case .number(let n, _): id = CSSNumber.format(n)
                default: throw RequestError(field: "id", "\(path())/id must be a string or a number, found \(member.value.typeName)")
                }
            } else if let field = PairRequest.field(member.key) {
                self[keyPath: field] = try text(member)
            } else {
                let pointer = path()
                throw RequestError(field: member.key, "unknown field \"\(member.key)\" at \(pointer.isEmpty ? "/" : pointer); expected fg, bg, backdrop, usage, level, scheme, id")
            }
        }
    }

    /// The property a JSON key sets (every key but `id` takes a string).
    private static func field(_ key: String) -> WritableKeyPath<PairRequest, String?>? {
        switch key {
        case "fg", "foreground": \.foreground
        case "bg", "background": \.background
        case "backdrop": \.backdrop
        case "usage": \.usage
        case "level": \.level
        case "scheme": \.scheme
        case "id": \.id
        default: nil
        }
    }

    /// Reads one JSON Lines record of the common shape without building a JSON tree: an object
    /// whose keys are known and distinct and whose values are strings of printable ASCII without
    /// escapes (`{"fg":"#777","bg":"#fff"}`). Any other line gives nil, and the caller reads it
    /// with ``init(json:at:)``, which accepts the rest of JSON and words every error; both give
    /// the same request for a line this one accepts.
    public init?(simpleLine line: UnsafeBufferPointer<UInt8>) {
        var reader = SimpleReader(bytes: line)
        guard let pair = reader.pair() else { return nil }
        reader.skipSpace()
        guard reader.atEnd else { return nil }
        self = pair
    }

    /// Reads `{"pairs": [ … ]}` whose every pair has the shape ``init(simpleLine:)`` reads, without
    /// a JSON tree (a 10,000-pair request is mostly such a list); nil for any other document,
    /// which the caller reads with the full JSON reader.
    public static func simpleList(_ body: UnsafeBufferPointer<UInt8>) -> [PairRequest]? {
        var reader = SimpleReader(bytes: body)
        guard reader.take(0x7B), reader.take(0x22), reader.string() == "pairs", reader.take(0x3A), reader.take(0x5B) else { return nil }
        var pairs: [PairRequest] = []
        pairs.reserveCapacity(body.count / 32)
        if !reader.take(0x5D) {
            while true {
                guard let pair = reader.pair() else { return nil }
                pairs.append(pair)
                if reader.take(0x5D) { break }
                guard reader.take(0x2C) else { return nil }
            }
        }
        guard reader.take(0x7D) else { return nil }
        reader.skipSpace()
        return reader.atEnd ? pairs : nil
    }

    /// The reader behind ``init(simpleLine:)`` and ``simpleList(_:)``.
    private struct SimpleReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        var atEnd: Bool { i == bytes.count }

        mutating func skipSpace() {
            while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D || bytes[i] == 0x0A) { i += 1 }
        }

        /// Skips white space, then takes `byte` if it is next.
        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard i < bytes.count && bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// A string of printable ASCII without escapes, after its opening quote.
        mutating func string() -> String? {
            let start = i
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 {
                    i += 1
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)]), as: UTF8.self)
                }
                if b < 0x20 || b >= 0x7F || b == 0x5C { return nil }
                i += 1
            }
            return nil
        }

        /// One object of known, distinct keys with simple string values.
        mutating func pair() -> PairRequest? {
            guard take(0x7B) else { return nil }
            var pair = PairRequest(foreground: nil, background: nil)
            var seen: UInt16 = 0  // the keys met, by their index in `fields` (JSON refuses repeats)
            guard !take(0x7D) else { return nil }  // {} is an error the full reader words
            while true {
                guard take(0x22), let key = string(), let field = PairRequest.field(key),
                      let index = PairRequest.fields.firstIndex(of: key), seen & (1 << index) == 0 else { return nil }
                seen |= 1 << index
                guard take(0x3A), take(0x22), let value = string() else { return nil }
                pair[keyPath: field] = value
                if take(0x7D) { return pair }
                guard take(0x2C) else { return nil }
            }
        }
    }

    /// Measures the pair. `defaults` is the requirement when the request names none (the CLI's
    /// `--usage`/`--level`).
    public func evaluate(defaults: ContrastRequirement = ContrastRequirement(usage: .text)) throws(RequestError) -> PairReport {
        guard let foreground, !foreground.isEmpty else { throw RequestError(field: "fg", "missing \"fg\" (the foreground color)") }
        guard let background, !background.isEmpty else { throw RequestError(field: "bg", "missing \"bg\" (the background color)") }
        let scheme = try PairRequest.scheme(self.scheme)
        let fg = try PairRequest.color(foreground, field: "fg", scheme: scheme)
        let bg = try PairRequest.color(background, field: "bg", scheme: scheme)
        var parsedBackdrop: ParsedColor?
        if let backdrop {
            let parsed = try PairRequest.color(backdrop, field: "backdrop", scheme: scheme)
            guard parsed.color.isOpaque else { throw RequestError(field: "backdrop", "backdrop: the backdrop must be opaque (it is the surface underneath)") }
            parsedBackdrop = parsed
        }
        let requirement = try PairRequest.requirement(usage: usage, level: level, defaults: defaults)
        return PairReport(foreground: fg, background: bg, backdrop: parsedBackdrop, requirement: requirement)
    }

    /// The pair in its `scheme`, or, when it names none and a color uses `light-dark()`, in
    /// both schemes, light first: the pair must pass in both (`contrast check` and
    /// `GET /v1/contrast` alike).
    public func evaluateInEveryScheme(defaults: ContrastRequirement = ContrastRequirement(usage: .text)) throws(RequestError) -> [(scheme: ColorScheme?, report: PairReport)] {
        if scheme == nil {
            let texts = [("fg", foreground), ("bg", background), ("backdrop", backdrop)].compactMap { field, text in text.map { (field, $0) } }
            var dependsOnScheme = false
            for (field, text) in texts where !text.isEmpty {
                if try PairRequest.color(text, field: field, scheme: .light).dependsOnScheme { dependsOnScheme = true }
            }
            if dependsOnScheme {
                var light = self, dark = self
                light.scheme = ColorScheme.light.rawValue
                dark.scheme = ColorScheme.dark.rawValue
                return [(.light, try light.evaluate(defaults: defaults)), (.dark, try dark.evaluate(defaults: defaults))]
            }
        }
        return [(try PairRequest.scheme(scheme), try evaluate(defaults: defaults))]
    }

    /// The JSON of ``evaluateInEveryScheme(defaults:)``: one report, or one per scheme
    /// (`{"dark": {…}, "light": {…}}`).
    public static func jsonBytes(_ reports: [(scheme: ColorScheme?, report: PairReport)], id: String? = nil) -> [UInt8] {
        guard reports.count > 1 else { return reports.first?.report.jsonBytes(id: id) ?? [] }
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, entry) in reports.sorted(by: { ($0.scheme?.rawValue ?? "") < ($1.scheme?.rawValue ?? "") }).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += Array("\"\(entry.scheme?.rawValue ?? "")\":".utf8)
            out += entry.report.jsonBytes(id: id)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A CSS color, or an error naming the field and the byte at fault. `light-dark()` needs a
    /// `scheme`; without one the error says to give it.
    public static func color(_ text: String, field: String, scheme: ColorScheme? = nil) throws(RequestError) -> ParsedColor {
        do {
            return try CSSColor.parse(text, scheme: scheme)
        } catch {
            let hint = error.code == .schemeDependent ? "; give \"scheme\": \"light\" or \"dark\"" : ""
            throw RequestError(field: field, "\(field): \(error)\(hint)")
        }
    }

    /// `light` or `dark` (nil when not given).
    public static func scheme(_ text: String?) throws(RequestError) -> ColorScheme? {
        guard let text else { return nil }
        guard let scheme = ColorScheme(rawValue: text) else { throw RequestError(field: "scheme", "scheme must be light or dark, not \"\(text)\"") }
        return scheme
    }

    /// The requirement from `usage` and `level` (either may be absent).
    public static func requirement(usage: String?, level: String?, defaults: ContrastRequirement = ContrastRequirement(usage: .text)) throws(RequestError) -> ContrastRequirement {
        var requirement = defaults
        if let usage {
            guard let u = ContrastUsage(name: usage), !u.isExempt else { throw RequestError(field: "usage", "usage must be text, large-text or non-text, not \"\(usage)\"") }
            requirement.usage = u
        }
        if let level {
            guard let l = WCAGLevel(name: level) else { throw RequestError(field: "level", "level must be AA or AAA, not \"\(level)\"") }
            requirement.level = l
        }
        return requirement
    }
}

/// What a suggestion aims for: `target` (`4.5`, `AAA`, `Lc60`, `AA+Lc60`), or else `usage` and
/// `level`, for `contrast suggest`/`variants` and `POST /v1/suggest`/`/v1/variants` alike.
public enum SuggestionTarget {
    public static func parse(target: String?, usage: String?, level: String?) throws(RequestError) -> ContrastTarget {
        if let target {
            guard let goal = ContrastTarget(parsing: target) else {
                throw RequestError(field: "target", "target must be a ratio (4.5), a level (AA, AAA, AA-large), an APCA Lc (Lc60) or both (AA+Lc60), not \"\(target)\"")
            }
            return goal
        }
        return ContrastTarget(ratio: try PairRequest.requirement(usage: usage, level: level).minimumRatio)
    }

    /// An opaque color for suggestions.
    public static func opaqueColor(_ text: String, field: String) throws(RequestError) -> SRGB {
        let parsed = try PairRequest.color(text, field: field)
        guard parsed.color.isOpaque else {
            throw RequestError(field: field, "\(field) is translucent (\(parsed.color.hex)); suggestions need opaque colors (contrast check shows the composite)")
        }
        return parsed.color
    }
}

/// The answer to a suggestion request (`contrast suggest --format json`, `POST /v1/suggest`).
public struct SuggestionResult: Sendable, Codable {
    public var foreground: String
    public var background: String
    public var target: String
    public var ratio: Double
    public var display: String
    public var passes: Bool
    /// Absent when the pair already passes.
    public var suggestions: Suggestions?

    public init(foreground: SRGB, background: SRGB, target: ContrastTarget) {
        self.foreground = foreground.hex
        self.background = background.hex
        self.target = target.description
        ratio = foreground.contrastRatio(with: background)
        display = RatioFormat.display(ratio)
        passes = target.isMet(foreground: foreground, background: background)
        suggestions = passes ? nil : Auditor.suggestions(foreground: foreground, background: background, target: target)
    }
}

/// A color's nearest passing variant on each background (`contrast variants`, `POST /v1/variants`).
public struct VariantsResult: Sendable, Codable {
    public struct Variant: Sendable, Codable {
        public var background: String
        /// Absent when no color of this hue reaches the target on this background.
        public var variant: SuggestedColor?
        public var alternatives: [SuggestedColor]
        public var bestReachable: Double?
    }

    public var color: String
    public var target: String
    public var variants: [Variant]

    public init(color: SRGB, on backgrounds: [SRGB], target: ContrastTarget) {
        self.color = color.hex
        self.target = target.description
        variants = NearestPassing.variants(of: color, on: backgrounds, target: target).map {
            Variant(background: $0.background.hex, variant: $0.variant.map(SuggestedColor.init),
                    alternatives: $0.result.suggestions.dropFirst().map(SuggestedColor.init), bestReachable: $0.result.bestReachableRatio)
        }
    }

    /// Whether every background has a variant.
    public var allReached: Bool { variants.allSatisfy { $0.variant != nil } }
}

extension AuditSummary {
    /// "all 12 checks pass", "3 of 12 checks fail", or "no checks": the one-line verdict the
    /// palette list and the designers' page show.
    public var verdict: (text: String, passed: Bool) {
        if checks == 0 { return ("no checks", true) }
        return fail == 0 ? ("all \(checks) checks pass", true) : ("\(fail) of \(checks) checks fail", false)
    }
}

extension Palette {
    /// The names in `requested` that are no theme of this palette, or nil when all are.
    public func unknownThemes(_ requested: [String]) -> String? {
        let missing = requested.filter { name in !themes.contains { $0.name == name } }
        guard !missing.isEmpty else { return nil }
        return "\(missing.count == 1 ? "there is no theme" : "there are no themes") \(missing.map { "\"\($0)\"" }.joined(separator: ", ")) in palette \"\(name)\"; themes: \(themes.map(\.name).joined(separator: ", "))"
    }

    /// Takes the checks and badges of `other` when this palette has none: a tokens file is
    /// audited with the checks of its sidecar (or of the served palette it proposes to replace).
    public mutating func adoptChecks(from other: Palette) {
        ignoredProperties.formUnion(other.ignoredProperties)
        guard checks.isEmpty && badges.isEmpty else { return }
        checks = other.checks
        badges = other.badges
        badgeBordersCarryMeaning = other.badgeBordersCarryMeaning
    }
}
