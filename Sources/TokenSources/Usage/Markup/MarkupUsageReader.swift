/// Utility classes in markup as usage: where HTML, JSX/TSX, Vue and Svelte put a Tailwind color
/// on another (`class="bg-card text-card-foreground"`, shadcn/ui's `cn(…)` and `cva(…)`).
///
/// - Lists: a `class`/`className` attribute, Vue's `:class`, Svelte's `class:NAME`, and the
///   string and template literals of `cn`, `clsx`, `cx`, `classnames`, `twMerge`, `twJoin`,
///   `cva` and `tv` calls. An element's unconditional lists are one list; each list on a
///   condition (`cond && "…"`, `{ "…": cond }`, a ternary's branch) and each `cva` variant is read
///   merged with that base, one at a time, never with each other.
/// - Pairs: `text-X` on the list's `bg-Y` is text; `border-`, `ring-`, `outline-` colors are
///   non-text (SC 1.4.11) on what the element sits on, the `bg-` of the nearest enclosing element
///   of the same file (JSX or HTML), never its own fill; `divide-` lines are drawn inside the
///   element, on its own fill when it has one. Text with no `bg-` in its list is on the enclosing
///   element's background too. A list outside an element (a `cva` variant) has no enclosing
///   background in the file: its non-text colors are not read, and say so.
/// - Variants: `hover:`, `focus-visible:`, `aria-selected:`, `[a&]:hover:`… are states, each
///   paired over the resting classes it does not replace (the evidence names the state);
///   `dark:` applies in dark themes (the evidence says so, and the pair's `themes` names them;
///   the resting pair a `dark:` class replaces names the others). `disabled:` and `aria-disabled:`
///   (any variant naming `disabled`) are never proposed: WCAG exempts inactive components.
/// - Colors: `bg-X` is a color when the palettes read have `color-X` (Tailwind v4's
///   `@theme { --color-X: … }`, which the stylesheet reader reads as the base theme); with
///   `@theme inline { --color-X: var(--Y) }` the utility reads `--Y` itself, and the pair names
///   `Y`. Tailwind's `white` and `black` are `#ffffff` and `#000000`. Every other class is no
///   color (`text-sm`, `bg-clip-text`, `border-2`) and passes without a note. An arbitrary value
///   is the token it names (`bg-[var(--x)]`, `text-[color:var(--x)]`, `bg-(--x)`); one that
///   names none (`bg-[#fff]`) is not read. An opacity modifier (`bg-primary/90`) is a
///   translucent color, which a check of two token names would measure opaque: it is not read.
///
/// Linear in the file: one pass over its bytes (``MarkupScanner``), a constant of dictionary
/// look-ups per class. Every color met and not paired is in `notRead` with its line and why.
public struct MarkupUsageReader: UsageReader {
    public init() {}

    public var name: String { "utility classes in markup (Tailwind)" }

    public func reads(path: String, head: ArraySlice<UInt8>) -> Bool {
        Self.dialect(path) != nil
    }

    public func read(file: String, bytes: [UInt8], context: UsageContext) -> UsageRead {
        guard let dialect = Self.dialect(file) else { return UsageRead() }
        var pairing = MarkupPairing(file: file, tokens: UsageTokens.of(context))
        guard ReadBudget.spend(bytes.count, on: "the class lists of a markup file", file: file, location: nil) else {
            pairing.note(line: 1, "the file is not read: \(ReadBudget.current?.problem?.message.excerpt(160) ?? "its budget ran out")")
            return pairing.read
        }
        var scanner = MarkupScanner(bytes: bytes, dialect: dialect, pairing: pairing)
        scanner.scan()
        return scanner.pairing.read
    }

    /// How a file is read, by its name's ending; nil for a file this reader does not read.
    static func dialect(_ path: String) -> MarkupScanner.Dialect? {
        let name = path.split(separator: "/").last.map { $0.lowercased() } ?? ""
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...] {
        case "html", "htm": return .markup(templates: false)
        case "vue", "svelte", "astro": return .markup(templates: true)
        case "jsx", "tsx", "js", "mjs", "cjs": return .jsx
        case "ts", "mts", "cts": return name.hasSuffix(".d.ts") ? nil : .script
        default: return nil
        }
    }
}
