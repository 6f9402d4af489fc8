internal import CMicroHTTPD
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's own listening socket and accept loop, in front of libmicrohttpd.
///
/// Each new connection is held here until the head of its first request has arrived, and
/// checked as it arrived (`RequestHead`), by peeking: nothing is read, so libmicrohttpd later
/// reads every byte itself and no byte is copied through the server. A well-formed head hands
/// the connection to libmicrohttpd (`MHD_add_connection`); anything else is answered 400 here
/// and closed. libmicrohttpd 0.9.75 would otherwise close a connection whose request line has
/// no space without a status line, take NUL-led garbage for empty lines and wait, and hide NULs
/// and obs-fold lines from the handler. Later requests on a kept-alive connection are read by
/// libmicrohttpd alone; `ParsedHeadWalk` and `earlyRejection` check those.
///
/// Peeking again on every wake-up would spin while an incomplete head sits unread, so the
/// socket's receive low-water mark is raised past what has arrived: poll() reports it again only
/// when more comes (or at its end). A connection held here is counted and timed like any other
/// (`connectionAccepted`): the header timeout and eviction at capacity cut it as they cut a
/// connection that libmicrohttpd holds, by shutting it down; this loop then closes it.
///
/// One thread runs the loop; `drain()` and `stop()` are called from others, and wait for it.
final class Acceptor: Sendable {
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let daemon: Server.DaemonHandle
    /// libmicrohttpd's callbacks reach the server unretained too: `Server.stop()` (also from
    /// its deinit) stops this loop, and waits for it, before the server goes away.
    private unowned(unsafe) let server: Server
    private let checksHeads: Bool
    private let command = Atomic<Int>(Command.run.rawValue)
    private let acknowledged = DispatchSemaphore(value: 0)
    /// Connections held here, for `Server.openConnections`.
    private let holding = Atomic<Int>(0)

    private enum Command: Int { case run, drain, stop }

    private enum Accepted { case one, none, outOfResources }

    /// A connection whose first head has not arrived whole.
    private struct Held {
        var peer: cmhd_peer
        var address: String?
        var accepted: ContinuousClock.Instant
        /// Bytes that had arrived at the last look; the low-water mark is one past them.
        var seen = 0
    }

    init(listener: Int32, daemon: Server.DaemonHandle, server: Server, checksHeads: Bool) throws(ServerError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ServerError(description: "cannot create the acceptor's wake-up pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL, 0) | O_NONBLOCK) }
        self.listener = listener
        wakeRead = ends[0]
        wakeWrite = ends[1]
        self.daemon = daemon
        self.server = server
        self.checksHeads = checksHeads
    }

    var held: Int { holding.load(ordering: .relaxed) }

    func start() {
        DetachedThread { [self] in loop() }.start()
    }

    /// Takes every connection already waiting in the kernel's backlog, then closes the listening
    /// socket; connections held go on to libmicrohttpd as their heads arrive.
    func drain() { order(.drain) }

    /// Closes the listening socket and every connection held; the loop ends.
    func stop() { order(.stop) }

    private func order(_ what: Command) {
        var current = command.load(ordering: .acquiring)
        while current < what.rawValue {
            let (exchanged, original) = command.compareExchange(expected: current, desired: what.rawValue, ordering: .acquiringAndReleasing)
            if exchanged {
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)
                acknowledged.wait()
                return
            }
            current = original
        }
    }

    private func loop() {
        let capacity = max(4096, server.configuration.connectionMemoryBytes)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        var connections: [Int32: Held] = [:]
        var listening = true
        var draining = false
        // Out of descriptors (or memory), the listening socket stays readable: it is left alone
        // for a moment instead of being polled in a busy loop.
        var pausedUntil: ContinuousClock.Instant?
        var polled: [pollfd] = []
        while true {
            if let until = pausedUntil, until <= .now { pausedUntil = nil }
            polled.removeAll(keepingCapacity: true)
            polled.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            if listening && pausedUntil == nil { polled.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
            for fd in connections.keys { polled.append(pollfd(fd: fd, events: Int16(POLLIN) | cmhd_poll_read_hangup(), revents: 0)) }
            _ = poll(&polled, nfds_t(polled.count), pausedUntil == nil ? 1000 : 100)

            if polled[0].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &sink, sink.count) > 0 {}
            }
            switch Command(rawValue: command.load(ordering: .acquiring)) {
            case .stop:
                if listening { close(listener) }
                for fd in Array(connections.keys) { closeUnanswered(fd, &connections) }
                close(wakeRead)
                close(wakeWrite)
                acknowledged.signal()
                return
            case .drain where !draining:
                draining = true
                while acceptOne(&connections, buffer) == .one {}
                close(listener)
                listening = false
                acknowledged.signal()
                continue
            default:
                break
            }
            for entry in polled.dropFirst() where entry.revents != 0 {
                if entry.fd == listener && listening && pausedUntil == nil {
                    // A bounded batch: held connections are looked at between batches.
                    for _ in 0..<64 {
                        let accepted = acceptOne(&connections, buffer)
                        if accepted == .outOfResources { pausedUntil = .now + .milliseconds(100) }
                        if accepted != .one { break }
                    }
                } else if connections[entry.fd] != nil {
                    look(at: entry.fd, &connections, buffer, hungUp: entry.revents & (Int16(POLLHUP) | Int16(POLLERR) | cmhd_poll_read_hangup()) != 0)
                }
            }
        }
    }

    /// Accepts one waiting connection, if one waits.
    private func acceptOne(_ connections: inout [Int32: Held], _ buffer: UnsafeMutableRawBufferPointer) -> Accepted {
        var peer = cmhd_peer()
        let fd = cmhd_accept(listener, &peer)
        guard fd >= 0 else {
            switch errno {
            case EINTR, ECONNABORTED: return .one  // try the next
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfResources
            default: return .none
            }
        }
        let address = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text in
            cmhd_peer_address(&peer, text.baseAddress, text.count).map { String(cString: $0) }
        }
        if let refusal = server.connectionAccepted(fd, address: address) {
            // Past the hard limits: answered 503 at once instead of left in the backlog.
            var busy = server.configuration.refusal(refusal)
            busy.headers.append(Header(name: "Retry-After", value: "1"))
            answerAndClose(fd, busy, counted: false)
            return .one
        }
        guard checksHeads else {
            handOver(fd, peer, lowered: false)
            return .one
        }
        connections[fd] = Held(peer: peer, address: address, accepted: .now)
        holding.wrappingAdd(1, ordering: .relaxed)
        // The head has often arrived with the handshake: look at once.
        look(at: fd, &connections, buffer, hungUp: false)
        return .one
    }

    /// Peeks at what a held connection has sent and decides: hand it over, refuse it, wait.
    /// `hungUp`: poll() reported the client's end of sending (Linux), a hang-up or an error.
    private func look(at fd: Int32, _ connections: inout [Int32: Held], _ buffer: UnsafeMutableRawBufferPointer, hungUp: Bool) {
        guard let held = connections[fd] else { return }
        // Shut down by the header timeout or evicted at capacity.
        if server.wasCut(fd) {
            closeUnanswered(fd, &connections)
            return
        }
        let count = cmhd_peek(fd, buffer.baseAddress, buffer.count)
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
        guard count > 0 else {
            // The client left (or failed) before sending anything.
            closeUnanswered(fd, &connections)
            return
        }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        switch RequestHead.check(bytes) {
        case .complete:
            forget(fd, &connections)
            handOver(fd, held.peer, lowered: held.seen > 0)
        case .invalid(let detail):
            forget(fd, &connections)
            let response = server.configuration.refusal(Refusal(status: 400, title: "Bad Request", detail: detail))
            server.reportRefusal(of: bytes, response, remoteAddress: held.address, since: held.accepted)
            answerAndClose(fd, response, counted: true)
        case .incomplete where count >= buffer.count:
            // Longer than libmicrohttpd's buffer: it answers 431 (or 414) itself.
            forget(fd, &connections)
            handOver(fd, held.peer, lowered: held.seen > 0)
        case .incomplete where hungUp:
            // The client stopped sending mid-head: closed, as libmicrohttpd closes such a one.
            closeUnanswered(fd, &connections)
        case .incomplete where count == held.seen:
            break  // nothing new
        case .incomplete:
            connections[fd]?.seen = count
            cmhd_set_receive_low_water(fd, Int32(count + 1))
        }
    }

    private func handOver(_ fd: Int32, _ peer: cmhd_peer, lowered: Bool) {
        if lowered { cmhd_set_receive_low_water(fd, 1) }
        var peer = peer
        // libmicrohttpd owns the socket from here, and has closed it if it refused it (only
        // past its own limits, set above the server's): the books let it go.
        if cmhd_add_connection(daemon.pointer, fd, &peer) == 0 { server.connectionClosed(fd) }
    }

    private func forget(_ fd: Int32, _ connections: inout [Int32: Held]) {
        if connections.removeValue(forKey: fd) != nil { holding.wrappingSubtract(1, ordering: .relaxed) }
    }

    private func closeUnanswered(_ fd: Int32, _ connections: inout [Int32: Held]) {
        forget(fd, &connections)
        server.connectionClosed(fd)
        close(fd)
    }

    /// Writes a small response, shuts the sending side and lets the socket linger (so the
    /// client reads the answer rather than a reset while it is still sending).
    private func answerAndClose(_ fd: Int32, _ response: Response, counted: Bool) {
        Server.writeDirectly(response, to: fd)
        shutdown(fd, Int32(SHUT_WR))
        if counted { server.connectionClosed(fd) }
        server.lingering.adopt(fd)
    }
}
