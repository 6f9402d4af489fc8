/// Sizes as the messages of limits quote them: bytes under a KiB, then KiB or MiB to a tenth.
public enum ByteCount {
    public static func megabytes(_ bytes: Int) -> String {
        if bytes < 1 << 10 { return "\(bytes) bytes" }
        let (value, unit) = bytes < 1 << 20 ? (Double(bytes) / 1024, "KiB") : (Double(bytes) / Double(1 << 20), "MiB")
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) \(unit)" : "\(tenths) \(unit)"
    }
}
