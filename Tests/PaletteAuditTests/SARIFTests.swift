@testable import PaletteAudit
@testable import TokenSources
import Testing

/// SARIF's `artifactLocation.uri` is a URI reference (RFC 3986), not a file path.
@Suite struct SARIFTests {
    @Test(arguments: [
        ("palettes/peptide-fox.json", "palettes/peptide-fox.json"),
        ("my tokens/100% brand#1?.json", "my%20tokens/100%25%20brand%231%3F.json"),
        ("/srv/palettes/a b.json", "file:///srv/palettes/a%20b.json"),
        ("c:tokens.json", "./c:tokens.json"),
        ("thèmes/ünï.css", "th%C3%A8mes/%C3%BCn%C3%AF.css"),
        ("a[1]/b{2}.json", "a%5B1%5D/b%7B2%7D.json"),
    ])
    func filePathsArePercentEncoded(path: String, uri: String) {
        #expect(SARIFRenderer.uri(path) == uri)
    }
}
