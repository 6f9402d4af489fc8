// The CSS color parser under libFuzzer. Built with -DFUZZING and -sanitize=fuzzer,address
// (`make fuzz`), libFuzzer drives `LLVMFuzzerTestOneInput`; built normally, the program replays
// the files it is given (a corpus, or crashes found), so every crash stays a regression test.
import ColorScience
import FuzzSupport

func fuzzColor(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let parsed = try? CSSColor.parse(text) else { return }
    let c = parsed.color
    precondition(c.red >= 0 && c.red <= 1 && c.green >= 0 && c.green <= 1 && c.blue >= 0 && c.blue <= 1, "component out of range for \(text)")
    precondition(c.alpha >= 0 && c.alpha <= 1, "alpha out of range for \(text)")
    let ratio = c.contrastRatio(with: .white)
    precondition(ratio >= 1 && ratio <= 21.000001, "ratio \(ratio) out of range for \(text)")
    // What is printed must read back as the same 8-bit color.
    precondition((try? CSSColor.parse(c.hex).color) == c.quantized, "hex round trip failed for \(text)")
}

#if FUZZING
// libFuzzer calls LLVMFuzzerTestOneInput; SwiftPM links the executable's entry point as
// `fuzz_color_main`, which hands over to libFuzzer's driver.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzColor(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

@_cdecl("fuzz_color_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzColor)
}
#else
@main
struct Replay {
    static func main() {
        Replayer.run(CommandLine.arguments.dropFirst(), fuzzColor)
    }
}
#endif
