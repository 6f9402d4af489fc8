import Foundation
import PaletteAudit
import TokenSources

/// `contrast audit --format github`: the annotations on standard output (or `--output`), and,
/// inside a GitHub Actions job, the Markdown summary appended to `$GITHUB_STEP_SUMMARY`.
enum GitHubActions {
    static func annotate(_ report: AuditReport, baseline: String?, to output: String?) throws {
        let environment = ProcessInfo.processInfo.environment
        let workingDirectory = FileManager.default.currentDirectoryPath
        // Annotations name files relative to the checkout; the runner's workspace may be
        // reached through a symbolic link, the working directory never is.
        let workspace = environment["GITHUB_WORKSPACE"].flatMap { $0.isEmpty ? nil : realPath($0) }
        var text = GitHubRenderer.render(report, workingDirectory: workingDirectory, repositoryRoot: workspace)
        if let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            let markdown = MarkdownRenderer.render(report, comparedWith: baseline ?? "the baseline") + "\n"
            if let failure = append(markdown, to: summary) {
                // The summary is an extra: its failure is said, and the exit code stays the audit's.
                text += "::warning title=contrast::" + GitHubRenderer.escapeData("cannot append the summary to $GITHUB_STEP_SUMMARY (\(summary)): \(failure)") + "\n"
            }
        }
        try Terminal.emit(text, to: output)
    }

    /// Appends `text` to the file at `path` (created when absent); the error's words on failure.
    static func append(_ text: String, to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            offset += written
        }
        return nil
    }

    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
