#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way PaletteAudit reads files: token files, sidecars, checks documents, resolver and
/// `$ref` targets, asset catalogs and Android `res/` folders all go through a value of this type.
///
/// - With a `root` (the service's palettes directory) nothing outside it is read: a path, a `..`
///   or a symbolic link that leads out is refused, and the descriptor actually opened is checked
///   to be the file inside the root (so a file swapped for a link between the check and the open
///   is refused too).
/// - Every file is opened without blocking and checked on its descriptor before it is read: a
///   FIFO, a device, a socket or a directory is refused at once, and a file over
///   ``maximumFileSize`` is refused from its size, never read whole.
/// - Directory walks are bounded in depth and entries, and remember the directories they have
///   been in (device and inode), so a link loop ends; what they refuse is reported.
public struct FileSystem: Sendable {
    /// The directory reads are confined to (resolved, without a trailing slash); nil reads
    /// anywhere (the CLI, which reads the paths its operator names).
    public let root: String?
    /// The largest file read, in bytes (16 MiB).
    public var maximumFileSize = 16 << 20
    /// The deepest a directory walk goes below where it starts.
    public var maximumDepth = 32
    /// The most entries a directory walk looks at.
    public var maximumEntries = 100_000
    /// How messages name the root ("the palettes directory"; for the CLI's references, the
    /// directory audited).
    public var rootName = "the palettes directory"
    /// What to do about a file outside the root, added to the message (empty: nothing to add).
    public var outsideAdvice = ""

    /// Reads anywhere (still refusing FIFOs, devices and oversize files).
    public static let unconfined = FileSystem(resolvedRoot: nil)

    /// Reads only inside `root`.
    public static func confined(to root: String) -> FileSystem {
        FileSystem(resolvedRoot: FileSystem.resolve(root) ?? FileSystem.trimmed(root))
    }

    /// This file system's limits, read only inside `root` (messages name it `rootName`, with
    /// `advice` for a file outside).
    public func narrowed(to root: String, rootName: String? = nil, advice: String = "") -> FileSystem {
        var narrowed = FileSystem.confined(to: root)
        narrowed.maximumFileSize = maximumFileSize
        if let rootName { narrowed.rootName = rootName }
        narrowed.outsideAdvice = advice
        return narrowed
    }

    init(resolvedRoot: String?) {
        self.root = resolvedRoot
    }

    /// What a path is, after links.
    public enum Kind: Sendable, Equatable {
        case file(size: Int)
        case directory
        /// A FIFO, device or socket.
        case special(String)
    }

    /// What `path` is, or why it is not to be read (missing, or outside the root).
    public func kind(of path: String) -> Result<Kind, PaletteProblem> {
        switch confine(path) {
        case .failure(let problem): return .failure(problem)
        case .success(let resolved):
            var info = stat()
            guard stat(resolved, &info) == 0 else {
                return .failure(PaletteProblem(.unreadableFile, "no such file or directory", file: path))
            }
            return .success(Self.kind(info))
        }
    }

    /// Whether `path` is a directory that may be read.
    public func isDirectory(_ path: String) -> Bool {
        if case .success(.directory) = kind(of: path) { return true }
        return false
    }

    /// Whether `path` exists and may be read (a file or a directory).
    public func exists(_ path: String) -> Bool {
        if case .success = kind(of: path) { return true }
        return false
    }

    /// The bytes of the regular file at `path`, at most ``maximumFileSize``.
    public func read(_ path: String) -> Result<[UInt8], PaletteProblem> {
        let resolved: String
        switch confine(path) {
        case .failure(let problem): return .failure(problem)
        case .success(let r): resolved = r
        }
        // O_NOFOLLOW: the last component, checked above, may not have become a link since.
        let fd = open(resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (root == nil ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "it became a symbolic link while being read: not read" : "cannot open the file for reading (check that it exists and is readable)"
            return .failure(PaletteProblem(.unreadableFile, reason, file: path))
        }
        defer { close(fd) }
        if let root, let opened = Self.path(of: fd), !Self.isInside(opened, root) {
            return .failure(PaletteProblem(.unreadableFile, outsideMessage, file: path))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            return .failure(PaletteProblem(.unreadableFile, "cannot read the file's status", file: path))
        }
        switch Self.kind(info) {
        case .directory: return .failure(PaletteProblem(.unreadableFile, "a directory, not a regular file: not read", file: path))
        case .special(let what): return .failure(PaletteProblem(.unreadableFile, "\(what), not a regular file: not read", file: path))
        case .file(let size):
            if size > maximumFileSize { return .failure(tooLarge(path)) }
        }
        // A regular file never blocks; clear O_NONBLOCK anyway so reads behave plainly.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count <= maximumFileSize {
            let count = buffer.withUnsafeMutableBytes { Self.systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(PaletteProblem(.unreadableFile, "cannot read the file: \(String(cString: strerror(errno)))", file: path))
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        // A file that grew while it was read is still held to the limit.
        if bytes.count > maximumFileSize { return .failure(tooLarge(path)) }
        // A file read during a read (a resolver's source, a set's file, an @import) is part of
        // its input: the read's budget grows by its share.
        ReadBudget.current?.grant(inputBytes: bytes.count)
        return .success(bytes)
    }

    /// A descriptor to read `path` as a stream, for input read piece by piece and never held
    /// whole (`check --batch FILE`): a regular file, or a FIFO or pipe (`<(generate-pairs)`),
    /// which a stream may be. A directory, a device (`/dev/zero` would never end) or a socket
    /// is refused before it is read. The caller closes the descriptor.
    public func openStream(_ path: String) -> Result<Int32, PaletteProblem> {
        let resolved: String
        switch confine(path) {
        case .failure(let problem): return .failure(problem)
        case .success(let r): resolved = r
        }
        let fd = open(resolved, O_RDONLY | O_CLOEXEC | (root == nil ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            return .failure(PaletteProblem(.unreadableFile, "cannot open the file for reading (\(String(cString: strerror(errno))))", file: path))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            return .failure(PaletteProblem(.unreadableFile, "cannot read the file's status", file: path))
        }
        switch (info.st_mode & S_IFMT, Self.kind(info)) {
        case (S_IFIFO, _), (_, .file):
            return .success(fd)
        case (_, .directory):
            close(fd)
            return .failure(PaletteProblem(.unreadableFile, "a directory, not a file of JSON lines: not read", file: path))
        case (_, .special(let what)):
            close(fd)
            return .failure(PaletteProblem(.unreadableFile, "\(what), not a file or a pipe: not read (give - for standard input)", file: path))
        }
    }

    func tooLarge(_ path: String) -> PaletteProblem {
        PaletteProblem(.limitExceeded, "the file is larger than \(maximumFileSize >> 20) MiB: not read", file: path)
    }

    /// One entry of a directory.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var path: String
        public var isDirectory: Bool
    }

    /// The entries of `directory`, sorted by name, links followed only where they stay inside
    /// the root. Hidden entries are left out. Entries refused (a link out, a FIFO…) are returned
    /// in `refused` with the reason.
    public func list(_ directory: String) -> (entries: [Entry], refused: [SkippedFile]) {
        let base = Self.trimmed(directory)
        guard case .success(let resolved) = confine(base), let stream = opendir(resolved) else { return ([], []) }
        defer { closedir(stream) }
        var names: [String] = []
        while let item = readdir(stream) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            names.append(name)
            if names.count > maximumEntries { break }
        }
        var entries: [Entry] = [], refused: [SkippedFile] = []
        for name in names.sorted() {
            let path = base + "/" + name
            switch kind(of: path) {
            case .success(.directory): entries.append(Entry(name: name, path: path, isDirectory: true))
            case .success(.file): entries.append(Entry(name: name, path: path, isDirectory: false))
            case .success(.special(let what)): refused.append(SkippedFile(file: path, reason: "\(what), not a regular file: not read"))
            case .failure(let problem): refused.append(SkippedFile(file: path, reason: problem.message))
            }
        }
        return (entries, refused)
    }

    /// Every file below `directory`, sorted, walked at most ``maximumDepth`` deep and over at
    /// most ``maximumEntries`` entries. `skip` leaves a directory out (its entry name);
    /// a directory reached again through a link is not walked twice.
    public func walk(_ directory: String, skip: (String) -> Bool = { _ in false }) -> (files: [String], refused: [SkippedFile]) {
        var files: [String] = [], refused: [SkippedFile] = []
        var visited: Set<DirectoryID> = []
        var seen = 0
        var pending: [(path: String, depth: Int)] = [(Self.trimmed(directory), 0)]
        while let (path, depth) = pending.popLast() {
            guard let id = directoryID(path) else { continue }
            guard visited.insert(id).inserted else {
                refused.append(SkippedFile(file: path, reason: "a directory already read (a symbolic link loops back to it): not read again"))
                continue
            }
            let (entries, out) = list(path)
            refused += out
            for entry in entries {
                seen += 1
                if seen > maximumEntries {
                    refused.append(SkippedFile(file: Self.trimmed(directory), reason: "the walk stopped after \(maximumEntries) entries; the rest of the directory is not read"))
                    return (files.sorted(), refused)
                }
                if entry.isDirectory {
                    if skip(entry.name) { continue }
                    if depth + 1 > maximumDepth {
                        refused.append(SkippedFile(file: entry.path, reason: "deeper than \(maximumDepth) directories: not read"))
                        continue
                    }
                    pending.append((entry.path, depth + 1))
                } else {
                    files.append(entry.path)
                }
            }
        }
        return (files.sorted(), refused)
    }

    struct DirectoryID: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    func directoryID(_ path: String) -> DirectoryID? {
        guard case .success(let resolved) = confine(path) else { return nil }
        var info = stat()
        guard stat(resolved, &info) == 0 else { return nil }
        return DirectoryID(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The path with every link resolved, when it stays inside the root.
    func confine(_ path: String) -> Result<String, PaletteProblem> {
        guard let root else { return .success(path) }
        guard let resolved = Self.resolve(path) else {
            return .failure(PaletteProblem(.unreadableFile, "no such file or directory", file: path))
        }
        guard Self.isInside(resolved, root) else {
            return .failure(PaletteProblem(.unreadableFile, outsideMessage, file: path))
        }
        return .success(resolved)
    }

    var outsideMessage: String {
        "it is outside \(rootName) (a symbolic link or a reference leading out): not read\(outsideAdvice)"
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    package static func trimmed(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The path of what `fd` has open, as the kernel knows it.
    static func path(of fd: Int32) -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #elseif canImport(Darwin)
        var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
        guard fcntl(fd, F_GETPATH, &buffer) != -1 else { return nil }
        return String(cString: buffer)
        #else
        return nil
        #endif
    }

    static func kind(_ info: stat) -> Kind {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file(size: Int(info.st_size))
        case S_IFDIR: return .directory
        case S_IFIFO: return .special("a FIFO")
        case S_IFCHR, S_IFBLK: return .special("a device")
        case S_IFSOCK: return .special("a socket")
        default: return .special("not a regular file")
        }
    }

    static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }
}
