internal import CMicroHTTPD
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lingering close (RFC 9112 §9.6): a connection answered before its body was read (413, or
/// a refusal of the headers) is not closed while the client is still sending, or the kernel
/// resets it and the client loses the answer, typically as a broken pipe. libmicrohttpd sends
/// the response and shuts down its sending side; this keeps a duplicate of the socket open and
/// reads and discards what still arrives, for a bounded time and number of bytes, then closes.
final class LingeringClose: Sendable {
    struct Entry {
        var socket: Int32
        var until: ContinuousClock.Instant
        var drained = 0
    }

    let seconds: Double
    let maximumBytes: Int
    let maximumSockets: Int
    private let entries = Mutex<[Entry]>([])
    private let started = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)

    init(seconds: Double, maximumBytes: Int, maximumSockets: Int = 256) {
        self.seconds = seconds
        self.maximumBytes = maximumBytes
        self.maximumSockets = maximumSockets
    }

    /// Takes over a socket (a duplicate: libmicrohttpd closes its own descriptor). Past the
    /// limit on sockets lingering at once, it is closed at once.
    func adopt(_ socket: Int32) {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
        let taken = entries.withLock { list -> Bool in
            guard list.count < maximumSockets else { return false }
            list.append(Entry(socket: socket, until: deadline))
            return true
        }
        guard taken else {
            close(socket)
            return
        }
        if !started.exchange(true, ordering: .relaxed) {
            DetachedThread { [self] in loop() }.start()
        }
        wake.signal()
    }

    var count: Int { entries.withLock { $0.count } }

    private func loop() {
        while true {
            let sockets = entries.withLock { $0.map(\.socket) }
            if sockets.isEmpty {
                wake.wait()
                continue
            }
            var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&polled, nfds_t(polled.count), 50)
            let now = ContinuousClock.now
            var finished: [Int32] = []
            entries.withLock { list in
                for index in list.indices {
                    let ready = polled.first { $0.fd == list[index].socket }.map { $0.revents != 0 } ?? false
                    var done = now >= list[index].until
                    if ready && !done {
                        let drained = cmhd_drain(list[index].socket)
                        if drained < 0 { done = true } else { list[index].drained += drained }
                        if list[index].drained >= maximumBytes { done = true }
                    }
                    if done { finished.append(list[index].socket) }
                }
                list.removeAll { finished.contains($0.socket) }
            }
            for socket in finished { close(socket) }
        }
    }
}
