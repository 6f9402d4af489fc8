/// An Android module's `res/` folder: the `<color>` resources of its `values*/` files (see
/// `Formats/AndroidResources.swift`).
struct AndroidResourcesFormat: FolderSourceFormat {
    let identity = FormatIdentity(id: "android-resources", displayName: "Android color resources", summary: "an Android res/ folder (values*/*.xml)",
                                  suffixes: ["/res"], mediaTypes: [])

    func roots(among files: [String], fileSystem: FileSystem) -> [String] {
        Array(Set(files.compactMap { file -> String? in
            let parts = file.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 3, file.hasSuffix(".xml"), parts[parts.count - 2].hasPrefix("values") else { return nil }
            let resRoot = parts.dropLast(2).joined(separator: "/")
            return resRoot.hasSuffix("/res") || resRoot == "res" ? resRoot : nil
        })).sorted()
    }

    func claims(folder path: String, fileSystem: FileSystem) -> Bool {
        fileSystem.isDirectory(FileSystem.trimmed(path) + "/values")
    }

    func owns(_ file: String, root: String) -> Bool {
        file.hasPrefix(root + "/") || file == root + ".checks.json"
    }

    func read(folder: String, files: [String], loader: PaletteLoader) -> LoadedPalette {
        loader.loadAndroid(folder)
    }
}
