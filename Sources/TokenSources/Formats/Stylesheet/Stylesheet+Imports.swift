import ColorScience

/// Where a stylesheet's `@import`s are read from: the reader every file of the read goes through,
/// and the directory imports may not lead out of.
struct ImportSource: Sendable {
    var reader: DocumentReader
    /// The directory the read started from: the one named (`contrast audit dir`), or the
    /// stylesheet's own when it was named alone. An import is followed only to a file inside it.
    var root: String

    /// Reads `path`, which is inside ``root``: through a file system confined to the root when
    /// the reader has one (so a link that leads out is refused on the descriptor opened too),
    /// and never outside the reader's own root.
    func read(_ path: String) -> Result<[UInt8], PaletteProblem> {
        guard let fileSystem = reader.fileSystem else { return reader.read(path) }
        let confined = fileSystem.narrowed(to: root)
        if let outer = fileSystem.root, let inner = confined.root, !FileSystem.isInside(inner, outer) {
            return .failure(PaletteProblem(.unreadableFile, "it is outside the palettes directory: not read", file: path))
        }
        return confined.read(path)
    }
}

/// `@import` (CSS Cascade 5, §3): the stylesheets a stylesheet imports are read before it, in
/// the order they are imported, as if their rules stood where the `@import` is; each file once.
///
/// An import is followed when it names a file (`@import "tokens.css";`, `@import url(x.css)
/// layer(base);`) inside the directory the read started from, and comes before every rule
/// (browsers ignore one that does not). Its media query (`@import "dark.css" (prefers-color-scheme:
/// dark);`) applies to the imported rules; `layer()` and `supports()` are transparent, as
/// `@layer` and `@supports` are. A URL with a scheme, a path from a site's root, a file outside
/// the directory or missing, a cycle, imports nested deeper than ``maximumImportDepth`` or more
/// than ``maximumImportedFiles`` files: not read, each a warning at its `@import`.
extension StylesheetReader {
    /// One stylesheet of the read: the one named, or one it imports.
    struct Sheet {
        var file: String?
        var bytes: [UInt8]
        var lineStarts: [Int]
        var tokens: [CSSToken]
        /// The media queries of the `@import`s that brought it, outermost first, as written.
        var media: [String]
        /// The cascade layer an `@import … layer(name)` put it in ("" for `layer` unnamed).
        var layer: String? = nil
    }

    /// The deepest imports are followed (a stylesheet importing one that imports one…).
    static let maximumImportDepth = 16
    /// The most stylesheets one read imports.
    static let maximumImportedFiles = 256

    /// `bytes` tokenized as a stylesheet of the read; nil when the budget stops the read.
    mutating func makeSheet(file: String?, bytes: [UInt8], media: [String]) -> Sheet? {
        var sheet = Sheet(file: file, bytes: bytes, lineStarts: Self.lineStarts(of: bytes), tokens: [], media: media)
        enter(sheet)
        sheet.tokens = tokenize()
        // Tokenizing is linear; its steps are taken at once, so a request past its deadline
        // stops here.
        guard spend(sheet.tokens.count, bytes: 0, on: "the stylesheet's tokens", at: 0), flushSteps(on: "the stylesheet's tokens", at: 0) else { return nil }
        return sheet
    }

    /// Appends the stylesheets `sheet` imports (each followed by the ones it imports, first),
    /// then `sheet` itself. `chain` is the files from the palette's own to `sheet`.
    mutating func collectImports(of sheet: Sheet, chain: [String], visited: inout Set<String>, into sheets: inout [Sheet]) {
        enter(sheet)
        for statement in importStatements(layer: sheet.layer) {
            guard !stopped else { return }
            enter(sheet)
            guard let target = importTarget(statement, chain: chain, visited: visited, imported: visited.count - 1) else { continue }
            visited.insert(target)
            let bytes: [UInt8]
            switch imports.map({ $0.read(target) }) ?? DocumentReader.none.read(target) {
            case .failure(let problem):
                // `@import "tailwindcss"` names a package, which a build tool finds elsewhere.
                let package = problem.message == "no such file or directory" && !statement.url.hasPrefix(".")
                warn(statement, "\(problem.message) (\(target))" + (package ? "; if it names a package, a build tool resolves that, not this tool" : ""))
                continue
            case .success(let read): bytes = read
            }
            // Reading a file is spent: a byte a step.
            guard spend(bytes.count, on: "the imported stylesheet \(statement.url)", at: statement.offset) else { return }
            guard var imported = makeSheet(file: target, bytes: bytes, media: sheet.media + (statement.media.isEmpty ? [] : [statement.media])) else { return }
            // A layer of an import inside a layered import is a layer inside that one.
            imported.layer = statement.layer.map { inner in sheet.layer.map { $0 + "." + inner } ?? inner } ?? sheet.layer
            collectImports(of: imported, chain: chain + [target], visited: &visited, into: &sheets)
        }
        sheets.append(sheet)
    }

    /// One `@import` statement: the URL it names, its media query, and whether it comes after
    /// other rules.
    struct ImportStatement {
        var url: String
        var media: String
        var offset: Int
        var afterRules: Bool
        /// `layer(name)` ("" for `layer` alone); nil when the import names no layer.
        var layer: String? = nil
    }

    /// The `@import` statements at the top level of the stylesheet being read, in order.
    /// `@layer a, b;` statements before the first rule name their layers here, in order, before
    /// the imported stylesheets are read: they come first in the cascade (`layer`: the layer an
    /// import put this stylesheet in).
    mutating func importStatements(layer sheetLayer: String? = nil) -> [ImportStatement] {
        var statements: [ImportStatement] = []
        var depth = 0, afterRules = false
        var i = 0
        while i < tokens.count, !stopped {
            let t = tokens[i]
            switch t.kind {
            case .leftBrace:
                // A style rule or an at-rule with a block: imports after it are ignored.
                if depth == 0 { afterRules = true }
                depth += 1
            case .rightBrace:
                depth = max(0, depth - 1)
            case .atKeyword where depth == 0 && !afterRules && text(t.offset + 1..<t.end).lowercased() == "layer":
                index = i + 1
                let range = prelude()
                if current?.kind == .semicolon {
                    for name in text(range).split(separator: ",") { registerLayer(parent: sheetLayer.map { layerPath(nil, name: $0) }, name: String(name)) }
                }
                i = max(index, i + 1)
                continue
            case .atKeyword where depth == 0 && text(t.offset + 1..<t.end).lowercased() == "import":
                index = i + 1
                let range = prelude()
                guard spend(1 + range.count, on: "an @import", at: t.offset) else { return statements }
                if let (url, media, layer) = Self.importPrelude(text(range)) {
                    statements.append(ImportStatement(url: url, media: media, offset: t.offset, afterRules: afterRules, layer: layer))
                } else {
                    problems.append(PaletteProblem(.unreadableFile, "@import \(Self.collapse(text(range)).prefix(60)) names no stylesheet (a string or url()); not read",
                                                   file: file, location: location(t.offset), severity: .warning))
                }
                i = max(index, i + 1)
                continue
            default:
                break
            }
            i += 1
        }
        return statements
    }

    /// The URL an `@import` prelude names, and its media query (what is left once the URL,
    /// `layer`, `layer(…)` and `supports(…)` are taken off); nil when it names none.
    static func importPrelude(_ prelude: String) -> (url: String, media: String, layer: String?)? {
        var rest = Substring(prelude.cssTrimmed)
        var url: String
        if let quote = rest.first, quote == "\"" || quote == "'" {
            guard let end = rest.dropFirst().firstIndex(of: quote) else { return nil }
            url = String(rest[rest.index(after: rest.startIndex)..<end])
            rest = rest[rest.index(after: end)...]
        } else if rest.lowercased().hasPrefix("url(") {
            guard let end = rest.firstIndex(of: ")") else { return nil }
            url = String(rest[rest.index(rest.startIndex, offsetBy: 4)..<end]).cssTrimmed
            if let quote = url.first, quote == "\"" || quote == "'", url.count >= 2, url.last == quote { url = String(url.dropFirst().dropLast()) }
            rest = rest[rest.index(after: end)...]
        } else {
            return nil
        }
        // `layer`, `layer(name)` and `supports(condition)` do not make a theme; a layer orders
        // the imported declarations in the cascade.
        var layer: String?
        while true {
            rest = Substring(rest.cssTrimmed)
            let lowered = rest.lowercased()
            if lowered.hasPrefix("layer(") || lowered.hasPrefix("supports(") {
                let open = rest.firstIndex(of: "(") ?? rest.startIndex
                let end = endOfPseudoClass(rest, from: open)
                if lowered.hasPrefix("layer(") {
                    let inner = rest[rest.index(after: open)..<end]
                    layer = collapse(String(inner.hasSuffix(")") ? inner.dropLast() : inner))
                }
                rest = rest[end...]
            } else if lowered == "layer" || lowered.hasPrefix("layer ") {
                layer = ""
                rest = rest.dropFirst(5)
            } else {
                break
            }
        }
        return (url, collapse(String(rest)), layer)
    }

    /// The file an `@import` names, when it is to be read; otherwise nil, and a warning at the
    /// `@import` says why (nothing for a file already read: each is read once, where it is
    /// first imported).
    mutating func importTarget(_ statement: ImportStatement, chain: [String], visited: Set<String>, imported: Int) -> String? {
        let url = statement.url
        guard !statement.afterRules else {
            warn(statement, "it comes after other rules, and browsers ignore an @import that does not come first")
            return nil
        }
        if let colon = url.firstIndex(of: ":"), let first = url.first, first.isLetter,
           url[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) {
            warn(statement, "a URL with a scheme (\(url[...colon])) is not fetched; only files in the directory the stylesheet was read from are read")
            return nil
        }
        if url.hasPrefix("//") || url.hasPrefix("/") {
            warn(statement, "a path from a site's root (\(url)) names no file beside the stylesheet")
            return nil
        }
        let path = String(url.prefix { $0 != "?" && $0 != "#" })
        guard !path.isEmpty else {
            warn(statement, "it names no file")
            return nil
        }
        guard let file, let imports else {
            warn(statement, "a stylesheet sent on its own cannot import other files; audit the folder with the CLI, or put the imported rules in the stylesheet")
            return nil
        }
        let target = SourcePath.join(file, path)
        guard SourcePath.isInside(target, imports.root) else {
            warn(statement, "it leads outside \(imports.root), the directory the stylesheet was read from (audit a directory that holds both to follow it)")
            return nil
        }
        if let start = chain.firstIndex(of: target) {
            let cycle = (chain[start...] + [target]).map { relative($0) }.joined(separator: " → ")
            warn(statement, "it closes a cycle of imports (\(cycle)); each stylesheet is read once", code: .refCycle)
            return nil
        }
        if visited.contains(target) { return nil }
        guard chain.count <= Self.maximumImportDepth else {
            warn(statement, "imports nest more than \(Self.maximumImportDepth) deep here", code: .limitExceeded)
            return nil
        }
        guard imported < Self.maximumImportedFiles else {
            warn(statement, "the read already imports \(Self.maximumImportedFiles) stylesheets, the most one read takes", code: .limitExceeded)
            return nil
        }
        return target
    }

    /// A path as the messages show it: from the directory the read started from.
    func relative(_ path: String) -> String {
        guard let root = imports?.root, path.hasPrefix(root + "/") else { return path }
        return String(path.dropFirst(root.count + 1))
    }

    /// A warning at an `@import` of the stylesheet being read: it is not read, and why.
    mutating func warn(_ statement: ImportStatement, _ reason: String, code: PaletteProblem.Code = .unreadableFile) {
        problems.append(PaletteProblem(code, "@import \"\(statement.url)\" is not read: \(reason)", file: file, location: location(statement.offset), severity: .warning))
    }
}
