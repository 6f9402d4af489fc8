import TokenSources

/// The tables of `contrast report`'s `audit.json` (docs/audit-format.md, "The report's
/// audit.json"): each file, token, check id, rule and resolved color written once, results
/// referring to them by index. A pass over the report fills them before anything is written;
/// they grow with the distinct names and colors, not with the results.
final class AuditTables {
    /// Strings in first-seen order, each with its index.
    struct Interned {
        var list: [String] = []
        var index: [String: Int] = [:]
        mutating func callAsFunction(_ text: String) -> Int {
            if let known = index[text] { return known }
            index[text] = list.count
            list.append(text)
            return list.count - 1
        }
    }

    /// A rule: a check's place in its document (every theme's result of it, every expansion of
    /// a glob rule, shares it), with its description.
    struct Rule: Hashable {
        var palette: Int
        var pointer: JSONPointer
        var line: Int?
        var description: String?
    }

    static let version = 1

    var files = Interned()
    var tokens = Interned()
    var checks = Interned()
    /// JSON pointers of the values a color comes from and a fix sets (a CSS custom property's
    /// pointer holds its whole selector: Primer's are 200 characters).
    var pointers = Interned()
    var rules: [Rule] = []
    var ruleIndex: [Rule: Int] = [:]
    var colors: [ResolvedColor] = []
    var colorIndex: [[UInt8]: Int] = [:]

    init(_ report: AuditReport) {
        for (p, palette) in report.palettes.enumerated() {
            for entry in palette.ledger?.notRead ?? [] { if let file = entry.file { _ = files(file) } }
            for theme in palette.themes {
                for result in theme.results {
                    _ = checks(result.id)
                    _ = rule(palette: p, result)
                    for color in [result.foreground, result.background] + (result.backdrop.map { [$0] } ?? []) { _ = self.color(color) }
                    for fix in result.fixes ?? [] {
                        for change in fix.changes {
                            if let token = change.token { _ = tokens(token) }
                            _ = pointers(change.pointer.description)
                        }
                    }
                }
            }
        }
    }

    func rule(palette: Int, _ result: CheckResult) -> Int {
        let rule = Rule(palette: palette, pointer: result.pointer, line: result.line, description: result.description)
        if let known = ruleIndex[rule] { return known }
        ruleIndex[rule] = rules.count
        rules.append(rule)
        return rules.count - 1
    }

    /// The index of `color` in the colors table: one entry for each distinct color as written.
    func color(_ color: ResolvedColor) -> Int {
        let key = JSONWriter.compact { w in color.write(&w, tables: self) }
        if let known = colorIndex[key] { return known }
        colorIndex[key] = colors.count
        colors.append(color)
        return colors.count - 1
    }

    /// The tables, as members of the document's object (before the results that use them).
    func write(_ w: inout JSONWriter) {
        w.key("layout"); w.string("tables")
        w.key("layoutVersion"); w.int(Self.version)
        w.key("files"); w.strings(files.list)
        w.key("tokens"); w.strings(tokens.list)
        w.key("colors"); w.array(colors) { w, c in c.write(&w, tables: self) }
        w.key("pointers"); w.strings(pointers.list)
        w.key("checks"); w.strings(checks.list)
        w.key("rules")
        w.array(rules) { w, r in
            w.object { w in
                w.string("description", r.description)
                w.int("line", r.line)
                w.key("palette"); w.int(r.palette)
                w.key("pointer"); w.pointer(r.pointer)
            }
        }
    }
}

extension AuditReport {
    /// `contrast report`'s `audit.json`: the audit model with its repeated text in tables (see
    /// ``AuditTables``), handed to `write` in pieces of about a megabyte, so the document never
    /// exists whole.
    public func writeTablesJSON(_ write: ([UInt8]) -> Void) {
        let tables = AuditTables(self)
        withoutActuallyEscaping(write) { write in
            var w = JSONWriter(layout: .pretty, sink: write)
            document(&w, tables: tables)
            w.endLine()
            w.finish()
        }
    }
}
