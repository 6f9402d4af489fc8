import ColorScience

/// The read's budget and depth: steps and bytes spent, blocks entered and left, and the read
/// stopped with its problem when it must stop.
extension StylesheetReader {
    /// Stops the read with `problem` (the first problem wins, in the budget too).
    mutating func halt(_ problem: PaletteProblem) {
        guard !stopped else { return }
        stopped = true
        if !problems.contains(problem) { problems.append(problem) }
        ReadBudget.current?.stop(problem)
    }

    /// Spends `cost` steps and `built` bytes on `construct` at byte `offset` from the read's
    /// budget; false (and the read stopped) when it must stop.
    @discardableResult
    mutating func spend(_ cost: Int = 1, bytes built: Int = 0, on construct: @autoclosure () -> String, at offset: Int) -> Bool {
        guard !stopped else { return false }
        pendingSteps += cost
        guard pendingSteps >= 1024 || built > 0 else { return true }
        return flushSteps(bytes: built, on: construct(), at: offset)
    }

    /// Spends `cost` steps on `construct` at `location` of `file` (a stylesheet of the read
    /// other than the one being read now).
    @discardableResult
    mutating func spend(_ cost: Int, on construct: @autoclosure () -> String, file: String?, location: SourceLocation) -> Bool {
        guard !stopped else { return false }
        pendingSteps += cost
        guard pendingSteps >= 1024 else { return true }
        let steps = pendingSteps
        pendingSteps = 0
        guard let budget = ReadBudget.current else { return true }
        if budget.spend(steps, on: construct(), file: file, location: location) && !budget.isExhausted { return true }
        stopped = true
        if let problem = budget.problem, !problems.contains(problem) { problems.append(problem) }
        return false
    }

    /// Takes the pending steps from the budget.
    @discardableResult
    mutating func flushSteps(bytes built: Int = 0, on construct: String, at offset: Int) -> Bool {
        guard !stopped else { return false }
        let cost = pendingSteps
        pendingSteps = 0
        guard let budget = ReadBudget.current else { return true }
        if budget.spend(cost, bytes: built, on: construct, file: file, location: location(min(offset, bytes.count))) && !budget.isExhausted { return true }
        stopped = true
        if let problem = budget.problem, !problems.contains(problem) { problems.append(problem) }
        return false
    }

    /// Enters a block (`{` at `offset`) of `construct`: false, with a problem at its line and
    /// column, when blocks nest deeper than ``ReadBudget/maximumDepth``.
    /// On true the block is open: the caller leaves it with ``leaveBlock()``. `prelude` is the
    /// text before its `{`, for a message about a block the file leaves open.
    mutating func enterBlock(at offset: Int, _ construct: @autoclosure () -> String, prelude: Range<Int>) -> Bool {
        guard !stopped else { return false }
        guard depth < ReadBudget.maximumDepth else {
            halt(PaletteProblem(.limitExceeded, "\(construct()) nests more than \(ReadBudget.maximumDepth) blocks deep; a stylesheet this deep is not read", file: file, location: location(offset)))
            return false
        }
        guard spend(on: construct(), at: offset) else { return false }
        depth += 1
        openBlocks.append((offset, prelude))
        return true
    }

    mutating func leaveBlock() {
        depth -= 1
        openBlocks.removeLast()
    }

    /// The file ended inside the blocks open now: remembered (the first time) for one warning at
    /// the end of the read.
    mutating func noteUnclosed() {
        if unclosed == nil && !openBlocks.isEmpty { unclosed = openBlocks }
    }

    /// One warning for blocks the file leaves open, at the outermost one's `{`: browsers close
    /// them at the end of the file, and so does the reader, so what they hold is read.
    mutating func warnUnclosed() {
        guard let blocks = unclosed, let outer = blocks.first else { return }
        func shown(_ block: (offset: Int, prelude: Range<Int>)) -> String {
            let words = Self.collapse(text(block.prelude))
            let short = words.count > 40 ? String(words.prefix(40)) + "…" : words
            return words.hasPrefix("@") ? short : "the rule '\(short)'"
        }
        let lines = blocks.dropFirst().map { location($0.offset).line }
        var inside = ""
        if lines.count == 1 {
            inside = ", nor is the block opened inside it at line \(lines[0])"
        } else if lines.count > 1 {
            let listed = lines.prefix(5).map(String.init).joined(separator: ", ") + (lines.count > 5 ? ", …" : "")
            inside = ", nor are the \(lines.count) blocks opened inside it (at lines \(listed))"
        }
        let at = location(outer.offset)
        problems.append(PaletteProblem(.unsupportedProperty, "\(shown(outer)) opened at line \(at.line) is not closed by the end of the file\(inside); what it holds is read as if it were closed there, as browsers do",
                                       file: file, location: at, severity: .warning))
    }
}
