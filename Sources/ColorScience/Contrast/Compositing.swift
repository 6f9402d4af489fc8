extension SRGB {
    /// This color painted over `backdrop` with source-over compositing on gamma-encoded sRGB
    /// channels, as browsers blend by default.
    public func composited(over backdrop: SRGB) -> SRGB {
        if alpha >= 1 { return self }
        let a = alpha
        let outAlpha = a + backdrop.alpha * (1 - a)
        if outAlpha <= 0 { return .transparent }
        func blend(_ top: Double, _ bottom: Double) -> Double {
            (top * a + bottom * backdrop.alpha * (1 - a)) / outAlpha
        }
        return SRGB(red: blend(red, backdrop.red), green: blend(green, backdrop.green),
                    blue: blend(blue, backdrop.blue), alpha: outAlpha)
    }
}
