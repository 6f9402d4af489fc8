/// What the usage reader needs of a Swift file's structure, worked out from its tokens in
/// passes that each visit a token a bounded number of times: the bracket around each token, the
/// statement each token is in, and the scopes assignments are visible in (a brace block, or one
/// `case` of a `switch`).
struct SwiftStructure {
    let tokens: [SwiftTokens.Token]
    /// The innermost open bracket around each token (its index), or -1 at the top level.
    var enclosing: [Int]
    /// Where each token's statement starts (within its bracket).
    var statementStart: [Int]
    /// Each token's scope: the index of the `{` or `case`/`default` that opens it, -1 for the file.
    var scope: [Int]
    /// Each scope's enclosing scope.
    var parentScope: [Int: Int] = [:]
    /// Each scope's depth (the file is 0).
    var scopeDepth: [Int: Int] = [-1: 0]

    /// Keywords that start a statement whose `{` is its body, not a trailing closure.
    static let bodyKeywords: Set<String> = ["if", "guard", "while", "for", "switch", "repeat", "catch", "do", "else", "func", "init", "class", "struct",
                                            "enum", "extension", "protocol", "actor", "var", "let", "return", "case", "get", "set", "willSet", "didSet"]

    init(_ tokens: [SwiftTokens.Token]) {
        self.tokens = tokens
        let n = tokens.count
        enclosing = Array(repeating: -1, count: n)
        statementStart = Array(repeating: 0, count: n)
        scope = Array(repeating: -1, count: n)
        var brackets: [Int] = []
        var starts: [Int] = [0]
        // Scopes: (id, is a case) from the file outward.
        var scopes: [(id: Int, isCase: Bool)] = [(-1, false)]
        for i in 0..<n {
            let token = tokens[i]
            if token.kind == .close, let open = token.match, brackets.last == open {
                brackets.removeLast()
                starts.removeLast()
                if tokens[open].text == "{" {
                    while let top = scopes.last, top.id != -1 {
                        scopes.removeLast()
                        if top.id == open { break }
                    }
                }
            }
            enclosing[i] = brackets.last ?? -1
            // After a `case …:` or `default:` label, its first statement.
            let afterLabel = i > 0 && tokens[i - 1].kind == .punctuation && tokens[i - 1].text == ":"
                && tokens[starts[starts.count - 1]].kind == .identifier && ["case", "default"].contains(tokens[starts[starts.count - 1]].text)
                && enclosing[i] == enclosing[starts[starts.count - 1]]
            if startsStatement(i) || afterLabel { starts[starts.count - 1] = i }
            statementStart[i] = starts[starts.count - 1]
            // A `case` or `default` label at a statement's start opens a scope that the next label
            // (or the block's end) closes.
            if token.kind == .identifier, token.text == "case" || token.text == "default", statementStart[i] == i,
               let block = brackets.last, tokens[block].text == "{" {
                if let top = scopes.last, top.isCase { scopes.removeLast() }
                parentScope[i] = scopes.last?.id ?? -1
                scopeDepth[i] = (scopeDepth[scopes.last?.id ?? -1] ?? 0) + 1
                scopes.append((i, true))
            }
            scope[i] = scopes.last?.id ?? -1
            if token.kind == .open, token.match != nil {
                brackets.append(i)
                starts.append(i + 1)
                if token.text == "{" {
                    parentScope[i] = scopes.last?.id ?? -1
                    scopeDepth[i] = (scopeDepth[scopes.last?.id ?? -1] ?? 0) + 1
                    scopes.append((i, false))
                }
            }
        }
    }

    /// Whether a statement starts at token `i`: after `{`, `;` or `}`, or on a new line unless
    /// the line continues the one before (it starts with `.` or an operator, or the one before
    /// ends with an operator, `,`, `:` or an opening bracket).
    func startsStatement(_ i: Int) -> Bool {
        guard i > 0 else { return true }
        let previous = tokens[i - 1], token = tokens[i]
        if previous.kind == .open && previous.text == "{" { return true }
        if previous.kind == .close && previous.text == "}" && token.newlineBefore { return !continues(token) }
        if previous.kind == .punctuation && previous.text == ";" { return true }
        guard token.newlineBefore else { return false }
        if continues(token) { return false }
        // An operator at the line's end continues it, but for a postfix `!` or `?` (`x!`).
        if previous.kind == .operator && (previous.spaceBefore || !["!", "?"].contains(previous.text)) { return false }
        if previous.kind == .open { return false }
        if previous.kind == .punctuation && (previous.text == "," || previous.text == ":" || previous.text == ".") { return false }
        return true
    }

    private func continues(_ token: SwiftTokens.Token) -> Bool {
        (token.kind == .punctuation && token.text == ".") || token.kind == .operator || token.kind == .close
    }

    /// Whether scope `inner` is `outer` or inside it, looking at most 64 scopes out.
    func scope(_ inner: Int, isWithin outer: Int) -> Bool {
        var current = inner
        for _ in 0..<64 {
            if current == outer { return true }
            guard current != -1, let parent = parentScope[current] else { return false }
            current = parent
        }
        return false
    }

    /// Where the statement that starts at `start` (or the expression from there) ends: the last
    /// token before the next statement of the same bracket, or before the bracket's close.
    func statementEnd(from start: Int) -> Int {
        var i = start
        let level = enclosing[start]
        var last = start
        var steps = 0
        defer { _ = ReadBudget.spend(steps, on: "the statements of a Swift file", file: nil, location: nil) }
        while i < tokens.count {
            steps += 1
            let token = tokens[i]
            if i > start && enclosing[i] == level && statementStart[i] == i { break }
            // Brackets opened inside are jumped over: a closer met is one opened before `start`.
            if token.kind == .close { break }
            if token.kind == .punctuation && token.text == ";" { break }
            last = i
            if token.kind == .open, let close = token.match { last = close; i = close + 1; continue }
            i += 1
        }
        return last
    }

    /// The text of tokens `range`, as written closely enough to quote (strings in quotes,
    /// spaces where there were some), quoted short.
    func text(_ range: ClosedRange<Int>, limit: Int = 80) -> String {
        var out = ""
        for i in range {
            guard i < tokens.count else { break }
            let token = tokens[i]
            if token.spaceBefore && i != range.lowerBound { out += " " }
            out += token.kind == .string ? "\"\(token.text)\"" : token.text
            if out.utf8.count > limit * 2 { break }
        }
        return out.excerpt(limit)
    }
}
