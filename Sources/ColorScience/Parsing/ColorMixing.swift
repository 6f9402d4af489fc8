/// Two sRGB colors mixed in one of CSS's interpolation spaces, by the one interpolation CSS
/// `color-mix()` and gradients use (``InterpolationPair``): missing and powerless hues taken
/// from the other color, the hue by the shorter arc.
public enum ColorMixing {
    /// `first` mixed `weight` (0…1) of the way to `second` in the space CSS names `space`
    /// (`srgb`, `display-p3`, `hsl`, `lch`, `oklch`, …), gamut-mapped into sRGB as CSS shows it;
    /// nil for a name that is not a CSS interpolation space.
    ///
    /// `premultiplied` is CSS's way (Color 4 §12.3). Without it, the components and alpha are
    /// interpolated apart, as colorjs.io's `mix` does (and Tokens Studio with it): the colors
    /// are mixed opaque, so premultiplying changes nothing, and the alphas are mixed on their own.
    public static func mix(_ first: SRGB, _ second: SRGB, weight: Double, inSpaceNamed space: String, premultiplied: Bool = true) -> SRGB? {
        guard let target = CSSSpace(name: space) else { return nil }
        let a = SpacedColor(space: .srgb, first.components, alpha: premultiplied ? first.alpha : 1)
        let b = SpacedColor(space: .srgb, second.components, alpha: premultiplied ? second.alpha : 1)
        var mixed = SpacedColor.mix(a, b, t: weight, in: target, hue: .shorter, alphaMultiplier: 1)
        if !premultiplied { mixed.alpha = first.alpha + (second.alpha - first.alpha) * weight }
        return ColorParser.display(mixed).color
    }
}
