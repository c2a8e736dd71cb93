/// What a room engine says at one tick.
package enum RoomAnswer: Sendable, Equatable, Hashable {
    /// Nothing yet, or the beacon is away.
    case none
    /// A location without a room (the engine's `unknown`).
    case unknown
    case room(String)

    package var room: String? {
        if case .room(let name) = self { return name }
        return nil
    }
}
