public import Foundation
import TokenSources

/// The audit as SARIF 2.1.0, for code-scanning views: each failing check, false claim,
/// regression and palette problem, located at the palette file and the line of its token.
public enum SARIFRenderer {
    public static func render(_ report: AuditReport, toolVersion: String) throws -> Data {
        // id, name, what it finds, what to do.
        let table: [(String, String, String, String)] = [
        ("contrast/insufficient", "InsufficientContrast",
         "A color pair does not reach the WCAG contrast it needs.",
         "Raise the contrast: darken the darker color or lighten the lighter one until the ratio meets the requirement."),
        ("contrast/false-claim", "FalseClaim",
         "A documented contrast claim is not supported by the measurement.",
         "Correct the documentation or the colors so that the claim holds."),
        ("contrast/regression", "ContrastRegression",
         "A check fell to a lower WCAG level than in the baseline.",
         "Restore the previous contrast, or update the baseline deliberately."),
        ("contrast/palette-problem", "PaletteProblem",
         "The palette file has a problem that keeps a check from running.",
         "Fix the value at the reported JSON pointer."),
        ("contrast/palette-warning", "PaletteWarning",
         "Something in a token file was read but deserves a look (an ignored property, a hex that disagrees with its components).",
         "Check that the value the audit used is the one the design system's build uses."),
        ("contrast/deprecated-token", "DeprecatedToken",
         "A check uses a $deprecated token.",
         "Move the pair to the token that replaces it."),
        ("contrast/confusable", "ConfusableColors",
         "Two colors of a group that must stay distinguishable are not told apart, in normal vision or under a simulated color-vision deficiency.",
         "Move one of the two colors in lightness or hue until the pair differs clearly under every simulated deficiency."),
        ("contrast/color-vision", "ContrastLostToColorVision",
         "A pair that meets its contrast in normal vision does not under a simulated color-vision deficiency.",
         "Raise the contrast so that it holds for protanopia, deuteranopia and tritanopia too."),
        ("contrast/not-read", "DeclarationNotRead",
         "A declaration that may be a color was not read, so nothing that uses it is measured.",
         "Write the value in a form the tool reads, or check the pairs that use it by hand."),
        ("contrast/nothing-measured", "NothingMeasured",
         "A palette has color tokens and no checks, so the audit measured none of them.",
         "Run `contrast init PATH` to propose checks (it writes contrast.checks.json beside the tokens), or write the checks by hand."),
        ]
        // Findings first, written after: every member below is written in sorted order, as a
        // reader comparing two runs expects (and as `JSONEncoder(.sortedKeys)` would).
        var results: [Finding] = []
        // A palette that measured nothing is an error when it fails the run, a note when the
        // run allows it (--allow-empty).
        let emptyFails = report.outcome?.reasons.contains { $0.code == .nothingMeasured } ?? true
        for palette in AuditPolicy.unmeasured(report) {
            let tokens = palette.coverage?.tokens ?? 0
            results.append(Finding("contrast/nothing-measured", emptyFails ? "error" : "note",
                                   "\(palette.name) has \(tokens) color token\(tokens == 1 ? "" : "s") and no checks: nothing was measured",
                                   Place(file: palette.file, line: nil, pointer: "")))
        }
        for palette in report.palettes {
            for problem in palette.problems {
                results.append(Finding("contrast/palette-problem", "error", problem.message,
                                       Place(file: problem.file ?? palette.file, line: problem.location?.line, pointer: problem.pointer.description)))
            }
            for entry in palette.ledger?.notRead ?? [] {
                results.append(Finding("contrast/not-read", "warning", "\(palette.name): \(entry.subject) \(entry.declarations > 1 ? "are" : "is") not read: \(entry.reason ?? "")",
                                       Place(file: entry.file ?? palette.file, line: entry.line, pointer: nil)))
            }
            for warning in palette.warnings ?? [] {
                results.append(Finding("contrast/palette-warning", "warning", warning.message,
                                       Place(file: warning.file ?? palette.file, line: warning.location?.line, pointer: warning.pointer.description)))
            }
            for theme in palette.themes {
                for r in theme.results {
                    let prefix = "\(palette.name) › \(theme.name) › \(r.id)"
                    for note in r.deprecations {
                        results.append(Finding("contrast/deprecated-token", "note", "\(prefix): \(note)",
                                               Place(file: r.foreground.file ?? palette.file, line: r.line, pointer: r.pointer.description)))
                    }
                    let place = Place(file: r.foreground.file ?? palette.file, line: r.foreground.line ?? r.background.line ?? r.line,
                                      pointer: (r.foreground.pointer ?? r.pointer).description)
                    if r.verdict == .fail && r.kind == .distinct {
                        let text = "\(prefix): \(r.measuredLine). " + (r.reasons ?? []).joined(separator: " ")
                        results.append(Finding("contrast/confusable", "error", text, place, properties: [
                            ("check", .text(r.id)), ("difference", .number(r.distinction?.difference ?? 0)),
                            ("theme", .text(theme.name)), ("threshold", .number(r.distinction?.threshold ?? 0)),
                        ]))
                    } else if r.verdict == .fail {
                        let text = "\(prefix): \(r.measuredLine); \(r.failureSummary). " + r.reasonsBesideSummary.joined(separator: " ")
                            + (TextRenderer(color: false).fixLine(r).map { " " + $0 } ?? "")
                        results.append(Finding("contrast/insufficient", "error", text, place, properties: [
                            ("check", .text(r.id)), ("ratio", .number(r.ratio)), ("required", .number(r.required ?? 0)), ("theme", .text(theme.name)),
                        ]))
                    }
                    if let warning = r.colorVisionWarning {
                        results.append(Finding("contrast/color-vision", "warning", "\(prefix): \(warning)", place))
                    }
                    if let claim = r.claim, !claim.supported {
                        results.append(Finding("contrast/false-claim", "warning", "\(prefix): \(claim.message)", place))
                    }
                }
            }
        }
        for change in report.comparison?.regressions ?? [] {
            let file = report.palettes.first { $0.name == change.after.palette }?.file
            results.append(Finding("contrast/regression", "error", "regressed: " + change.message, Place(file: file, line: nil, pointer: change.key)))
        }

        var w = JSONWriter(layout: .pretty)
        w.object { w in
            w.string("$schema", "https://json.schemastore.org/sarif-2.1.0.json")
            w.key("runs")
            w.array { w in
                w.object { w in
                    // The run's coverage, and what else decided its outcome.
                    w.key("properties")
                    writeRunProperties(report, to: &w)
                    w.key("results")
                    w.array(results) { w, finding in finding.write(to: &w) }
                    w.key("tool")
                    w.object { w in
                        w.key("driver")
                        w.object { w in
                            w.string("informationUri", "https://www.w3.org/TR/WCAG22/")
                            w.string("name", "contrast")
                            w.key("rules")
                            w.array(table) { w, rule in
                                let (id, name, text, help) = rule
                                w.object { w in
                                    w.key("help")
                                    w.object { $0.string("text", help) }
                                    w.string("helpUri", "https://www.w3.org/WAI/WCAG22/Understanding/contrast-minimum.html")
                                    w.string("id", id)
                                    w.string("name", name)
                                    w.key("shortDescription")
                                    w.object { $0.string("text", text) }
                                }
                            }
                            w.string("semanticVersion", toolVersion)
                            w.string("version", toolVersion)
                        }
                    }
                }
            }
            w.string("version", "2.1.0")
        }
        w.endLine()
        return Data(w.bytes)
    }

    /// Where a finding is: its file (nil: nowhere), line, and the JSON pointer or key of what
    /// it is about (nil: no logical location).
    struct Place {
        var file: String?
        var line: Int?
        var pointer: String?
    }

    /// A value of a finding's property bag.
    enum Property {
        case text(String), number(Double)
    }

    /// One SARIF result.
    struct Finding {
        var ruleId: String
        var level: String
        var text: String
        var place: Place
        /// Written in the order given: sorted by name.
        var properties: [(String, Property)] = []

        init(_ ruleId: String, _ level: String, _ text: String, _ place: Place, properties: [(String, Property)] = []) {
            self.ruleId = ruleId
            self.level = level
            self.text = text
            self.place = place
            self.properties = properties
        }

        func write(to w: inout JSONWriter) {
            w.object { w in
                w.string("level", level)
                w.key("locations")
                w.array { w in
                    guard let file = place.file else { return }
                    w.object { w in
                        if let pointer = place.pointer {
                            w.key("logicalLocations")
                            w.array { w in
                                w.object { w in
                                    w.string("fullyQualifiedName", pointer)
                                    w.string("kind", "member")
                                }
                            }
                        }
                        w.key("physicalLocation")
                        w.object { w in
                            w.key("artifactLocation")
                            w.object { $0.string("uri", SARIFRenderer.uri(file)) }
                            if let line = place.line {
                                w.key("region")
                                w.object { $0.int("startLine", line) }
                            }
                        }
                    }
                }
                w.key("message")
                w.object { $0.string("text", text) }
                if !properties.isEmpty {
                    w.key("properties")
                    w.object { w in
                        for (name, value) in properties {
                            w.key(name)
                            switch value {
                            case .text(let text): w.string(text)
                            case .number(let number): w.number(number)
                            }
                        }
                    }
                }
                w.string("ruleId", ruleId)
            }
        }
    }

    /// The run's property bag: its coverage, and its outcome when a policy judged it.
    static func writeRunProperties(_ report: AuditReport, to w: inout JSONWriter) {
        let c = report.coverage
        w.object { w in
            w.key("coverage")
            w.object { w in
                w.int("measured", c.measured)
                w.number("percent", c.percent)
                w.int("tokens", c.tokens)
                w.int("unmeasuredSurfaces", c.unmeasuredSurfaces.count)
                w.int("unmeasuredText", c.unmeasuredText.count)
            }
            if let outcome = report.outcome {
                w.key("outcome")
                w.object { w in
                    w.key("reasons")
                    w.strings(outcome.reasons.map(\.message))
                    w.string("status", outcome.status.rawValue)
                }
            }
        }
    }

    /// A file path as the URI reference SARIF's `artifactLocation.uri` must be (RFC 3986): each
    /// byte that is not a path character percent-encoded, an absolute path as a `file:` URI,
    /// and a relative one whose first segment has a colon behind `./`, so it is not read as a
    /// scheme.
    static func uri(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
                 UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
                 UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
                 UInt8(ascii: ":"), UInt8(ascii: "@"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".utf8)
                encoded += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
            }
        }
        if encoded.hasPrefix("/") { return "file://" + encoded }
        if let colon = encoded.firstIndex(of: ":"), !encoded[..<colon].contains("/") { return "./" + encoded }
        return encoded
    }
}
