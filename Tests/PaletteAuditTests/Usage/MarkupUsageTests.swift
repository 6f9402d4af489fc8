import ColorScience
import Foundation
@testable import PaletteAudit
@testable import TokenSources
import Testing

/// The markup usage reader (issue #48 §1): Tailwind utility pairs in HTML, JSX, Vue and Svelte,
/// named as the stylesheet's palette names its tokens.
@Suite struct MarkupUsageTests {
    /// A shadcn-like stylesheet: `@theme inline` aliases, a light and a dark theme, one theme
    /// color of its own (`brand`) and one size (`--text-tiny`), which is no color.
    static let globals = """
        @theme inline {
          --text-tiny: 0.625rem;
          --color-background: var(--background);
          --color-foreground: var(--foreground);
          --color-card: var(--card);
          --color-card-foreground: var(--card-foreground);
          --color-primary: var(--primary);
          --color-primary-foreground: var(--primary-foreground);
          --color-secondary: var(--secondary);
          --color-secondary-foreground: var(--secondary-foreground);
          --color-muted: var(--muted);
          --color-muted-foreground: var(--muted-foreground);
          --color-accent: var(--accent);
          --color-accent-foreground: var(--accent-foreground);
          --color-destructive: var(--destructive);
          --color-border: var(--border);
          --color-ring: var(--ring);
          --color-brand: #0b5394;
        }
        :root {
          --background: #ffffff;
          --foreground: #111111;
          --card: #fafafa;
          --card-foreground: #222222;
          --primary: #1d4ed8;
          --primary-foreground: #f8fafc;
          --secondary: #e2e8f0;
          --secondary-foreground: #0f172a;
          --muted: #f1f5f9;
          --muted-foreground: #64748b;
          --accent: #e0f2fe;
          --accent-foreground: #075985;
          --destructive: #b91c1c;
          --border: #cbd5e1;
          --ring: #94a3b8;
        }
        .dark {
          --background: #0a0a0a;
          --foreground: #fafafa;
          --card: #171717;
          --card-foreground: #f5f5f5;
          --primary: #93c5fd;
          --primary-foreground: #0c1a33;
        }
        """

    /// Reads `files` (with the stylesheet above) and returns what the markup reader found.
    static func read(_ files: [String: String]) throws -> UsageRun.Result {
        var all = files
        all["app/globals.css"] = globals
        let root = try UsageRun.write(all, prefix: "markup")
        return UsageRun.read(root, with: MarkupUsageReader(), palettes: [root + "/app/globals.css"])
    }

    static func pair(_ result: UsageRun.Result, _ fg: String, _ bg: String) -> UsagePair? {
        result.pairs.first { $0.foreground == fg && $0.background == bg }
    }

    static func note(_ result: UsageRun.Result, line: Int, containing text: String) -> UsageEvidence? {
        result.notRead.first { $0.line == line && $0.what.contains(text) }
    }

    @Test func readsMarkupAndScriptFiles() {
        let reader = MarkupUsageReader()
        for path in ["a/page.html", "b.htm", "App.vue", "Card.svelte", "x.astro", "button.tsx", "a.jsx", "variants.ts", "m.mjs"] {
            #expect(reader.reads(path: path, head: []), "\(path)")
        }
        for path in ["types.d.ts", "globals.css", "layout.xml", "View.swift", "README.md", "Makefile"] {
            #expect(!reader.reads(path: path, head: []), "\(path)")
        }
        #expect(UsageReaders.all.contains { $0 is MarkupUsageReader })
    }

    @Test func aClassNamesTextOnItsBackgroundByThePalettesNames() throws {
        let result = try Self.read(["card.tsx": """
            export function Card() {
              return (
                <div className="flex rounded-xl border-2 bg-card p-6 text-card-foreground text-sm bg-clip-padding">
                  Body
                </div>
              )
            }
            """])
        // `--color-card: var(--card)` under `@theme inline`: the utility reads --card, the pair names `card`.
        let card = try #require(Self.pair(result, "card-foreground", "card"))
        #expect(card.usage == .text && card.confidence == .usage)
        #expect(card.evidence.line == 3 && card.evidence.file.hasSuffix("card.tsx"))
        #expect(card.evidence.what == "text-card-foreground on bg-card")
        // text-sm, border-2, bg-clip-padding, flex: no colors, and no noise.
        #expect(result.pairs.count == 1 && result.notRead.isEmpty, "\(result.notRead.map(\.text))")
    }

    @Test func textSizesAreNoColorsUnlessTheThemeNamesThem() throws {
        let result = try Self.read(["a.tsx": """
            const a = <p className="bg-background text-tiny text-lg text-left text-balance">x</p>
            const b = <p className="bg-background text-brand">y</p>
            """])
        // --text-tiny is a size of the theme, --color-brand a color: only the second is a pair.
        let brand = try #require(Self.pair(result, "color-brand", "background"))
        #expect(brand.evidence.line == 2)
        #expect(result.pairs.count == 1 && result.notRead.isEmpty, "\(result.notRead.map(\.text))")
    }

    @Test func cvaVariantsAreEachMergedWithTheBase() throws {
        let result = try Self.read(["button.tsx": """
            import { cva } from "class-variance-authority"
            const buttonVariants = cva(
              "inline-flex text-sm focus-visible:ring-ring",
              {
                variants: {
                  variant: {
                    default: "bg-primary text-primary-foreground",
                    destructive:
                      "bg-destructive text-white",
                    secondary: "bg-secondary text-secondary-foreground",
                  },
                  size: { sm: "h-8 px-3" },
                },
                defaultVariants: { variant: "default", size: "sm" },
              }
            )
            """])
        let primary = try #require(Self.pair(result, "primary-foreground", "primary"))
        #expect(primary.evidence.line == 7 && primary.evidence.what == "text-primary-foreground on bg-primary in the cva(…) variant default with its base")
        // Tailwind's own white is #fff, a color written in the source: paired with the token.
        let destructive = try #require(Self.pair(result, "#ffffff", "destructive"))
        #expect(destructive.evidence.line == 9)
        #expect(Self.pair(result, "secondary-foreground", "secondary")?.evidence.line == 10)
        // Variants are never merged with each other.
        #expect(Self.pair(result, "primary-foreground", "secondary") == nil && Self.pair(result, "secondary-foreground", "primary") == nil)
        #expect(result.pairs.count == 3)
        // The base's focus ring is drawn on what the button sits on, which is not in the file.
        let ring = try #require(Self.note(result, line: 3, containing: "focus-visible:ring-ring, in the focus-visible state in a cva(…) base: not on an element of this file"))
        #expect(result.notRead.count == 1, "\(result.notRead.map(\.text)) \(ring)")
    }

    @Test func tailwindVariantsInTypeScriptWithoutJSX() throws {
        let result = try Self.read(["variants.ts": """
            function first<T>(items: Array<T>): T | undefined { return items.length < 1 ? undefined : items[0] }
            const re = /["'`]/g
            export const chip = tv({
              base: "rounded text-card-foreground",
              variants: {
                tone: {
                  card: "bg-card",
                  muted: 'bg-muted text-muted-foreground',
                },
              },
            })
            """])
        // The base's text on the card variant's background, at the variant's line.
        let card = try #require(Self.pair(result, "card-foreground", "card"))
        #expect(card.evidence.line == 7 && card.evidence.what == "text-card-foreground on bg-card in the tv(…) variant card with its base")
        // The muted variant's own text replaces the base's.
        #expect(Self.pair(result, "muted-foreground", "muted")?.evidence.line == 8)
        #expect(Self.pair(result, "card-foreground", "muted") == nil)
        // The base alone is on no element, but a variant pairs its text: no note for it.
        #expect(Self.note(result, line: 4, containing: "text-card-foreground in a tv(…) base: not on an element of this file") == nil)
        #expect(result.pairs.count == 2, "\(result.pairs.map(\.evidence.text))")
    }

    @Test func textAndBordersSitOnTheEnclosingElementsBackground() throws {
        let result = try Self.read(["panel.jsx": """
            function Panel() {
              const n = items.length < 3 ? 1 : 2
              return (
                <section className="bg-background p-4">
                  <p className="text-muted-foreground">Don't worry, it's {n > 1 ? "fine" : 'ok'}</p>
                  <div className="bg-muted">
                    <span className="bg-card border border-border ring-2 ring-ring">x</span>
                  </div>
                  <Icon className="text-foreground" />
                </section>
              )
            }
            """])
        // Text with no bg- of its own: on the section's.
        let muted = try #require(Self.pair(result, "muted-foreground", "background"))
        #expect(muted.evidence.line == 5 && muted.evidence.what == "text-muted-foreground on bg-background of the enclosing <section> (line 4)")
        // A border and a ring are on what the span sits on (the div's bg-muted), not its own fill.
        let border = try #require(Self.pair(result, "border", "muted"))
        #expect(border.usage == .nonText && border.evidence.line == 7 && border.evidence.what == "border-border on bg-muted of the enclosing <div> (line 6)")
        #expect(Self.pair(result, "ring", "muted")?.usage == .nonText)
        #expect(Self.pair(result, "border", "card") == nil)
        // After the apostrophes of the text and the self-closing tag, the section is still known.
        #expect(Self.pair(result, "foreground", "background")?.evidence.line == 9)
        #expect(result.pairs.count == 4 && result.notRead.isEmpty, "\(result.notRead.map(\.text))")
    }

    @Test func statesAndDarkThemesAreSaidSo() throws {
        let result = try Self.read(["link.tsx": """
            const a = <a className="bg-card text-card-foreground hover:bg-accent hover:text-accent-foreground focus-visible:text-foreground">x</a>
            const b = <div className="bg-background text-foreground dark:bg-card">y</div>
            """])
        #expect(Self.pair(result, "card-foreground", "card")?.evidence.what == "text-card-foreground on bg-card")
        #expect(Self.pair(result, "accent-foreground", "accent")?.evidence.what == "hover:text-accent-foreground on hover:bg-accent, in the hover state")
        // focus-visible changes the text only: on the resting background.
        #expect(Self.pair(result, "foreground", "card")?.evidence.what == "focus-visible:text-foreground on bg-card, in the focus-visible state")
        #expect(Self.pair(result, "foreground", "background")?.evidence.line == 2)
        // Line 2's dark pair has the tokens of line 1's focus pair, in dark themes only: a pair of its own.
        #expect(result.pairs.first { $0.foreground == "foreground" && $0.background == "card" && $0.evidence.line == 2 }?.themes == ["dark"])
        #expect(result.pairs.count == 5, "\(result.pairs.map(\.evidence.text))")
    }

    @Test func darkVariantsPairInDarkThemes() throws {
        let result = try Self.read(["d.tsx": """
            const b = <div className="bg-background text-muted-foreground dark:bg-card">y</div>
            """])
        // The resting pair is drawn in light themes only: in dark ones dark:bg-card replaces its background.
        let light = try #require(Self.pair(result, "muted-foreground", "background"))
        #expect(light.evidence.what == "text-muted-foreground on bg-background, in light themes (a dark: class replaces it in dark ones)")
        #expect(light.themes == ["light"])
        let dark = try #require(Self.pair(result, "muted-foreground", "card"))
        #expect(dark.evidence.what == "text-muted-foreground on dark:bg-card, in dark themes (dark:)" && dark.themes == ["dark"])
        #expect(result.pairs.count == 2)
        // Text on an enclosing background that dark: changes: one pair in each scheme.
        let nested = try Self.read(["n.tsx": """
            const n = <div className="bg-background dark:bg-card">
              <p className="text-foreground">x</p>
            </div>
            """])
        #expect(Self.pair(nested, "foreground", "background")?.themes == ["light"])
        #expect(Self.pair(nested, "foreground", "background")?.evidence.what == "text-foreground on bg-background of the enclosing <div> (line 1), in light themes (a dark: class replaces it in dark ones)")
        #expect(Self.pair(nested, "foreground", "card")?.themes == ["dark"])
        #expect(Self.pair(nested, "foreground", "card")?.evidence.line == 2 && nested.pairs.count == 2)
        // A pair of no dark: class is drawn in every theme.
        let plain = try Self.read(["p.tsx": #"const p = <p className="bg-card text-card-foreground">x</p>"#])
        #expect(plain.pairs.count == 1 && plain.pairs[0].themes == nil)
    }

    @Test func disabledStatesAreNeverProposed() throws {
        let result = try Self.read(["input.tsx": """
            const i = <input className="bg-background text-foreground disabled:bg-muted disabled:text-muted-foreground aria-disabled:text-muted-foreground" />
            """])
        #expect(result.pairs.map(\.background) == ["background"])
        let notes = result.notRead.filter { $0.what.contains("WCAG exempts") }
        #expect(notes.count == 3 && notes.allSatisfy { $0.line == 1 })
        #expect(Self.note(result, line: 1, containing: "aria-disabled:text-muted-foreground: the aria-disabled state, which WCAG exempts (inactive components, SC 1.4.3 and 1.4.11): never proposed") != nil)
    }

    @Test func translucentColorsAreNotRead() throws {
        let result = try Self.read(["t.tsx": """
            const a = <div className="bg-card text-muted-foreground/70">a</div>
            const b = <div className="bg-primary text-primary-foreground hover:bg-primary/90">b</div>
            const c = <div className="bg-black/50"><p className="text-foreground">c</p></div>
            """])
        #expect(Self.note(result, line: 1, containing: "text-muted-foreground/70: a translucent color (/70)") != nil)
        #expect(Self.pair(result, "muted-foreground", "card") == nil)
        // The resting pair is read; the hover background is translucent over what is not known.
        #expect(Self.pair(result, "primary-foreground", "primary")?.evidence.line == 2)
        #expect(Self.note(result, line: 2, containing: "hover:bg-primary/90: a translucent background (/90)") != nil)
        // Text on a translucent overlay: what it is measured against is not known.
        #expect(Self.note(result, line: 3, containing: "text-foreground: the background it is drawn on is not known: bg-black/50 (line 3) is translucent") != nil)
        #expect(result.pairs.count == 1)
    }

    @Test func arbitraryValuesResolveWhenTheyNameAToken() throws {
        let result = try Self.read(["arb.tsx": """
            const a = <div className="bg-[var(--card)] text-[color:var(--card-foreground)] text-[14px] border-[3px] ring-[3px]">a</div>
            const b = <div className="bg-(--color-muted) text-[#333]">b</div>
            const c = <div className="bg-[#ffffff] text-foreground">c</div>
            """])
        #expect(Self.pair(result, "card-foreground", "card")?.evidence.line == 1)
        #expect(Self.note(result, line: 2, containing: "text-[#333]: [#333] is a color written in the class, not a token of the palette") != nil)
        #expect(Self.note(result, line: 3, containing: "bg-[#ffffff]: [#ffffff] is a color written in the class") != nil)
        #expect(Self.note(result, line: 3, containing: "text-foreground: the background it is drawn on is not known") != nil)
        #expect(result.pairs.count == 1 && result.notRead.count == 3, "\(result.notRead.map(\.text))")
    }

    @Test func conditionalListsAreAlternativesNotOneList() throws {
        let result = try Self.read(["c.tsx": """
            const a = <div className={cn(
              "p-2",
              active ? "bg-primary text-primary-foreground" : "bg-secondary text-secondary-foreground",
              className
            )} />
            const b = <div className={`bg-card ${open ? "x" : "y"} text-card-foreground bg-${tone}-500`} />
            """])
        #expect(Self.pair(result, "primary-foreground", "primary")?.evidence.line == 3)
        #expect(Self.pair(result, "secondary-foreground", "secondary")?.evidence.line == 3)
        #expect(Self.pair(result, "primary-foreground", "secondary") == nil && Self.pair(result, "secondary-foreground", "primary") == nil)
        // A template literal's text is one list; a class built at run time is no class.
        #expect(Self.pair(result, "card-foreground", "card")?.evidence.line == 6)
        #expect(result.pairs.count == 3 && result.notRead.isEmpty, "\(result.notRead.map(\.text))")
    }

    @Test func plainHTMLWithScriptsAndStyles() throws {
        let result = try Self.read(["index.html": """
            <!doctype html>
            <html>
            <head><style>.x { color: red; } p > a { }</style>
            <script>const s = '<p class="text-primary">'; if (a < b) {}</script></head>
            <body class="bg-background">
              <!-- <p class="text-primary"> -->
              <main>
                <p class=text-foreground>It's here</p>
                <img src="a.png" class="border-border">
                <button class="bg-primary text-primary-foreground hover:bg-accent hover:text-accent-foreground">Go</button>
              </main>
            </body>
            </html>
            """])
        #expect(Self.pair(result, "foreground", "background")?.evidence.what == "text-foreground on bg-background of the enclosing <body> (line 5)")
        #expect(Self.pair(result, "foreground", "background")?.evidence.line == 8)
        #expect(Self.pair(result, "border", "background")?.evidence.line == 9)
        #expect(Self.pair(result, "primary-foreground", "primary")?.evidence.line == 10)
        #expect(Self.pair(result, "accent-foreground", "accent")?.evidence.line == 10)
        // Nothing from the comment, the script's string or the stylesheet.
        #expect(Self.pair(result, "primary", "background") == nil)
        #expect(result.pairs.count == 4 && result.notRead.isEmpty, "\(result.notRead.map(\.text))")
    }

    @Test func aStyleThatSetsTheVariableHidesThePalettesColor() throws {
        let result = try Self.read([
            "chart.tsx": """
                const a = <div className="bg-card border-(--color-border) text-card-foreground"
                  style={{ "--color-border": color } as React.CSSProperties} />
                """,
            "page.html": """
                <body class="bg-background">
                <script>
                  const a = "x"
                  const b = `y`
                </script>
                <p class="text-foreground">z</p>
                </body>
                """,
        ])
        #expect(Self.pair(result, "card-foreground", "card")?.evidence.line == 1)
        #expect(Self.pair(result, "border", "card") == nil && Self.pair(result, "border", "background") == nil)
        #expect(Self.note(result, line: 1, containing: "border-(--color-border): the element's style attribute (line 1) sets --color-border, so its color there is not the palette's") != nil)
        // Lines after a script of several lines are still the file's.
        #expect(Self.pair(result, "foreground", "background")?.evidence.line == 6)
        #expect(result.pairs.count == 2 && result.notRead.count == 1, "\(result.notRead.map(\.text))")
    }

    @Test func vueBindingsAndSvelteDirectives() throws {
        let result = try Self.read([
            "Tab.vue": """
                <template>
                  <div class="bg-card">
                    <button class="px-2" :class="{ 'bg-primary text-primary-foreground': active, 'text-muted-foreground': !active }">{{ label }}</button>
                    <span :class="['text-card-foreground', big && 'text-lg']">x</span>
                  </div>
                </template>
                <script setup lang="ts">
                const active = ref(false)
                </script>
                """,
            "Chip.svelte": """
                <div class="bg-background">
                  <span class="text-secondary-foreground" class:bg-secondary={selected}>{label}</span>
                </div>
                """,
        ])
        #expect(Self.pair(result, "primary-foreground", "primary")?.evidence.line == 3)
        // The other branch has no bg- of its own: on the enclosing div's.
        #expect(Self.pair(result, "muted-foreground", "card")?.evidence.line == 3)
        #expect(Self.pair(result, "card-foreground", "card")?.evidence.line == 4)
        let chip = try #require(Self.pair(result, "secondary-foreground", "secondary"))
        #expect(chip.evidence.file.hasSuffix("Chip.svelte") && chip.evidence.line == 2)
        #expect(Self.pair(result, "secondary-foreground", "background")?.evidence.line == 2)
        #expect(result.pairs.count == 5, "\(result.pairs.map(\.evidence.text))")
    }

    @Test func withoutAThemeUtilitiesAreNotReadAndSaySo() throws {
        let root = try UsageRun.write(["a.tsx": #"const a = <div className="bg-card text-card-foreground text-sm border-2">x</div>"#], prefix: "markup-none")
        let result = UsageRun.read(root, with: MarkupUsageReader(), palettes: [])
        #expect(result.pairs.isEmpty)
        #expect(result.notRead.count == 2 && result.notRead.allSatisfy { $0.what.contains("no stylesheet read has a Tailwind @theme") }, "\(result.notRead.map(\.text))")
    }

    @Test func deepNestingIsRefusedNotRecursed() throws {
        let deep = String(repeating: "(", count: 5_000) + #"cn("bg-card text-card-foreground")"# + String(repeating: ")", count: 5_000)
        let html = String(repeating: "<div>", count: 3_000) + #"<p class="text-foreground">x</p>"#
        let result = try Self.read(["deep.tsx": "const x = " + deep, "deep.html": html])
        #expect(result.notRead.contains { $0.what.contains("deeper than \(ReadBudget.maximumDepth) levels") })
    }

    // MARK: shadcn/ui

    @Test func shadcnsComponents() throws {
        guard let root = UsageRun.shared("realworld4/shadcn/apps/v4/registry/new-york-v4/ui"),
              let css = UsageRun.shared("realworld4/shadcn/apps/v4/app/globals.css") else { return }
        let result = UsageRun.read(root, with: MarkupUsageReader(), palettes: [css])
        RealWorldUsageTests.expectNoNonsense(result)
        func find(_ fg: String, _ bg: String, _ file: String, _ line: Int) -> UsagePair? {
            result.pairs.first { $0.foreground == fg && $0.background == bg && $0.evidence.file.hasSuffix("/ui/" + file) && $0.evidence.line == line }
        }
        // button.tsx:12, the default variant: `bg-primary text-primary-foreground hover:bg-primary/90`.
        let button = try #require(find("primary-foreground", "primary", "button.tsx", 12))
        #expect(button.usage == .text && button.evidence.what == "text-primary-foreground on bg-primary in the cva(…) variant default with its base")
        #expect(find("accent-foreground", "accent", "button.tsx", 16)?.evidence.what.contains("in the hover state") == true)
        #expect(result.notRead.contains { $0.file.hasSuffix("/ui/button.tsx") && $0.line == 12 && $0.what.hasPrefix("hover:bg-primary/90: a translucent background") })
        // card.tsx:10: `bg-card … text-card-foreground`.
        #expect(find("card-foreground", "card", "card.tsx", 10)?.evidence.what == "text-card-foreground on bg-card")
        // badge.tsx:16, the destructive variant: `bg-destructive text-white`, whose
        // `dark:bg-destructive/60` makes it a pair of light themes.
        #expect(find("#ffffff", "destructive", "badge.tsx", 16)?.themes == ["light"])
        #expect(result.pairs.filter { $0.themes != nil }.count == 5)
        #expect(find("secondary-foreground", "secondary", "badge.tsx", 14) != nil)
        // tooltip.tsx:45 inverts: text-background on bg-foreground.
        #expect(find("background", "foreground", "tooltip.tsx", 45) != nil)
        // A focus ring on the dialog's own background, its enclosing element (dialog.tsx:61, :73).
        #expect(find("ring", "background", "dialog.tsx", 73)?.usage == .nonText)
        // A component's text with no background in its file says so.
        #expect(result.notRead.contains { $0.file.hasSuffix("/ui/card.tsx") && $0.what.hasPrefix("text-muted-foreground: its class list has no bg- and no enclosing element") })
        // A pseudo-element's background is not under the element's text (marker.tsx:14).
        #expect(!result.pairs.contains { $0.evidence.what.contains("before:bg-") })
        // The counts docs/usage-sources.md gives, at the pinned commit of the material.
        #expect(result.pairs.count == 57 && result.pairs.filter { $0.usage == .nonText }.count == 2, "\(result.pairs.count)")
        #expect(result.notRead.count == 289, "\(result.notRead.count)")
        #expect(result.notRead.filter { $0.what.contains("a translucent") }.count == 117)
        #expect(result.notRead.filter { $0.what.contains("enclosing element of this file has a background") }.count == 119)
        #expect(result.notRead.filter { $0.what.contains("not on an element of this file") }.count == 30)
    }
}
