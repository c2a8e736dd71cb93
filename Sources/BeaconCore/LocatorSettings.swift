import BeaconWire
import Vocabulary

/// How the locator decides each beacon's floor and room: by default the belief engine
/// (`RoomBelief`); the `nearest` engine's hand-over rule takes the settings below it.
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
        /// The nearest gateway owns the beacon, handed over by the outright and sustained rules below.
        case nearest
        /// Every gateway's evidence weighs on a belief over rooms (`RoomBelief`); the most likely
        /// room is named once it is `min_confidence` likely.
        case belief
    }

    package var engine: Engine = .belief
    /// `belief`: a room is named (first, or in place of another) once it is at least this likely.
    package var minConfidence: Double = 0.7
    /// `belief`: say `unknown` rather than a room when none of the named room's gateways hears the
    /// beacon (offline, or lost it), and neither that room nor another is `min_confidence` likely.
    package var allowsUnknown: Bool = true
    /// `belief`: the model's constants (not configurable: they describe radio and people, not a site).
    package var model = RoomBelief.Model()
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
    /// A challenger this much closer (fraction of the owner's distance) takes over at once.
    package var switchOutright: Double = 0.30
    /// … or this much closer in every reading of its history window.
    package var switchSustained: Double = 0.15
    /// Readings per gateway kept for the sustained rule.
    package var historyWindow: Int = 5
    /// Fewest readings a challenger needs for the sustained rule.
    package var minHistory: Int = 3
    /// A new owner is kept at least this long (unless it goes stale or offline).
    package var minDwell: TimeSpan = .seconds(10)
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
    /// The site drawn to scale (`locator.site_plan`): with it each beacon gets a position and the
    /// room whose polygon holds it (docs/locator.md, "Positions on a floor plan"); nil: rooms only.
    package var sitePlan: SitePlan? = nil
    /// With a site plan, a location is published again (same room) once its position moved more
    /// than this many metres from the one last published (`locator.position_deadband`).
    package var positionDeadband: Double = 1
    /// The position estimator's constants (not configurable: they describe radio and people).
    package var positionModel = PositionEstimator.Model()

    package init() {}
}
