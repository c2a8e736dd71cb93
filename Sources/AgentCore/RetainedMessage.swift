/// A retained message read back from the broker.
package struct RetainedMessage: Sendable, Equatable {
    package var topic: String
    package var payload: String
    package init(topic: String, payload: String) {
        self.topic = topic
        self.payload = payload
    }
}
