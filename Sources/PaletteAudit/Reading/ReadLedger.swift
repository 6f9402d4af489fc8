/// Every declaration a reader met, and what became of each: a color token (in which themes),
/// not a color (with the type it has), or not read (with the reason and where). The audit's
/// header says how many color declarations were read of how many, and lists the ones that were
/// not, so nothing a source holds is dropped without a word.
///
/// Readers record what they did not turn into a color token (``notColor(_:type:file:location:)``
/// and ``notRead(_:reason:file:location:)``); the color tokens are counted from the palette's
/// themes when the audit runs (``completed(with:)``), so a token is never counted twice.
public struct ReadLedger: Sendable, Hashable {
    public enum Disposition: String, Sendable, Codable, Hashable {
        case color
        case notColor = "not-a-color"
        case notRead = "not-read"
    }

    public struct Entry: Sendable, Codable, Hashable {
        public var name: String
        public var disposition: Disposition
        /// A color token: the themes it is a token of.
        public var themes: [String]?
        /// Not a color: the type it has (`dimension`, `FLOAT`, `length`…).
        public var type: String?
        /// Not read: why.
        public var reason: String?
        public var file: String?
        public var line: Int?
        public var column: Int?
        /// Not read because a custom property no stylesheet of the read defines was named
        /// (without `--`): where another stylesheet of the same run defines it, the reason says
        /// so (``noteDefinitions(by:)``). Not part of any output.
        public var missing: String?

        enum CodingKeys: String, CodingKey {
            case name, disposition, themes, type, reason, file, line, column
        }
    }

    public private(set) var entries: [Entry] = []
    /// The declarations recorded (a reader that builds several themes meets one several times).
    private var recorded: Set<String> = []

    public init() {}

    /// A declaration that is not a color.
    public mutating func notColor(_ name: String, type: String, file: String?, location: SourceLocation?) {
        record(Entry(name: name, disposition: .notColor, type: type, file: file, line: location?.line, column: location?.column))
    }

    /// A declaration that may be a color and was not read, and why.
    public mutating func notRead(_ name: String, reason: String, file: String?, location: SourceLocation?, missing: String? = nil) {
        record(Entry(name: name, disposition: .notRead, reason: reason, file: file, line: location?.line, column: location?.column, missing: missing))
    }

    /// Every name a declaration of the ledger has (of any disposition).
    public var names: Set<String> { Set(entries.map(\.name)) }

    /// Adds to each entry not read for want of a custom property where `definer` finds it
    /// defined: another stylesheet of the same run, which a page loading both would use.
    public mutating func noteDefinitions(by definer: (String) -> String?) {
        for i in entries.indices {
            guard let missing = entries[i].missing, let file = definer(missing) else { continue }
            entries[i].reason = (entries[i].reason ?? "") + "; \(file), read in the same run, defines --\(missing): a page that loads it with this stylesheet gives the property its value (audit them together from one stylesheet that @imports both)"
            entries[i].missing = nil
        }
    }

    /// Adds the entries of another reader's ledger (a file of a set).
    public mutating func merge(_ other: ReadLedger) {
        for entry in other.entries { record(entry) }
    }

    private mutating func record(_ entry: Entry) {
        let key = "\(entry.name)\u{0}\(entry.file ?? "")\u{0}\(entry.line ?? 0)\u{0}\(entry.column ?? 0)"
        guard recorded.insert(key).inserted else { return }
        entries.append(entry)
    }

    /// The ledger with a color entry for every declaration the palette's themes' tokens come
    /// from (a token written once and inherited, or copied by `$extends`, is one declaration; a
    /// name written in a light and a dark file is two), with the themes each is in.
    /// The key of a value that could not be read in a theme (``completed(with:unreadValues:)``).
    static func failureKey(file: String?, location: SourceLocation?, theme: String) -> String? {
        guard let location else { return nil }
        return "\(file ?? "")\u{0}\(location.line)\u{0}\(location.column)\u{0}\(theme)"
    }

    /// `unreadValues`: the values the audit could not read (``failureKey(file:location:theme:)``
    /// → why). A declaration no theme could read is not read, with that reason; one read in
    /// some themes is a color token of those.
    public func completed(with palette: Palette, unreadValues: [String: String] = [:]) -> ReadLedger {
        var ledger = self
        var order: [String] = []
        var found: [String: Entry] = [:]
        var failedIn: [String: (themes: Int, entry: Entry)] = [:]
        var appearsIn: [String: Int] = [:]
        for theme in palette.themes {
            for token in theme.tokens where token.isColorTyped {
                let file = token.file ?? palette.file
                if !unreadValues.isEmpty, token.unreadable == nil {
                    let key = token.declaration ?? token.location.map { "\(file ?? "")\u{0}\($0.line)\u{0}\($0.column)" } ?? "\(file ?? "")\u{0}\(token.name)\u{0}\(token.pointer)"
                    appearsIn[key, default: 0] += 1
                    if let failure = Self.failureKey(file: file, location: token.location, theme: theme.name), let reason = unreadValues[failure] {
                        failedIn[key] = ((failedIn[key]?.themes ?? 0) + 1, failedIn[key]?.entry
                            ?? Entry(name: token.name, disposition: .notRead, reason: reason, file: file, line: token.location?.line, column: token.location?.column))
                        continue
                    }
                }
                if let reason = token.unreadable {
                    // A value the reader met and could not read (an asset catalog's appearance):
                    // not read, where it is, even when the same declaration is read elsewhere.
                    let key = "not-read\u{0}\(file ?? "")\u{0}\(token.location?.line ?? 0)\u{0}\(token.location?.column ?? 0)\u{0}\(token.name)"
                    if found[key] == nil {
                        order.append(key)
                        found[key] = Entry(name: token.name, disposition: .notRead, reason: reason, file: file, line: token.location?.line, column: token.location?.column)
                    }
                    continue
                }
                let key = token.declaration ?? token.location.map { "\(file ?? "")\u{0}\($0.line)\u{0}\($0.column)" } ?? "\(file ?? "")\u{0}\(token.name)\u{0}\(token.pointer)"
                if found[key] == nil {
                    order.append(key)
                    found[key] = Entry(name: token.name, disposition: .color, themes: [theme.name], file: file, line: token.location?.line, column: token.location?.column)
                } else if found[key]?.themes?.last != theme.name {
                    found[key]?.themes?.append(theme.name)
                }
            }
        }
        for key in order { if let entry = found[key] { ledger.record(entry) } }
        // A declaration that no theme could read: not read, where it is, with the reason.
        for (key, failure) in failedIn.sorted(by: { $0.key < $1.key }) where found[key] == nil && failure.themes == appearsIn[key] {
            ledger.record(failure.entry)
        }
        return ledger
    }

    public var colors: Int { entries.count { $0.disposition == .color } }
    public var notColors: Int { entries.count { $0.disposition == .notColor } }
    public var notReadEntries: [Entry] { entries.filter { $0.disposition == .notRead } }
    /// Declarations that are, or may be, colors: the ones read and the ones not read.
    public var colorDeclarations: Int { colors + notReadEntries.count }

    /// "read 163 of 163 color declarations", or "read 147 of 163 color declarations; 16 not read".
    public var headline: String { summary.headline }

    /// What a report carries: the counts and the entries not read.
    public var summary: Summary {
        Summary(colorDeclarations: colorDeclarations, read: colors, notColors: notColors, notRead: notReadEntries)
    }

    public struct Summary: Sendable, Codable, Hashable {
        public var colorDeclarations: Int
        public var read: Int
        public var notColors: Int
        public var notRead: [Entry]

        public var headline: String {
            "read \(read) of \(colorDeclarations) color declaration\(colorDeclarations == 1 ? "" : "s")" + (notRead.isEmpty ? "" : "; \(notRead.count) not read")
                + (notColors == 0 ? "" : notColors == 1 ? " (and 1 declaration that is not a color)" : " (and \(notColors) declarations that are not colors)")
        }
    }
}
