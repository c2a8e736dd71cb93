/// A retained message read back from the broker.
public struct RetainedMessage: Sendable, Equatable {
    public var topic: String
    public var payload: String
    public init(topic: String, payload: String) {
        self.topic = topic
        self.payload = payload
    }
}
