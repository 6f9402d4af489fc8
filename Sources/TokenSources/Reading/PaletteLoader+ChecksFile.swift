extension PaletteLoader {
    /// The checks document `contrast init DIR` writes into DIR, and that an audit of DIR uses
    /// when it is given no `--checks`.
    public static let checksFileName = "contrast.checks.json"

    /// The checks document an audit of `path` uses when it is given none, as ESLint and Terrazzo
    /// find their configuration: `contrast.checks.json` in the directory named (or the folder of
    /// the file named), else in the nearest folder above it, up to the repository's root (the
    /// first folder holding `.git`), the file system's root, or the reader's confined root,
    /// whichever comes first. So `contrast init .` at a repository's root serves a pre-commit run
    /// on `tokens/brand.json`. None for a file with a `NAME.checks.json` of its own (the nearer
    /// document is its own), or when there is no such file.
    public func checksFile(beside path: String) -> String? {
        var folder: String
        switch fileSystem.kind(of: path) {
        case .success(.directory):
            folder = FileSystem.trimmed(path)
        case .success(.file):
            if path.hasSuffix(".checks.json") || fileSystem.exists(PaletteLoader.sidecar(of: path)) { return nil }
            folder = SourcePath.folder(of: path)
        default:
            return nil
        }
        // Each step is one folder up: bounded by the depth of the path, and by 64 in any case.
        for _ in 0..<64 {
            let candidate = (folder == "/" ? "" : folder) + "/" + PaletteLoader.checksFileName
            let named = folder == "." ? PaletteLoader.checksFileName : candidate
            if case .success(.file) = fileSystem.kind(of: named) { return named }
            // The repository's root is as far as the search goes: a checks file above it is another project's.
            if fileSystem.exists((folder == "/" ? "" : folder) + "/.git") { return nil }
            guard let parent = Self.parent(of: folder) else { return nil }
            // Outside a confined reader's root there is nothing it may read.
            guard case .success = fileSystem.kind(of: parent) else { return nil }
            folder = parent
        }
        return nil
    }

    /// The folder above `folder`, spelled as the user spelled the path (`tokens` → `.`,
    /// `.` → `..`, `../x` → `..`, `/a/b` → `/a`), or nil at the file system's root.
    static func parent(of folder: String) -> String? {
        if folder == "/" { return nil }
        if folder == "." { return ".." }
        if folder == ".." || folder.hasSuffix("/..") { return folder + "/.." }
        guard let slash = folder.lastIndex(of: "/") else { return "." }
        return slash == folder.startIndex ? "/" : String(folder[..<slash])
    }
}
