public import ColorScience
public import TokenSources

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
            throw RequestError(.wrongType, field: "", "\(pointer.isEmpty ? "the pair" : pointer) must be an object like {\"fg\": \"#777\", \"bg\": \"#fff\"}, found \(object.typeName)")
        }
        func text(_ member: JSONMember) throws(RequestError) -> String {
            guard let s = member.value.stringValue else {
                let pointer = path()
                throw RequestError(.wrongType, field: member.key, "\(pointer)/\(member.key) must be a string, found \(member.value.typeName)")
            }
            return s
        }
        // The fields given, by property (`fg` and `foreground` are one), as the simple line
        // reader counts them.
        var given: UInt16 = 0
        for member in members {
            if member.key == "id" {
                switch member.value {
                case .string(let s, _): id = s
                case .number(let n, _): id = CSSNumber.format(n)
                default: throw RequestError(.wrongType, field: "id", "\(path())/id must be a string or a number, found \(member.value.typeName)")
                }
            } else if let index = PairRequest.fieldIndex(member.key) {
                // A JSON object cannot repeat a key (the parser refuses it), but it can give a
                // field under both its names; reading either would answer a question the client
                // did not ask.
                let bit = PairRequest.propertyBit(index)
                if given & bit != 0, let other = PairRequest.otherName(of: member.key) {
                    let pointer = path()
                    throw RequestError(.repeatedField, field: member.key, "\(pointer)/\(member.key) repeats \"\(other)\": \"\(other)\" and \"\(member.key)\" name one field; give it once")
                }
                given |= bit
                set(field: index, to: try text(member))
            } else {
                let pointer = path()
                throw RequestError(.unknownField, field: member.key, "unknown field \"\(member.key)\" at \(pointer.isEmpty ? "/" : pointer); expected fg, bg, backdrop, usage, level, scheme, id")
            }
        }
    }

    /// The index in ``fields`` of a JSON key, or nil for a key a pair does not have.
    static func fieldIndex(_ key: String) -> Int? {
        switch key {
        case "fg": 0
        case "bg": 1
        case "foreground": 2
        case "background": 3
        case "backdrop": 4
        case "usage": 5
        case "level": 6
        case "scheme": 7
        case "id": 8
        default: nil
        }
    }

    /// The other name of a field that has two (`fg` for `foreground`, …), or nil.
    static func otherName(of key: String) -> String? {
        switch key {
        case "fg": "foreground"
        case "foreground": "fg"
        case "bg": "background"
        case "background": "bg"
        default: nil
        }
    }

    /// The property a key at `index` in ``fields`` sets, as a bit: `fg` and `foreground` set
    /// the same one.
    static func propertyBit(_ index: Int) -> UInt16 {
        switch index {
        case 2: 1 << 0
        case 3: 1 << 1
        default: 1 << UInt16(index)
        }
    }

    /// Sets the property of the key at `index` in ``fields`` (`fg` and `foreground` set the
    /// same one) to a string value.
    mutating func set(field index: Int, to value: String) {
        switch index {
        case 0, 2: foreground = value
        case 1, 3: background = value
        case 4: backdrop = value
        case 5: usage = value
        case 6: level = value
        case 7: scheme = value
        default: id = value
        }
    }

    /// Measures the pair. `defaults` is the requirement when the request names none (the CLI's
    /// `--usage`/`--level`).
    public func evaluate(defaults: ContrastRequirement = ContrastRequirement(usage: .text)) throws(RequestError) -> PairReport {
        guard let foreground, !foreground.isEmpty else { throw RequestError(.missingField, field: "fg", "missing \"fg\" (the foreground color)") }
        guard let background, !background.isEmpty else { throw RequestError(.missingField, field: "bg", "missing \"bg\" (the background color)") }
        let scheme = try PairRequest.scheme(self.scheme)
        let fg = try PairRequest.color(foreground, field: "fg", scheme: scheme)
        let bg = try PairRequest.color(background, field: "bg", scheme: scheme)
        var parsedBackdrop: ParsedColor?
        if let backdrop {
            let parsed = try PairRequest.color(backdrop, field: "backdrop", scheme: scheme)
            guard parsed.color.isOpaque else { throw RequestError(.translucentColor, field: "backdrop", "backdrop: the backdrop must be opaque (it is the surface underneath)") }
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
        return JSONWriter.compact { w in
            w.object { w in
                for entry in reports.sorted(by: { ($0.scheme?.rawValue ?? "") < ($1.scheme?.rawValue ?? "") }) {
                    w.key(entry.scheme?.rawValue ?? "")
                    entry.report.write(&w, id: id)
                }
            }
        }
    }

    /// A CSS color, or an error naming the field and the byte at fault. `light-dark()` needs a
    /// `scheme`; without one the error says to give it.
    public static func color(_ text: String, field: String, scheme: ColorScheme? = nil) throws(RequestError) -> ParsedColor {
        do {
            return try CSSColor.parse(text, scheme: scheme)
        } catch {
            let hint = error.code == .schemeDependent ? "; give \"scheme\": \"light\" or \"dark\"" : ""
            throw RequestError(.invalidColor, field: field, "\(field): \(error)\(hint)")
        }
    }

    /// `light` or `dark` (nil when not given).
    public static func scheme(_ text: String?) throws(RequestError) -> ColorScheme? {
        guard let text else { return nil }
        guard let scheme = ColorScheme(rawValue: text) else { throw RequestError(.invalidValue, field: "scheme", "scheme must be light or dark, not \"\(text)\"") }
        return scheme
    }

    /// The requirement from `usage` and `level` (either may be absent).
    public static func requirement(usage: String?, level: String?, defaults: ContrastRequirement = ContrastRequirement(usage: .text)) throws(RequestError) -> ContrastRequirement {
        var requirement = defaults
        if let usage {
            guard let u = ContrastUsage(name: usage), !u.isExempt else { throw RequestError(.invalidValue, field: "usage", "usage must be text, large-text or non-text, not \"\(usage)\"") }
            requirement.usage = u
        }
        if let level {
            guard let l = WCAGLevel(name: level) else { throw RequestError(.invalidValue, field: "level", "level must be AA or AAA, not \"\(level)\"") }
            requirement.level = l
        }
        return requirement
    }
}

