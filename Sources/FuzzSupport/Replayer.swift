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
