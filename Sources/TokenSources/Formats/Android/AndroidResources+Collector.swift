import ColorScience
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Collects, with where each starts: `<color name="…">value</color>` (and `<item type="color">`),
/// `<style>` with its `<item>`s, and the theme attributes `<attr>` declares outside
/// `<declare-styleable>`.
final class ResourceCollector: NSObject, XMLParserDelegate {
    struct Found {
        var name: String
        var value: String
        var line: Int
        var column: Int
    }

    struct FoundStyle {
        var name: String
        var parent: String?
        var line: Int
        var column: Int
        var items: [Found] = []
    }

    var colors: [Found] = []
    var styles: [FoundStyle] = []
    /// Top-level `<attr name format>`: the app's theme attributes.
    var attributes: [(name: String, format: String?)] = []
    var unnamed: [(element: String, style: String?, line: Int, column: Int)] = []
    /// The first error reported, with where the parser stood.
    var error: (reason: String, line: Int, column: Int)?

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if error == nil {
            let nsError = parseError as NSError
            let detail = (nsError.userInfo["NSXMLParserErrorMessage"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines)
            error = (detail ?? ResourceCollector.describe(nsError.code), parser.lineNumber, parser.columnNumber)
        }
    }
    /// What the common XMLParser error codes mean (libxml2's numbers, which it reports).
    static func describe(_ code: Int) -> String {
        switch code {
        case 76: "an end tag does not match the element it closes"
        case 77: "the file ends before its elements are closed"
        case 5: "the document does not end where its root element does (an element left open, or content after it)"
        case 4: "the file is empty"
        case 73: "a tag is not closed with '>'"
        case 39, 41: "an attribute's value is not quoted"
        case 9: "a character that XML does not allow"
        case 26, 27: "an entity reference that cannot be resolved"
        default: "XMLParser error \(code)"
        }
    }

    /// The open elements' names, outermost first.
    private var open: [String] = []
    /// The color or style item whose text is being read.
    private var current: Found?
    private var currentIsItem = false
    private var currentDepth = 0
    private var text = ""

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        defer { open.append(elementName) }
        let line = parser.lineNumber, column = parser.columnNumber
        // Resources are the children of <resources>; a style's items are its children.
        let depth = open.count
        switch elementName {
        case "color" where current == nil, "item" where depth == 1 && attributes["type"] == "color":
            beginValue(named: attributes["name"], element: elementName == "item" ? "<item type=\"color\">" : "<color>", style: nil,
                       isItem: false, depth: depth, line: line, column: column)
        case "style" where depth == 1:
            guard let name = attributes["name"] else {
                unnamed.append(("<style>", nil, line, column))
                styles.append(FoundStyle(name: "", parent: nil, line: line, column: column))
                return
            }
            styles.append(FoundStyle(name: name, parent: attributes["parent"], line: line, column: column))
        case "item" where depth == 2 && open.last == "style" && !styles.isEmpty:
            beginValue(named: attributes["name"], element: "<item>", style: styles[styles.count - 1].name,
                       isItem: true, depth: depth, line: line, column: column)
        case "attr" where depth == 1:
            if let name = attributes["name"] { self.attributes.append((name, attributes["format"])) }
        default:
            break
        }
    }

    /// Starts reading the text of a color resource or a style's item, named by its `name`
    /// attribute; one without a name is listed among the unnamed, as `element` (of `style`),
    /// and not read.
    private func beginValue(named name: String?, element: String, style: String?, isItem: Bool, depth: Int, line: Int, column: Int) {
        guard let name else {
            unnamed.append((element, style, line, column))
            return
        }
        current = Found(name: name, value: "", line: line, column: column)
        currentIsItem = isItem
        currentDepth = depth
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if current != nil { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if current != nil { text += String(decoding: CDATABlock, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        _ = open.popLast()
        guard open.count == currentDepth, var found = current else { return }
        found.value = text
        if currentIsItem {
            // An unnamed style keeps its items, so that they are accounted for.
            styles[styles.count - 1].items.append(found)
        } else {
            colors.append(found)
        }
        current = nil
    }
}
