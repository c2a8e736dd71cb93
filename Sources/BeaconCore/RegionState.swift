/// Whether the gateway currently hears a region (or a beacon), like CLRegionState.
///
/// `unknown` lasts from start until the first sighting or until the exit timeout has passed
/// without one (then `outside`, as `didDetermineState` would report, without an exit event).
package enum RegionState: String, Sendable, Equatable, CaseIterable {
    case unknown, inside, outside
}
