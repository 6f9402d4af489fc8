import TokenSources

extension AuditSummary {
    /// "all 12 checks pass", "3 of 12 checks fail", or "no checks": the one-line verdict the
    /// palette list and the designers' page show.
    public var verdict: (text: String, passed: Bool) {
        if checks == 0 { return ("no checks", true) }
        return fail == 0 ? ("all \(checks) checks pass", true) : ("\(fail) of \(checks) checks fail", false)
    }
}


extension AuditSummary {
    /// ``verdict``, knowing the coverage: colors and no checks is not a pass ("no checks: 42
    /// color tokens, none measured"), as ``AuditPolicy`` judges it.
    public func verdict(coverage: Coverage?) -> (text: String, passed: Bool) {
        if checks == 0, let coverage, coverage.tokens > 0 {
            return ("no checks: \(coverage.tokens) color token\(coverage.tokens == 1 ? "" : "s"), none measured", false)
        }
        return verdict
    }
}
