/// How many messages gateways publish per gateway-beacon pair and second, overall and over the
/// seconds the beacon is at rest (the publish policy's budget is stated for a beacon at rest).
///
/// A second is the interval (t − 1, t] before a whole-second tick t; `addSecond` says whether the
/// beacon was at rest in it, `addMessage` counts a message stamped in a second added before.
package struct MessageRate: Sendable, Equatable {
    /// Gateway-beacon pairs: the gateways that heard the beacon in the run.
    package let pairs: Int
    package private(set) var pairSeconds = 0
    package private(set) var restPairSeconds = 0
    package private(set) var messages = 0
    package private(set) var restMessages = 0
    /// Ticks added, and whether the beacon was at rest in the second before each.
    private var seconds: [Int64: Bool] = [:]

    package init(pairs: Int) { self.pairs = pairs }

    package mutating func addSecond(endingAt tick: Int64, atRest: Bool) {
        guard seconds.updateValue(atRest, forKey: tick) == nil else { return }
        pairSeconds += pairs
        if atRest { restPairSeconds += pairs }
    }

    package mutating func addMessage(at time: Double) {
        guard let atRest = seconds[Int64(time.rounded(.up))] else { return }
        messages += 1
        if atRest { restMessages += 1 }
    }

    /// Adds another run's counts (its seconds are not kept: add messages before merging).
    package mutating func merge(_ other: MessageRate) {
        pairSeconds += other.pairSeconds
        restPairSeconds += other.restPairSeconds
        messages += other.messages
        restMessages += other.restMessages
    }

    /// Messages per pair and second (nan with no seconds).
    package var perPairSecond: Double { Self.rate(messages, pairSeconds) }
    package var perPairSecondAtRest: Double { Self.rate(restMessages, restPairSeconds) }

    static func rate(_ count: Int, _ pairSeconds: Int) -> Double {
        pairSeconds == 0 ? .nan : Double(count) / Double(pairSeconds)
    }
}
