/// Command-line options of `beacon2mqtt-bench`.
struct BenchOptions {
    var sections: [String] = []
    /// Repetitions per measurement; the median is reported.
    var repetitions = 7
    /// Minimum seconds per repetition.
    var minimumSeconds = 0.2
    /// Where JSON results go.
    var resultsDirectory = "bench/results"
    /// The agent executable for e2e and footprint.
    var agent = ".build/release/beacon2mqtt"
    /// The peer section's Python interpreter (the peer venv's) and script.
    var peer = Peer()
    /// Footprint run length at 3,000 reports/s.
    var footprintSeconds = 60
    /// Distinct identities in the footprint flood.
    var floodIdentities = 1_000_000
    /// False: the agent runs with beacon telemetry off (its messages left out, to compare with older builds).
    var agentTelemetry = true
    /// Reports in the e2e replay.
    var e2eReports = 1_000_000
    /// Reports in each replay of the metrics section (long enough that a run's wall time is not noise).
    var metricsReports = 5_000_000
    var campus = Campus()
    var location = Location()
    /// Shorter everything (smoke runs while developing).
    var quick = false
    /// Only the measurements whose name contains this (for profiling one case).
    var only: String? = nil

    func includes(_ name: String) -> Bool { only.map { name.contains($0) } ?? true }

    /// The peer section's Python interpreter (the peer venv's) and the peer script.
    struct Peer {
        var python = "bench/.venv/bin/python"
        var script = "scripts/bench_peer.py"
    }

    /// The campus section: gateways per load point, floors (one broker each), beacons per gateway,
    /// seconds measured after a warm-up.
    struct Campus {
        var gateways = [100]
        var floors = 10
        var beacons = 4
        var seconds = 20
        var warmup = 15
    }

    /// The location section: the site description, the gateways' replay speed (`max` or a multiple
    /// of capture speed), where each run's messages and ticks go (nil: the results directory), the
    /// locators compared, each a YAML flow mapping of `locator` keys (one `locate` each, on the same
    /// gateway messages; none: one `locate` with its defaults), and top-level YAML added to every
    /// gateway's configuration (its publish policy, say).
    struct Location {
        var site = "bench/realdata/kolakowski_flat/site.json"
        var speed = "max"
        var log: String? = nil
        var locatorConfigs: [String] = []
        var gatewayConfig: String? = nil
    }

    static let allSections = [
        "decode", "peer", "pipeline", "json", "locator", "locator-broker", "messages", "irk", "e2e", "footprint",
        "instructions", "metrics", "campus", "location", "map",
    ]

    static let usage = """
        USAGE: beacon2mqtt-bench [decode|pipeline|json|locator|locator-broker|irk|messages|e2e|footprint|instructions|metrics|campus|location|map|peer|all ...] [options]

        OPTIONS:
          --reps N                 repetitions per measurement, median reported (default 7)
          --min-seconds S          minimum seconds per repetition (default 0.2)
          --results DIR            JSON output directory (default bench/results)
          --agent PATH             beacon2mqtt executable (default .build/release/beacon2mqtt)
          --python PATH            Python of the peer venv (default bench/.venv/bin/python)
          --peer-script PATH       peer script (default scripts/bench_peer.py)
          --footprint-seconds N    realistic-load footprint duration (default 60)
          --flood N                distinct identities in the flood (default 1000000)
          --agent-telemetry on|off beacon telemetry in the agent's configuration (default on; off to compare
                                   with builds before it, which refuse the key)
          --e2e-reports N          reports in the end-to-end replay (default 1000000)
          --metrics-reports N      reports in each replay of the metrics section (default 5000000)
          --campus-gateways N,…    campus: gateways per load point (default 100; e.g. 100,300,500)
          --campus-floors N        campus: floors, one mosquitto each, bridged to a central one (default 10)
          --campus-beacons N       campus: beacons per gateway (default 4)
          --campus-seconds N       campus: seconds measured per load point, after --campus-warmup (default 20, 15)
          --campus-warmup N
          --site PATH              location: the recorded site (default bench/realdata/kolakowski_flat/site.json)
          --location-speed S       location: the gateways' replay speed, max or a multiple of capture speed (default max)
          --location-log DIR       location: where each run's messages and ticks go as JSON lines (default --results)
          --locator-config YAML    location: a locator to compare, as a flow mapping of locator keys, e.g.
                                   '{engine: nearest}'; repeat to compare several in one run (default: one
                                   locate with its defaults)
          --gateway-config YAML    location: top-level YAML added to every gateway's configuration, e.g.
                                   'ranging: {publish: {rssi_deadband: 2}}'
          --only TEXT              only the measurements whose name contains TEXT (profiling)
          --quick                  short runs for development (3 reps, 10 s footprint, smaller floods)
        """

    /// Parses the arguments (without the program name); returns an error message on a mistake.
    static func parse(_ arguments: [String]) -> Result<BenchOptions, BenchUsageError> {
        var options = BenchOptions()
        var args = arguments[...]
        func value(_ name: String) throws(BenchUsageError) -> String {
            guard let v = args.popFirst() else { throw BenchUsageError(message: "missing value for \(name)") }
            return v
        }
        func number(_ name: String) throws(BenchUsageError) -> Int {
            let text = try value(name)
            guard let n = Int(text), n > 0 else {
                throw BenchUsageError(message: "\(name) needs a positive integer, not '\(text)'")
            }
            return n
        }
        do throws(BenchUsageError) {
            while let arg = args.popFirst() {
                switch arg {
                case "all": options.sections.append(contentsOf: allSections)
                case _ where allSections.contains(arg): options.sections.append(arg)
                case "--reps": options.repetitions = try number(arg)
                case "--min-seconds":
                    let text = try value(arg)
                    guard let s = Double(text), s > 0 else {
                        throw BenchUsageError(message: "--min-seconds needs a number")
                    }
                    options.minimumSeconds = s
                case "--results": options.resultsDirectory = try value(arg)
                case "--agent": options.agent = try value(arg)
                case "--python": options.peer.python = try value(arg)
                case "--peer-script": options.peer.script = try value(arg)
                case "--footprint-seconds": options.footprintSeconds = try number(arg)
                case "--flood": options.floodIdentities = try number(arg)
                case "--agent-telemetry":
                    switch try value(arg) {
                    case "on": options.agentTelemetry = true
                    case "off": options.agentTelemetry = false
                    case let other: throw BenchUsageError(message: "--agent-telemetry takes on or off, not '\(other)'")
                    }
                case "--e2e-reports": options.e2eReports = try number(arg)
                case "--metrics-reports": options.metricsReports = try number(arg)
                case "--only": options.only = try value(arg)
                case "--site": options.location.site = try value(arg)
                case "--location-log": options.location.log = try value(arg)
                case "--locator-config": options.location.locatorConfigs.append(try value(arg))
                case "--gateway-config": options.location.gatewayConfig = try value(arg)
                case "--location-speed":
                    let text = try value(arg)
                    guard text == "max" || (Double(text) ?? 0) > 0 else {
                        throw BenchUsageError(message: "--location-speed takes max or a positive number, not '\(text)'")
                    }
                    options.location.speed = text
                case "--campus-gateways":
                    let text = try value(arg)
                    let list = text.split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
                    guard !list.isEmpty else {
                        throw BenchUsageError(message: "\(arg) needs numbers like 100,300, not '\(text)'")
                    }
                    options.campus.gateways = list
                case "--campus-floors": options.campus.floors = try number(arg)
                case "--campus-beacons": options.campus.beacons = try number(arg)
                case "--campus-seconds": options.campus.seconds = try number(arg)
                case "--campus-warmup": options.campus.warmup = try number(arg)
                case "--quick":
                    options.quick = true
                    options.repetitions = 3
                    options.minimumSeconds = 0.05
                    options.footprintSeconds = 10
                    options.floodIdentities = 100_000
                    options.e2eReports = 100_000
                    options.metricsReports = 100_000
                    options.campus.gateways = [6]
                    options.campus.floors = 2
                    options.campus.seconds = 10
                    options.campus.warmup = 8
                case "-h", "--help": throw BenchUsageError(message: "")
                default: throw BenchUsageError(message: "unknown argument '\(arg)'")
                }
            }
        } catch {
            return .failure(error)
        }
        if options.sections.isEmpty { options.sections = allSections }
        var seen = Set<String>()
        options.sections = options.sections.filter { seen.insert($0).inserted }
        return .success(options)
    }
}

/// A mistake on the bench command line (an empty message asks for the usage text only).
struct BenchUsageError: Error {
    var message: String
}
