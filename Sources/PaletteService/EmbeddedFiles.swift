/// The files the service serves from memory, embedded at build time by SwiftPM
/// (`.embedInCode` in Package.swift): edit `openapi.yaml` or `web/`, rebuild, and the binary
/// serves the new version.
enum OpenAPISpec {
    static let yaml = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
}

enum WebAssets {
    static let appJS = String(decoding: PackageResources.app_js, as: UTF8.self)
    static let appCSS = String(decoding: PackageResources.app_css, as: UTF8.self)
}
