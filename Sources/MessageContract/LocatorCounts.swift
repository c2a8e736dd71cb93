/// What a locator counted since start (`/metrics`, the bench).
package struct LocatorCounts: Sendable, Equatable {
    /// Location changes decided.
    package var changes = 0
    /// Beacons decided (one per beacon and tick it was decided at).
    package var decisions = 0
    /// Messages about beacons of another shard, skipped unread.
    package var otherShard = 0
    /// Messages of a kind the locator reads (proximity, event, location, gateway status) whose
    /// payload it could not read, skipped.
    package var malformed = 0
}
