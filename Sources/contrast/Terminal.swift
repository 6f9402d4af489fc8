import Foundation

/// Where output goes, and whether it may be colored.
enum Terminal {
    /// Colors only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static var stdoutWantsColor: Bool {
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        return isatty(STDOUT_FILENO) == 1
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Writes `data` to `path` atomically, or to standard output when `path` is nil or "-".
    static func emit(_ data: Data, to path: String?) throws {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw InputError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// Writes the string's own bytes, without a second copy of a large report.
    static func emit(_ text: String, to path: String?) throws {
        var text = text
        text.makeContiguousUTF8()
        try text.utf8.withContiguousStorageIfAvailable { bytes throws in
            guard let base = bytes.baseAddress else { return try emit(Data(), to: path) }
            try emit(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none), to: path)
        }
    }
}

/// Bad input or usage: printed on standard error, exit code 2.
struct InputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
