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
        let rules: [[String: Any]] = table.map { id, name, text, help in
            ["id": id, "name": name, "shortDescription": ["text": text], "help": ["text": help],
             "helpUri": "https://www.w3.org/WAI/WCAG22/Understanding/contrast-minimum.html"]
        }

        var results: [[String: Any]] = []
        func location(file: String?, line: Int?, pointer: String) -> [[String: Any]] {
            guard let file else { return [] }
            var physical: [String: Any] = ["artifactLocation": ["uri": uri(file)]]
            if let line { physical["region"] = ["startLine": line] }
            return [["physicalLocation": physical, "logicalLocations": [["fullyQualifiedName": pointer, "kind": "member"]]]]
        }
        // A palette that measured nothing is an error when it fails the run, a note when the
        // run allows it (--allow-empty).
        let emptyFails = report.outcome?.reasons.contains { $0.code == .nothingMeasured } ?? true
        for palette in AuditPolicy.unmeasured(report) {
            let tokens = palette.coverage?.tokens ?? 0
            results.append(["ruleId": "contrast/nothing-measured", "level": emptyFails ? "error" : "note",
                            "message": ["text": "\(palette.name) has \(tokens) color token\(tokens == 1 ? "" : "s") and no checks: nothing was measured"],
                            "locations": location(file: palette.file, line: nil, pointer: "")])
        }
        for palette in report.palettes {
            for problem in palette.problems {
                results.append(["ruleId": "contrast/palette-problem", "level": "error",
                                "message": ["text": problem.message],
                                "locations": location(file: problem.file ?? palette.file, line: problem.location?.line, pointer: problem.pointer.description)])
            }
            for entry in palette.ledger?.notRead ?? [] {
                var physical: [String: Any] = [:]
                if let file = entry.file ?? palette.file {
                    physical["artifactLocation"] = ["uri": uri(file)]
                    if let line = entry.line { physical["region"] = ["startLine": line] }
                }
                results.append(["ruleId": "contrast/not-read", "level": "warning",
                                "message": ["text": "\(palette.name): \(entry.subject) \(entry.declarations > 1 ? "are" : "is") not read: \(entry.reason ?? "")"],
                                "locations": physical.isEmpty ? [] : [["physicalLocation": physical]]])
            }
            for warning in palette.warnings ?? [] {
                results.append(["ruleId": "contrast/palette-warning", "level": "warning",
                                "message": ["text": warning.message],
                                "locations": location(file: warning.file ?? palette.file, line: warning.location?.line, pointer: warning.pointer.description)])
            }
            for theme in palette.themes {
                for r in theme.results {
                    for note in r.deprecations {
                        results.append(["ruleId": "contrast/deprecated-token", "level": "note",
                                        "message": ["text": "\(palette.name) › \(theme.name) › \(r.id): \(note)"],
                                        "locations": location(file: r.foreground.file ?? palette.file, line: r.line, pointer: r.pointer.description)])
                    }
                    let line = r.foreground.line ?? r.background.line ?? r.line
                    let where_ = location(file: r.foreground.file ?? palette.file, line: line, pointer: (r.foreground.pointer ?? r.pointer).description)
                    if r.verdict == .fail && r.kind == .distinct {
                        let text = "\(palette.name) › \(theme.name) › \(r.id): \(r.measuredLine). " + (r.reasons ?? []).joined(separator: " ")
                        results.append(["ruleId": "contrast/confusable", "level": "error", "message": ["text": text], "locations": where_,
                                        "properties": ["difference": r.distinction?.difference ?? 0, "threshold": r.distinction?.threshold ?? 0, "theme": theme.name, "check": r.id]])
                    } else if r.verdict == .fail {
                        let text = "\(palette.name) › \(theme.name) › \(r.id): \(r.measuredLine); \(r.failureSummary). " + r.reasonsBesideSummary.joined(separator: " ") + (TextRenderer(color: false).fixLine(r).map { " " + $0 } ?? "")
                        results.append(["ruleId": "contrast/insufficient", "level": "error", "message": ["text": text], "locations": where_,
                                        "properties": ["ratio": r.ratio, "required": r.required ?? 0, "theme": theme.name, "check": r.id]])
                    }
                    if let warning = r.colorVisionWarning {
                        results.append(["ruleId": "contrast/color-vision", "level": "warning",
                                        "message": ["text": "\(palette.name) › \(theme.name) › \(r.id): \(warning)"], "locations": where_])
                    }
                    if let claim = r.claim, !claim.supported {
                        results.append(["ruleId": "contrast/false-claim", "level": "warning",
                                        "message": ["text": "\(palette.name) › \(theme.name) › \(r.id): \(claim.message)"], "locations": where_])
                    }
                }
            }
        }
        for change in report.comparison?.regressions ?? [] {
            let file = report.palettes.first { $0.name == change.after.palette }?.file
            results.append(["ruleId": "contrast/regression", "level": "error", "message": ["text": "regressed: " + change.message],
                            "locations": location(file: file, line: nil, pointer: change.key)])
        }
        let document: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": ["name": "contrast", "version": toolVersion, "semanticVersion": toolVersion,
                                    "informationUri": "https://www.w3.org/TR/WCAG22/", "rules": rules]],
                "results": results,
                // The run's coverage, and what else decided its outcome.
                "properties": runProperties(report),
            ]],
        ]
        var data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        data.append(0x0A)
        return data
    }

    /// The run's property bag: its coverage, and its outcome when a policy judged it.
    static func runProperties(_ report: AuditReport) -> [String: Any] {
        let c = report.coverage
        var coverage: [String: Any] = ["tokens": c.tokens, "measured": c.measured,
                                       "unmeasuredText": c.unmeasuredText.count, "unmeasuredSurfaces": c.unmeasuredSurfaces.count]
        if let percent = c.percent { coverage["percent"] = percent }
        var properties: [String: Any] = ["coverage": coverage]
        if let outcome = report.outcome { properties["outcome"] = ["status": outcome.status.rawValue, "reasons": outcome.reasons.map(\.message)] }
        return properties
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
