/// What a token's name says it is for, as `contrast init` reads it: a foreground (text, an
/// `on-…` color), a background, a border or icon (non-text, SC 1.4.11), or nothing it can tell.
///
/// Names are split into words at `.`, `/`, `-`, `_`, spaces, lower-to-upper case changes and
/// letter–digit changes (`fgColor.onEmphasis` is `fg Color on Emphasis`), and words are
/// compared without case. The words are conventions of public design systems: `text`, `fg`,
/// `foreground`, `label` and `on-X` (Primer, shadcn/ui, Material, Apple) for foregrounds;
/// `background`, `bg`, `surface`, `canvas`, `page` for backgrounds; `border`, `outline`,
/// `stroke`, `divider`, `separator`, `icon` for non-text. A name may hold several: `on` followed
/// by another word makes a foreground (`on-surface` sits on a surface) unless a text, border or
/// icon word before it already said what it is (`icon.brand.on-brand` is an icon), and the words
/// after it say what it sits on, not what it is; otherwise the last role word decides (`label.green.bgColor` is a background, `surface.text` a foreground),
/// and it is said where that role's last run of words starts (`label.green.fgColor` at `fg`).
/// `disabled` anywhere marks the token disabled, which WCAG exempts (SC 1.4.3).
public struct TokenNameRole: Hashable, Sendable {
    public enum Role: String, Hashable, Sendable, CaseIterable {
        case foreground, background, nonText = "non-text"
    }

    /// The role, or nil when no word names one.
    public var role: Role?
    /// The word that decided the role, as written in the name (`fg`, `On`, `foreground`).
    public var word: String?
    /// Where that word is in the name (UTF-8 offsets).
    public var wordRange: Range<Int>?
    /// Whether a word of the name is `disabled`.
    public var disabled: Bool
    /// The `disabled` word as written (`disabled`, `Disabled`), for an `except` glob.
    public var disabledWord: String?

    package static let foregroundWords: Set<String> = ["text", "fg", "foreground", "label", "on"]
    static let backgroundWords: Set<String> = ["background", "bg", "surface", "canvas", "page"]
    static let nonTextWords: Set<String> = ["border", "outline", "stroke", "divider", "separator", "icon"]

    public init(name: String) {
        let words = TokenNameRole.words(of: name)
        role = nil
        disabled = false
        var decided: (Role, Word)?
        var sitsOn = false
        var previousWasRole = false
        for (index, word) in words.enumerated() {
            let lowered = word.text.lowercased()
            if lowered == "disabled" {
                disabled = true
                disabledWord = word.text
            }
            if lowered == "on" {
                // `on` names what the color sits on (only with a word after it): what comes
                // after it is not the color's role. An icon or border on X stays one.
                if index + 1 < words.count {
                    if decided == nil || decided?.0 == .background { decided = (.foreground, word) }
                    sitsOn = true
                }
                continue
            }
            if sitsOn { continue }
            let found: Role? = TokenNameRole.foregroundWords.contains(lowered) ? .foreground
                : TokenNameRole.backgroundWords.contains(lowered) ? .background
                : TokenNameRole.nonTextWords.contains(lowered) ? .nonText : nil
            // The last role word decides; the first word of that role's last run of words is
            // where the name says it (`surface.page` is a background at `surface`), so a word
            // of the same role apart from it names a component (`label.blue.fgColor.rest` is
            // the text of the `label.blue.` component, at `fg`).
            if let found {
                if decided?.0 != found || !previousWasRole { decided = (found, word) }
                previousWasRole = true
            } else {
                previousWasRole = false
            }
        }
        if let (found, word) = decided {
            role = found
            self.word = word.text
            wordRange = word.range
        }
    }

    /// One word of a name, and where it is (UTF-8 offsets).
    package struct Word: Hashable {
        package var text: String
        package var range: Range<Int>
    }

    /// The words of a token name (see the type's summary for where it is split).
    package static func words(of name: String) -> [Word] {
        let bytes = Array(name.utf8)
        var words: [Word] = []
        var start: Int?
        func close(at end: Int) {
            if let s = start, s < end {
                words.append(Word(text: String(decoding: bytes[s..<end], as: UTF8.self), range: s..<end))
            }
            start = nil
        }
        func kind(_ b: UInt8) -> Int {  // 0 separator, 1 lower, 2 upper, 3 digit, 4 other
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): return 1
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return 2
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return 3
            case UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: " "), UInt8(ascii: "$"):
                return 0
            default: return 4
            }
        }
        for (i, b) in bytes.enumerated() {
            let k = kind(b)
            if k == 0 {
                close(at: i)
                continue
            }
            if let s = start, i > s {
                let previous = kind(bytes[i - 1])
                let camel = previous == 1 && k == 2
                // "HTMLText": a capital followed by a lower case starts a word after capitals.
                let acronymEnd = previous == 2 && k == 2 && i + 1 < bytes.count && kind(bytes[i + 1]) == 1
                let digitChange = (previous == 3) != (k == 3)
                if camel || acronymEnd || digitChange { close(at: i) }
            }
            if start == nil { start = i }
        }
        close(at: bytes.count)
        return words
    }
}
