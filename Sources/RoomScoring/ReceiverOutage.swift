/// A receiver that goes offline during a run: from `at` on it publishes nothing, and its Last Will
/// (`offline`) reaches the locator at `will`. A gateway whose process dies has its socket closed and
/// the broker sends the will at once; one that loses power or its network is found out when the
/// broker has waited out its keepalive (MQTT 3.1.1 §3.1.2.10: one and a half of it).
///
/// The location benchmark takes each receiver offline in turn, halfway through each run, and scores
/// the ticks after it: does the locator keep naming the right room from the receivers left, say
/// `unknown`, or name a wrong room with confidence?
package struct ReceiverOutage: Sendable, Equatable {
    /// The receiver's index in the site's receivers (its readings' index).
    package var receiver: Int
    /// When it goes silent (s, the recording's clock).
    package var at: Double
    /// When the broker publishes its Last Will (s, the recording's clock).
    package var will: Double

    package init(receiver: Int, at: Double, will: Double) {
        self.receiver = receiver
        self.at = at
        self.will = will
    }

    /// The outage of `receiver` at the first whole second at or after the middle of a run from
    /// `start` to `end`, its will `willAfter` seconds later.
    package static func halfway(receiver: Int, start: Double, end: Double, willAfter: Double) -> ReceiverOutage {
        let at = ((start + end) / 2).rounded(.up)
        return ReceiverOutage(receiver: receiver, at: at, will: at + willAfter)
    }

    /// Whether receiver `r` still hears or publishes at `time`.
    package func keeps(receiver r: Int, at time: Double) -> Bool { r != receiver || time < at }

    /// Per receiver, its `readings` that still happen.
    package func applied(to readings: [[StrongestReceiver.Reading]]) -> [[StrongestReceiver.Reading]] {
        readings.enumerated().map { r, list in list.filter { keeps(receiver: r, at: $0.time) } }
    }
}
