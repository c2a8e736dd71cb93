import Vocabulary

/// `mqtt.reconnect_min` and `mqtt.reconnect_max`: the shortest and the longest wait between two
/// attempts to reach the broker (the transport's `Backoff` grows from one to the other).
package struct ReconnectDelays: Sendable, Equatable {
    package var minimum: TimeSpan = .seconds(1)
    package var maximum: TimeSpan = .seconds(60)

    package init(minimum: TimeSpan = .seconds(1), maximum: TimeSpan = .seconds(60)) {
        self.minimum = minimum
        self.maximum = maximum
    }
}
