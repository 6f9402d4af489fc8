import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered log on a file descriptor, as nginx's `access_log … buffer=` is: access lines are
/// appended to memory and a background thread writes them out every `interval` or once
/// `capacity` bytes wait, so one request is not one `write`. Messages (start, reload, shutdown)
/// are written at once, after whatever access lines precede them, so the order holds.
public final class LogBuffer: Sendable {
    private let descriptor: Int32
    private let capacity: Int
    private let pending = Mutex<[UInt8]>([])
    private let wake = DispatchSemaphore(value: 0)
    /// Serializes the writes themselves (the flusher and a message may write at once).
    private let writing = Mutex<Void>(())

    public init(descriptor: Int32 = 2, capacity: Int = 64 << 10, interval: Double = 0.1) {
        self.descriptor = descriptor
        self.capacity = capacity
        let wake = self.wake
        Thread { [weak self] in
            while true {
                _ = wake.wait(timeout: .now() + interval)
                guard let buffer = self else { return }
                buffer.flush()
            }
        }.start()
    }

    /// Appends an access line; it is written within `interval`.
    public func append(_ line: String) {
        append(terminatedLine: Array(line.utf8) + [0x0A])
    }

    /// Appends an access line already ending in its newline, as bytes (no String between the
    /// line's writer and the buffer).
    public func append(terminatedLine bytes: [UInt8]) {
        let full = pending.withLock { buffer -> Bool in
            buffer.append(contentsOf: bytes)
            return buffer.count >= capacity
        }
        if full { wake.signal() }
    }

    /// Appends an access line written by `write` straight into the buffer, under its lock (the
    /// line must end in its newline). `write` only formats: it must not block.
    public func append(writing write: (inout [UInt8]) -> Void) {
        let full = pending.withLock { buffer -> Bool in
            write(&buffer)
            return buffer.count >= capacity
        }
        if full { wake.signal() }
    }

    /// Writes a line now, after the lines already buffered.
    public func writeNow(_ line: String) {
        append(line)
        flush()
    }

    /// Writes out what is buffered.
    public func flush() {
        writing.withLock { _ in
            let bytes = pending.withLock { buffer -> [UInt8] in
                let out = buffer
                buffer.removeAll(keepingCapacity: true)
                return out
            }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // the log's reader is gone: the service goes on without it
                }
                offset += written
            }
        }
    }
}
