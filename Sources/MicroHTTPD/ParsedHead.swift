#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether libmicrohttpd parsed a request's head without hiding part of it.
///
/// libmicrohttpd 0.9.75 parses the head in place, in its read buffer: it writes a zero over the
/// space after the method, the space before the version, each colon, and each line's CR and LF,
/// then hands out pointers into that buffer with `strlen` lengths. Two things are lost on the
/// way, and nothing in its API reports them:
///
/// - a NUL in a field value (or in the request line) cuts what the application sees at the NUL;
///   the rest of the line stays in the buffer, unreported;
/// - an obs-fold line (one starting with SP or HTAB, RFC 9112 §5.2) is appended, in a copy made
///   elsewhere in the connection's memory pool, to the previous field, which no longer lies in
///   the buffer.
///
/// So the fields as handed out must tile the head exactly: the request line, then each field
/// line where the previous one ended, then the empty line that ends the head at
/// `MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE` bytes from the method. Anything left between them
/// is a part libmicrohttpd hid. The walk reads only inside the head's bytes.
///
/// What it cannot see: a NUL right before a bare LF (`a\0\n` leaves the same two zeros as
/// `a\r\n`). A NUL anywhere else in a value, in the method or in the target, and every obs-fold
/// line, break the tiling.
struct ParsedHeadWalk {
    enum Defect: Equatable {
        /// A NUL in the value of the field named (as libmicrohttpd has it, cut at the NUL), or
        /// in the request line (nil).
        case nul(field: String?)
        /// A field line continued on a line starting with white space.
        case obsFold
    }

    private let start: UInt
    private let end: UInt
    /// Where the next field line's terminator (zero bytes) begins.
    private var cursor: UInt
    /// The last field walked (its name's address and length): named only in a defect.
    private var previous: (name: UInt, size: Int)?
    /// What was found, kept as plain values (the walk is copied and dropped a few times per
    /// request; holding a String made each of those a call): a NUL, in the field whose name is
    /// at `nulField` (nil: the request line), or an obs-fold line.
    private var found = Found.nothing
    private var nulField: (name: UInt, size: Int)?
    private enum Found { case nothing, nul, obsFold }

    /// What libmicrohttpd hid, nil when nothing: read while its buffer holds the head (a
    /// NUL's field is named from it).
    var defect: Defect? {
        switch found {
        case .nothing: nil
        case .obsFold: .obsFold
        case .nul: .nul(field: nulField.map { String(decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: $0.name), count: $0.size), as: UTF8.self) })
        }
    }

    /// Starts after the request line, checking it first. `targetLength` is the target's length
    /// as the URI log callback saw it (before libmicrohttpd decoded it in place).
    init(method: UnsafePointer<CChar>, url: UnsafePointer<CChar>?, targetLength: Int?,
         version: UnsafePointer<CChar>, headerSize: Int) {
        start = UInt(bitPattern: method)
        end = start &+ UInt(headerSize)
        let versionAt = UInt(bitPattern: version)
        cursor = versionAt &+ 8  // libmicrohttpd accepts only "HTTP/d.d"
        guard headerSize > 0, versionAt > start, cursor <= end else {
            found = .nul
            return
        }
        // The method ends at the zero written over its space; more spaces may follow (skipped
        // by libmicrohttpd), then the target, which ends at the zero before the version.
        let methodEnd = start &+ UInt(strlen(method))
        guard methodEnd < versionAt, byte(methodEnd) == 0 else {
            found = .nul
            return
        }
        if let url, let targetLength {
            let urlAt = UInt(bitPattern: url)
            guard urlAt > methodEnd, urlAt < versionAt,
                  (methodEnd + 1 ..< urlAt).allSatisfy({ byte($0) == 0x20 }),
                  urlAt &+ UInt(targetLength) &+ 1 == versionAt, byte(versionAt - 1) == 0 else {
                found = .nul
                return
            }
        }
    }

    /// The next field as libmicrohttpd handed it out, in order.
    mutating func field(name: UnsafePointer<CChar>, nameSize: Int, value: UnsafePointer<CChar>?, valueSize: Int) {
        guard found == .nothing else { return }
        let nameAt = UInt(bitPattern: name)
        guard nameAt >= start, nameAt < end else {
            // Only an obs-fold line makes libmicrohttpd copy a field's name out of the buffer.
            found = .obsFold
            return
        }
        let run = zeros(from: cursor)
        guard (1...2).contains(run), nameAt == cursor &+ UInt(run) else {
            found = .nul
            nulField = previous
            return
        }
        let colon = nameAt &+ UInt(nameSize)
        let valueAt = value.map { UInt(bitPattern: $0) } ?? colon &+ 1
        guard colon < end, byte(colon) == 0, valueAt > colon, valueAt &+ UInt(valueSize) <= end,
              (colon + 1 ..< valueAt).allSatisfy({ byte($0) == 0x20 || byte($0) == 0x09 }) else {
            found = .nul
            nulField = previous
            return
        }
        previous = (nameAt, nameSize)
        cursor = valueAt &+ UInt(valueSize)
    }

    /// After the last field: what is left must be the last line's end and the empty line (each
    /// CRLF or a bare LF), and nothing else.
    mutating func finish() -> Defect? {
        guard found == .nothing else { return defect }
        let run = zeros(from: cursor)
        if !(2...4).contains(run) || cursor &+ UInt(run) != end {
            found = .nul
            nulField = previous
        }
        return defect
    }

    private func byte(_ address: UInt) -> UInt8 {
        UnsafePointer<UInt8>(bitPattern: address)!.pointee
    }

    /// Zero bytes from `address`, up to the head's end.
    private func zeros(from address: UInt) -> Int {
        var at = address
        while at < end && byte(at) == 0 { at += 1 }
        return Int(at - address)
    }
}
