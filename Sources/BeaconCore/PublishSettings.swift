import Vocabulary

/// `ranging.publish`: when a ranged beacon is worth a proximity message.
package struct PublishSettings: Sendable, Equatable {
    /// Publish a beacon's proximity message when its proximity class changes.
    package var onProximityChange: Bool = true
    /// … or when its accuracy moved by more than this many metres since the last one (0 = off).
    package var accuracyDeadband: Double = 0.5
    /// … or when its filtered RSSI moved by at least this many dB since the last one (0 = off): a
    /// room engine weighs signals in dB, and at a few metres half a metre of accuracy is 10 dB.
    package var rssiDeadband: Double = 3
    /// … or at least this often while it is in range (0 = off).
    package var heartbeat: TimeSpan = .seconds(30)
    /// Publish the per-region ranging list every ranging interval while it is non-empty.
    package var rangingList: Bool = true
    package init() {}
}
