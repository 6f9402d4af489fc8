extension AuditSummary {
    /// "all 12 checks pass", "3 of 12 checks fail", or "no checks": the one-line verdict the
    /// palette list and the designers' page show.
    public var verdict: (text: String, passed: Bool) {
        if checks == 0 { return ("no checks", true) }
        return fail == 0 ? ("all \(checks) checks pass", true) : ("\(fail) of \(checks) checks fail", false)
    }
}

