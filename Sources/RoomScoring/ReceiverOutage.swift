/// A receiver that goes offline during a run, as a gateway that loses power or its network does:
/// from `at` on it publishes nothing, and its Last Will (`offline`) reaches the locator then.
///
/// The location benchmark takes each receiver offline in turn, halfway through each run, and scores
/// the ticks after it: does the locator keep naming the right room from the receivers left, say
/// `unknown`, or name a wrong room with confidence?
package struct ReceiverOutage: Sendable, Equatable {
    /// The receiver's index in the site's receivers (its readings' index).
    package var receiver: Int
    /// When it goes offline (s, the recording's clock).
    package var at: Double

    package init(receiver: Int, at: Double) {
        self.receiver = receiver
        self.at = at
    }

    /// The outage of `receiver` at the first whole second at or after the middle of a run from
    /// `start` to `end`.
    package static func halfway(receiver: Int, start: Double, end: Double) -> ReceiverOutage {
        ReceiverOutage(receiver: receiver, at: ((start + end) / 2).rounded(.up))
    }

    /// Whether receiver `r` still hears or publishes at `time`.
    package func keeps(receiver r: Int, at time: Double) -> Bool { r != receiver || time < at }

    /// Per receiver, its `readings` that still happen.
    package func applied(to readings: [[StrongestReceiver.Reading]]) -> [[StrongestReceiver.Reading]] {
        readings.enumerated().map { r, list in list.filter { keeps(receiver: r, at: $0.time) } }
    }
}
