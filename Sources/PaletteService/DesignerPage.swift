import ColorScience
import PaletteAudit
import TokenSources

/// The page `contrast serve` shows at `/`: the palettes it holds with a verdict each, and a
/// workbench (web/app.js and the modules it imports) where a designer edits a palette, a token
/// file or a stylesheet and sees what the change does.
///
/// The list is rendered here, so it reads without JavaScript (each palette links to its HTML
/// report); the script turns the links into the workbench. Everything the script does goes
/// through the public API.
enum DesignerPage {
    /// Scripts and styles from this origin only (`script-src 'self'` covers the module scripts
    /// and their imports); style attributes are allowed because the report's swatches are
    /// colored with them. Requests only to this origin.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The deficiencies the workbench can be viewed as; the service simulates them
    /// (`POST /v1/simulate`), so the page has no second implementation.
    static var visionOptions: HTML {
        ColorVisionDeficiency.all.map { deficiency -> HTML in "<option value=\"\(deficiency.name)\">\(deficiency.description)</option>" }.joined()
    }

    static func verdict(_ s: AuditSummary, _ coverage: Coverage?) -> (text: String, passed: Bool) { s.verdict(coverage: coverage) }

    /// What the file chooser offers: the suffixes and media types of every format a posted
    /// body may be in, from the registry.
    static let acceptedFiles: String = {
        let postable = SourceRegistry.formats.filter(\.readsDocuments)
        var seen: [String] = []
        for item in SourceRegistry.fileSuffixes + postable.flatMap(\.mediaTypes) where !seen.contains(item) { seen.append(item) }
        return seen.joined(separator: ",")
    }()

    static func render(_ entries: [PaletteStore.Entry]) -> String {
        page(entries).text
    }

    /// The page, as ``HTML``: every name and text from a palette is escaped by the type.
    static func page(_ entries: [PaletteStore.Entry]) -> HTML {
        var out: HTML = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>contrast · palettes</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="/app.css">
            <script type="module" src="/app.js"></script>
            </head>
            <body>
            <a class="skip" href="#main">Skip to the palettes</a>
            <header class="top"><h1>contrast</h1><p class="muted">Change a palette and see at once what it does to contrast: WCAG 2.2 ratios (floored, never rounded into a pass) and APCA Lc.</p></header>
            <main id="main">
            <p id="page-status" class="status" role="status"></p>
            <section id="pair" aria-labelledby="pair-title">
            <h2 id="pair-title">Any two colors</h2>
            <div class="row">
            <label for="pair-fg">Foreground</label> <input type="text" id="pair-fg" value="#767676" spellcheck="false" autocomplete="off" aria-describedby="pair-help">
            <label for="pair-bg">Background</label> <input type="text" id="pair-bg" value="#ffffff" spellcheck="false" autocomplete="off" aria-describedby="pair-help">
            <button type="button" id="pair-measure">Measure</button>
            </div>
            <p id="pair-help" class="muted">Any CSS color: hex, rgb() or oklch() with alpha, light-dark() (measured in both schemes), color-mix(). A translucent foreground is measured as drawn, over the background.</p>
            <div id="pair-result" role="status" aria-live="polite"></div>
            <div id="pair-tune"></div>
            <div id="pair-tune-chroma"></div>
            </section>
            <section id="palettes" aria-labelledby="palettes-title">
            <h2 id="palettes-title">Palettes</h2>

            """
        if entries.isEmpty {
            out += "<p id=\"no-palettes\">The service holds no palettes yet. Start it with <code>contrast serve --palettes DIR</code>, or bring your own below.</p>\n"
        } else {
            out += "<ul class=\"palette-list\">\n"
            for entry in entries {
                let name = entry.palette.name
                let summary = verdict(entry.report.summary, entry.report.coverage)
                // The file's own name, which a downloaded edit keeps (brand.tokens.json stays that).
                let file = entry.file.split(separator: "/").last.map(String.init) ?? "\(name).json"
                let downloadName = file.hasSuffix(".json") || SourceRegistry.textFormat(file: file) != nil ? file : "\(name).json"
                out += "<li data-palette=\"\(name)\" data-file=\"\(downloadName)\"><a class=\"name open-palette\" href=\"/v1/palettes/\(percentEncoded(name))/audit\" data-palette=\"\(name)\">\(name)</a> "
                out += "<span class=\"verdict-\(summary.passed ? "pass" : "fail")\">\(summary.text)</span>"
                if entry.report.summary.falseClaims > 0 {
                    out += " <span class=\"muted\">· \(entry.report.summary.falseClaims) false claim\(entry.report.summary.falseClaims == 1 ? "" : "s")</span>"
                }
                out += "\n<ul class=\"themes\" aria-label=\"Themes of \(name))\">"
                for theme in entry.report.themes {
                    let v = verdict(theme.summary, theme.coverage ?? entry.report.coverage)
                    out += "<li>\(theme.name): <span class=\"verdict-\(v.passed ? "pass" : "fail")\">\(v.text)</span></li>"
                }
                out += "</ul>\n"
                if let description = entry.palette.description { out += "<p class=\"description muted\">\(description)</p>\n" }
                out += "</li>\n"
            }
            out += "</ul>\n"
        }
        out += """
            </section>
            <section id="workbench" aria-labelledby="workbench-title" hidden>
            <div class="workbench-head"><h2 id="workbench-title">Workbench</h2>
            <div class="toolbar" role="toolbar" aria-label="Palette actions">
            <button type="button" id="download-palette">Download palette</button>
            <button type="button" id="download-audit-json" class="secondary">Download audit JSON</button>
            <button type="button" id="download-audit-md" class="secondary">Download audit Markdown</button>
            <button type="button" id="revert" class="secondary">Undo all edits</button>
            <label for="theme">Theme</label> <select id="theme"><option value="">every theme</option></select>
            <label for="vision">View as</label> <select id="vision"><option value="">normal vision</option>\(visionOptions)</select>
            </div></div>
            <p id="status" class="status" role="status" aria-live="polite"></p>
            <div id="changes" class="changes" role="region" aria-label="What the edits change, per theme"></div>
            <h3 id="tokens-title">Tokens</h3>
            <p class="muted">Type any CSS color (or an alias such as <code>{brand.primary}</code>) or pick one; the palette is audited again as you type. Fix swatches under a failing check apply that color.</p>
            <div id="editor" class="editor" aria-labelledby="tokens-title"></div>
            <h3 id="audit-title">Audit</h3>
            <div id="audit-view" aria-labelledby="audit-title"></div>
            </section>
            <section id="bring-your-own" aria-labelledby="byo-title">
            <h2 id="byo-title">Bring your own</h2>
            <div id="drop-zone">
            <label for="byo-text">Paste a palette, a DTCG tokens file (JSON) or a stylesheet (CSS), or drop a file here</label>
            <textarea id="byo-text" rows="7" spellcheck="false" autocomplete="off" aria-describedby="byo-help"></textarea>
            <p id="byo-help" class="muted">A palette names its themes, tokens and checks (see docs/palette-format.md); a tokens file is audited as one theme; a stylesheet's custom properties are read by theme (:root, dark and contrast media queries, root classes and attributes). A palette named like a served one is compared with it.</p>
            <div class="row"><button type="button" id="byo-audit">Audit</button>
            <label for="byo-file">Or choose a file:</label> <input type="file" id="byo-file" accept="\(acceptedFiles)"></div>
            </div>
            <div id="byo-result" role="alert"></div>
            </section>
            </main>
            <noscript><p>Without JavaScript, each palette name opens its audit report.</p></noscript>
            </body>
            </html>

            """
        return out
    }

    /// A palette name as one path segment.
    static func percentEncoded(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
