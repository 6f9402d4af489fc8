import Foundation

/// Palettes made of several files: token files merged in path order, and a Tokens Studio folder.
extension PaletteLoader {
    /// Token files merged into one palette (one theme), in path order.
    func loadMerged(files: [String], name: String, directory: String, parse: (String) -> Result<JSONValue, PaletteProblem>) -> LoadedPalette {
        var decoder = PaletteDecoder()
        var lists: [[Token]] = []
        var cache: [String: JSONValue?] = [:]
        var formats: Set<String> = []
        for file in files {
            guard case .success(let document) = parse(file) else { continue }
            cache[file] = document
        }
        for file in files {
            switch parse(file) {
            case .failure(let problem):
                decoder.problems.append(problem)
            case .success(let parsed):
                let format = SourceRegistry.detect(SourceDocument(file: file, bytes: [], json: parsed))
                formats.insert(format?.displayName ?? "unknown")
                decoder.file = file
                let document = format is SpectrumTokensFormat ? SpectrumTokensFormat.withoutMetadata(parsed) : parsed
                let resolved = decoder.resolveReferences(document, file: file, pointer: JSONPointer(), reader: reader, cache: &cache, setFiles: files)
                let syntax = (format as? TokenFileFormat)?.syntax ?? .styleDictionary
                lists.append(decoder.flatten(TokenSource(file: file, root: resolved, pointer: JSONPointer()), dialect: syntax))
            }
        }
        decoder.file = nil
        decoder.dialect = .dtcg
        let merged = decoder.mergedTokens(lists, warnCollisions: true)
        var palette: Palette
        if formats == [SpectrumTokensFormat().displayName] {
            // Spectrum's files: its sets give the themes.
            decoder.dialect = .styleDictionary
            let (themes, note) = decoder.spectrumThemes(merged)
            palette = Palette(name: name, file: directory, themes: themes)
            palette.format = "\(formats.sorted().joined(separator: " + ")), \(files.count) files merged in path order" + note
        } else {
            palette = Palette(name: name, file: directory, themes: [Theme(name: "default", tokens: decoder.finishTokens(merged))])
            palette.format = "\(formats.sorted().joined(separator: " + ")), \(files.count) files merged in path order"
        }
        palette.files = files
        palette.ledger.merge(decoder.ledger)
        return LoadedPalette(file: directory, palette: palette, problems: decoder.problems)
    }

    /// A Tokens Studio folder: `$themes.json`, `$metadata.json`, one file per set.
    func loadTokensStudioFolder(root: String, files: [String]) -> LoadedPalette {
        var decoder = PaletteDecoder()
        var sets: [(name: String, file: String, root: JSONValue, pointer: JSONPointer)] = []
        var themes: JSONValue?, metadata: JSONValue?
        var themesBroken = false
        let themesFile = root + "$themes.json"
        for file in files {
            let relative = String(file.dropFirst(root.count))
            let value: JSONValue
            switch reader.read(file) {
            case .failure(let problem):
                decoder.problems.append(problem)
                continue
            case .success(let bytes):
                do { value = try JSONParser.parse(bytes) } catch {
                    decoder.problems.append(PaletteProblem(.invalidJSON, error.message, file: file, location: error.location))
                    if relative == "$themes.json" || relative == "$metadata.json" {
                        // Without its themes the folder's sets would merge into one theme, which
                        // is not what the system's build makes: the folder is not audited.
                        themesBroken = true
                    }
                    continue
                }
            }
            if relative == "$themes.json" { themes = value } else if relative == "$metadata.json" { metadata = value } else {
                sets.append((String(relative.dropLast(".json".count)), file, value, JSONPointer()))
            }
        }
        let name = String(root.dropLast().split(separator: "/").last ?? "tokens")
        if themesBroken { return LoadedPalette(file: root, palette: nil, problems: decoder.problems) }
        decoder.file = root
        var palette = decoder.tokensStudioPalette(sets: sets, themes: themes, themesFile: themesFile, metadata: metadata, name: name, reader: reader)
        palette?.ledger.merge(decoder.ledger)
        return LoadedPalette(file: root, palette: palette, problems: decoder.problems)
    }

}
