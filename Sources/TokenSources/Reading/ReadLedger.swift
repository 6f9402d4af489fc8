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
        /// The rule (or block, or set) the declaration is written in, as a key of its file (a
        /// stylesheet's rule by the offset of its `{`): the declarations of one rule not read
        /// for one reason are one entry of the ``Summary``. Not part of any output.
        public var rule: Int?
        /// An entry of the ``Summary`` that stands for several declarations of one rule, not
        /// read for one reason: how many (absent for one). `name`, `line` and `column` are the
        /// first one's.
        public var count: Int?
        /// With `count`: the lines the declarations are on, each once, in the order met.
        public var lines: [Int]?
        /// With `count`: the names of the first of them (at most ``listedNames``, each quoted
        /// short); `count` says how many there are in all.
        public var names: [String]?

        enum CodingKeys: String, CodingKey {
            case name, disposition, themes, type, reason, file, line, column, count, lines, names
        }

        /// The declarations the entry stands for.
        public var declarations: Int { count ?? 1 }

        /// What the entry is about, in words: its name, or for several declarations
        /// "3 declarations (a, b, c) on lines 4–6".
        public var subject: String {
            guard let count, count > 1 else { return name }
            let listed = (names ?? [name]).joined(separator: ", ") + (count > (names?.count ?? 1) ? ", …" : "")
            return "\(count) declarations (\(listed)) on \(ReadLedger.lineSpans(lines ?? line.map { [$0] } ?? []))"
        }
    }

    /// The names a grouped entry lists (``Entry/names``).
    public static let listedNames = 10

    /// "line 7", "lines 4–6", "lines 2–9, 12, 15–20", the first few runs of consecutive lines and
    /// "…" past them.
    static func lineSpans(_ lines: [Int]) -> String {
        guard let first = lines.first else { return "no line" }
        if lines.count == 1 { return "line \(first)" }
        var spans: [String] = []
        var start = first, end = first
        func close() { spans.append(start == end ? "\(start)" : "\(start)–\(end)") }
        for line in lines.dropFirst() {
            if line == end + 1 {
                end = line
                continue
            }
            close()
            if spans.count == 5 { return "lines " + spans.joined(separator: ", ") + ", …" }
            start = line
            end = line
        }
        close()
        return "lines " + spans.joined(separator: ", ")
    }

    public private(set) var entries: [Entry] = []
    /// The declarations recorded (a reader that builds several themes meets one several times).
    private var recorded: Set<String> = []

    public init() {}

    /// A declaration that is not a color.
    public mutating func notColor(_ name: String, type: String, file: String?, location: SourceLocation?) {
        record(Entry(name: name, disposition: .notColor, type: type, file: file, line: location?.line, column: location?.column))
    }

    /// A declaration that may be a color and was not read, and why. `rule`: the rule (block,
    /// set) it is written in, as a key of its file: the declarations of one rule not read for
    /// one reason are one entry of the ``summary``, with their count and lines.
    public mutating func notRead(_ name: String, reason: String, file: String?, location: SourceLocation?, missing: String? = nil, rule: Int? = nil) {
        record(Entry(name: name, disposition: .notRead, reason: reason, file: file, line: location?.line, column: location?.column, missing: missing, rule: rule))
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

    private mutating func record(_ entry: Entry, against allowance: ReadBudget.Allowance = .read) {
        // A read its budget stopped gives no palette, and its ledger is never shown: nothing
        // more is recorded (found by fuzz-tokens: a 2.4 KB token file whose readers went on
        // recording each token `$extends` copied after the 8 MiB budget stopped the read held
        // 97 MB of ledger keys at its peak).
        if ReadBudget.isExhausted { return }
        let key = "\(entry.name)\u{0}\(entry.file ?? "")\u{0}\(entry.line ?? 0)\u{0}\(entry.column ?? 0)"
        guard recorded.insert(key).inserted else { return }
        // What the entry holds is charged to the read's budget as it is recorded: the ledger
        // grows with the declarations read, and a reader that recorded past that is stopped.
        // (A reason shared by a rule's declarations is one string; it is charged for each, so
        // the charge is an upper bound.)
        guard ReadBudget.charge(Self.estimatedBytes(entry, key: key), for: "the ledger of what the read met", against: allowance,
                                file: entry.file, location: nil) else { return }
        entries.append(entry)
    }

    /// An upper bound of the memory an entry takes: the entry, its strings and its key among
    /// those ``record(_:)`` has seen.
    static func estimatedBytes(_ entry: Entry, key: String) -> Int {
        let strings = entry.name.utf8.count + (entry.reason?.utf8.count ?? 0) + (entry.type?.utf8.count ?? 0) + (entry.missing?.utf8.count ?? 0)
        return MemoryLayout<Entry>.stride + 2 * key.utf8.count + strings + 6 * 32 + (entry.themes?.count ?? 0) * 16
    }

    /// The ledger with a color entry for every declaration the palette's themes' tokens come
    /// from (a token written once and inherited, or copied by `$extends`, is one declaration; a
    /// name written in a light and a dark file is two), with the themes each is in.
    /// The key of a value that could not be read in a theme (``completed(with:unreadValues:)``).
    package static func failureKey(file: String?, location: SourceLocation?, theme: String) -> String? {
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
        // Charged to the request, not the read: each lists the themes it is in, and a
        // declaration a thousand themes inherit lists a thousand.
        for key in order { if let entry = found[key] { ledger.record(entry, against: .request) } }
        // A declaration that no theme could read: not read, where it is, with the reason.
        for (key, failure) in failedIn.sorted(by: { $0.key < $1.key }) where found[key] == nil && failure.themes == appearsIn[key] {
            ledger.record(failure.entry, against: .request)
        }
        return ledger
    }

    public var colors: Int { entries.count { $0.disposition == .color } }
    public var notColors: Int { entries.count { $0.disposition == .notColor } }
    public var notReadEntries: [Entry] { entries.filter { $0.disposition == .notRead } }
    /// Declarations that are, or may be, colors: the ones read and the ones not read.
    public var colorDeclarations: Int { colors + entries.count { $0.disposition == .notRead } }

    /// "read 163 of 163 color declarations", or "read 147 of 163 color declarations; 16 not read".
    public var headline: String { summary.headline }

    /// What a report carries: the counts and the entries not read, the declarations of one
    /// rule not read for one reason as one entry (``grouped(_:)``).
    public var summary: Summary {
        Summary(colorDeclarations: colorDeclarations, read: colors, notColors: notColors, notRead: Self.grouped(notReadEntries))
    }

    /// The entries, those of one rule (``Entry/rule``) in one file with one reason made one
    /// entry, at the place of the first, with their count, their lines and the first names: a
    /// component rule of 5,000 custom properties is one entry, not 5,000 that repeat its reason.
    /// Entries without a rule stay as they are. In the order of each group's first entry.
    static func grouped(_ entries: [Entry]) -> [Entry] {
        struct Key: Hashable {
            var file: String?
            var rule: Int
            var reason: String?
        }
        var out: [Entry] = []
        var groups: [Key: Int] = [:]
        for entry in entries {
            guard let rule = entry.rule else {
                out.append(entry)
                continue
            }
            let key = Key(file: entry.file, rule: rule, reason: entry.reason)
            guard let at = groups[key] else {
                groups[key] = out.count
                out.append(entry)
                continue
            }
            // Changed in place: a copy of the entry would copy its lists for every declaration.
            if out[at].count == nil {
                out[at].count = 1
                out[at].lines = out[at].line.map { [$0] } ?? []
                out[at].names = [out[at].name.excerpt(60)]
            }
            out[at].count! += 1
            if let line = entry.line, out[at].lines?.last != line { out[at].lines!.append(line) }
            if out[at].names!.count < listedNames { out[at].names!.append(entry.name.excerpt(60)) }
        }
        return out
    }

    public struct Summary: Sendable, Codable, Hashable {
        public var colorDeclarations: Int
        public var read: Int
        public var notColors: Int
        /// The declarations not read: one entry per declaration, or per rule whose declarations
        /// share a reason (``Entry/count``). Their counts add up to `colorDeclarations - read`.
        public var notRead: [Entry]

        /// The declarations not read (each entry's ``Entry/declarations``, added up).
        public var notReadDeclarations: Int { notRead.reduce(0) { $0 + $1.declarations } }

        public var headline: String {
            "read \(read) of \(colorDeclarations) color declaration\(colorDeclarations == 1 ? "" : "s")" + (notRead.isEmpty ? "" : "; \(notReadDeclarations) not read")
                + (notColors == 0 ? "" : notColors == 1 ? " (and 1 declaration that is not a color)" : " (and \(notColors) declarations that are not colors)")
        }
    }
}
