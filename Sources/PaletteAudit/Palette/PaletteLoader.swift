public import Foundation

/// A palette file read and decoded (or not).
public struct LoadedPalette: Sendable {
    public var file: String
    public var palette: Palette?
    public var problems: [PaletteProblem]
}

/// Reads palettes from disk: the one place in PaletteAudit that touches files.
public enum PaletteLoader {
    /// The largest palette file read, in bytes.
    public static let maximumFileSize = 16 << 20

    /// Reads each path: a file, or a directory whose `*.json` files (sorted, not recursive;
    /// `*.checks.json` sidecars excluded) are palettes. Unreadable paths become problems.
    public static func load(paths: [String]) -> [LoadedPalette] {
        var loaded: [LoadedPalette] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                loaded.append(LoadedPalette(file: path, palette: nil, problems: [PaletteProblem(.unreadableFile, "no such file or directory", file: path)]))
                continue
            }
            if isDirectory.boolValue {
                let names: [String]
                do {
                    names = try manager.contentsOfDirectory(atPath: path)
                } catch {
                    loaded.append(LoadedPalette(file: path, palette: nil, problems: [PaletteProblem(.unreadableFile, "cannot list the directory: \(error.localizedDescription)", file: path)]))
                    continue
                }
                let files = names.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".checks.json") && !$0.hasPrefix(".") }.sorted()
                if files.isEmpty {
                    loaded.append(LoadedPalette(file: path, palette: nil, problems: [PaletteProblem(.unreadableFile, "the directory holds no palette (*.json) files", file: path)]))
                }
                for name in files {
                    let full = path.hasSuffix("/") ? path + name : path + "/" + name
                    loaded.append(loadFile(full))
                }
            } else {
                loaded.append(loadFile(path))
            }
        }
        return loaded
    }

    /// Reads and decodes one file; a `NAME.tokens.json` picks up checks from `NAME.checks.json`.
    public static func loadFile(_ path: String) -> LoadedPalette {
        let bytes: [UInt8]
        switch read(path) {
        case .success(let b): bytes = b
        case .failure(let problem): return LoadedPalette(file: path, palette: nil, problems: [problem])
        }
        var (palette, problems) = PaletteDecoder.decode(bytes: bytes, file: path)
        if path.hasSuffix(".tokens.json"), var tokens = palette {
            let sidecar = String(path.dropLast(".tokens.json".count)) + ".checks.json"
            if FileManager.default.fileExists(atPath: sidecar) {
                switch read(sidecar) {
                case .success(let data):
                    let (checks, more) = PaletteDecoder.decodeChecksDocument(bytes: data, file: sidecar)
                    tokens.checks = checks.checks
                    tokens.badges = checks.badges
                    problems += more
                case .failure(let problem):
                    problems.append(problem)
                }
                palette = tokens
            }
        }
        return LoadedPalette(file: path, palette: palette, problems: problems)
    }

    static func read(_ path: String) -> Result<[UInt8], PaletteProblem> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(PaletteProblem(.unreadableFile, "cannot open the file for reading (check that it exists and is readable)", file: path))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
            if data.count > maximumFileSize {
                return .failure(PaletteProblem(.limitExceeded, "the file is larger than \(maximumFileSize >> 20) MiB", file: path))
            }
            return .success([UInt8](data))
        } catch {
            return .failure(PaletteProblem(.unreadableFile, "cannot read the file: \(error.localizedDescription)", file: path))
        }
    }
}

extension PaletteDecoder {
    /// A checks document (`{"checks": [...], "badges": [...]}`) for a standalone token file.
    public static func decodeChecksDocument(bytes: [UInt8], file: String?) -> (checks: (checks: [Check], badges: [Badge]), problems: [PaletteProblem]) {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            return (([], []), [PaletteProblem(.invalidJSON, error.message, file: file, location: error.location)])
        }
        var decoder = PaletteDecoder()
        decoder.setFile(file)
        let result = decoder.checksAndBadges(document)
        return (result, decoder.problemsSoFar)
    }
}
