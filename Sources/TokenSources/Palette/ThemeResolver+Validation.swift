import ColorScience
import Synchronization

/// Validation: every token of a theme resolved once, one problem per broken chain, and the
/// suggestion a problem offers for a name that is not there.
extension ThemeResolver {
    /// Checks that every token resolves to a color, in time linear in the number of tokens
    /// (each alias chain is walked once), returning one problem per broken chain.
    /// `shouldStop` is asked every 1,024 tokens; when it says to stop, the problems found so far
    /// are returned, and the caller, which asked, stops too.
    public func validateAll(shouldStop: (@Sendable () -> Bool)? = nil) -> [PaletteProblem] {
        validateAllTokens(shouldStop: shouldStop).problems
    }

    /// ``validateAll(shouldStop:)``, and the tokens that cannot be read although no problem is
    /// located at them: the other members of an alias cycle, and the aliases that lead to a
    /// token that cannot be read, each with why (so the ledger counts them as not read, not
    /// as colors).
    public func validateAllTokens(shouldStop: (@Sendable () -> Bool)? = nil) -> (problems: [PaletteProblem], failed: [(token: Token, reason: String)]) {
        // Per token: how many aliases lead from it to a color, or -1 when its chain is broken
        // (and already reported).
        var depth: [String: Int] = [:]
        var problems: [PaletteProblem] = []
        // Why a broken chain is broken, by its members.
        var brokenBy: [String: String] = [:]
        var failed: [(token: Token, reason: String)] = []
        var reportedTooDeep = false
        for (index, name) in tokenNames.enumerated() where depth[name] == nil {
            if index & 1023 == 1023, let shouldStop, shouldStop() { break }
            // Most tokens are a color as written: no chain to walk.
            if let token = tokens[name], token.operations.isEmpty, token.aliasTarget == nil {
                if token.unreadable != nil {
                    depth[name] = -1  // its reader reported why
                    continue
                }
                if CSSColor.isColor(token.value, scheme: scheme) {
                    depth[name] = 0
                    continue
                }
            }
            var path: [String] = []
            var onPath: [String: Int] = [:]
            var current = name
            var end = 0  // depth of the chain's end; -1 broken
            let reported = problems.count
            var inherited: String?  // the reason of a broken chain this one joins
            while true {
                if let known = depth[current] {
                    end = known < 0 ? -1 : known + 1
                    if known < 0 { inherited = brokenBy[current] }
                    break
                }
                if let index = onPath[current] {
                    problems.append(cycleProblem(Array(path[index...])))
                    end = -1
                    break
                }
                guard let token = tokens[current] else { break }
                onPath[current] = path.count
                path.append(current)
                if let target = token.aliasTarget {
                    if tokens[target] == nil {
                        problems.append(problem(.unknownToken, "token \"\(token.name)\" is an alias of \"\(token.writtenReference ?? "{\(target)}")\", which names no color token of theme '\(theme.name)'\(suggestion(for: target, excluding: token.name))", at: token))
                        end = -1
                        break
                    }
                    current = target
                    continue
                }
                if !CSSColor.isColor(token.value, scheme: scheme) && token.operations.isEmpty {
                    var copy = self
                    if case .failure(let p) = copy.resolveBackground(token.name) {
                        problems.append(p)
                        end = -1
                    }
                } else if !token.operations.isEmpty {
                    var copy = self
                    if case .failure(let p) = copy.resolveBackground(token.name) {
                        problems.append(p)
                        end = -1
                    }
                }
                break
            }
            // A broken chain's members that no problem is located at cannot be read either.
            if end < 0, let reason = problems.count > reported ? problems.last?.message : inherited {
                let locatedAt = problems.count > reported ? problems.last.map { ($0.file, $0.location) } : nil
                for member in path {
                    brokenBy[member] = reason
                    guard let token = tokens[member] else { continue }
                    if let (file, location) = locatedAt, location == token.location, file == (token.file ?? file) { continue }
                    failed.append((token, "its alias chain cannot be read: \(reason)"))
                }
            }
            // Members of the path, from its end back to its start, are 0, 1, 2… aliases deeper.
            for (offset, member) in path.reversed().enumerated() {
                let d = end < 0 ? -1 : end + offset
                depth[member] = d
                if d > ThemeResolver.maximumAliasDepth && !reportedTooDeep, let token = tokens[member] {
                    problems.append(problem(.limitExceeded, "alias chain from \"\(member)\" is longer than \(ThemeResolver.maximumAliasDepth) tokens", at: token))
                    reportedTooDeep = true
                }
            }
        }
        return (problems, failed)
    }

    func suggestion(for name: String, excluding: String? = nil) -> String {
        guard name.count < 200, suggestions.take() else { return "" }
        // The nearest name by edit distance (the first of equals, in document order).
        var best: (name: String, distance: Int)?
        for candidate in tokenNames where candidate != excluding {
            guard let distance = PaletteDecoder.editDistance(candidate, name, atMost: best.map { $0.distance - 1 } ?? 2) else { continue }
            best = (candidate, distance)
            if distance == 0 { break }
        }
        return best.map { " (did you mean \"\($0.name)\"?)" } ?? ""
    }
}
