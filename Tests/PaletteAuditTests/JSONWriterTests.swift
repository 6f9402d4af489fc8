import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// ``JSONWriter``: the layouts, escaping and numbers every hand-written JSON output shares.
@Suite struct JSONWriterTests {
    func sample(_ w: inout JSONWriter) {
        w.object { w in
            w.key("a"); w.string("q\"\\\n\t\u{01}é")
            w.key("b"); w.array { w in w.number(1); w.number(0.5); w.bool(true); w.null() }
            w.key("c"); w.object { _ in }
            w.key("d"); w.array { _ in }
            w.key("e"); w.int(-3)
        }
    }

    @Test func compactAndPrettyAreWhatJSONEncoderWrites() throws {
        var compact = JSONWriter()
        sample(&compact)
        #expect(String(decoding: compact.bytes, as: UTF8.self) == #"{"a":"q\"\\\n\t\u0001é","b":[1,0.5,true,null],"c":{},"d":[],"e":-3}"#)
        var pretty = JSONWriter(layout: .pretty)
        sample(&pretty)
        // JSONEncoder's .prettyPrinted layout of the same document.
        struct Empty: Encodable {}
        struct Sample: Encodable {
            var a = "q\"\\\n\t\u{01}é"
            var c = Empty()
            var d: [Int] = []
            var e = -3
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let expected = String(decoding: try encoder.encode(Sample()), as: UTF8.self)
        var written = JSONWriter(layout: .pretty)
        written.object { w in
            w.key("a"); w.string("q\"\\\n\t\u{01}é")
            w.key("c"); w.object { _ in }
            w.key("d"); w.array { _ in }
            w.key("e"); w.int(-3)
        }
        #expect(String(decoding: written.bytes, as: UTF8.self) == expected)
    }

    @Test func aStringIsCopiedUpToItsFirstEscapeThenEscaped() throws {
        let long = String(repeating: "abcdefgh", count: 40)
        for text in ["", "plain", "é ok", "ab\"c", "\u{1F}x", long + "\\" + long, "ends with \n", "\t"] {
            var w = JSONWriter()
            w.array { w in w.string(text) }
            #expect(w.bytes == [UInt8](try JSONEncoder().encode([text])), "\(text)")
        }
        #expect(JSONWriter.quoted("ab\"c\u{01}d") == #""ab\"c\u0001d""#)
        // Each byte that must be escaped, at every place of strings of every length to 25
        // (strings are scanned eight bytes at a time, their last seven four, two and one at a
        // time), and bytes next to those values that must not be.
        for special in ["\"", "\\", "\u{00}", "\u{1F}", "\n", "!", "#", "[", "]", " ", "\u{7F}", "é"] {
            for length in 1...25 {
                for place in 0..<length {
                    let text = String(repeating: "x", count: place) + special + String(repeating: "y", count: length - 1 - place)
                    var w = JSONWriter()
                    w.array { w in w.string(text) }
                    #expect(w.bytes == [UInt8](try JSONEncoder().encode([text])), "\(text.debugDescription)")
                }
            }
        }
    }

    @Test func theEightByteScanFindsEveryByteToEscape() {
        for byte in UInt8.min...UInt8.max {
            for place in 0..<8 {
                var word: UInt64 = 0x4141_4141_4141_4141  // "AAAAAAAA"
                word = word & ~(UInt64(0xFF) << UInt64(8 * place)) | UInt64(byte) << UInt64(8 * place)
                let mustEscape = byte < 0x20 || byte == 0x22 || byte == 0x5C
                #expect(JSONWriter.mayEndString(word) == mustEscape, "byte \(byte) at \(place)")
                let endsSingleQuoted = byte < 0x20 || byte == 0x27 || byte == 0x5C
                #expect(JSONWriter.mayEndString(word, quote: 0x27) == endsSingleQuoted, "byte \(byte) at \(place)")
                if place < 4 {
                    #expect(JSONWriter.mayEndString(UInt32(truncatingIfNeeded: word)) == mustEscape, "byte \(byte) at \(place) of four")
                }
                if place < 2 {
                    #expect(JSONWriter.mayEndString(UInt16(truncatingIfNeeded: word)) == mustEscape, "byte \(byte) at \(place) of two")
                }
            }
        }
    }

    @Test func aPointerIsWrittenAsItsDescription() {
        for pointer in [JSONPointer(), JSONPointer(["themes", "light", "tokens", "text.body"]), JSONPointer(["a/b", "c~d", "q\"u\no", "é"])] {
            for layout in [JSONWriter.Layout.compact, .pretty] {
                var viaPointer = JSONWriter(layout: layout), viaString = JSONWriter(layout: layout)
                viaPointer.object { w in w.key("pointer"); w.pointer(pointer) }
                viaString.object { w in w.key("pointer"); w.string(pointer.description) }
                #expect(viaPointer.bytes == viaString.bytes)
            }
        }
        var w = JSONWriter()
        w.pointer(JSONPointer(["a/b", "c~d"]))
        #expect(String(decoding: w.bytes, as: UTF8.self) == #""/a~1b/c~0d""#)
    }

    /// The pointer is written in one reservation a segment (a long one in 4 KB pieces), its runs
    /// between `~` and `/` copied as strings are: every special byte at every place, runs of
    /// each length around the eight-byte scan, and segments across a piece's end.
    @Test func aPointerIsItsDescriptionWhateverItsSegmentsHold() {
        let specials: [UInt8] = [0x7E, 0x2F, 0x22, 0x5C, 0x0A, 0x01, 0x1F, 0x7F]
        // A combining mark after `/` or `~` leaves it a `/` or `~`: a pointer is read scalar by
        // scalar (RFC 6901), not by characters.
        var segments: [[String]] = [[""], ["", ""], ["~"], ["/"], ["~/~"], ["é"], ["a", "", "é~/"],
                                    ["a/\u{301}b"], ["~\u{301}"], ["x \u{301}/"]]
        for length in 1...19 {
            for place in 0..<length {
                for special in specials {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    bytes[place] = special
                    segments.append([String(decoding: bytes, as: UTF8.self), "x~y"])
                }
            }
        }
        for length in [4095, 4096, 4097, 9000] {
            segments.append([String(repeating: "b", count: length), "tail"])
            let edge = String(repeating: "b", count: length - 1) + "~" + "/\\\"" + String(repeating: "\u{1}", count: 5000)
            segments.append([edge, "é~"])
        }
        for pointer in segments.map(JSONPointer.init) {
            var viaPointer = JSONWriter(), viaString = JSONWriter()
            viaPointer.pointer(pointer)
            viaString.string(pointer.description)
            #expect(viaPointer.bytes == viaString.bytes, "\(pointer.segments.map { $0.prefix(40) })")
        }
    }

    /// A pointer's text reads back as its segments, through `init(parsing:)` and `Codable`:
    /// `~0`, `~1`, other `~`s, empty segments and combining marks after `/` or `~`.
    @Test func aPointerReadsBackAsItsSegments() throws {
        let pointers = [JSONPointer(), JSONPointer([""]), JSONPointer(["a/b", "c~d", "~01", "~1~0", "~", "", "q"]),
                        JSONPointer(["a/\u{301}b", "~\u{301}", "\u{301}"]), JSONPointer(["themes", "light", "tokens", "text.body"])]
        for pointer in pointers {
            #expect(JSONPointer(parsing: pointer.description) == pointer, "\(pointer.segments)")
            let decoded = try JSONDecoder().decode([JSONPointer].self, from: JSONEncoder().encode([pointer]))
            #expect(decoded == [pointer])
        }
        #expect(JSONPointer(["a/\u{301}b"]).description == "/a~1\u{301}b")
        #expect(JSONPointer.unescaped("~01") == "~1" && JSONPointer.unescaped("~2~") == "~2~" && JSONPointer.unescaped("a~1~0") == "a/~")
        #expect(JSONPointer(parsing: "/a~1b//c").segments == ["a/b", "", "c"])
    }

    /// Integers, and numbers with no fraction, are written from their digits on the stack: the
    /// same text as `String(_:)`, from `Int.min` to `Int.max`.
    @Test func integersAreTheirDecimalText() {
        var values: [Int] = [0, 1, -1, 9, 10, -10, 99, 100, 12345, Int.max, Int.min, Int.max - 1, Int.min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        for value in values {
            var w = JSONWriter()
            w.int(value)
            #expect(String(decoding: w.bytes, as: UTF8.self) == String(value))
            var text = ""
            JSONNumber.writeInteger(value, to: &text)
            #expect(text == String(value))
        }
        for value in [0.0, -0.0, 1.0, -7.0, 21.0, 999_999_999_999_999.0, -999_999_999_999_999.0] {
            var w = JSONWriter()
            w.number(value)
            #expect(String(decoding: w.bytes, as: UTF8.self) == String(Int(value)))
        }
        // From 1e15 on, and with a fraction, a number is Swift's shortest text instead.
        #expect(JSONNumber.format(1e15) == 1e15.description && JSONNumber.format(4.5) == "4.5")
    }

    /// A key's name is copied as two words that may overlap, a byte, or by `memcpy`, by its
    /// length: each length from 0 to 40 (16 and 32 bytes are the edges), after a comma or not,
    /// lands where it belongs.
    @Test func aKeysNameIsCopiedWhole() {
        let source = (0..<40).map { UInt8(0x41 + $0) }
        for comma in [false, true] {
            for length in 0...40 {
                var out = JSONBuffer(capacity: 16)
                out.append(0x7A)
                let name = Array(source.suffix(length))
                name.withUnsafeBufferPointer { JSONWriter.appendKey($0, comma: comma, to: &out) }
                #expect(out.array == [0x7A] + (comma ? [0x2C] : []) + [0x22] + name + [0x22, 0x3A], "length \(length)")
            }
        }
    }

    /// The writer's buffer grows by doubling, or to what a piece needs: pieces of every size
    /// from 0 to 300 bytes, appended, reserved and laid out, come back in order whatever the
    /// starting capacity; and a document appended to a caller's bytes follows them.
    @Test func theBufferKeepsEveryPieceAcrossItsGrowth() {
        for capacity in [0, 1, 16, 100, 4096] {
            var buffer = JSONBuffer(capacity: capacity)
            var model: [UInt8] = []
            for size in 0...300 {
                let piece = (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ size) }
                switch size % 3 {
                case 0: piece.withUnsafeBufferPointer { buffer.append($0) }
                case 1: buffer.append(piece)
                default:
                    let at = buffer.room(size + 7)
                    for (i, byte) in piece.enumerated() { at[i] = byte }
                    buffer.commit(size)
                }
                model += piece
                if size % 50 == 0 { buffer.reserve(size * 10) }
            }
            #expect(buffer.count == model.count && buffer.array == model, "capacity \(capacity)")
            var out: [UInt8] = [1, 2, 3]
            buffer.append(to: &out)
            #expect(out == [1, 2, 3] + model)
            buffer.removeAll()
            buffer.append(9)
            #expect(buffer.array == [9])
        }
        var out: [UInt8] = Array("x\n".utf8)
        JSONWriter.append(to: &out) { w in w.object { w in w.key("a"); w.int(1) } }
        #expect(String(decoding: out, as: UTF8.self) == "x\n{\"a\":1}")
    }

    @Test func optionalMembersAreWrittenOnlyWhenPresent() {
        var w = JSONWriter()
        let name = "dyn\"amic"
        w.object { w in
            w.string("s", "x"); w.string("none", nil)
            w.number("n", 0.5); w.int("i", 3); w.int("absent", nil)
            w.string(name, "y")
        }
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"s":"x","n":0.5,"i":3,"dyn\"amic":"y"}"#)
    }

    @Test func theDocumentLayoutKeepsShortListsOnOneLine() {
        var w = JSONWriter(layout: .document)
        w.object { w in
            w.key("short"); w.array(.inline) { w in w.string("x"); w.number(2) }
            w.key("nested"); w.object { w in w.key("k"); w.array { w in w.object { w in w.key("v"); w.bool(false) } } }
            w.key("empty"); w.object { _ in }
        }
        w.endLine()
        #expect(String(decoding: w.bytes, as: UTF8.self) == """
            {
              "short": ["x", 2],
              "nested": {
                "k": [
                  {
                    "v": false
                  }
                ]
              },
              "empty": {}
            }

            """)
    }

    @Test func linePerValueAndPartsJoinedInOrder() {
        var w = JSONWriter()
        w.object { w in
            w.key("pairs")
            w.array(.linePerValue) { w in w.int(1); w.int(2) }
        }
        #expect(String(decoding: w.bytes, as: UTF8.self) == "{\"pairs\":[\n1,\n2\n]}")
        var part = JSONWriter()
        part.arrayContents { w in w.int(3); w.int(4) }
        let joined = JSONWriter.compact { w in w.array { w in w.raw(Array("1,2".utf8)); w.raw(part.bytes) } }
        #expect(String(decoding: joined, as: UTF8.self) == "[1,2,3,4]")
    }

    /// Deeper than the stack kept in two words: the rest is kept in an array.
    @Test func deepNestingClosesEveryContainer() throws {
        var w = JSONWriter()
        func nest(_ w: inout JSONWriter, _ depth: Int) {
            if depth == 0 { w.int(0); return }
            w.array { w in w.int(depth); nest(&w, depth - 1) }
        }
        nest(&w, 80)
        let parsed = try JSONParser.parse(w.bytes)
        var value = parsed, depth = 0
        while case .array(let items, _) = value { depth += 1; value = items[1] }
        #expect(depth == 80)
    }

    @Test func aSinkGetsEveryPieceInOrder() {
        var pieces: [[UInt8]] = []
        withoutActuallyEscaping({ (piece: [UInt8]) in pieces.append(piece) }) { sink in
            var w = JSONWriter(sink: sink)
            w.array { w in for i in 0..<200_000 { w.string("item \(i)") } }
            w.finish()
        }
        #expect(pieces.count > 1)
        let whole = JSONWriter.compact { w in w.array { w in for i in 0..<200_000 { w.string("item \(i)") } } }
        #expect(Array(pieces.joined()) == whole)
    }
}
