import Foundation
public import MicroHTTPD

/// The service's log: its lines written to standard error (or any descriptor), escaped
/// (``AccessLog``), through a ``LogBuffer``: access lines within 0.1 s, messages at once.
public struct ServiceLog: Sendable {
    public let format: AccessLog
    let buffer: LogBuffer

    public init(format: AccessLog.Format, descriptor: Int32 = 2) {
        self.format = AccessLog(format: format)
        buffer = LogBuffer(descriptor: descriptor)
    }

    /// A message (start, reload, a palette problem, shutdown), written at once.
    public func line(_ text: String, level: String = "info") {
        buffer.writeNow(format.message(text, time: ServiceLog.timestamp(), level: level))
    }

    /// A finished request, buffered.
    public func access(_ r: CompletedRequest) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let format = self.format
        // Written straight into the buffer, under its lock: no line array, no timestamp String.
        buffer.append { out in
            format.append(r, seconds: Int(now.tv_sec), milliseconds: Int(now.tv_nsec) / 1_000_000, to: &out)
        }
    }

    /// Writes out what is buffered.
    public func flush() {
        buffer.flush()
    }

    /// The time now as `2026-11-22T22:04:11.662Z` (``timestamp(seconds:milliseconds:)``).
    public static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return timestamp(seconds: Int(now.tv_sec), milliseconds: Int(now.tv_nsec) / 1_000_000)
    }

    /// `2026-11-22T22:04:11.662Z` for a time in seconds since 1970 (UTC), without Foundation's
    /// formatter or `gmtime_r` (this runs per request): the date from the day number by the
    /// proleptic-Gregorian civil-from-days algorithm (Howard Hinnant, "chrono-Compatible
    /// Low-Level Date Algorithms"), written straight into the string's storage (or, for the
    /// access log, into its buffer: ``writeTimestamp(seconds:milliseconds:into:)``). Years are
    /// clamped to 0000…9999, the four digits ISO 8601 gives them.
    public static func timestamp(seconds: Int, milliseconds: Int) -> String {
        return String(unsafeUninitializedCapacity: timestampLength) { out in
            writeTimestamp(seconds: seconds, milliseconds: milliseconds, into: out)
        }
    }

    /// The bytes of ``timestamp(seconds:milliseconds:)``.
    static let timestampLength = 24

    /// Writes ``timestamp(seconds:milliseconds:)`` into `out` (at least ``timestampLength``
    /// bytes) and returns how many bytes it wrote.
    static func writeTimestamp(seconds: Int, milliseconds: Int, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Days since 1970-01-01 to year, month, day (eras of 400 years, starting in March).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var at = 0
        func digits(_ value: Int, _ count: Int, then separator: UInt8) {
            var rest = value
            for place in stride(from: count - 1, through: 0, by: -1) {
                out[at + place] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            out[at + count] = separator
            at += count + 1
        }
        digits(min(9999, max(0, year)), 4, then: UInt8(ascii: "-"))
        digits(month, 2, then: UInt8(ascii: "-"))
        digits(day, 2, then: UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2, then: UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2, then: UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2, then: UInt8(ascii: "."))
        digits(min(999, max(0, milliseconds)), 3, then: UInt8(ascii: "Z"))
        return at
    }
}
