// The token readers, the audit and its renderings under libFuzzer, structure-aware: each input
// is a sequence of choices (FuzzSupport's ByteSource) that builds a token document: DTCG groups
// and tokens with aliases (`{a.b}`), `$ref`s (into the document and into another file), group
// `$extends`, `$deprecated` notes; a DTCG resolver with sets, modifiers and their contexts;
// Tokens Studio sets and `$themes` (in one file or a folder); Figma's modes (plugin export and
// REST API) and Material Theme Builder's schemes; long names and many copies; with a checks
// sidecar. BoundedAudit reads and audits it as `contrast audit` and `POST /v1/tokens` do and
// fails when what is built is not bounded by the input. Built as fuzz-color is (see
// FuzzColor.swift).
import FuzzSupport

/// A JSON value as the maker writes it (members in order, repeated keys allowed).
indirect enum J {
    case object([(String, J)])
    case array([J])
    case string(String)
    case number(Int)
    case bool(Bool)
    /// Text written as it is (a fragment of the input: JSON or not).
    case raw(String)

    /// Appends the JSON text to `out` (bytes: a String's scalars appended one by one are
    /// copied on every append in a debug build, which made a 4 MB document take minutes).
    func write(into out: inout [UInt8]) {
        switch self {
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                J.string(key).write(into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (i, value) in values.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .string(let s):
            out.append(UInt8(ascii: "\""))
            for byte in s.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
                case 0..<0x20: out += Array("\\u00".utf8) + Array(String(byte >> 4, radix: 16).utf8) + Array(String(byte & 15, radix: 16).utf8)
                default: out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        case .number(let n): out += Array(String(n).utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .raw(let text): out += Array((text.isEmpty ? "null" : text).utf8)
        }
    }

    var text: String {
        var out: [UInt8] = []
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

struct TokenMaker {
    var source: ByteSource
    /// The dotted paths of the tokens made so far (what aliases and checks name).
    var paths: [String] = []
    /// Members made so far: the document stops growing past ``limit``.
    var made = 0
    let limit = 2_000

    init(_ bytes: UnsafeRawBufferPointer) {
        source = ByteSource(bytes)
    }

    var full: Bool { made > limit }

    mutating func key(_ base: [String]) -> String {
        var name = source.pick(base)
        let long = source.count(small: 0, large: 1_000)
        if long > 0 { name += String(repeating: source.pick(["x", "-", "é", " "]), count: long) }
        return name
    }

    mutating func alias() -> String {
        paths.isEmpty ? "{missing.token}" : "{" + source.pick(paths) + "}"
    }

    mutating func colorValue(_ depth: Int = 0) -> J {
        switch source.int(0...11) {
        case 0, 1: return .string(source.pick(["#000000", "#ffffff", "#0969da", "#1f2328cc", "#fff", "rgba(0, 0, 0, 0.5)", "oklch(60% 0.1 250)"]))
        case 2, 3: return .string(alias())
        case 4: return .object([("colorSpace", .string(source.pick(["srgb", "display-p3", "oklch", "hsl"]))),
                                ("components", .array([.number(source.int(0...1)), .raw("0.\(source.int(0...99))"), .number(0)])),
                                ("alpha", .raw(source.pick(["1", "0.5", "0"])))])
        case 5: return .object([("$ref", .string(source.pick(["#/base/c0", "#/base", "other.json#/core/c0", "#/", "#/x/y/z"])))])
        case 6: return .string("color-mix(in srgb, \(alias()) \(source.int(0...100))%, \(alias()))")
        case 7: return .number(source.int(0...16))
        case 8: return .string(source.pick(["transparent", "red", "currentColor", "16px", "{}", "{a.}", "{.}", "$c0"]))
        case 9 where depth < 3: return .array([colorValue(depth + 1), colorValue(depth + 1)])
        case 10: return .raw(source.raw())
        default: return .string(alias() + source.raw(limit: 8))
        }
    }

    /// A DTCG token.
    mutating func token(_ path: String, styleDictionary: Bool = false) -> J {
        paths.append(path)
        made += 1
        var members: [(String, J)] = [(styleDictionary ? "value" : "$value", colorValue())]
        if source.int(0...3) > 0 { members.append((styleDictionary ? "type" : "$type", .string(source.pick(["color", "color", "dimension", "colour"])))) }
        switch source.int(0...9) {
        case 0: members.append(("$deprecated", .string(String(repeating: "why ", count: source.count(small: 3, large: 3_000)))))
        case 1: members.append(("$description", .string(String(repeating: "d", count: source.count(small: 10, large: 2_000)))))
        case 2: members.append(("$extensions", .object([("mode", .object([("dark", colorValue()), ("light", colorValue())]))])))
        case 3: members.append(("$deprecated", .bool(true)))
        default: break
        }
        return .object(members)
    }

    /// A DTCG group of tokens and groups.
    mutating func group(_ path: String, depth: Int, styleDictionary: Bool = false) -> J {
        var members: [(String, J)] = []
        if source.int(0...5) == 0 { members.append(("$type", .string("color"))) }
        if depth > 0, source.int(0...5) == 0, !paths.isEmpty {
            let target = source.pick(paths).split(separator: ".").dropLast().joined(separator: ".")
            members.append(("$extends", .string("{" + (target.isEmpty ? "base" : target) + "}")))
        }
        let count = 1 + source.count(small: 5, large: 400)
        let names = ["c", "bg", "fg", "text", "surface", "accent", "on-accent", "border", "base", "core"]
        for i in 0..<count where !full {
            let name = key(names) + (source.bool() ? "\(i)" : "")
            let child = path.isEmpty ? name : path + "." + name
            let value: J
            switch depth > 5 ? 0 : source.int(0...6) {
            case 0...3: value = token(child, styleDictionary: styleDictionary)
            case 4: value = .object([("$ref", .string(source.pick(["#/base", "#/core", "other.json#/core", "#/" + path.split(separator: ".").joined(separator: "/")])))])
            case 5 where !full:
                // One group, copied: a bomb of copies, named apart.
                let before = made
                let inner = group(child, depth: depth + 1, styleDictionary: styleDictionary)
                let size = max(1, made - before)
                let copies = source.count(small: 2, large: 150)
                for c in 0..<copies where made < limit {
                    members.append((name + "copy\(c)", inner))
                    made += size
                }
                value = inner
            default: value = group(child, depth: depth + 1, styleDictionary: styleDictionary)
            }
            members.append((name, value))
        }
        return .object(members)
    }

    mutating func checks() -> String {
        var checks: [J] = []
        for i in 0..<source.int(0...4) {
            var check: [(String, J)] = [("id", .string("c\(i)" + String(repeating: "i", count: source.count(small: 0, large: 500))))]
            check.append(("foreground", .string(source.bool() && !paths.isEmpty ? source.pick(paths) : source.pick(["text*", "fg*", "*", "on-*", "core.*"]))))
            check.append(("background", .string(source.bool() && !paths.isEmpty ? source.pick(paths) : source.pick(["bg*", "surface*", "*", "base.*"]))))
            if source.bool() { check.append(("description", .string(String(repeating: "why ", count: source.count(small: 2, large: 2_000))))) }
            checks.append(.object(check))
        }
        return J.object([("checks", .array(checks))]).text
    }

    mutating func modeNames() -> [String] {
        let count = 1 + source.count(small: 3, large: 150)
        return (0..<count).map { "mode\($0)" + String(repeating: "m", count: $0 == 0 ? source.count(small: 0, large: 500) : 0) }
    }

    /// A resolver document: sets (inline sources, `$ref`s to the sets file or to each other),
    /// modifiers with contexts, and a resolution order.
    mutating func resolver(_ files: inout BoundedAudit.Files) {
        var sets: [(String, J)] = []
        let setCount = 1 + source.count(small: 3, large: 100)
        var setNames: [String] = []
        for s in 0..<setCount where !full {
            let name = key(["core", "brand", "light", "dark", "s"]) + "\(s)"
            setNames.append(name)
            var sources: [J] = []
            for _ in 0..<(1 + source.int(0...2)) {
                switch source.int(0...3) {
                case 0: sources.append(.object([("$ref", .string("base.json"))]))
                case 1 where s > 0: sources.append(.object([("$ref", .string("#/sets/" + source.pick(setNames)))]))
                default: sources.append(group("", depth: 1))
                }
            }
            sets.append((name, .object([("sources", .array(sources))])))
        }
        var modifiers: [(String, J)] = []
        for m in 0..<source.count(small: 2, large: 32) where !full {
            var contexts: [(String, J)] = []
            for c in 0..<(1 + source.count(small: 2, large: 100)) where !full {
                contexts.append(((c == 0 ? "light" : "dark\(c)") + String(repeating: "c", count: source.count(small: 0, large: 500)),
                                 .array([source.bool() ? group("", depth: 2) : .object([("$ref", .string("#/sets/" + source.pick(setNames)))])])))
            }
            var modifier: [(String, J)] = [("contexts", .object(contexts))]
            if source.bool() { modifier.append(("default", .string("light"))) }
            modifiers.append(("m\(m)", .object(modifier)))
        }
        var order: [J] = []
        for name in setNames where source.int(0...3) > 0 { order.append(.object([("$ref", .string("#/sets/" + name))])) }
        for (name, _) in modifiers { order.append(.object([("$ref", .string("#/modifiers/" + name))])) }
        if source.bool() { order.append(.object([("$ref", .string("#/sets/nowhere"))])) }
        files.add("tokens.resolver.json", J.object([("version", .string("2025.10")), ("sets", .object(sets)),
                                                     ("modifiers", .object(modifiers)), ("resolutionOrder", .array(order))]).text)
        files.add("base.json", group("", depth: 1).text)
        files.add("tokens.resolver.checks.json", checks())
        files.entry = "tokens.resolver.json"
    }

    /// Tokens Studio: sets and `$themes` (that may name sets that are not there), in one file
    /// or as a folder of set files with `$themes.json` and `$metadata.json`.
    mutating func tokensStudio(_ files: inout BoundedAudit.Files) {
        var sets: [(String, J)] = []
        for s in 0..<(1 + source.count(small: 3, large: 150)) where !full {
            sets.append((key(["core", "global", "light", "dark", "brand/a"]) + "\(s)", group("", depth: 1, styleDictionary: true)))
        }
        var themes: [J] = []
        for t in 0..<(1 + source.count(small: 3, large: 1_100)) where made < limit {
            made += 1
            var selected: [(String, J)] = []
            for (name, _) in sets where source.int(0...2) > 0 { selected.append((name, .string(source.pick(["enabled", "source", "disabled"])))) }
            made += selected.count
            if source.int(0...5) == 0 { selected.append(("gone" + String(repeating: "g", count: source.count(small: 1, large: 500)), .string("enabled"))) }
            var theme: [(String, J)] = [("id", .string("t\(t)")), ("name", .string(key(["Light", "Dark", "High contrast"]) + "\(t)")),
                                        ("selectedTokenSets", .object(selected))]
            if source.bool() { theme.append(("group", .string(source.pick(["Mode", "Brand", "Contrast"])))) }
            themes.append(.object(theme))
        }
        let order = J.array(sets.map { .string($0.0) })
        if source.bool() {
            files.add("tokens.json", J.object(sets + [("$themes", .array(themes)), ("$metadata", .object([("tokenSetOrder", order)]))]).text)
            files.add("tokens.checks.json", checks())
        } else {
            files.entry = "studio"
            for (name, value) in sets { files.add("studio/" + name + ".json", value.text) }
            files.add("studio/$themes.json", J.array(themes).text)
            files.add("studio/$metadata.json", J.object([("tokenSetOrder", order)]).text)
            files.add("studio/contrast.checks.json", checks())
        }
    }

    /// Figma variables: a plugin export (collections of modes), or the REST API's response.
    mutating func figma(_ files: inout BoundedAudit.Files) {
        let modes = modeNames()
        var names: [String] = []
        for v in 0..<(1 + source.count(small: 6, large: 500)) where made < limit {
            made += modes.count
            names.append(key(["bg/page", "text/primary", "fg", "surface/raised", "accent"]) + "\(v)")
        }
        func rgb(_ maker: inout TokenMaker) -> J {
            .object([("r", .raw("0.\(maker.source.int(0...99))")), ("g", .raw("0.\(maker.source.int(0...99))")), ("b", .number(maker.source.int(0...1))), ("a", .number(1))])
        }
        if source.bool() {
            var variables: [J] = []
            for name in names {
                var values: [(String, J)] = []
                for mode in modes {
                    values.append((mode, source.int(0...4) == 0 && !names.isEmpty ? .object([("type", .string("VARIABLE_ALIAS")), ("id", .string(source.pick(names)))]) : rgb(&self)))
                }
                variables.append(.object([("name", .string(name)), ("type", .string("COLOR")), ("valuesByMode", .object(values))]))
            }
            let collection = J.object([("name", .string(key(["Colors", "Theme"]))), ("modes", .array(modes.map { .object([("name", .string($0)), ("modeId", .string($0))]) })),
                                       ("variables", .array(variables))])
            files.add("figma.json", J.object([("collections", .array([collection]))]).text)
        } else {
            var variables: [(String, J)] = []
            for (i, name) in names.enumerated() {
                var values: [(String, J)] = []
                for mode in modes where source.int(0...5) > 0 {
                    values.append((mode, source.int(0...4) == 0 ? .object([("type", .string("VARIABLE_ALIAS")), ("id", .string("v:\(source.int(0...names.count))"))]) : rgb(&self)))
                }
                variables.append(("v:\(i)", .object([("name", .string(name)), ("resolvedType", .string("COLOR")), ("variableCollectionId", .string(source.pick(["c:1", "c:2", "c:lib"]))),
                                                     ("valuesByMode", .object(values))])))
            }
            let modeList = J.array(modes.map { .object([("modeId", .string($0)), ("name", .string($0))]) })
            let collections = J.object([("c:1", .object([("name", .string("Local")), ("modes", modeList), ("defaultModeId", .string(modes[0]))])),
                                        ("c:lib", .object([("name", .string("Library")), ("modes", modeList), ("defaultModeId", .string(modes[modes.count - 1])), ("remote", .bool(true))]))])
            files.add("figma.json", J.object([("meta", .object([("variableCollections", collections), ("variables", .object(variables))]))]).text)
        }
        files.entry = "figma.json"
        files.add("figma.checks.json", checks())
    }

    /// Material Theme Builder: schemes, and custom colors that give every scheme roles.
    mutating func material(_ files: inout BoundedAudit.Files) {
        let count = 1 + source.count(small: 3, large: 1_100)
        let schemes = (0..<count).map { (($0 % 2 == 0 ? "light" : "dark") + "-v\($0)") }
        let roles = J.object([("color", .string("#6750a4")), ("onColor", .string("#ffffff")), ("colorContainer", .string("#eaddff")), ("onColorContainer", .string("#21005d"))])
        var schemeMembers: [(String, J)] = []
        for scheme in schemes {
            schemeMembers.append((scheme, .object([("primary", colorValue()), ("onPrimary", .string("#ffffff")), ("surface", .string(source.pick(["#fffbfe", "#1c1b1f"]))),
                                                   ("onSurface", .string("#1c1b1f"))])))
        }
        var customs: [J] = []
        for c in 0..<source.count(small: 2, large: 32) where (c + 1) * schemes.count <= limit {
            customs.append(.object(schemes.map { ($0, roles) } + [("name", .string("custom\(c)"))]))
        }
        files.entry = "material.json"
        files.add("material.json", J.object([("seed", .string("#6750a4")), ("coreColors", .object([("primary", .string("#6750a4"))])),
                                             ("schemes", .object(schemeMembers)), ("extendedColors", .array(customs))]).text)
        files.add("material.checks.json", checks())
    }

    /// The whole input: one of the documents, with the files it names and its checks.
    mutating func files() -> BoundedAudit.Files {
        var files = BoundedAudit.Files(entry: "tokens.json")
        switch source.int(0...7) {
        case 0, 1, 2:
            var members: [(String, J)] = [("base", group("base", depth: 1))]
            if case .object(let more) = group("", depth: 0) { members += more }
            files.add("tokens.json", J.object(members).text)
            files.add("other.json", J.object([("core", group("core", depth: 1))]).text)
            files.add("tokens.checks.json", checks())
        case 3: resolver(&files)
        case 4: tokensStudio(&files)
        case 5: figma(&files)
        case 6: material(&files)
        default:
            // Style Dictionary, or a document of raw fragments.
            files.add("tokens.json", source.bool() ? group("", depth: 0, styleDictionary: true).text : "{" + source.raw(limit: 200) + "}")
            files.add("tokens.checks.json", checks())
        }
        return files
    }
}

@main
enum FuzzTokens: FuzzTarget {
    static func fuzz(_ bytes: UnsafeRawBufferPointer) {
        var maker = TokenMaker(bytes)
        BoundedAudit.run(maker.files())
    }
}
