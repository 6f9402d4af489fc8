import Foundation
@testable import PaletteService
import Testing

/// ``ServiceLog``'s timestamps and ``LogBuffer``'s order and flushing.
@Suite struct ServiceLogTests {
    /// The hand-made ISO 8601 time against Foundation's formatter, over four centuries of
    /// seconds (leap years, century years, the year 2000, before 1970).
    @Test func timestampsMatchFoundationsFormatter() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        var seconds = -2_208_988_800  // 1900-01-01
        while seconds < 7_258_118_400 {  // 2200-01-01
            let milliseconds = abs(seconds) % 1000
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000))
            #expect(ServiceLog.timestamp(seconds: seconds, milliseconds: milliseconds) == expected)
            seconds += 86_400 * 13 + 3_607
        }
        #expect(ServiceLog.timestamp(seconds: 951_782_400, milliseconds: 5) == "2000-02-29T00:00:00.005Z")
        #expect(ServiceLog.timestamp(seconds: 0, milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(ServiceLog.timestamp(seconds: -1, milliseconds: 999) == "1969-12-31T23:59:59.999Z")
    }

    @Test func timestampNowIsTwentyFourCharacters() {
        let now = ServiceLog.timestamp()
        #expect(now.count == 24 && now.hasSuffix("Z") && now.hasPrefix("20"))
    }

    /// Lines written through a pipe: buffered access lines come out before a message written
    /// after them, and flush writes what is buffered.
    @Test func linesComeOutInOrder() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let buffer = LogBuffer(descriptor: ends[1], capacity: 1 << 20, interval: 3600)
        buffer.append("access 1")
        buffer.append(terminatedLine: Array("access 2\n".utf8))
        buffer.writeNow("message")
        buffer.append("access 3")
        buffer.flush()
        close(ends[1])
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &chunk, chunk.count)
            if count <= 0 { break }
            out += chunk[0..<count]
        }
        #expect(String(decoding: out, as: UTF8.self) == "access 1\naccess 2\nmessage\naccess 3\n")
    }

    /// A full buffer wakes the writer without waiting for the interval.
    @Test func aFullBufferIsWrittenWithoutWaitingForTheInterval() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let buffer = LogBuffer(descriptor: ends[1], capacity: 64, interval: 3600)
        let line = String(repeating: "x", count: 99)
        buffer.append(line)  // past the capacity: the background writer is woken
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while out.count < 100 {
            let count = read(ends[0], &chunk, chunk.count)  // blocks until the writer writes
            if count <= 0 { break }
            out += chunk[0..<count]
        }
        #expect(String(decoding: out, as: UTF8.self) == line + "\n")
    }

    @Test func jsonLogLinesAreJSON() throws {
        let line = AccessLog(format: .json).message("reloaded \"x\"\n\u{1B}[2J", time: "2026-01-01T00:00:00.000Z", level: "warning")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object == ["time": "2026-01-01T00:00:00.000Z", "level": "warning", "message": "reloaded \\\"x\\\"\\x0a\\x1b[2J"])
    }
}
