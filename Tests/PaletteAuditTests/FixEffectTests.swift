import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// What a fix does to the other checks, measured by auditing the palette with it applied.
@Suite struct FixEffectTests {
    static func palette(_ name: String) throws -> Palette {
        let loaded = PaletteLoader.load(paths: [SeedPaletteAuditTests.palettesDirectory + "/\(name).json"])
        return try #require(loaded.first?.palette)
    }

    static func fixes(_ report: PaletteReport, theme: String, check: String) throws -> [SuggestedFix] {
        let result = try #require(report.themes.first { $0.name == theme }?.results.first { $0.id == check })
        return try #require(result.fixes)
    }

    /// trAIn's inactive progress segments fail on the app background; the nearest passing
    /// background repaints the app background mid-gray, which breaks body text (15.96:1 →
    /// 4.34:1) and three more.
    @Test func trainsProgressBackgroundFixBreaksBodyText() throws {
        let palette = try Self.palette("train")
        let auditor = Auditor()
        let report = auditor.withFixEffects(auditor.audit(palette), palette: palette)
        let fixes = try Self.fixes(report, theme: "light", check: "progress-inactive-on-background")
        let background = try #require(fixes.first { $0.kind == "background" }?.effect)
        #expect(background.unmeasured == nil && background.fixes)
        let body = try #require(background.breaks.first { $0.after.check == "body-text-on-background" })
        #expect(body.before.ratio == 15.96 && body.after.ratio == 4.34, "\(body)")
        #expect(body.before.verdict == .pass && body.after.verdict == .fail)
        #expect(background.breaks.map(\.after.check).sorted() == ["body-text-on-background", "primary-as-text", "progress-active-on-background", "secondary-text-on-background"],
                "\(background.breaks.map(\.after.check))")
        #expect(!background.breaks.contains { $0.after.check == "progress-inactive-on-background" }, "its own check is what it fixes")
        // The text fix darkens the inactive segments, which the active ones sit beside: one
        // break, not the app background's four.
        let text = try #require(fixes.first { $0.kind == "foreground" }?.effect)
        #expect(text.unmeasured == nil && text.fixes && text.breaks.map(\.after.check) == ["progress-active-on-track"], "\(text.breaks.map(\.after.check))")
    }

    /// A badge's fix is a change of the badge's own color: measured like a token's, in every
    /// theme that shows the badge, and the same changes are audited once.
    @Test func aBadgeFixIsMeasuredInEveryTheme() throws {
        let palette = try Self.palette("peptide-fox")
        let auditor = Auditor()
        let report = auditor.withFixEffects(auditor.audit(palette), palette: palette)
        for theme in ["light", "dark"] {
            let fixes = try Self.fixes(report, theme: theme, check: "badge:red")
            #expect(!fixes.isEmpty)
            for fix in fixes {
                let effect = try #require(fix.effect)
                #expect(effect.unmeasured == nil && effect.fixes, "\(theme) \(fix.kind): \(effect)")
                #expect(fix.changes.allSatisfy { $0.pointer.description.hasPrefix("/badges/4/") })
            }
        }
    }

    /// A place that is no value of the palette is said, not guessed.
    @Test func aChangeOfNoValueIsUnmeasured() throws {
        let palette = try Self.palette("train")
        #expect(palette.applying([SuggestedFix.Change(pointer: JSONPointer(["nowhere", "x"]), token: nil, override: nil, value: "#000000")]) == nil)
        let changed = try #require(palette.applying([SuggestedFix.Change(pointer: JSONPointer(["themes", "light", "tokens", "text.primary", "$value"]),
                                                                         token: "text.primary", override: nil, value: "#777777")]))
        #expect(changed.themes[0].tokens.first { $0.name == "text.primary" }?.value == "#777777")
    }
}
