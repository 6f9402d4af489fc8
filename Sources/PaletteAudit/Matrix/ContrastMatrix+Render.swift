import ColorScience
import TokenSources

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

    /// `{"palette", "theme", "pairs": [{"foreground", "background", "ratio", "level"}…]}`, a
    /// pair a line, handed to `write` in pieces of about a megabyte.
    public func writeJSON(palette: String, _ write: ([UInt8]) -> Void) {
        withoutActuallyEscaping(write) { write in
            var w = JSONWriter(sink: write)
            w.object { w in
                w.key("palette"); w.string(palette)
                w.key("theme"); w.string(theme ?? "")
                w.key("pairs")
                w.array(.linePerValue) { w in
                    forEachPair { i, j, ratio in
                        w.object { w in
                            w.key("foreground"); w.string(entries[i].name)
                            w.key("background"); w.string(entries[j].name)
                            // Swift's own digits (`21.0`), as the CSV has them.
                            w.key("ratio"); w.number(formatted: "\(ratio)")
                            w.key("level"); w.string(AchievedLevel(ratio: ratio).name)
                        }
                    }
                }
            }
            w.endLine()
            w.finish()
        }
    }

    /// The bytes a rendering of every pair takes at least (for refusing one that would be too
    /// large before any work): the shortest line a pair can have.
    public var minimumRenderedBytes: Int { pairCount.multipliedReportingOverflow(by: 40).overflow ? Int.max : pairCount * 40 }

    static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + text.replacing("\"", with: "\"\"") + "\"" : text
    }
}
