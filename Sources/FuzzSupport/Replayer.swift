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

#if FUZZING
/// The body libFuzzer's driver calls; set once by ``runFuzzer(_:_:_:)`` before the driver starts.
nonisolated(unsafe) private var fuzzBody: ((UnsafeRawBufferPointer) -> Void)?

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                             _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Hands the process to libFuzzer (only linked in fuzzing builds, where SwiftPM's renamed entry
/// point calls this): `body` runs once per input.
public func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                      _ body: @escaping (UnsafeRawBufferPointer) -> Void) -> CInt {
    fuzzBody = body
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in
        fuzzBody?(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }
}
#endif
