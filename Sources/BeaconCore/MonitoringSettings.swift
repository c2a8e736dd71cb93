import Vocabulary

/// `monitoring:`: when regions and beacons exit, what is restored, how many are tracked.
package struct MonitoringSettings: Sendable, Equatable {
    /// A region (or beacon) exits when none of its beacons has been seen for this long.
    package var exitTimeout: TimeSpan = .seconds(10)
    /// Retained states younger than this are restored at start (see the MQTT session).
    package var restoreMaxAge: TimeSpan = .seconds(15 * 60)
    /// Most beacon identities tracked at once; the least recently seen is evicted beyond it.
    package var maxTracked: Int = 4096
    /// Publish per-beacon state/event topics (Android-style) in addition to region ones.
    package var perBeacon: Bool = true
    /// While inside, the retained `attributes` (with `last_seen`) are refreshed this often, so a
    /// restarted agent can tell a fresh state from a stale one.
    package var attributesRefresh: TimeSpan = .seconds(300)
    package init() {}
}
