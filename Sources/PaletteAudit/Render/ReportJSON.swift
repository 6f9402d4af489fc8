public import Foundation
import TokenSources

extension AuditReport {
    /// The report as JSON: stable sorted keys, pretty-printed, with a final newline (the
    /// hand-written ``prettyJSON()``, the same writer as the service's compact JSON).
    public func jsonData() throws -> Data {
        Data(prettyJSON().utf8)
    }
}
