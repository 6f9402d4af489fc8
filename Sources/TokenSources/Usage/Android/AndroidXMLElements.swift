import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The elements of an Android XML file (a layout, a color state list) in document order, each
/// with its attributes, its depth and the line its start tag begins on. Read with `XMLParser`,
/// after the checks the resource reader makes (``AndroidResourceReader/firstInvalidUTF8(_:)``,
/// ``AndroidResourceReader/firstEntityDeclaration(_:)``); broken XML is a reason at its line.
struct AndroidXMLElements {
    struct Element {
        var name: String
        /// As written, prefix included (`android:textColor`, `app:backgroundTint`).
        var attributes: [String: String]
        /// 0 for the root.
        var depth: Int
        /// Where its start tag begins (`<TextView` of a tag written over many lines).
        var line: Int
    }

    var elements: [Element] = []
    /// Why the file could not be read, and where; nil when it was.
    var failure: (line: Int, reason: String)?

    /// A file that could not be read at all.
    init(failure reason: String) {
        failure = (1, reason)
    }

    init(bytes: [UInt8]) {
        let data = Data(bytes)
        if let bad = AndroidResourceReader.firstInvalidUTF8(data) {
            failure = (bytes[..<bad.offset].count(where: { $0 == 0x0A }) + 1, "not valid UTF-8 at byte \(bad.offset); Android resource files are UTF-8")
            return
        }
        if let entity = AndroidResourceReader.firstEntityDeclaration(data) {
            failure = (entity.line, "the DOCTYPE declares an XML entity, which this reader does not expand: the file is not read")
            return
        }
        let collector = Collector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        parser.shouldResolveExternalEntities = false
        if !parser.parse() || collector.error != nil {
            failure = (max(1, collector.error?.line ?? parser.lineNumber), "not well-formed XML: " + (collector.error?.reason ?? "the parser stopped"))
            return
        }
        // The parser reports where a start tag ends; the element's line is where it begins, the
        // n-th start tag of the text (tags are found the way XML defines them: outside comments,
        // CDATA, processing instructions and quoted attribute values).
        let starts = Self.startTagLines(bytes)
        elements = collector.elements
        if starts.count == elements.count {
            for i in elements.indices { elements[i].line = starts[i] }
        }
    }

    /// The line each start tag begins on, in order. One pass over the bytes.
    static func startTagLines(_ bytes: [UInt8]) -> [Int] {
        var lines: [Int] = []
        var line = 1
        var i = 0
        let n = bytes.count
        func skip(past terminator: [UInt8]) {
            while i < n {
                if bytes[i] == 0x0A { line += 1 }
                if bytes[i] == terminator[0] && i + terminator.count <= n && bytes[i..<i + terminator.count].elementsEqual(terminator) {
                    i += terminator.count
                    return
                }
                i += 1
            }
        }
        func startsWith(_ text: String) -> Bool {
            let utf8 = Array(text.utf8)
            return i + utf8.count <= n && bytes[i..<i + utf8.count].elementsEqual(utf8)
        }
        while i < n {
            let byte = bytes[i]
            if byte == 0x0A { line += 1; i += 1; continue }
            guard byte == UInt8(ascii: "<") else { i += 1; continue }
            if startsWith("<!--") { i += 4; skip(past: Array("-->".utf8)); continue }
            if startsWith("<![CDATA[") { i += 9; skip(past: Array("]]>".utf8)); continue }
            if startsWith("<?") { i += 2; skip(past: Array("?>".utf8)); continue }
            if startsWith("<!") || startsWith("</") { i += 2; skip(past: [UInt8(ascii: ">")]); continue }
            lines.append(line)
            // Past the tag, minding quoted values (which may hold '>').
            i += 1
            var quote: UInt8?
            while i < n {
                let b = bytes[i]
                if b == 0x0A { line += 1 }
                i += 1
                if let q = quote {
                    if b == q { quote = nil }
                } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: ">") {
                    break
                }
            }
        }
        return lines
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var error: (reason: String, line: Int)?
        private var depth = 0

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            elements.append(Element(name: elementName, attributes: attributes, depth: depth, line: parser.lineNumber))
            depth += 1
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if error == nil {
                let detail = ((parseError as NSError).userInfo["NSXMLParserErrorMessage"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
                error = (detail ?? "XMLParser error \((parseError as NSError).code)", parser.lineNumber)
            }
        }
    }
}
