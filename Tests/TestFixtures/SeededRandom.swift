/// Knuth's MMIX linear congruential generator, halves swapped: a seeded source, so a randomised test
/// (jitter, rule properties) replays the same cases on every run.
package struct SeededRandom: RandomNumberGenerator {
    package var state: UInt64

    package init(state: UInt64) { self.state = state }

    package mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (state >> 32) | (state << 32)
    }
}
