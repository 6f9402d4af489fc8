/// A small deterministic generator (SplitMix64), so property tests are reproducible: each test
/// names its seed in every failure, and `CONTRAST_TEST_SEED` replays (or explores) another.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public let seed: UInt64
    private var state: UInt64

    /// The seed of `CONTRAST_TEST_SEED` when set, else `seed`.
    public init(seed: UInt64) {
        let override = getenvSeed()
        self.seed = override ?? seed
        state = override ?? seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// "seed 7 (replay with CONTRAST_TEST_SEED=7)", for failure messages.
    public var replay: String { "seed \(seed) (replay with CONTRAST_TEST_SEED=\(seed))" }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func getenvSeed() -> UInt64? {
    guard let raw = getenv("CONTRAST_TEST_SEED") else { return nil }
    return UInt64(String(cString: raw))
}
