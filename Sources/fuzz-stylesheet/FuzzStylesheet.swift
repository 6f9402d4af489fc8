// The stylesheet reader, the audit and its renderings under libFuzzer, structure-aware: each
// input is a sequence of choices (FuzzSupport's ByteSource) that builds a stylesheet (rules whose
// selectors the reader takes as themes, `:root`, `[data-theme]`, `.dark`; `@media` with
// prefers-color-scheme and prefers-contrast, `@layer`, `@container`, `@supports`, nesting;
// custom properties whose values are colors, `var()` chains with fallbacks, `light-dark()`,
// `color-mix()`, relative colors; long names and selectors, rules repeated), an `@import`ed
// stylesheet beside it and its checks sidecar. BoundedAudit reads and audits them as
// `contrast audit` and `POST /v1/tokens` do and fails when what is built is not bounded by the
// input. Built as fuzz-color is (see FuzzColor.swift).
import FuzzSupport

struct StylesheetMaker {
    var source: ByteSource
    /// The custom properties the document may name.
    var names: [String] = []
    /// Text written so far: the document stops growing past ``limit``.
    var written = 0
    let limit = 24 << 10

    init(_ bytes: UnsafeRawBufferPointer) {
        source = ByteSource(bytes)
        let count = 1 + source.int(0...11)
        for i in 0..<count {
            var name = "--" + source.pick(["c", "bg", "fg", "text", "surface", "accent", "border", "color-primary"]) + "\(i)"
            let long = source.count(small: 0, large: 1_000)
            if long > 0 { name += "-" + String(repeating: source.pick(["x", "long", "ä"]), count: long) }
            names.append(name)
        }
    }

    var full: Bool { written > limit }

    mutating func name() -> String { source.pick(names) }

    mutating func color(_ depth: Int) -> String {
        let choice = depth > 4 ? source.int(0...5) : source.int(0...15)
        switch choice {
        case 0: return source.pick(["#000", "#fff", "#0969da", "#1f2328cc", "#ffffff00", "#abcdef"])
        case 1: return "rgb(\(source.int(0...255)) \(source.int(0...255)) \(source.int(0...255))" + (source.bool() ? " / \(source.int(0...100))%)" : ")")
        case 2: return "hsl(\(source.int(0...360))deg \(source.int(0...100))% \(source.int(0...100))%)"
        case 3: return "oklch(\(source.int(0...100))% 0.\(source.int(0...40)) \(source.int(0...360)))"
        case 4: return source.pick(["red", "transparent", "currentColor", "canvas", "CanvasText", "white", "black", "inherit", "initial"])
        case 5: return "var(\(name()))"
        case 6, 7: return "var(\(name()), \(color(depth + 1)))"
        case 8: return "light-dark(\(color(depth + 1)), \(color(depth + 1)))"
        case 9: return "color-mix(in \(source.pick(["srgb", "oklch", "oklab", "hsl"])), \(color(depth + 1)) \(source.int(0...100))%, \(color(depth + 1)))"
        case 10: return "rgb(from \(color(depth + 1)) r g b / \(source.int(0...100))%)"
        case 11: return "oklch(from var(\(name())) calc(l - 0.1) c h)"
        case 12: return source.pick(["16px", "1.5", "\"Inter\", sans-serif", "none", "0 1px 2px #0003", "linear-gradient(#fff, #000)"])
        case 13: return source.raw()
        case 14:
            // A var() chain: each the fallback of the one before.
            let length = source.count(small: 4, large: 300)
            return String(repeating: "var(\(name()), ", count: length) + color(depth + 1) + String(repeating: ")", count: length)
        default: return color(depth + 1) + " !important"
        }
    }

    mutating func declarations(_ depth: Int) -> String {
        var out = ""
        let count = source.count(small: 6, large: 400)
        for _ in 0..<count where !full {
            let declaration: String
            switch source.int(0...9) {
            case 0: declaration = "color-scheme: " + source.pick(["light dark", "dark", "light", "only light", "normal"])
            case 1: declaration = source.pick(["color", "background-color", "background", "border-color"]) + ": " + color(depth)
            case 2 where depth < 6: declaration = rule(depth + 1)  // nested
            default: declaration = name() + ": " + color(0)
            }
            out += declaration + (source.bool() ? ";" : ";\n")
            written += declaration.utf8.count
        }
        return out
    }

    mutating func selector() -> String {
        let theme = source.pick(["dark", "light", "dimmed", "high-contrast", "brand"])
        let one: String
        switch source.int(0...13) {
        case 0, 1: one = ":root"
        case 2: one = "html"
        case 3: one = "[data-theme=\"\(theme)\"]"
        case 4: one = ":root[data-theme='\(theme)']"
        case 5: one = ".\(theme)"
        case 6: one = "html.\(theme)"
        case 7: one = ":root:not(.\(theme))"
        case 8: one = "[data-color-mode=\"\(theme)\"] [data-\(theme)-theme]"
        case 9: one = ".card .\(theme)"
        case 10: one = "&"
        case 11: one = "body"
        case 12:
            // A long selector list.
            let length = source.count(small: 3, large: 500)
            one = (0..<length).map { ".c\($0) .d\($0)" }.joined(separator: ", ")
        default: one = source.raw()
        }
        return source.bool() ? one : one + ", " + source.pick([":root", ".dark", "[data-theme=dark]", ":host"])
    }

    mutating func media() -> String {
        switch source.int(0...6) {
        case 0, 1: return "(prefers-color-scheme: \(source.pick(["dark", "light"])))"
        case 2: return "(prefers-contrast: \(source.pick(["more", "less", "custom"])))"
        case 3: return "screen and (min-width: \(source.int(0...2000))px)"
        case 4: return "not print and (prefers-color-scheme: dark)"
        case 5:
            let length = source.count(small: 2, large: 500)
            return (0..<length).map { "(min-width: \($0)px)" }.joined(separator: " and ")
        default: return source.raw()
        }
    }

    mutating func rule(_ depth: Int) -> String {
        switch depth > 6 ? 0 : source.int(0...12) {
        case 0...4: return selector() + " {" + declarations(depth) + "}"
        case 5, 6: return "@media " + media() + " {" + rules(depth + 1) + "}"
        case 7: return "@layer " + source.pick(["base", "theme", "components", "base.tokens", ""]) + " {" + rules(depth + 1) + "}"
        case 8: return "@container " + source.pick(["card ", "", "sidebar "]) + "(min-width: \(source.int(0...900))px) {" + rules(depth + 1) + "}"
        case 9: return "@supports (color: " + source.pick(["oklch(0 0 0)", "color-mix(in srgb, red, blue)", "light-dark(red, blue)"]) + ") {" + rules(depth + 1) + "}"
        case 10: return "@layer " + source.pick(["base, theme", "a, b, c", "reset"]) + ";"
        case 11: return "@theme {" + declarations(depth) + "}"
        default:
            // One rule, repeated: 150 selectors × 150 declarations and the like.
            let body = rule(depth + 1)
            let times = source.count(small: 4, large: 150)
            written += body.utf8.count * times
            return full ? body : String(repeating: body + "\n", count: times)
        }
    }

    mutating func rules(_ depth: Int) -> String {
        var out = ""
        let count = 1 + source.count(small: 5, large: 150)
        for _ in 0..<count where !full && !source.isEmpty {
            let r = rule(depth)
            written += r.utf8.count
            out += r + "\n"
        }
        return out
    }

    mutating func imports(_ files: inout BoundedAudit.Files) -> String {
        var out = ""
        let count = source.int(0...3)
        for i in 0..<count {
            let file = source.pick(["base.css", "dark.css", "parts/tokens.css", "theme.css", "../outside.css", "missing.css"])
            let media = source.pick(["", " (prefers-color-scheme: dark)", " layer(base)", " layer(theme) supports(color: red)", " screen"])
            out += "@import " + (source.bool() ? "\"\(file)\"" : "url(\(file))") + media + ";\n"
            if i == 0, file != "theme.css", !file.hasPrefix("../"), file != "missing.css", files.bytes(of: file) == nil {
                var inner = rules(1)
                if source.bool() { inner = "@import \"theme.css\";\n" + inner }  // a cycle
                files.add(file, inner)
            }
        }
        return out
    }

    mutating func checks() -> String {
        var checks: [String] = []
        let count = source.int(0...4)
        for i in 0..<count {
            let foreground = source.bool() ? name() : source.pick(["--fg*", "--text*", "--c*", "*"])
            let background = source.bool() ? name() : source.pick(["--bg*", "--surface*", "--c*", "*"])
            var check = "{\"id\":\"c\(i)\(String(repeating: "i", count: source.count(small: 0, large: 500)))\",\"foreground\":\"\(foreground)\",\"background\":\"\(background)\""
            if source.bool() { check += ",\"description\":\"" + String(repeating: "why ", count: source.count(small: 2, large: 2_000)) + "\"" }
            if source.bool() { check += ",\"usage\":\"" + source.pick(["text", "large-text", "ui", "decorative"]) + "\"" }
            checks.append(check + "}")
        }
        return "{\"checks\":[" + checks.joined(separator: ",") + "]}"
    }

    /// The whole input: the stylesheet named, what it imports, its checks.
    mutating func files() -> BoundedAudit.Files {
        var files = BoundedAudit.Files(entry: "theme.css")
        let head = imports(&files)
        let body = rules(0)
        files.add("theme.css", head + body)
        files.add("theme.checks.json", checks())
        return files
    }
}

@main
enum FuzzStylesheet: FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        var maker = StylesheetMaker(bytes)
        BoundedAudit.run(maker.files(), mediaType: "text/css")
    }
}
