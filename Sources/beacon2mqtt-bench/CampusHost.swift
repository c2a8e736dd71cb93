import AgentCore
import BeaconCore
import BeaconWire
import CLI
import Foundation
import GatewayPipeline
import IdentityCrypto
import MQTTTransport
import MessageContract
import Platform
import Runtime
import Settings
import Simulation
import Vocabulary

/// `beacon2mqtt-bench campus-gateways --plan FILE --broker FLOOR=PORT … [--first I --count N]`: the
/// gateways of a floor plan (all, or N from the I-th) in this one process, each the real gateway (`Runtime.Agent`, the class `run` builds, with
/// the real pipeline and its own libmosquitto connection to its floor's broker), fed by one
/// simulator thread. The campus section starts it as a child so its CPU is its own; SIGTERM stops
/// every gateway (each flushes what it holds) and it prints one line of figures on stdout.
enum CampusHost {
    struct Arguments {
        var plan = ""
        var brokers: [String: Int] = [:]
        /// Seconds between hand-overs: a report waits at most this long (a live HCI read waits ~0).
        var step = 0.05
        var first = 0
        var count: Int?
    }

    static func parse(_ args: [String]) -> Arguments? {
        var a = Arguments()
        var rest = args[...]
        while let arg = rest.popFirst() {
            guard let value = rest.popFirst() else { return nil }
            switch arg {
            case "--plan": a.plan = value
            case "--step": a.step = Double(value) ?? a.step
            case "--first": a.first = Int(value) ?? 0
            case "--count": a.count = Int(value)
            case "--broker":
                let parts = value.split(separator: "=")
                guard parts.count == 2, let port = Int(parts[1]) else { return nil }
                a.brokers[String(parts[0])] = port
            default: return nil
            }
        }
        return a.plan.isEmpty || a.brokers.isEmpty ? nil : a
    }

    static func main(_ args: [String]) -> Int32 {
        SignalWatcher.blockSignals()
        // In a real campus the gateways are boxes of their own: niced, the simulated ones yield the
        // shared cores to the brokers and the locator, which the section measures (threads inherit it).
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        guard let arguments = parse(args) else {
            FileHandle.standardError.write(
                Data("usage: campus-gateways --plan FILE --broker FLOOR=PORT … [--step S]\n".utf8))
            return 64
        }
        let plan: FloorPlan
        do { plan = try FloorPlan.load(path: arguments.plan) } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 78
        }
        let first = min(max(arguments.first, 0), plan.gateways.count)
        let slice = first..<min(plan.gateways.count, first + (arguments.count ?? plan.gateways.count))
        let stop = StopSignal()
        SignalWatcher.start { _ in stop.stop() }
        let logger = Logger.standardError(level: .warning, environment: [:])
        let running = WaitableState(0)
        var feeds: [CampusFeed] = []
        for g in plan.gateways[slice] {
            guard let port = arguments.brokers[g.floor] else {
                logger.error("no broker for floor \(g.floor)")
                return 64
            }
            var c = Configuration()
            c.gateway.id = g.id
            c.gateway.floor = g.floor
            c.gateway.room = g.room
            c.mqtt.host = "127.0.0.1"
            c.mqtt.port = port
            c.mqtt.clientID = "campus-\(g.id)"
            c.mqtt.reconnect.minimum = .milliseconds(200)
            let connection: MQTTConnectionOptions
            do { connection = try MQTTConnectionOptions(configuration: c) } catch {
                logger.error("\(error)")
                return 78
            }
            let feed = CampusFeed()
            feeds.append(feed)
            var options = AgentOptions()
            options.handleSignals = false
            let configuration = c
            let agent = Agent(
                configuration: c, connection: connection,
                pipeline: Pipeline(configuration: c, identityResolver: AESIdentityResolver.factory), source: feed,
                options: options, logger: logger, reload: { configuration })
            running.withLock { $0 += 1 }
            let box = AgentBox(agent)
            PosixThread.start(name: "gateway") {
                _ = box.agent.run()
                running.withLock { $0 -= 1 }
            }
        }
        let lag = simulate(FloorPlanCampus(plan: plan, only: slice), feeds: feeds, step: arguments.step, until: stop)
        for feed in feeds { feed.stop() }
        let drained = running.wait(until: MonotonicClock.now() + .seconds(40)) { $0 == 0 }
        print(
            "campus-gateways gateways=\(feeds.count) lag_max_ms=\(Int(lag.max * 1000)) lag_mean_ms=\(Int(lag.mean * 1000)) drained=\(drained)"
        )
        return drained ? 0 : 1
    }

    /// Keeps an agent alive on its thread (Agent is a class without Sendable).
    // Invariant for @unchecked Sendable: the agent is only used on the thread that runs it.
    final class AgentBox: @unchecked Sendable {
        let agent: Agent<Pipeline>
        init(_ agent: Agent<Pipeline>) { self.agent = agent }
    }

    /// The simulator thread: every `step`, the adverts of the step just passed, to each gateway as
    /// HCI LE Advertising Report bytes stamped with their own time (the steady wall clock, as the
    /// live source stamps them). Returns how far behind the clock a hand-over came (max, mean):
    /// a busy host falls behind here first.
    static func simulate(
        _ campus: FloorPlanCampus, feeds: [CampusFeed], step: Double, until stop: StopSignal
    )
        -> (max: Double, mean: Double)
    {
        let start = SteadyWallClock.seconds()
        let period = max(campus.plan.duration, 1)
        var done = 0.0
        var lagMax = 0.0
        var lagSum = 0.0
        var steps = 0
        let major = campus.plan.major
        while stop.sleep(for: .microseconds(Int64(max(0, start + done + step - SteadyWallClock.seconds()) * 1e6))) {
            let now = SteadyWallClock.seconds() - start
            let lag = now - (done + step)
            if steps > 0 {
                lagMax = max(lagMax, lag)
                lagSum += lag
            }
            steps += 1
            // The walk repeats every `period` seconds.
            let lap = (done / period).rounded(.down)
            let from = done - lap * period
            let to = min(now - lap * period, period)
            for (g, adverts) in campus.adverts(from: from, to: to).enumerated() where !adverts.isEmpty {
                feeds[g].send(
                    adverts.map { a in
                        CapturedPacket(
                            timestamp: Timestamp(
                                microseconds: Int64(((start + lap * period + a.offset) * 1e6).rounded())),
                            bytes: SimulatedSource.advertisingReport(
                                address: [0xC0, 0xFF, 0xEE, 0x00, UInt8(a.minor >> 8), UInt8(a.minor & 0xFF)],
                                major: major, minor: a.minor, rssi: a.rssi))
                    })
            }
            done = to + lap * period
        }
        return (lagMax, steps > 1 ? lagSum / Double(steps - 1) : 0)
    }
}
