import BeaconWire
import Vocabulary

/// How the locator decides each beacon's floor and room: by default the belief engine
/// (`RoomBelief`, `belief`); the `nearest` engine's hand-over rule takes `handOver`.
///
/// The `nearest` engine's defaults and where they come from (docs/locator.md, "Defaults and where they come from"; peers.md §3):
/// - hand-over at once when a challenger is ≥ 30 % closer, or when it is ≥ 15 % closer in every one of
///   its last 5 readings with at least 3 of them (Bermuda `pdiff_outright` 0.30, `pdiff_historical` 0.15,
///   `history_window` 5, `min_history` 3);
/// - `min_dwell` 10 s: a new owner is kept at least one region exit period (AltBeacon's 10 s), which is
///   the same order as happy-bubbles' 8 consecutive wins at ~1 s;
/// - `stale_after` 35 s: longer than the gateways' 30 s proximity heartbeat, so a beacon that sits still
///   (and so publishes only on the heartbeat) keeps its readings; ESPresense-companion uses 30 s;
/// - `away_timeout` 120 s (ESPresense-companion, Theengs, OpenMQTTGateway).
package struct LocatorSettings: Sendable, Equatable {
    /// How a beacon's place is decided (docs/locator.md).
    package enum Engine: String, Sendable, Equatable, CaseIterable {
        /// The nearest gateway owns the beacon, handed over by the outright and sustained rules (`handOver`).
        case nearest
        /// Every gateway's evidence weighs on a belief over rooms (`RoomBelief`); the most likely
        /// room is named once it is `min_confidence` likely.
        case belief
    }

    package var engine: Engine = .belief
    /// The `belief` engine's settings.
    package var belief = BeliefEngineSettings()
    /// Run the locator inside `run` as well (`beacon2mqtt locate` always runs it).
    package var enabled: Bool = false
    /// Decisions are taken on ticks at whole multiples of this interval (the ranging interval).
    package var interval: TimeSpan = .seconds(1)
    /// A tick T is decided once the clock passes T + settle, so readings that arrive a little late
    /// (bridges, QoS 0 jitter) still count and every locator decides on the same readings.
    package var settle: TimeSpan = .seconds(1)
    /// How far a gateway's clock may be from the locator's, broker path latency included, before
    /// the locator corrects it; a reading later than this (a backlog's) does not count
    /// (docs/locator.md, "Gateway clocks").
    package var clockTolerance: TimeSpan = .seconds(2)
    /// Readings older than this do not count.
    package var staleAfter: TimeSpan = .seconds(35)
    /// With no gateway seeing the beacon for this long, it is `not_home`.
    package var awayTimeout: TimeSpan = .seconds(120)
    /// The `nearest` engine's hand-over rule.
    package var handOver = HandOverRule()
    /// A move to another floor by the outright rule needs this many consecutive outright readings
    /// (never one reading alone).
    package var floorConfirmations: Int = 2
    /// dB added to each gateway's filtered RSSI before distances are compared (gateway id → dB),
    /// on top of the gateway's own `gateway.rssi_offset`.
    package var rssiOffsets: [String: Double] = [:]
    /// Publish Home Assistant `mqtt_room` messages under this topic (nil = off).
    package var mqttRoomTopic: String? = nil
    /// Decide only the beacons of this shard (nil: every beacon), so several locators split a site.
    package var shard: LocatorShard? = nil
    /// Other projects' receivers read as extra gateways (ESPresense, OpenMQTTGateway).
    package var foreignSources: [ForeignSource] = []
    /// Positions on the site plan (`locator.site_plan`); without a plan, rooms only.
    package var positions = PositionSettings()

    package init() {}
}
