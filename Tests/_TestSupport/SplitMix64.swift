/// Deterministic pseudo-random numbers for test data: SplitMix64.
///
/// The parity fixtures (scripts/fixtures/inference_reference.py) use the same
/// generator, each draw x mapped to (x >> 40) / 2^24 in [0, 1) (`unitFloat`),
/// so only reference outputs need to be committed.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func unitFloat() -> Float { Float(next() >> 40) / 16_777_216 }
}
