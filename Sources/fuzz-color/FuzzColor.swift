// The CSS color parser under libFuzzer. Built with -DFUZZING and -sanitize=fuzzer,address
// (`make fuzz`), libFuzzer's driver calls `fuzzColor` on every input; built normally, the program
// replays the files it is given (a corpus, or crashes found), so every crash stays a regression
// test (FuzzSupport's `FuzzTarget` does both).
import ColorScience
import FuzzSupport

func fuzzColor(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    fuzzGradient(text)
    for deficiency in ColorVisionDeficiency.all {
        if let c = try? CSSColor.parse(text).color {
            let seen = deficiency.simulate(c)
            precondition(seen.red >= 0 && seen.red <= 1 && seen.green >= 0 && seen.green <= 1 && seen.blue >= 0 && seen.blue <= 1 && seen.alpha == c.alpha,
                         "\(deficiency) out of range for \(text)")
        }
    }
    guard let parsed = try? CSSColor.parse(text) else { return }
    let c = parsed.color
    precondition(c.red >= 0 && c.red <= 1 && c.green >= 0 && c.green <= 1 && c.blue >= 0 && c.blue <= 1, "component out of range for \(text)")
    precondition(c.alpha >= 0 && c.alpha <= 1, "alpha out of range for \(text)")
    let ratio = c.contrastRatio(with: .white)
    precondition(ratio >= 1 && ratio <= 21.000001, "ratio \(ratio) out of range for \(text)")
    // What is printed must read back as the same 8-bit color.
    precondition((try? CSSColor.parse(c.hex).color) == c.quantized, "hex round trip failed for \(text)")
}

/// A gradient's worst point is never better than any point of it, and its best never worse.
func fuzzGradient(_ text: String) {
    guard Gradient.isGradient(text), let gradient = try? Gradient(css: text) else { return }
    let extremes = gradient.contrast(foreground: .black, backdrop: nil)
    precondition(extremes.worst.ratio >= 1 && extremes.best.ratio <= 21.000001 && extremes.worst.ratio <= extremes.best.ratio + 1e-9,
                 "gradient extremes out of order for \(text)")
    for step in 0...16 {
        let t = Double(step) / 16
        let ratio = ContrastMeasurement(foreground: .black, background: gradient.color(at: t)).ratio
        precondition(extremes.worst.ratio <= ratio + 1e-6, "gradient worst \(extremes.worst.ratio) above \(ratio) at \(t) for \(text)")
    }
}

@main
enum FuzzColor: FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        fuzzColor(bytes)
    }
}
