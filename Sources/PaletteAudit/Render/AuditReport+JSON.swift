import ColorScience
import TokenSources

extension AuditReport {
    /// Compact JSON with sorted keys (see ``JSONWriter``). `html`, when given, is written as
    /// the member `html` (the service's `?include=html`: the same audit's HTML report).
    public func compactJSON(html: String? = nil) -> [UInt8] {
        json(pretty: false, html: html)
    }

    /// The same document pretty-printed, with a final newline: what `contrast audit --format
    /// json` prints and `contrast report` writes as `audit.json`.
    public func prettyJSON() -> String {
        var w = JSONWriter(layout: .pretty)
        document(&w)
        w.endLine()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// ``prettyJSON()`` handed to `write` in pieces of about a megabyte, in order, so a large
    /// audit never exists whole as text (the pieces joined are exactly ``prettyJSON()``).
    public func writePrettyJSON(_ write: ([UInt8]) -> Void) {
        withoutActuallyEscaping(write) { write in
            var w = JSONWriter(layout: .pretty, sink: write)
            document(&w)
            w.endLine()
            w.finish()
        }
    }

    func json(pretty: Bool, html: String? = nil) -> [UInt8] {
        var w = JSONWriter(layout: pretty ? .pretty : .compact)
        // Most of a report is its results, about 1.2 KB each in compact JSON (Peptide Fox's 73
        // take 84 KB): room for them up front, at most 16 MB (a larger report grows as any).
        let results = palettes.reduce(0) { $0 + $1.themes.reduce(0) { $0 + $1.results.count } }
        w.reserve(min(4_096 + results * 1_280 + (html?.utf8.count ?? 0), 16 << 20))
        document(&w, html: html)
        return w.bytes
    }

    func document(_ w: inout JSONWriter, tables: AuditTables? = nil, html: String? = nil) {
        w.object { w in
            // The tables first, so a reader streaming the document has them before the results.
            tables?.write(&w)
            if let checksFiles {
                w.key("checksFiles")
                w.array(checksFiles) { w, c in
                    w.object { w in
                        w.key("file"); w.string(c.file)
                        w.key("origin"); w.string(c.origin)
                        if let paths = c.paths { w.key("paths"); w.strings(paths) }
                    }
                }
            }
            if let comparison { w.key("comparison"); comparison.write(&w) }
            w.key("coverage"); coverage.write(&w)
            w.string("html", html)
            if let outcome { w.key("outcome"); outcome.write(&w) }
            w.key("palettes")
            w.array(Array(palettes.enumerated())) { w, p in p.element.write(&w, tables: tables.map { ($0, p.offset) }) }
            w.key("schemaVersion"); w.int(schemaVersion)
            do {
                w.key("skipped")
                w.array(skipped) { w, s in
                    w.object { w in
                        w.key("file"); w.string(s.file)
                        w.key("reason"); w.string(s.reason)
                    }
                }
            }
            w.key("summary"); summary.write(&w)
        }
    }
}

extension AuditReport {
    /// `{"audit", "comparison", "current", "palette", "proposed"}`: the answer to a proposal;
    /// with `html` (`?include=html`), also `html`, the proposal's HTML report.
    public static func proposalJSON(palette: String, current: AuditSummary, proposed: AuditSummary,
                                    comparison: BaselineComparison, audit: AuditReport, html: String? = nil) -> [UInt8] {
        var w = JSONWriter()
        w.object { w in
            w.key("audit"); w.raw(audit.compactJSON())
            w.key("comparison"); comparison.write(&w)
            w.key("current"); current.write(&w)
            w.string("html", html)
            w.key("palette"); w.string(palette)
            w.key("proposed"); proposed.write(&w)
        }
        return w.bytes
    }
}

extension AuditSummary {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            for (key, count) in AuditSummary.counts { w.key(key); w.int(self[keyPath: count]) }
        }
    }
}

extension Coverage {
    func write(_ w: inout JSONWriter) {
        func names(_ list: TokenNames, _ w: inout JSONWriter) {
            w.object { w in
                w.key("count"); w.int(list.count)
                if let names = list.names { w.key("names"); w.strings(names) }
            }
        }
        w.object { w in
            w.key("measured"); w.int(measured)
            w.number("percent", percent)
            w.key("tokens"); w.int(tokens)
            w.key("unmeasuredSurfaces"); names(unmeasuredSurfaces, &w)
            w.key("unmeasuredText"); names(unmeasuredText, &w)
        }
    }
}

extension AuditOutcome {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.key("reasons")
            w.array(reasons) { w, r in
                w.object { w in
                    w.key("code"); w.string(r.code.rawValue)
                    w.key("message"); w.string(r.message)
                }
            }
            w.key("status"); w.string(status.rawValue)
        }
    }
}

extension PaletteReport {
    func write(_ w: inout JSONWriter, tables: (AuditTables, palette: Int)? = nil) {
        w.object { w in
            w.key("assumptions"); w.array(assumptions) { w, a in a.write(&w) }
            if let coverage { w.key("coverage"); coverage.write(&w) }
            w.string("description", description)
            w.string("file", file)
            if let files { w.key("files"); w.strings(files) }
            w.string("format", format)
            if let ledger { w.key("ledger"); ledger.write(&w, tables: tables?.0) }
            w.key("name"); w.string(name)
            w.key("problems"); w.array(problems) { w, p in p.write(&w) }
            w.string("source", source)
            w.key("summary"); summary.write(&w)
            w.key("themes"); w.array(themes) { w, t in t.write(&w, tables: tables) }
            if let warnings { w.key("warnings"); w.array(warnings) { w, p in p.write(&w) } }
        }
    }
}

extension ThemeReport {
    func write(_ w: inout JSONWriter, tables: (AuditTables, palette: Int)? = nil) {
        w.object { w in
            if let coverage { w.key("coverage"); coverage.write(&w) }
            w.key("name"); w.string(name)
            w.key("results"); w.array(results) { w, r in r.write(&w, tables: tables) }
            w.key("summary"); summary.write(&w)
            if let unresolved {
                w.key("unresolved")
                w.array(unresolved) { w, u in
                    w.object { w in
                        w.key("background"); w.string(u.background)
                        w.key("foreground"); w.string(u.foreground)
                        w.key("id"); w.string(u.id)
                        w.key("problem"); w.string(u.problem)
                    }
                }
            }
        }
    }
}

extension Assumption {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.string("check", check)
            w.key("pointer"); w.pointer(pointer)
            w.key("reason"); w.string(reason)
            if let themes { w.key("themes"); w.strings(themes) }
            w.string("token", token)
            w.string("value", value)
        }
    }
}

extension PaletteProblem {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.key("code"); w.string(code.rawValue)
            w.string("file", file)
            if let location {
                w.key("location")
                w.object { w in
                    w.key("column"); w.int(location.column)
                    w.key("line"); w.int(location.line)
                    w.key("offset"); w.int(location.offset)
                }
            }
            w.key("message"); w.string(message)
            w.key("pointer"); w.pointer(pointer)
            if severity == .warning { w.key("severity"); w.string("warning") }
            w.string("theme", theme)
        }
    }
}

extension ResolvedColor {
    /// With `tables`, its token, aliases, file and pointer are indexes into them, and its
    /// reference is left out when it is its token's name.
    func write(_ w: inout JSONWriter, tables: AuditTables? = nil) {
        w.object { w in
            if let aliases {
                w.key("aliases")
                if let tables { w.array(aliases) { $0.int(tables.tokens($1)) } } else { w.strings(aliases) }
            }
            w.string("assumed", assumed)
            w.key("css"); w.string(css)
            w.string("deprecated", deprecated)
            if let file, let tables { w.key("file"); w.int(tables.files(file)) } else { w.string("file", file) }
            w.key("hex"); w.string(hex)
            w.int("line", line)
            if let operations { w.key("operations"); w.strings(operations) }
            if let outOfGamut { w.key("outOfGamut"); w.bool(outOfGamut) }
            if let pointer {
                w.key("pointer")
                if let tables { w.int(tables.pointers(pointer.description)) } else { w.pointer(pointer) }
            }
            if let tables {
                if reference != token { w.key("reference"); w.string(reference) }
                if let token { w.key("token"); w.int(tables.tokens(token)) }
            } else {
                w.key("reference"); w.string(reference)
                w.string("token", token)
            }
        }
    }
}

extension SuggestedColor {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.key("apca"); w.number(apca)
            w.key("deltaEOK"); w.number(deltaEOK)
            w.key("direction"); w.string(direction)
            w.key("display"); w.string(display)
            w.key("hex"); w.string(hex)
            w.key("ratio"); w.number(ratio)
        }
    }
}

extension CheckResult {
    /// With `tables`, its colors are indexes into the colors table, its id (`check`) and its
    /// place and description (`rule`) indexes too, and a fix's token an index of the tokens.
    func write(_ w: inout JSONWriter, tables: (AuditTables, palette: Int)? = nil) {
        func color(_ w: inout JSONWriter, _ key: StaticString, _ c: ResolvedColor) {
            w.key(key)
            if let tables { w.int(tables.0.color(c)) } else { c.write(&w) }
        }
        w.object { w in
            w.key("achieved"); w.string(achieved.name)
            w.key("apca"); w.number(apca)
            w.number("apcaRequired", apcaRequired)
            if let assumed { w.key("assumed"); w.strings(assumed) }
            if let backdrop { color(&w, "backdrop", backdrop) }
            color(&w, "background", background)
            if let tables { w.key("check"); w.int(tables.0.checks(id)) }
            if let claim {
                w.key("claim")
                w.object { w in
                    w.key("claim")
                    w.object { w in
                        w.string("level", claim.claim.level)
                        w.number("minimumRatio", claim.claim.minimumRatio)
                        w.string("quote", claim.claim.quote)
                        w.number("ratio", claim.claim.ratio)
                        w.string("where", claim.claim.where)
                    }
                    w.key("message"); w.string(claim.message)
                    w.key("supported"); w.bool(claim.supported)
                }
            }
            if let composited { w.key("composited"); composited.write(&w) }
            w.string("criterion", criterion)
            if let cvd { w.key("cvd"); cvd.write(&w) }
            if tables == nil { w.string("description", description) }
            w.key("display"); w.string(display)
            if let distinction {
                w.key("distinction")
                w.object { w in
                    w.key("confusable"); w.bool(distinction.confusable)
                    w.key("deficiencies"); w.strings(distinction.deficiencies)
                    w.string("deficiency", distinction.deficiency)
                    w.key("difference"); w.number(distinction.difference)
                    w.key("indistinct"); w.bool(distinction.indistinct)
                    w.key("metric"); w.string(distinction.metric)
                    if let simulated = distinction.simulated { w.key("simulated"); simulated.write(&w) }
                    w.number("simulatedDifference", distinction.simulatedDifference)
                    w.key("threshold"); w.number(distinction.threshold)
                }
            }
            if let fixes {
                w.key("fixes")
                w.array(fixes) { w, fix in
                    w.object { w in
                        w.key("changes")
                        w.array(fix.changes) { w, change in
                            w.object { w in
                                if let override = change.override { w.key("override"); w.bool(override) }
                                w.key("pointer")
                                if let tables { w.int(tables.0.pointers(change.pointer.description)) } else { w.pointer(change.pointer) }
                                if let token = change.token, let tables { w.key("token"); w.int(tables.0.tokens(token)) } else { w.string("token", change.token) }
                                w.key("value"); w.string(change.value)
                            }
                        }
                        if let effect = fix.effect { w.key("effect"); effect.write(&w) }
                        w.key("kind"); w.string(fix.kind)
                    }
                }
            }
            w.string("fontSize", fontSize)
            w.int("fontWeight", fontWeight)
            color(&w, "foreground", foreground)
            if let gradient {
                func point(_ w: inout JSONWriter, _ p: GradientPoint) {
                    w.object { w in
                        w.key("color"); w.string(p.color)
                        w.key("display"); w.string(p.display)
                        w.key("position"); w.number(p.position)
                        w.key("ratio"); w.number(p.ratio)
                    }
                }
                w.key("gradient")
                w.object { w in
                    w.key("best"); point(&w, gradient.best)
                    w.key("css"); w.string(gradient.css)
                    w.key("interpolation"); w.string(gradient.interpolation)
                    if let lengths = gradient.lengthPositions { w.key("lengthPositions"); w.bool(lengths) }
                    w.key("worst"); point(&w, gradient.worst)
                }
            }
            if tables == nil { w.key("id"); w.string(id) }
            w.key("kind"); w.string(kind.name)
            w.key("level"); w.string(level.name)
            if let tables {
                w.key("rule"); w.int(tables.0.rule(palette: tables.palette, self))
            } else {
                w.int("line", line)
                w.key("pointer"); w.pointer(pointer)
            }
            if let range { w.key("range"); range.write(&w) }
            w.key("ratio"); w.number(ratio)
            if let reasons { w.key("reasons"); w.strings(reasons) }
            w.string("relation", relation)
            w.number("required", required)
            if let suggestions {
                w.key("suggestions")
                w.object { w in
                    w.key("background"); w.array(suggestions.background) { w, c in c.write(&w) }
                    if let both = suggestions.both {
                        w.key("both")
                        w.object { w in
                            w.key("background"); both.background.write(&w)
                            w.key("foreground"); both.foreground.write(&w)
                        }
                    }
                    w.key("foreground"); w.array(suggestions.foreground) { w, c in c.write(&w) }
                    if let notes = suggestions.notes { w.key("notes"); w.strings(notes) }
                }
            }
            w.string("technique", technique)
            w.key("usage"); w.string(usage.name)
            w.key("verdict"); w.string(verdict.rawValue)
        }
    }
}

extension CompositedPair {
    /// The composited pair, as a check result and a pair's report write it.
    func write(_ w: inout JSONWriter) {
        w.beginObject()
        w.key("background"); w.string(background)
        w.key("foreground"); w.string(foreground)
        w.endObject()
    }
}

extension RatioRange {
    /// The range over unknown backdrops, as a check result and a pair's report write it.
    func write(_ w: inout JSONWriter) {
        w.beginObject()
        w.key("best"); w.number(best)
        w.key("bestBackdrop"); w.string(bestBackdrop)
        w.key("worst"); w.number(worst)
        w.key("worstBackdrop"); w.string(worstBackdrop)
        w.endObject()
    }
}

extension BaselineEntry {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.key("achieved"); w.string(achieved)
            w.key("check"); w.string(check)
            w.string("kind", kind)
            w.key("level"); w.string(level)
            w.key("palette"); w.string(palette)
            w.key("ratio"); w.number(ratio)
            w.key("theme"); w.string(theme)
            w.key("usage"); w.string(usage)
            w.key("verdict"); w.string(verdict.rawValue)
        }
    }
}

extension BaselineChange {
    func write(_ w: inout JSONWriter) {
        w.object { w in
            w.key("after"); after.write(&w)
            w.key("before"); before.write(&w)
            w.key("key"); w.string(key)
        }
    }
}

extension FixEffect {
    /// `{"unmeasured": reason}` when the effect was not measured; else what the fix fixes,
    /// breaks, lowers and improves, each change as a comparison's.
    func write(_ w: inout JSONWriter) {
        w.object { w in
            if let unmeasured {
                w.key("unmeasured"); w.string(unmeasured)
                return
            }
            w.key("breaks"); w.array(breaks) { w, c in c.write(&w) }
            w.key("fixes"); w.bool(fixes)
            w.key("improves"); w.array(improves) { w, c in c.write(&w) }
            w.key("lowers"); w.array(lowers) { w, c in c.write(&w) }
        }
    }
}

extension BaselineComparison {
    func write(_ w: inout JSONWriter) {
        func change(_ w: inout JSONWriter, _ c: BaselineChange) { c.write(&w) }
        w.object { w in
            w.key("added"); w.strings(added)
            w.key("improvements"); w.array(improvements, change)
            w.key("regressions"); w.array(regressions, change)
            w.key("removed"); w.strings(removed)
            w.key("unchanged"); w.int(unchanged)
        }
    }
}

extension ReadLedger.Summary {
    func write(_ w: inout JSONWriter, tables: AuditTables? = nil) {
        w.object { w in
            w.key("colorDeclarations"); w.int(colorDeclarations)
            w.key("notColors"); w.int(notColors)
            w.key("notRead"); w.array(notRead) { w, e in e.write(&w, tables: tables) }
            w.key("read"); w.int(read)
        }
    }
}

extension ReadLedger.Entry {
    func write(_ w: inout JSONWriter, tables: AuditTables? = nil) {
        w.object { w in
            w.int("column", column)
            w.int("count", count)
            w.key("disposition"); w.string(disposition.rawValue)
            if let file, let tables { w.key("file"); w.int(tables.files(file)) } else { w.string("file", file) }
            w.int("line", line)
            if let lines { w.key("lines"); w.array(lines) { $0.int($1) } }
            w.key("name"); w.string(name)
            if let names { w.key("names"); w.strings(names) }
            w.string("reason", reason)
            if let themes { w.key("themes"); w.strings(themes) }
            w.string("type", type)
        }
    }
}

extension SimulatedContrast {
    /// The lowest simulated contrast, as a check result and a pair's report write it.
    func write(_ w: inout JSONWriter) {
        w.beginObject()
        w.key("background"); w.string(background)
        w.key("deficiencies"); w.strings(deficiencies)
        w.key("deficiency"); w.string(deficiency)
        w.key("display"); w.string(display)
        w.key("foreground"); w.string(foreground)
        w.key("ratio"); w.number(ratio)
        w.string("verdict", verdict)
        w.endObject()
    }
}
