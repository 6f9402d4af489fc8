/// The files the service serves from memory, embedded at build time by SwiftPM
/// (`.embedInCode` in Package.swift): edit `openapi.yaml` or `web/`, rebuild, and the binary
/// serves the new version.
enum OpenAPISpec {
    static let yaml = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
}

enum WebAssets {
    /// The page's scripts: native ES modules, served as written (there is no build step).
    /// `app.js` is the entry point and imports the others; each module is listed here and in
    /// Package.swift, and a test checks that every `web/*.js` is served.
    static let scripts: [String: String] = [
        "app.js": String(decoding: PackageResources.app_js, as: UTF8.self),
        "api.js": String(decoding: PackageResources.api_js, as: UTF8.self),
        "dom.js": String(decoding: PackageResources.dom_js, as: UTF8.self),
        "document.js": String(decoding: PackageResources.document_js, as: UTF8.self),
        "editor.js": String(decoding: PackageResources.editor_js, as: UTF8.self),
        "audit.js": String(decoding: PackageResources.audit_js, as: UTF8.self),
    ]
    static let appCSS = String(decoding: PackageResources.app_css, as: UTF8.self)
}
