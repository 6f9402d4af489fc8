import ColorScience

/// The matrix's renderings, written in pieces to `write` so a large matrix is streamed, never
/// held whole: `contrast matrix` and `GET /v1/palettes/{name}/matrix` share them.
extension ContrastMatrix {
    /// `foreground,background,foreground_hex,background_hex,ratio,level`, one line a pair.
    public func writeCSV(_ write: (String) -> Void) {
        write("foreground,background,foreground_hex,background_hex,ratio,level\n")
        let names = entries.map { ContrastMatrix.csvField($0.name) }
        let hexes = entries.map { $0.color.hex }
        forEachPair { i, j, ratio in
            write("\(names[i]),\(names[j]),\(hexes[i]),\(hexes[j]),\(ratio),\(AchievedLevel(ratio: ratio).name)\n")
        }
    }

    /// `{"palette", "theme", "pairs": [{"foreground", "background", "ratio", "level"}…]}`.
    public func writeJSON(palette: String, _ write: (String) -> Void) {
        write("{\"palette\":\(JSONValue.quoted(palette)),\"theme\":\(JSONValue.quoted(theme ?? "")),\"pairs\":[\n")
        let names = entries.map { JSONValue.quoted($0.name) }
        var first = true
        forEachPair { i, j, ratio in
            write((first ? "" : ",\n") + "{\"foreground\":\(names[i]),\"background\":\(names[j]),\"ratio\":\(ratio),\"level\":\"\(AchievedLevel(ratio: ratio).name)\"}")
            first = false
        }
        write("\n]}\n")
    }

    /// The bytes a rendering of every pair takes at least (for refusing one that would be too
    /// large before any work): the shortest line a pair can have.
    public var minimumRenderedBytes: Int { pairCount.multipliedReportingOverflow(by: 40).overflow ? Int.max : pairCount * 40 }

    static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + text.replacing("\"", with: "\"\"") + "\"" : text
    }
}
