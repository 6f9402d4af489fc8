import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one confined reader: nothing outside its root, no FIFO or device, no file over the cap
/// read whole, and walks that end on link loops and stay within their bounds.
@Suite struct FileSystemTests {
    /// A fresh directory with `inside/` (the root) and `outside/` holding a secret.
    static func tree() throws -> (root: String, outside: String) {
        let base = Scratch.directory("fs").path
        try FileManager.default.createDirectory(atPath: base + "/inside/sub", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: base + "/outside", withIntermediateDirectories: true)
        try "secret".write(toFile: base + "/outside/secret.json", atomically: true, encoding: .utf8)
        try "{}".write(toFile: base + "/inside/sub/a.json", atomically: true, encoding: .utf8)
        return (base + "/inside", base + "/outside")
    }

    @Test func readsAFileInsideTheRoot() throws {
        let (root, _) = try Self.tree()
        let fs = FileSystem.confined(to: root)
        #expect(try fs.read(root + "/sub/a.json").get() == Array("{}".utf8))
        #expect(try fs.read(root + "/sub/../sub/a.json").get() == Array("{}".utf8))
    }

    @Test func aFileReadDuringAReadGrowsItsBudget() throws {
        // A 200-byte resolver that names 2 MB of token files may spend in proportion to all of
        // it, not to its own size.
        let (root, _) = try Self.tree()
        let big = String(repeating: " ", count: 100_000)
        try big.write(toFile: root + "/sub/big.json", atomically: true, encoding: .utf8)
        let fs = FileSystem.confined(to: root)
        let budget = ReadBudget(inputBytes: 200)
        #expect(budget.maximumSteps == ReadBudget.minimumSteps && budget.maximumBytes == ReadBudget.minimumBytes)
        _ = ReadBudget.withBudget(budget) { fs.read(root + "/sub/big.json") }
        #expect(budget.maximumSteps == ReadBudget.minimumSteps + 100_000 * ReadBudget.stepsPerInputByte)
        #expect(budget.maximumBytes == ReadBudget.minimumBytes + 100_000 * ReadBudget.bytesPerInputByte)
        // Never past the cap it was made with; a budget of explicit figures stays as it is.
        let capped = ReadBudget(inputBytes: 200, maximumBytes: ReadBudget.minimumBytes + 1_000)
        _ = ReadBudget.withBudget(capped) { fs.read(root + "/sub/big.json") }
        #expect(capped.maximumBytes == ReadBudget.minimumBytes + 1_000)
        let fixed = ReadBudget(maximumSteps: 10)
        _ = ReadBudget.withBudget(fixed) { fs.read(root + "/sub/big.json") }
        #expect(fixed.maximumSteps == 10)
    }

    @Test func refusesLinksAndDotDotLeadingOut() throws {
        let (root, outside) = try Self.tree()
        try FileManager.default.createSymbolicLink(atPath: root + "/link.json", withDestinationPath: outside + "/secret.json")
        try FileManager.default.createSymbolicLink(atPath: root + "/away", withDestinationPath: outside)
        let fs = FileSystem.confined(to: root)
        for path in [root + "/link.json", root + "/away/secret.json", root + "/../outside/secret.json"] {
            let problem = try #require(fs.read(path).failure)
            #expect(problem.message.contains("outside the palettes directory"), "\(path): \(problem.message)")
        }
        #expect(!fs.exists(root + "/away"))
        // The same links read anywhere when the reader is not confined (the CLI).
        #expect(try FileSystem.unconfined.read(root + "/link.json").get() == Array("secret".utf8))
    }

    @Test func refusesAFIFOAndADeviceWithoutOpeningThemForReading() throws {
        let (root, _) = try Self.tree()
        #expect(mkfifo(root + "/Contents.json", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: root + "/zero.json", withDestinationPath: "/dev/zero")
        let fifo = try #require(FileSystem.confined(to: root).read(root + "/Contents.json").failure)
        #expect(fifo.message == "a FIFO, not a regular file: not read")
        let zero = try #require(FileSystem.unconfined.read(root + "/zero.json").failure)
        #expect(zero.message == "a device, not a regular file: not read")
    }

    @Test func refusesAnOversizeFileFromItsSizeAlone() throws {
        let (root, _) = try Self.tree()
        // 3 GB, sparse: refused from fstat, never read.
        let path = root + "/Contents.json"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 3 << 30) == 0)
        let problem = try #require(FileSystem.confined(to: root).read(path).failure)
        #expect(problem.code == .limitExceeded)
        #expect(problem.message == "the file is larger than 16 MiB: not read")
    }

    @Test func aWalkEndsOnLinkLoopsAndReportsThem() throws {
        let (root, _) = try Self.tree()
        try FileManager.default.createSymbolicLink(atPath: root + "/sub/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: root + "/sub/here", withDestinationPath: ".")
        let (files, refused) = FileSystem.confined(to: root).walk(root)
        #expect(files == [root + "/sub/a.json"])
        #expect(refused.filter { $0.reason.contains("loops back") }.count == 2)
    }

    @Test func aWalkIsBoundedInDepthAndEntries() throws {
        let (root, _) = try Self.tree()
        var deep = root
        for i in 0..<40 { deep += "/d\(i)" }
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        try "{}".write(toFile: deep + "/deep.json", atomically: true, encoding: .utf8)
        var fs = FileSystem.confined(to: root)
        let (files, refused) = fs.walk(root)
        #expect(!files.contains(deep + "/deep.json"))
        #expect(refused.contains { $0.reason == "deeper than 32 directories: not read" })
        fs.maximumEntries = 3
        let bounded = fs.walk(root)
        #expect(bounded.refused.contains { $0.reason.contains("stopped after 3 entries") })
    }

    @Test func anAssetCatalogWithALinkLoopAndALinkOutIsReadOnce() throws {
        let catalog = try AssetCatalogTests.catalog(["red.colorset/Contents.json": AssetCatalogTests.colorSet([AssetCatalogTests.entry(#""red": "1.000", "green": "0.000", "blue": "0.000", "alpha": "1.000""#)])])
        try FileManager.default.createDirectory(atPath: catalog.path + "/loop", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: catalog.path + "/loop/again", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: catalog.path + "/out.colorset", withDestinationPath: "/etc")
        let root = catalog.deletingLastPathComponent().path
        let loaded = PaletteLoader(reader: PaletteLoader.confined(to: root)).loadSources(paths: [catalog.path]).palettes
        let palette = try #require(loaded.first?.palette)
        #expect(palette.themes.first?.tokens.map(\.name) == ["red"])
        #expect(loaded[0].problems.contains { $0.message.contains("loops back") })
        #expect(loaded[0].problems.contains { $0.file == catalog.path + "/out.colorset" && $0.message.contains("outside the palettes directory") })
    }
}

/// The files a token file names (`$ref`s, a resolver's sources, Tokens Studio's sets) are read
/// only inside the directory audited, in the CLI too: a token file from a pull request must not
/// make CI read, and quote in its annotations, a file nobody named.
@Suite struct ReferenceConfinementTests {
    @Test func aReferenceOutOfTheAuditedDirectoryIsNotRead() throws {
        let (root, outside) = try FileSystemTests.tree()
        try #"{"auth": "c2VjcmV0LXRva2Vu"}"#.write(toFile: outside + "/config.json", atomically: true, encoding: .utf8)
        let file = root + "/a.tokens.json"
        try #"{"a": {"$type": "color", "$value": {"$ref": "../outside/config.json#/auth"}}, "b": {"$type": "color", "$value": {"$ref": "sub/b.json#/b"}}}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        try ##"{"b": "#123456"}"##.write(toFile: root + "/sub/b.json", atomically: true, encoding: .utf8)
        for paths in [[file], [root]] {
            let loaded = PaletteLoader.loadSources(paths: paths).palettes
            let problems = loaded.flatMap(\.problems)
            let refused = try #require(problems.first { $0.message.contains("../outside/config.json") })
            let label = paths == [root] ? "the directory audited" : "the folder of the file audited"
            #expect(refused.message.contains("outside \(root), \(label)") && refused.message.contains("or give --root"), "\(refused.message)")
            #expect(!problems.contains { $0.message.contains("c2VjcmV0") }, "the file's bytes are never quoted")
            // A reference inside the directory still reads.
            let tokens = loaded.compactMap(\.palette).flatMap { $0.themes.flatMap(\.tokens) }
            #expect(tokens.contains { $0.name == "b" && $0.value == "#123456" }, "\(tokens.map { "\($0.name)=\($0.value)" })")
        }
    }

    @Test func aResolverSourceOutOfTheAuditedDirectoryIsNotRead() throws {
        let (root, outside) = try FileSystemTests.tree()
        try ##"{"x": {"$type": "color", "$value": "#000000"}}"##.write(toFile: outside + "/secret.tokens.json", atomically: true, encoding: .utf8)
        let resolver = root + "/r.resolver.json"
        try ##"{"version": "2025.10", "sets": {"s": {"sources": [{"$ref": "../outside/secret.tokens.json"}]}}, "resolutionOrder": [{"$ref": "#/sets/s"}]}"##
            .write(toFile: resolver, atomically: true, encoding: .utf8)
        let loaded = PaletteLoader.loadSources(paths: [resolver]).palettes
        #expect(loaded.flatMap(\.problems).contains { $0.message.contains("\"../outside/secret.tokens.json\"") && $0.message.contains("the folder of the file audited") })
        #expect(!loaded.compactMap(\.palette).flatMap { $0.themes.flatMap(\.tokens) }.contains { $0.name == "x" })
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
