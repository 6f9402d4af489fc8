import PaletteAudit
import TokenSources
import Foundation
import Synchronization

/// Where output goes, and whether it may be colored.
enum Terminal {
    /// Colors only on a terminal, and never when NO_COLOR is set (https://no-color.org).
    static var stdoutWantsColor: Bool {
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        return isatty(STDOUT_FILENO) == 1
    }

    /// How every error line of the command line begins (docs/errors.md), ArgumentParser's own
    /// included (``Contrast/_errorPrefix``).
    static let errorPrefix = "error: "

    /// One error line: ``errorPrefix`` and `text`.
    static func writeErrorLine(_ text: String) {
        writeError(errorPrefix + text)
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Writes all of `bytes` to standard output; stops quietly when it is closed (a pipe's
    /// reader left: nothing more to say).
    @Sendable static func writeStandardOutput(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(1, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Writes `data` to `path` atomically, or to standard output when `path` is nil or "-".
    /// A file named on the command line (a baseline, a TLS key), read through the one reader
    /// every file read goes through: regular files only (no FIFO or device), at most 16 MiB.
    /// `what` names it in the error.
    static func readFile(_ path: String, what: String) throws(InputError) -> [UInt8] {
        switch FileSystem.unconfined.read(path) {
        case .success(let bytes): return bytes
        case .failure(let problem): throw InputError(.unreadableFile, "\(path): cannot read the \(what): \(problem.message)")
        }
    }

    /// Writes the bytes as ``emitPieces(to:_:)`` does.
    static func emit(_ data: Data, to path: String?) throws {
        try emitPieces(to: path) { write in write([UInt8](data)) }
    }

    /// Writes text produced in pieces (``AuditReport/writePrettyJSON(_:)``) to standard output
    /// or, through a temporary file renamed at the end, to `path`: a large report is never
    /// whole in memory, and the file is never left half written.
    static func emitPieces(to path: String?, _ produce: (([UInt8]) -> Void) -> Void) throws {
        let toStandardOutput = path == nil || path == "-"
        let target = toStandardOutput ? "standard output" : path!
        let temporary = toStandardOutput ? "" : target + ".partial-\(getpid())"
        let descriptor = toStandardOutput ? 1 : open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw InputError(.unwritableFile, "cannot write \(target): \(String(cString: strerror(errno)))") }
        if !toStandardOutput { partialOutput.withLock { $0 = temporary } }
        defer { if !toStandardOutput { partialOutput.withLock { $0 = nil } } }
        var failure: Int32 = 0
        produce { piece in
            guard failure == 0 else { return }
            piece.withUnsafeBufferPointer { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        failure = errno
                        return
                    }
                    offset += written
                }
            }
        }
        if toStandardOutput {
            if failure != 0 && failure != EPIPE { throw InputError(.unwritableFile, "cannot write standard output: \(String(cString: strerror(failure)))") }
            return
        }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, target) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw InputError(.unwritableFile, "cannot write \(target): \(String(cString: strerror(failure)))")
        }
    }

    /// The temporary file being written, if any: a run stopped at its deadline removes it.
    private static let partialOutput = Mutex<String?>(nil)

    /// Removes the temporary file being written (the run is ending without finishing it).
    static func removePartialOutput() {
        partialOutput.withLock { path in
            if let path { unlink(path) }
        }
    }

    /// Writes the text as ``emitPieces(to:_:)`` does: one way to write, so every output file
    /// gets the same atomic rename and the same error wording.
    static func emit(_ text: String, to path: String?) throws {
        try emitPieces(to: path) { write in write(Array(text.utf8)) }
    }
}

/// Bad input or usage: printed on standard error, exit code 2.
enum InputErrors: ErrorFamily {}
typealias InputError = CodedError<InputErrors>

extension CodedError where Family == InputErrors {
    /// A wrong option or argument (``Code/invalidArgument``).
    init(_ description: String) {
        self.init(.invalidArgument, description)
    }
}

extension CodedError.Code where Family == InputErrors {
    /// An option's or argument's value is wrong.
    static var invalidArgument: Self { Self("invalid-argument") }
    /// A file named on the command line cannot be read.
    static var unreadableFile: Self { Self("unreadable-file") }
    /// An output cannot be written.
    static var unwritableFile: Self { Self("unwritable-file") }
    /// The service could not start.
    static var serverStart: Self { Self("server-start") }
    /// The run took longer than its `--deadline`.
    static var deadlinePassed: Self { Self("deadline-passed") }
}
