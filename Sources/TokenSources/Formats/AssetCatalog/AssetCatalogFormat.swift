import Foundation

/// An Xcode asset catalog (`*.xcassets`): its color sets (see `Formats/AssetCatalog.swift`).
struct AssetCatalogFormat: FolderSourceFormat {
    let identity = FormatIdentity(id: "xcode-asset-catalog", displayName: "Xcode asset catalog", summary: "an Xcode asset catalog (.xcassets)",
                                  suffixes: [".xcassets"], mediaTypes: [])

    func roots(among files: [String], fileSystem: FileSystem) -> [String] {
        Array(Set(files.compactMap { file -> String? in
            guard let range = file.range(of: ".xcassets/") else { return nil }
            return String(file[..<range.lowerBound]) + ".xcassets"
        })).sorted()
    }

    func claims(folder path: String, fileSystem: FileSystem) -> Bool {
        FileSystem.trimmed(path).hasSuffix(".xcassets")
    }

    func owns(_ file: String, root: String) -> Bool {
        file.hasPrefix(root + "/") || file == PaletteLoader.sidecar(ofCatalog: root)
    }

    func read(folder: String, files: [String], loader: PaletteLoader) -> LoadedPalette {
        loader.loadCatalog(folder)
    }
}
