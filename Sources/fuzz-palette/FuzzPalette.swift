// The palette decoder, the audit and the token listing under libFuzzer (see FuzzColor.swift for
// how it is built). Every input is read as a JSON palette or token file, as a stylesheet (the
// CSS custom-property reader), as an Xcode color set and as an Android resource file, so one
// corpus drives every reader.
import FuzzSupport
import PaletteAudit
import TokenSources

func fuzzPalette(_ bytes: UnsafeRawBufferPointer) {
    fuzzDecoded(PaletteDecoder.decode(bytes: Array(bytes), file: "fuzz.json"))
    fuzzDecoded(PaletteDecoder.decode(bytes: Array(bytes), file: "fuzz.css"))
    // The same bytes as an Xcode color set's Contents.json and as an Android resource file:
    // every color either read or a problem, never a crash.
    for color in PaletteDecoder.fuzzNativeColors(bytes: Array(bytes)) {
        precondition(color.hasPrefix("color(") || color.hasPrefix("system:") || color.hasPrefix("#") || color.hasPrefix("{"), "unexpected native color \(color)")
    }
}

func fuzzDecoded(_ decoded: (palette: Palette?, problems: [PaletteProblem])) {
    let (palette, problems) = decoded
    guard let palette else {
        precondition(!problems.isEmpty, "no palette and no problem")
        return
    }
    var limits = palette
    // Keep each input cheap: the audit is linear, but suggestions cost a millisecond each.
    limits.checks = Array(limits.checks.prefix(8))
    limits.badges = Array(limits.badges.prefix(4))
    let report = Auditor().audit(limits, problems: problems)
    for theme in report.themes {
        for result in theme.results {
            precondition(result.ratio >= 1 && result.ratio <= 21.000001, "ratio \(result.ratio)")
        }
    }
    _ = AuditReport(palettes: [report]).compactJSON()
    // The editor's linear token resolution agrees with the audit's resolver on every token.
    let listing = TokenListing(palette, problems: report.problems)
    for (theme, listed) in zip(palette.themes, listing.themes) {
        var resolver = ThemeResolver(palette: palette, theme: theme)
        for entry in listed.tokens {
            let hex = try? resolver.resolve(entry.name).get().hex
            precondition(hex == entry.hex, "\(entry.name): listing \(entry.hex ?? "nil"), resolver \(hex ?? "nil")")
        }
    }
}

@main
enum FuzzPalette: FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        fuzzPalette(bytes)
    }
}
