/// The simple room rules a locator is compared with, on the readings each receiver took: at each
/// tick the receiver heard strongest owns the beacon (its room is the answer).
///
/// Only readings of the last `window` seconds (the tick included) count; a tick with none has no
/// answer. Ask for the ticks in time order (`owner(at:)` keeps the hysteresis rule's state).
package struct StrongestReceiver: Sendable {
    package enum Rule: String, Sendable, CaseIterable {
        /// Each receiver's newest reading in the window.
        case latest
        /// Each receiver's median over the window.
        case median
        /// The median, but a challenger takes over only once it has been at least `margin` dB
        /// stronger than the owner for at least `hold` seconds (or at once when the owner has no
        /// reading in the window).
        case medianHysteresis
    }

    package struct Reading: Sendable, Equatable {
        package var time: Double
        package var rssi: Double
        package init(time: Double, rssi: Double) {
            self.time = time
            self.rssi = rssi
        }
    }

    package let rule: Rule
    package let window: Double
    package let margin: Double
    package let hold: Double
    /// Per receiver, its readings in time order.
    private let readings: [[Reading]]
    /// Per receiver, the first reading not yet behind the window's start.
    private var firstInWindow: [Int]
    private var current: Int?
    /// Per challenger, since when it has been `margin` stronger than the owner.
    private var strongerSince: [Int: Double] = [:]

    package init(rule: Rule, readings: [[Reading]], window: Double = 4, margin: Double = 3, hold: Double = 2) {
        self.rule = rule
        self.readings = readings
        self.window = window
        self.margin = margin
        self.hold = hold
        firstInWindow = Array(repeating: 0, count: readings.count)
    }

    /// The receiver that owns the beacon at `time` (index into the readings), or nil.
    package mutating func owner(at time: Double) -> Int? {
        var levels: [Double?] = []
        for r in readings.indices {
            while firstInWindow[r] < readings[r].count, readings[r][firstInWindow[r]].time <= time - window {
                firstInWindow[r] += 1
            }
            let inWindow = readings[r][firstInWindow[r]...].prefix { $0.time <= time }.map(\.rssi)
            levels.append(inWindow.isEmpty ? nil : rule == .latest ? inWindow.last : Self.median(inWindow))
        }
        let strongest = levels.indices.filter { levels[$0] != nil }.max {
            levels[$0]! < levels[$1]! || (levels[$0]! == levels[$1]! && $0 > $1)
        }
        guard rule == .medianHysteresis else { return strongest }
        guard let owner = current, let held = levels[owner] else {
            current = strongest
            strongerSince = [:]
            return current
        }
        for r in levels.indices where r != owner {
            if let level = levels[r], level >= held + margin {
                if strongerSince[r] == nil { strongerSince[r] = time }
            } else {
                strongerSince[r] = nil
            }
        }
        let ready = strongerSince.filter { time - $0.value >= hold }.keys
        if let challenger = ready.max(by: { levels[$0]! < levels[$1]! || (levels[$0]! == levels[$1]! && $0 > $1) }) {
            current = challenger
            strongerSince = [:]
        }
        return current
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}
