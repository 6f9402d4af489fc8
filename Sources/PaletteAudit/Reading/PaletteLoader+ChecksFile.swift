extension PaletteLoader {
    /// The checks document `contrast init DIR` writes into DIR, and that an audit of DIR uses
    /// when it is given no `--checks`.
    public static let checksFileName = "contrast.checks.json"

    /// The checks document an audit of `path` uses when it is given none, as ESLint and Terrazzo
    /// find their configuration: `contrast.checks.json` in the directory named, or in the folder
    /// of the file named. None for a file with a `NAME.checks.json` of its own (the nearer
    /// document is its own), or when there is no such file.
    public func checksFile(beside path: String) -> String? {
        let candidate: String
        switch fileSystem.kind(of: path) {
        case .success(.directory):
            candidate = FileSystem.trimmed(path) + "/" + PaletteLoader.checksFileName
        case .success(.file):
            if path.hasSuffix(".checks.json") || fileSystem.exists(PaletteLoader.sidecar(of: path)) { return nil }
            candidate = SourcePath.directory(of: path) + PaletteLoader.checksFileName
        default:
            return nil
        }
        guard case .success(.file) = fileSystem.kind(of: candidate) else { return nil }
        return candidate
    }
}
