/// Reads the bytes of a file named by a source (a resolver's `$ref`, a Tokens Studio set). The
/// CLI and the service read from disk (``PaletteLoader``); a request body has no files.
public struct DocumentReader: Sendable {
    public let read: @Sendable (String) -> Result<[UInt8], PaletteProblem>
    /// The file system reads go through; nil for a document that came without a folder.
    public let fileSystem: FileSystem?

    public init(read: @escaping @Sendable (String) -> Result<[UInt8], PaletteProblem>) {
        self.read = read
        self.fileSystem = nil
    }

    /// Reads through `fileSystem`.
    public init(_ fileSystem: FileSystem) {
        self.read = { fileSystem.read($0) }
        self.fileSystem = fileSystem
    }

    /// The reader for the files a document names (`$ref`s, a resolver's sources, Tokens Studio's
    /// sets): kept inside `root`, the directory the read started from (the one named, when a walk
    /// found the document), or else the document's own folder, as a stylesheet's `@import`s
    /// are. A token file is often someone else's (a pull request's, in CI), and a reference in
    /// it must not make the tool read, and quote, a file the operator never named. A reader
    /// already confined (the service's) stays as it is; so does one without a file system.
    func forReferences(of file: String?, root: String?) -> DocumentReader {
        guard let fileSystem, fileSystem.root == nil, let base = root.map(FileSystem.trimmed) ?? file.map(SourcePath.folder(of:)) else { return self }
        let shown = FileSystem.resolve(base) ?? base
        return DocumentReader(fileSystem.narrowed(to: base, rootName: root == nil ? "\(shown), the folder of the file audited" : "\(shown), the directory audited",
                                                  advice: "; audit a directory that holds both, or give --root, to follow it"))
    }

    /// For documents that came without a folder (an HTTP body): other files cannot be named.
    public static let none = DocumentReader { path in
        .failure(PaletteProblem(.unreadableFile, "it is another file, and a document sent on its own cannot refer to other files; audit the folder with the CLI, or inline the set", file: path))
    }
}

/// One token tree of a set: a file, part of a file, or tokens written inline in a resolver.
struct TokenSource {
    var file: String
    var root: JSONValue
    var pointer: JSONPointer
}

/// Paths relative to the file that names them.
package enum SourcePath {
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    /// The directory of a file, without its trailing slash: "." for a file named without one.
    package static func folder(of path: String) -> String {
        let directory = directory(of: path)
        return directory.isEmpty ? "." : FileSystem.trimmed(directory)
    }

    /// Whether `path` (normalized, as ``join(_:_:)`` makes it) is inside `folder`.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        if folder == "." { return !path.hasPrefix("/") && path != ".." && !path.hasPrefix("../") }
        return path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    static func join(_ base: String, _ relative: String) -> String {
        if relative.hasPrefix("/") { return normalize(relative) }
        return normalize(directory(of: base) + relative)
    }

    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: false) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != "..", !last.isEmpty { parts.removeLast(); continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }
}

extension PaletteDecoder {
    /// The most files one set may read.
    static let maximumFilesPerSet = 10_000

    /// Reads and parses a file of the set (once), reporting a failure at `pointer` of the
    /// file that named it.
    /// `written` is the reference as the document wrote it, which messages quote (the file
    /// and line say where it was written).
    mutating func document(_ path: String, written: String? = nil, reader: DocumentReader, cache: inout [String: JSONValue?], namedAt pointer: JSONPointer, location: SourceLocation?) -> JSONValue? {
        if let cached = cache[path] { return cached }
        if cache.count >= PaletteDecoder.maximumFilesPerSet {
            problem(.limitExceeded, "the set names more than \(PaletteDecoder.maximumFilesPerSet) files; \"\(path)\" and the rest were not read", at: pointer, nil)
            cache[path] = .some(nil)
            return nil
        }
        switch reader.read(path) {
        case .failure(let failure):
            problems.append(PaletteProblem(failure.code, "\"\(written ?? path)\": \(failure.message)", file: file, pointer: pointer, location: location))
            cache[path] = .some(nil)
            return nil
        case .success(let bytes):
            do {
                let value = try JSONParser.parseTokens(bytes, file: path, warnings: &problems)
                cache[path] = value
                return value
            } catch {
                problems.append(PaletteProblem(.invalidJSON, error.message, file: path, location: error.location))
                cache[path] = .some(nil)
                return nil
            }
        }
    }

    /// Follows a JSON pointer (`/a/b/0`, the fragment after `#`) into a value.
    static func follow(_ fragment: String, in root: JSONValue) -> JSONValue? {
        var unused: [String: [String: JSONValue]] = [:]
        return follow(fragment, in: root, file: "", indexes: &unused, indexWideObjects: false)
    }

    /// ``follow(_:in:)`` for a document of the set (`file`), finding members of wide objects
    /// through an index built once per object (same results: the first member of a name).
    mutating func follow(_ fragment: String, in root: JSONValue, file: String) -> JSONValue? {
        Self.follow(fragment, in: root, file: file, indexes: &memberIndexes, indexWideObjects: true)
    }

    static func follow(_ fragment: String, in root: JSONValue, file: String, indexes: inout [String: [String: JSONValue]], indexWideObjects: Bool) -> JSONValue? {
        var value = root
        // A fragment with or without its leading `/` (read over bytes: a `/` that a combining
        // mark follows is still a `/`).
        let text = fragment.utf8.first == 0x2F ? fragment : "/" + fragment
        guard text != "/" else { return root }
        var path = file + "#"
        for segment in JSONPointer(parsing: text).segments {
            switch value {
            case .object(let members, _) where indexWideObjects && members.count > 32:
                if indexes[path] == nil {
                    _ = ReadBudget.spend(members.count, on: "an index of the object at \(path)", file: file, location: value.location)
                    indexes[path] = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
                }
                guard let next = indexes[path]?[segment] else { return nil }
                value = next
            case .object(let members, _):
                guard let next = members.first(where: { $0.key == segment })?.value else { return nil }
                value = next
            case .array(let items, _):
                guard let index = Int(segment), items.indices.contains(index) else { return nil }
                value = items[index]
            default:
                return nil
            }
            if indexWideObjects { path += "/" + JSONPointer.escaped(segment) }
        }
        return value
    }

    /// Replaces every `{"$ref": "…"}` in a token tree by what it points to (in the same file,
    /// another file of the set, or `other.json#/path`), with sibling keys as overrides.
    /// Cycles are reported with their members and left unresolved.
    ///
    /// Each target is resolved once and remembered (``resolvedReferences``), so the work grows
    /// with the document, not with what its references expand to; what is expanded later is
    /// spent from the read's budget by the readers that walk it. The nesting followed (blocks
    /// and references together) is at most ``ReadBudget/maximumDepth``; deeper stops the read
    /// with a `limit-exceeded` problem.
    mutating func resolveReferences(_ value: JSONValue, file current: String, pointer: JSONPointer, reader: DocumentReader,
                                    cache: inout [String: JSONValue?], setFiles: [String], stack: [String] = [], depth: Int = 0) -> JSONValue {
        guard value.members != nil || value.arrayCount > 0 else { return value }
        if ReadBudget.isExhausted { return value }
        if depth >= ReadBudget.maximumDepth {
            stopRead("\"$ref\" targets and groups nest more than \(ReadBudget.maximumDepth) deep here; the document is not read", at: pointer, value.location)
            return value
        }
        guard ReadBudget.spend(on: "the \"$ref\"s of a token tree", file: current, location: value.location) else { return value }
        switch value {
        case .array(let items, let location):
            guard items.contains(where: { $0.members != nil || $0.arrayCount > 0 }) else { return value }
            return .array(items.enumerated().map { resolveReferences($1, file: current, pointer: pointer.appending($0), reader: reader, cache: &cache, setFiles: setFiles, stack: stack, depth: depth + 1) }, location)
        case .object(let members, let location):
            guard let refMember = members.first(where: { $0.key == "$ref" }) else {
                return .object(members.map { member in
                    var m = member
                    m.value = resolveReferences(member.value, file: current, pointer: pointer.appending(member.key), reader: reader, cache: &cache, setFiles: setFiles, stack: stack, depth: depth + 1)
                    return m
                }, location)
            }
            guard let ref = refMember.value.stringValue else {
                problem(.wrongType, "\"$ref\" must be a string like \"#/color/blue\" or \"other.tokens.json#/color/blue\", found \(refMember.value.typeName)", at: pointer.appending("$ref"), refMember.value)
                return .object(members.filter { $0.key != "$ref" }, location)
            }
            let hash = ref.firstIndex(of: "#")
            let pathPart = String(hash.map { ref[..<$0] } ?? Substring(ref))
            let fragment = hash.map { String(ref[ref.index(after: $0)...]) } ?? ""
            var targetFile = pathPart.isEmpty ? current : SourcePath.join(current, pathPart)
            var root = pathPart.isEmpty ? cache[current] ?? nil : document(targetFile, written: pathPart, reader: reader, cache: &cache, namedAt: pointer.appending("$ref"), location: refMember.value.location)
            var target = root.flatMap { follow(fragment, in: $0, file: targetFile) }
            if target == nil && pathPart.isEmpty {
                // Under a resolver or a set, `#/…` names the merged tokens: the last file that has it.
                for other in setFiles.reversed() where other != current {
                    if let r = cache[other] ?? nil, let found = follow(fragment, in: r, file: other) {
                        target = found
                        targetFile = other
                        root = r
                        break
                    }
                }
            }
            guard let found = target else {
                if root != nil || pathPart.isEmpty {
                    problem(.unknownToken, "\"$ref\": \"\(ref)\" points to nothing: \(pathPart.isEmpty ? "this file" : "\"\(targetFile)\"") has no \"#\(fragment)\"", at: pointer.appending("$ref"), refMember.value)
                }
                return .object(members.filter { $0.key != "$ref" }, location)
            }
            let key = "\(targetFile)#\(fragment)"
            // A reference inside what it names would hold itself: the format forbids it as a
            // cycle, and following it once copies its ancestor, long names and all, into itself.
            let targetPointer = JSONPointer(parsing: fragment.utf8.first == 0x2F ? fragment : "/" + fragment)
            if stack.isEmpty && targetFile == current && pointer.segments.starts(with: targetPointer.segments) {
                problem(.refCycle, "$ref cycle: \"\(ref.excerpt())\" names \(targetPointer.segments.isEmpty ? "the whole document" : "a group") holding this reference, which would contain itself; the reference was not followed", at: pointer.appending("$ref"), refMember.value)
                return .object(members.filter { $0.key != "$ref" }, location)
            }
            if let start = stack.firstIndex(of: key) {
                let cycle = stack[start...] + [key]
                problem(.refCycle, "$ref cycle: \(cycle.joined(separator: " → ")); the reference was not followed", at: pointer.appending("$ref"), refMember.value)
                return .object(members.filter { $0.key != "$ref" }, location)
            }
            if stack.count > 64 {
                problem(.limitExceeded, "$ref chain deeper than 64 references", at: pointer.appending("$ref"), refMember.value)
                return .object(members.filter { $0.key != "$ref" }, location)
            }
            let resolved: JSONValue
            if let known = resolvedReferences[key] {
                resolved = known
            } else {
                let problemsBefore = problems.count
                resolved = resolveReferences(found, file: targetFile, pointer: JSONPointer(), reader: reader, cache: &cache, setFiles: setFiles, stack: stack + [key], depth: depth + 1)
                // Remembered, broken references included (what a reference points to does not
                // change, and its problem is reported once, here): re-resolving a broken target
                // at every naming made a 1 KB fan-out cost seconds. A target whose resolution met
                // a cycle depends on the path it was reached by, and is resolved again.
                let cyclic = problems[problemsBefore...].contains { $0.code == .refCycle }
                if !cyclic && !ReadBudget.isExhausted { resolvedReferences[key] = resolved }
            }
            let siblings = members.filter { $0.key != "$ref" }
            guard !siblings.isEmpty, case .object(var merged, let targetLocation) = resolved else { return resolved }
            // Local keys beside "$ref" override the referenced ones (shallowly, as the Resolver
            // Module says).
            for sibling in siblings {
                var local = sibling
                local.value = resolveReferences(sibling.value, file: current, pointer: pointer.appending(sibling.key), reader: reader, cache: &cache, setFiles: setFiles, stack: stack, depth: depth + 1)
                if let index = merged.firstIndex(where: { $0.key == sibling.key }) { merged[index] = local } else { merged.append(local) }
            }
            return .object(merged, targetLocation)
        default:
            return value
        }
    }

    /// The tokens of several sources merged in order: a later source's token replaces an
    /// earlier one of the same name. With `warnCollisions`, each replacement is reported (for
    /// files merged only because they share a folder, where it is likely a mistake).
    mutating func mergedTokens(_ sources: [[Token]], warnCollisions: Bool = false) -> [Token] {
        var order: [String] = []
        var byName: [String: Token] = [:]
        for tokens in sources {
            for token in tokens {
                if let previous = byName[token.name] {
                    // Two definitions that are neither a color are not audited either way: the
                    // ledger says which one is used, without a warning each.
                    if warnCollisions && previous.file != token.file && (PaletteLoader.holdsColor([previous]) || PaletteLoader.holdsColor([token])) {
                        problems.append(PaletteProblem(.overriddenToken, "token \"\(token.name)\" is also defined in \(previous.file ?? "another file")\(previous.location.map { ":\($0.line)" } ?? ""); this later definition is used. If the files are themes, describe them with a resolver document or a palette",
                                                       file: token.file, pointer: token.pointer, location: token.location, severity: .warning))
                    }
                    if warnCollisions {
                        // The merged palette has one theme: the replaced declaration is in none.
                        let by = "\(token.file ?? "the same file")\(token.location.map { ":\($0.line)" } ?? "")"
                        if let type = previous.type, type != "color" {
                            ledger.notColor(previous.name, type: "\(type), replaced by the later definition in \(by)", file: previous.file ?? file, location: previous.location)
                        } else {
                            ledger.notRead(previous.name, reason: "replaced by the later definition in \(by), which is the one audited (the definitions are merged into one theme)", file: previous.file ?? file, location: previous.location)
                        }
                    }
                } else {
                    order.append(token.name)
                }
                byName[token.name] = token
            }
        }
        return order.compactMap { byName[$0] }
    }

    /// Flattens one source (after its `$ref`s) into tokens of every type.
    mutating func flatten(_ source: TokenSource, dialect: TokenDialect) -> [Token] {
        let saved = (file, self.dialect)
        file = source.file
        self.dialect = dialect
        var tokens: [Token] = []
        var seen: Set<String> = []
        if source.root.members != nil {
            flattenTokens(source.root, prefix: "", pointer: source.pointer, into: &tokens, seen: &seen)
        } else {
            problem(.wrongType, "a token source must be an object of groups and tokens, found \(source.root.typeName)", at: source.pointer, source.root)
        }
        (file, self.dialect) = saved
        return tokens
    }
}

extension JSONValue {
    public var arrayCount: Int {
        if case .array(let items, _) = self { return items.count }
        return 0
    }
}
