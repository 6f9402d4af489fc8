internal import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The books of open connections: their clocks (header timeout, request deadline), their
/// addresses (per-address limit), eviction at capacity, and lingering closes.
extension Server {
    /// libmicrohttpd's own timeout measures idleness, so a client sending a byte every few
    /// seconds would hold a connection forever. A sweeper shuts down any connection whose
    /// current request (headers and body) has taken longer than the deadline. A plain-HTTP
    /// request whose body is still arriving is answered 408 first (``answerMidUpload``), and
    /// cut a second later if the client neither stops nor goes on sending (its next byte has
    /// libmicrohttpd close it at once): the answer does not wait for that byte, which a busy or
    /// stalled client may not send in time.
    ///
    /// libmicrohttpd 0.9.75 answers some body errors itself (a malformed chunk) without calling
    /// the handler, so the connection still counts as uploading until it closes; a sweep in that
    /// moment could write its 408 after that answer. The window is one close, and the 408 is
    /// counted only when it was written whole.
    func startSweeper() {
        let deadline = Int(configuration.requestDeadlineSeconds * 1e9)
        let headerDeadline = Int(max(0.25, configuration.headerTimeoutSeconds) * 1e9)
        let answersMidUpload = configuration.tlsCertificatePEM == nil
        let afterAnswer = min(deadline, 1_000_000_000)
        // Built here, not under the lock: `refusal` is the application's closure.
        let timeout = deadlineRefusal()
        let thread = DetachedThread { [weak self] in
            while let self, self.state.withLock({ $0.sweeping }) {
                usleep(250_000)
                let now = Monotonic.nanoseconds()
                let expired = self.state.withLock { s -> [Int32] in
                    var old: [Int32] = []
                    for (fd, start) in s.clocks where now - start > deadline {
                        let phase = s.phases[fd] ?? []
                        // Under the lock, as the handler claims it: one answer, not two.
                        if answersMidUpload && phase.contains(.uploading) && !phase.contains(.answered),
                           self.answerMidUpload(timeout, on: fd, locked: &s) {
                            shutdown(fd, Int32(SHUT_WR))
                            s.clocks[fd] = now - deadline + afterAnswer
                        } else {
                            old.append(fd)
                        }
                    }
                    for fd in old { s.clocks[fd] = nil }
                    // Headers still arriving past the header timeout: closed unanswered. (An idle
                    // keep-alive connection with no new request line is left to the idle timeout.)
                    let slow = s.clocks.filter { fd, start in
                        now - start > headerDeadline && Server.isReadingHeaders(fd, s)
                    }.map(\.key)
                    // Under the lock: a socket still in the books is not closed (nor reused) yet.
                    for fd in slow {
                        s.clocks[fd] = nil
                        shutdown(fd, Int32(SHUT_RDWR))
                    }
                    return old
                }
                for fd in expired {
                    // A request on the pool lane is cancelled (and answered), not cut: its
                    // connection then gets a fresh deadline to send the answer.
                    let (found, dequeued) = self.pool.expire(socket: fd)
                    if found {
                        self.state.withLock { $0.clocks[fd] = now }
                        if let dequeued { self.answer(dequeued, with: self.cancelled(dequeued)) }
                        continue
                    }
                    // libmicrohttpd owns the sockets: shut them down and let it close them.
                    shutdown(fd, Int32(SHUT_RDWR))
                }
            }
        }
        thread.start()
    }

    /// While draining: shuts down every kept-alive connection that is idle between requests
    /// (it has completed one and no next request line has arrived), as a browser's open tab
    /// holds one. libmicrohttpd then closes it; a request already on its way is answered with
    /// `Connection: close` as before. Without this, SIGTERM waited out the whole grace period.
    func closeIdleConnections() {
        state.withLock { s in
            for (fd, phase) in s.phases where phase == .served && !s.evicted.contains(fd) {
                // Bytes waiting on the socket are a request on its way, not idleness: it is
                // read and answered (with Connection: close) as before.
                var pending: Int32 = 0
                if ioctl(fd, UInt(FIONREAD), &pending) == 0 && pending > 0 { continue }
                // Still counted: libmicrohttpd's close takes it off the books as usual.
                s.phases[fd] = []
                shutdown(fd, Int32(SHUT_RDWR))
            }
        }
    }

    /// Whether more connections are open than the configured limit.
    var isOverConnectionLimit: Bool {
        connectionsOpen.load(ordering: .relaxed) > connectionLimit
    }

    /// Whether a connection is reading a request's line or headers: a fresh one, or a kept-alive
    /// one whose next request line is in, whose headers are not.
    static func isReadingHeaders(_ fd: Int32, _ s: State) -> Bool {
        let phase = s.phases[fd] ?? []
        return !phase.contains(.headersIn) && (phase.contains(.requestLine) || !phase.contains(.served))
    }

    /// Past these, a new connection is answered 503 by the acceptor and closed: the limit and a
    /// margin of a quarter more (at least 64), within which connections are taken and answered
    /// 503 by the handler, so clients over the limit learn it promptly instead of waiting in the
    /// kernel's backlog.
    var hardConnectionLimit: Int { DescriptorPlan.hardLimit(for: connectionLimit) }

    var hardAddressLimit: Int {
        let limit = max(0, configuration.perAddressConnectionLimit)
        return limit == 0 ? Int.max : limit + max(8, limit / 4)
    }

    /// The acceptor took a connection: it is counted and timed from here (also while its first
    /// head is still arriving), or refused at once when past the hard limits (not counted).
    func connectionAccepted(_ fd: Int32, address: String?) -> Refusal? {
        let limit = connectionLimit
        return state.withLock { s -> Refusal? in
            // A connection libmicrohttpd closed without reporting it (it refused it after taking
            // it) leaves its socket in the books: that number is a new connection now.
            if s.clocks[fd] != nil || s.addresses[fd] != nil || s.evicted.contains(fd) { forget(fd, &s) }
            s.phases[fd] = nil
            s.lingerOnClose.remove(fd)
            if let address, (s.perAddress[address]?.open.load(ordering: .relaxed) ?? 0) >= hardAddressLimit {
                return Refusal(status: 503, title: "Service Unavailable", detail: "this client address has more than \(configuration.perAddressConnectionLimit) connections open; close some or retry shortly")
            }
            let open = connectionsOpen.load(ordering: .relaxed) + 1
            // At capacity the oldest connections without a request in progress (still reading
            // their headers, or idle between requests) give way to the new one, as many as it
            // takes to be back at the limit, so connections that trickle headers cannot lock
            // ordinary clients out. They are shut down here and uncounted at once; whoever holds
            // them (libmicrohttpd, or the acceptor) closes them when it next looks.
            // A connection younger than a second is not taken: in a burst of new clients its
            // request is likely on its way, and the newcomer gets the 503 (in `handle`) instead.
            var evicted = 0
            if open > limit {
                let settled = Monotonic.nanoseconds() - 1_000_000_000
                let idle = s.clocks.filter { other, at in
                    at < settled && s.phases[other]?.contains(.headersIn) != true && !s.evicted.contains(other)
                }
                for (victim, _) in idle.sorted(by: { $0.value < $1.value }).prefix(open - limit) {
                    s.evicted.insert(victim)
                    s.clocks[victim] = nil
                    shutdown(victim, Int32(SHUT_RDWR))
                    evicted += 1
                }
            }
            guard open - evicted <= hardConnectionLimit else {
                return Refusal(status: 503, title: "Service Unavailable", detail: "the server has more than \(limit) connections open; retry shortly")
            }
            connectionsOpen.wrappingAdd(1 &- evicted, ordering: .relaxed)
            s.clocks[fd] = Monotonic.nanoseconds()
            if let address {
                s.addresses[fd] = address
                let count = s.perAddress[address] ?? AddressCount()
                count.open.wrappingAdd(1, ordering: .relaxed)
                s.perAddress[address] = count
            }
            return nil
        }
    }

    /// libmicrohttpd took over a connection from the acceptor.
    func connectionStarted(_ fd: Int32) {
        guard fd >= 0 else { return }
        cmhd_set_send_buffer(fd, Int32(clamping: configuration.sendBufferBytes))
    }

    /// Whether a connection was shut down by the header timeout, the request deadline or an
    /// eviction (it is out of the clocks), so that whoever holds it closes it.
    func wasCut(_ fd: Int32) -> Bool {
        state.withLock { $0.clocks[fd] == nil }
    }

    /// A request line is in (libmicrohttpd logged its target).
    func requestLineRead(_ fd: Int32) {
        guard fd >= 0 else { return }
        let now = Monotonic.nanoseconds()
        state.withLock { s in
            // On a kept-alive connection the request's clock starts here: the time it waited
            // idle is not the request's (the deadline's 408 says how long the request took to
            // arrive). A new connection's first request is timed from the accept, as before.
            if s.phases[fd]?.contains(.served) == true, let index = s.clocks.index(forKey: fd) {
                s.clocks.values[index] = now
            }
            s.phases[fd, default: []].insert(.requestLine)
        }
    }

    /// The access handler has the request's headers.
    func headersRead(_ fd: Int32) {
        guard fd >= 0 else { return }
        state.withLock { _ = $0.phases[fd, default: []].insert(.headersIn) }
    }

    func connectionClosed(_ fd: Int32) {
        guard fd >= 0 else { return }
        let linger = state.withLock { s -> Bool in
            forget(fd, &s)
            return s.lingerOnClose.remove(fd) != nil
        }
        // libmicrohttpd closes its descriptor right after this: a duplicate keeps the
        // connection open while the client finishes sending.
        if linger {
            let copy = dup(fd)
            if copy >= 0 { lingering.adopt(copy) }
        }
    }

    /// Takes a connection out of the books (the caller holds the lock).
    func forget(_ fd: Int32, _ s: inout State) {
        if s.evicted.remove(fd) == nil { connectionsOpen.wrappingSubtract(1, ordering: .relaxed) }
        s.clocks[fd] = nil
        s.phases[fd] = nil
        if let address = s.addresses.removeValue(forKey: fd), let count = s.perAddress[address] {
            let left = count.open.wrappingSubtract(1, ordering: .relaxed).newValue
            if left <= 0 { s.perAddress[address] = nil }
        }
    }

    /// The connection is answered before its body was read: linger when it closes.
    func lingerOnClose(_ fd: Int32) {
        guard fd >= 0, configuration.lingerSeconds > 0 else { return }
        state.withLock { _ = $0.lingerOnClose.insert(fd) }
    }

    /// Whether the address has more connections open than the per-address limit.
    func isOverAddressLimit(_ address: String?) -> Bool {
        let limit = configuration.perAddressConnectionLimit
        guard limit > 0, let address else { return false }
        return state.withLock { ($0.perAddress[address]?.open.load(ordering: .relaxed) ?? 0) > limit }
    }

    /// The same for a connection whose address's count is at hand (``ConnectionContext``):
    /// an atomic read, no lock.
    func isOverAddressLimit(_ count: AddressCount) -> Bool {
        let limit = configuration.perAddressConnectionLimit
        return limit > 0 && count.open.load(ordering: .relaxed) > limit
    }

    /// The count of open connections of a connection's address, once per connection.
    func addressCount(of fd: Int32) -> AddressCount? {
        guard fd >= 0 else { return nil }
        return state.withLock { s in s.addresses[fd].flatMap { s.perAddress[$0] } }
    }

    /// A request finished: the connection's clock restarts for the next one.
    func connectionIdle(_ fd: Int32) {
        guard fd >= 0 else { return }
        let now = Monotonic.nanoseconds()
        state.withLock { s in
            if let index = s.clocks.index(forKey: fd) {
                s.clocks.values[index] = now
                s.phases[fd] = .served
            } else {
                s.phases[fd]?.subtract([.uploading, .answered, .headersIn, .requestLine])
            }
        }
    }

    /// The request's headers are in and it announced a body: its body is arriving (until
    /// ``wasAnsweredMidUpload(_:ending:)`` says the body is complete).
    func startUploading(_ fd: Int32) {
        guard fd >= 0 else { return }
        state.withLock { _ = $0.phases[fd, default: []].insert(.uploading) }
    }
}
