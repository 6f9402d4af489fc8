import Foundation

/// Runs a fuzz target over files and directories of inputs, outside libFuzzer: how the
/// committed corpus and every crash found are replayed by `make test`.
public enum Replayer {
    public static func run(_ paths: some Sequence<String>, _ body: (UnsafeRawBufferPointer) -> Void) {
        var count = 0
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("no such input: \(path)\n".utf8))
                exit(2)
            }
            let files = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                data.withUnsafeBytes { body($0) }
                count += 1
            }
        }
        print("replayed \(count) inputs")
    }
}

/// A fuzz target: the one function it runs on each input. The type marked `@main` in a fuzz
/// executable, it is the whole program: built with -DFUZZING, the entry point (which SwiftPM
/// names `<module>_main` and links as `main`) hands the process to libFuzzer's driver; built
/// normally, it replays the files and directories it is given (``Replayer``).
public protocol FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer)
}

extension FuzzTarget {
    public static func main() {
        #if FUZZING
        exit(runFuzzer(CommandLine.argc, CommandLine.unsafeArgv, fuzz))
        #else
        Replayer.run(CommandLine.arguments.dropFirst(), fuzz)
        #endif
    }
}

#if FUZZING
/// The body libFuzzer's driver calls; set once by ``runFuzzer(_:_:_:)`` before the driver starts.
nonisolated(unsafe) private var fuzzBody: ((UnsafeRawBufferPointer) -> Void)?

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                             _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Hands the process to libFuzzer (only in fuzzing builds, from ``FuzzTarget/main()``): `body`
/// runs once per input.
func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
               _ body: @escaping (UnsafeRawBufferPointer) -> Void) -> CInt {
    fuzzBody = body
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzerTestOneInput)
}

/// One input: the callback ``runFuzzer(_:_:_:)`` gives the driver, under the name libFuzzer's
/// runtime needs to link (its own `main` would call it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzBody?(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#endif
