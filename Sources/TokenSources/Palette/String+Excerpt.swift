/// User text quoted in a message, a reason or a result (a selector, an at-rule's prelude, a set
/// or collection name, a check's description, a deprecation note) is quoted at most this long:
/// what a read or an audit writes per declaration or per result then grows with the input's
/// count of declarations or results, never with the length of the text times that count.
extension StringProtocol {
    /// The text, or its first `limit` characters and an ellipsis with how long it is. Costs
    /// O(`limit`), not O(length): it is called once per result.
    public func excerpt(_ limit: Int = 80) -> String {
        guard let end = index(startIndex, offsetBy: limit, limitedBy: endIndex), end != endIndex else { return String(self) }
        return String(self[..<end]) + "…(\(utf8.count) bytes)"
    }
}
