import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

@Suite struct JSONParserTests {
    @Test func parsesWithLocations() throws {
        let value = try JSONParser.parse("{\n  \"a\": [1, 2.5e1, \"x\\u00e9\"],\n  \"b\": {\"c\": null, \"d\": true}\n}")
        #expect(value["a"]?.location == SourceLocation(offset: 9, line: 2, column: 8))
        guard case .array(let items, _)? = value["a"] else { Issue.record("not an array"); return }
        if case .number(let n, _) = items[1] { #expect(n == 25) } else { Issue.record("not a number") }
        #expect(items[2].stringValue == "xé")
        #expect(value["b"]?["c"]?.location.line == 3)
    }

    /// The end of a value is found by reading that value alone from where it starts, in
    /// either dialect: what an editor needs to replace exactly its bytes.
    @Test func findsWhereAValueEnds() throws {
        let text = "{\n  a: 'x\\'y', // c\n  \"b\": {\"c\": [1, 2,], d: +.5},\n  e: \"é\"\n}"
        let bytes = Array(text.utf8)
        let value = try JSONParser.parse(bytes)
        func written(_ v: JSONValue?) throws -> String {
            let v = try #require(v)
            let end = try JSONParser.endOfValue(startingAt: v.location, in: bytes)
            return String(decoding: bytes[v.location.offset..<end.offset], as: UTF8.self)
        }
        #expect(try written(value["a"]) == "'x\\'y'")
        #expect(try written(value["b"]) == "{\"c\": [1, 2,], d: +.5}")
        #expect(try written(value["e"]) == "\"é\"")
        let e = try #require(value["e"])
        #expect(try JSONParser.endOfValue(startingAt: e.location, in: bytes) == SourceLocation(offset: e.location.offset + 4, line: 4, column: 10), "columns count bytes, as the parser's do")
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.endOfValue(startingAt: SourceLocation(offset: 999, line: 1, column: 1), in: bytes) }
    }

    @Test(arguments: [
        ("", "1:1: the document is empty; expected a JSON value"),
        ("{\"a\": 1, \"a\": 2}", "1:10: duplicate key \"a\" in the object opened at 1:1; each key may appear once"),
        ("[1, 2", "1:6: the array opened at 1:1 is not closed; expected ',' or ']'"),
        ("{\"a\" 1}", "1:6: expected ':' after the key \"a\", found '1'"),
        ("[1e400]", "1:2: the number 1e400 is out of range"),
        ("[NaN]", "1:2: expected a JSON value (object, array, string, number, true, false or null), found 'N'"),
        ("[01]", "1:2: numbers cannot have leading zeros"),
        ("{\"a\": \"x\ny\"}", "1:9: a control character (byte 0xA) inside a string must be escaped"),
        ("{} x", "1:4: expected the end of the document after the top-level value, found 'x'"),
        ("{'a': 1}", "1:2: expected a quoted key, found '''"),
        ("[tru]", "1:2: expected a JSON value, found 't' (strings need double quotes)"),
        // JSON5 only: strict JSON refuses it.
        ("[+1]", "1:2: expected a JSON value (object, array, string, number, true, false or null), found '+'"),
        ("[.5]", "1:2: expected a JSON value (object, array, string, number, true, false or null), found '.'"),
        ("[1,]", "1:4: expected a JSON value (object, array, string, number, true, false or null), found ']'"),
        ("\u{0B}[]", "1:1: expected a JSON value (object, array, string, number, true, false or null), found byte 0xB"),
        ("// c\n[]", "1:1: expected a JSON value (object, array, string, number, true, false or null), found '/'"),
    ])
    func reportsErrors(text: String, message: String) {
        do {
            _ = try JSONParser.parse(text, dialect: .json)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.description == message)
        }
    }

    /// Small objects are searched in place, large ones through a set: duplicates are found in
    /// both, and on either side of the switch.
    @Test(arguments: [3, 15, 16, 17, 40])
    func duplicateKeysAreFoundInObjectsOfAnySize(members: Int) {
        let keys = (0..<members).map { "\"k\($0)\": \($0)" }
        let unique = "{" + keys.joined(separator: ", ") + "}"
        #expect((try? JSONParser.parse(unique)) != nil)
        for repeated in [0, members - 1] {
            let text = "{" + (keys + ["\"k\(repeated)\": 0"]).joined(separator: ", ") + "}"
            do {
                _ = try JSONParser.parse(text)
                Issue.record("\(members) members: the repeated k\(repeated) was accepted")
            } catch {
                #expect(error.message.hasPrefix("duplicate key \"k\(repeated)\""))
            }
        }
    }

    /// Read as token builds read JSON5, a repeated key keeps its first place and its last value,
    /// in small objects and large, and each repetition is recorded with both locations.
    @Test(arguments: [3, 15, 16, 17, 40])
    func aRepeatedKeyCanKeepItsLastValue(members: Int) throws {
        let keys = (0..<members).map { "\"k\($0)\": \($0)" }
        for repeated in [0, members - 1] {
            let text = "{" + (keys + ["\n\"k\(repeated)\": \"last\""]).joined(separator: ", ") + "}"
            var duplicates: [JSONParser.DuplicateKey] = []
            let value = try JSONParser.parse(Array(text.utf8), duplicates: &duplicates)
            let members = try #require(value.members)
            #expect(members.count == keys.count)
            #expect(members[repeated].key == "k\(repeated)" && members[repeated].value.stringValue == "last")
            #expect(duplicates.count == 1)
            #expect(duplicates.first?.key == "k\(repeated)")
            #expect(duplicates.first?.location.line == 2 && duplicates.first?.earlier.line == 1)
        }
    }

    /// A string's plain run is found eight bytes at a time: whatever ends it (the quote, a
    /// backslash, a control byte), or a non-ASCII byte, at every place in and across the
    /// eight-byte words, in both quotes of JSON5, reads as it did byte by byte.
    @Test func stringsEndWhereverTheirRunEnds() throws {
        for length in 0..<34 {
            for at in 0...length {
                let plain = String(repeating: "a", count: length)
                let cut = plain.index(plain.startIndex, offsetBy: at)
                for (inserted, expected) in [("\\n", "\n"), ("\\\"", "\""), ("é", "é"), ("'", "'"), ("\\u00e9", "é")] {
                    let text = plain[..<cut] + inserted + plain[cut...]
                    let value = try JSONParser.parse(Array("{\"k\": \"\(text)\"}".utf8), dialect: .json)["k"]?.stringValue
                    #expect(value == String(plain[..<cut] + expected + plain[cut...]), "\(length) \(at) \(inserted)")
                }
                // Single quotes (JSON5): a double quote inside is plain text, an escaped single
                // quote is not the end.
                let single = try JSONParser.parse(Array("{k: '\(plain[..<cut])\"\\'\(plain[cut...])'}".utf8))["k"]?.stringValue
                #expect(single == String(plain[..<cut] + "\"'" + plain[cut...]))
                // Invalid UTF-8 is an error wherever it falls (the run must notice a non-ASCII byte).
                let invalid = Array("{\"k\": \"".utf8) + Array(plain[..<cut].utf8) + [0xFF] + Array(plain[cut...].utf8) + Array("\"}".utf8)
                #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(invalid) }
                // A raw control byte inside is an error wherever it falls.
                #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array("[\"\(plain[..<cut])\u{1}\(plain[cut...])\"]".utf8)) }
            }
            // Unclosed, and cut at the limit of a string's bytes.
            #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array("[\"\(String(repeating: "a", count: length))".utf8)) }
            var limits = JSONParser.Limits()
            limits.maximumStringBytes = 16
            let fits = length <= 16
            let parsed = try? JSONParser.parse(Array("[\"\(String(repeating: "a", count: length))\"]".utf8), limits: limits)
            #expect((parsed != nil) == fits, "\(length) bytes against a limit of 16")
            // No limit at all (`Int.max`) does not overflow where the run's end is worked out.
            limits.maximumStringBytes = .max
            let unlimited = try JSONParser.parse(Array("{\"k\": \"\(String(repeating: "a", count: length))\"}".utf8), limits: limits)
            #expect(unlimited["k"]?.stringValue == String(repeating: "a", count: length))
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONParser.parse(deep)
            Issue.record("parsed")
        } catch {
            #expect(error.message == "nesting is deeper than 256 levels")
        }
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = [0x22, 0xFF, 0xFE, 0x22]
        #expect(throws: JSONParser.SyntaxError.self) { _ = try JSONParser.parse(bytes) }
    }

    @Test func minusZeroAndBigNumbers() throws {
        let value = try JSONParser.parse("[-0, 1e308, -1.5E-3]")
        guard case .array(let items, _) = value else { return }
        if case .number(let n, _) = items[0] { #expect(n == 0 && n.sign == .minus) }
        if case .number(let n, _) = items[2] { #expect(n == -0.0015) }
    }

    /// Whole numbers are read from their digits; every number reads as `Double` reads its text.
    @Test(arguments: ["0", "-0", "+12", "7", "-42", "123456789012345", "-999999999999999", "1234567890123456",
                      "98765432109876543210", "5.", ".5", "-.5", "+.5", "5.e2", "5.E-2", "1e3", "2.50", "0.1"])
    func json5NumbersReadAsDoubleReadsThem(_ text: String) throws {
        guard case .number(let n, _) = try JSONParser.parse(text) else { Issue.record("\(text) is not a number"); return }
        var plain = text.hasPrefix("+") ? String(text.dropFirst()) : text
        if plain.hasSuffix(".") { plain.removeLast() }
        if plain.hasPrefix(".") { plain = "0" + plain } else if plain.hasPrefix("-.") { plain = "-0" + plain.dropFirst() }
        let expected = try #require(Double(plain.replacingOccurrences(of: ".e", with: "e").replacingOccurrences(of: ".E", with: "E")))
        #expect(n == expected && n.sign == expected.sign, "\(text)")
    }
}

/// `check --batch` reads the common line without a JSON tree; it must give exactly the request
/// the full reader gives, and leave every other line to it.
@Suite struct SimplePairLineTests {
    static func simple(_ line: String) -> PairRequest? {
        Array(line.utf8).withUnsafeBufferPointer { PairRequest(simpleLine: $0) }
    }

    @Test func agreesWithTheFullReader() throws {
        let lines = [
            ##"{"fg":"#777","bg":"#fff"}"##,
            "  { \"fg\" : \"rgb(1 2 3 / 50%)\" ,\t\"bg\":\"white\" }  ",
            ##"{"foreground":"#000","background":"#fff","backdrop":"#fff","usage":"large-text","level":"AAA","scheme":"dark","id":"x-1"}"##,
            "{\"fg\":\"\",\"bg\":\"#fff\"}\r",
        ]
        for line in lines {
            let fast = try #require(Self.simple(line), "\(line)")
            let full = try PairRequest(json: try JSONParser.parse(Array(line.utf8)))
            #expect(fast == full, "\(line)")
        }
    }

    /// A field under both its names is refused by the full reader, which the simple one
    /// leaves it to: never read as either value.
    @Test func aFieldUnderBothItsNamesIsRefused() throws {
        let lines = [
            ##"{"fg":"#000","foreground":"#111","bg":"#fff"}"##, ##"{"foreground":"#000","fg":"#111","bg":"#fff"}"##,
            ##"{"background":"#fff","fg":"#000","bg":"#111"}"##, ##"{"fg":"#000","bg":"#fff","background":"#111"}"##,
            ##"{"fg":"","foreground":"#000","bg":"#fff"}"##,
        ]
        for line in lines {
            #expect(Self.simple(line) == nil, "\(line)")
            do {
                _ = try PairRequest(json: try JSONParser.parse(Array(line.utf8)))
                Issue.record("\(line) was read")
            } catch let error as RequestError {
                #expect(error.code == .repeatedField, "\(line): \(error)")
            }
        }
    }

    /// The key switch and the documented list of keys name the same keys in the same order.
    @Test func theKeysAreTheListedOnes() {
        #expect(PairRequest.fields.indices.allSatisfy { PairRequest.fieldIndex(PairRequest.fields[$0]) == $0 })
        #expect(PairRequest.fieldIndex("colour") == nil)
    }

    @Test func leavesEveryOtherLineToTheFullReader() {
        let lines: [String] = [
            "", "{}", "[]", ##"{"fg":"#777","bg":"#fff""##, ##"{"fg":"#777","bg":"#fff"} x"##,
            ##"{"fg":"#777","fg":"#000","bg":"#fff"}"##,  // a repeated key is an error
            ##"{"fg":"#000","foreground":"#111","bg":"#fff"}"##,  // so is a field under both its names
            ##"{"fg":"#777","colour":"#fff"}"##,  // an unknown key is an error
            ##"{"fg":"#777","bg":"#fff","id":7}"##,  // a number
            ##"{"fg":"\u0023777","bg":"#fff"}"##,  // an escape
            "{\"fg\":\"#777\",\"bg\":\"caf\u{e9}\"}",  // not ASCII
            ##"{fg:"#777",bg:"#fff"}"##,  // JSON5
            ##"{"fg":"#777","bg":"#fff",}"##,
        ]
        for line in lines {
            let read = Self.simple(line)
            #expect(read == nil, "\(line)")
        }
    }

    static func list(_ body: String) -> [PairRequest]? {
        Array(body.utf8).withUnsafeBufferPointer { PairRequest.simpleList($0) }
    }

    @Test func readsPlainListsAndLeavesTheRest() throws {
        let body = ##"{ "pairs" : [ {"fg":"#000","bg":"#fff"},{"fg":"red","bg":"white","id":"b"} ] }"##
        let pairs = try #require(Self.list(body))
        let value = try JSONParser.parse(Array(body.utf8))
        guard case .array(let items, _)? = value["pairs"] else { Issue.record("no pairs"); return }
        #expect(pairs == (try items.map { try PairRequest(json: $0) }))
        #expect(Self.list(##"{"pairs":[]}"##) == [])
        for other in [##"{"pairs":[{"fg":"#000","bg":"#fff"}],"pairs":[]}"##, ##"{"pairs":{}}"##, ##"{"fg":"#000","bg":"#fff"}"##,
                      ##"{"pairs":[{"fg":"#000","bg":"#fff"},]}"##, ##"{"pairs":[{"fg":"#000","bg":"#fff"}]} x"##, ##"{"pairs":[7]}"##,
                      ##"{"pairs":[{"fg":"\u0030","bg":"#fff"}]}"##, ##"{"pairs":[{"fg":"#000","bg":"#fff"}"##] {
            let read = Self.list(other)
            #expect(read == nil, "\(other)")
        }
    }
}
