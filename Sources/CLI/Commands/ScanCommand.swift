import AgentCore
import BeaconCore
import BeaconWire
import GatewayPipeline
import HCITransport
import IdentityCrypto
import MessageContract
import Platform
import Settings
import Synchronization

/// `beacon2mqtt scan`: a live, refreshing table of the beacons in range — what an operator runs
/// first on a new gateway.
struct ScanCommand: Command {
    static let help = CommandHelp(
        name: "scan",
        abstract: "Show a live table of the beacons in range.",
        usage: "beacon2mqtt scan [--adapter <adapter>] [--mode <mode>] [--config <file>] [--format <format>]",
        discussion: """
            Scans like 'run' does and redraws the table every second: identity, configured name,
            RSSI, filtered RSSI, accuracy, proximity, sightings per second and last seen. With
            '--format jsonl' it prints one JSON object per beacon per second instead. Ctrl-C stops.
            """,
        options: LiveScanOptions.help(defaultMode: .active) + [LiveScan.formatHelp])

    let options: LiveScanOptions
    let jsonl: Bool

    init(_ arguments: inout Arguments) throws(UsageError) {
        options = try LiveScanOptions(&arguments)
        jsonl = try LiveScan.isJSONLines(arguments.option("--format"))
        try arguments.finish()
    }

    func run(_ context: CommandContext) -> ExitCode {
        guard let resolved = options.resolve(defaultMode: .active, context: context) else { return .config }
        guard
            let source = LiveScan.source(
                resolved.selection, resolved.scan, deliverCommands: false, verbose: options.verbose, context: context)
        else { return .unavailable }
        // The same engine as `run`, so the table shows what would be published.
        let engine = Mutex(
            Pipeline(configuration: resolved.configuration, identityResolver: AESIdentityResolver.factory))
        let view = Mutex(ScanView(staleAfter: resolved.configuration.ranging.staleAfter))
        let title =
            "beacon2mqtt scan — adapter \(resolved.selection), \(resolved.scan.mode.rawValue) mode — Ctrl-C to stop"
        let failure = LiveScan.run(
            source, duration: nil,
            deliver: { event in
                let packets = event.carriedPackets.filter(\.incoming)  // one packet or a batch
                guard !packets.isEmpty else { return }
                var discarded: [OutboundMessage] = []
                engine.withLock { pipeline in
                    for packet in packets {
                        pipeline.ingest(packet, into: &discarded)
                        discarded.removeAll(keepingCapacity: true)
                    }
                }
            },
            refresh: {
                let now = HCISource.Clock.system.wall()
                let (tracked, batteries) = engine.withLock { pipeline in
                    var discarded: [OutboundMessage] = []
                    pipeline.advance(to: now, into: &discarded)
                    let tracked = pipeline.trackedBeacons
                    return (tracked, pipeline.batteries(of: tracked.map(\.identity)))
                }
                let rows = view.withLock { $0.rows(tracked, batteries: batteries, now: now) }
                if jsonl {
                    context.out(ScanTable.jsonLines(rows, now: now))
                } else {
                    context.out(ScanTable.clearScreen + ScanTable.text(rows, now: now, title: title))
                }
                context.flush()
            })
        if let failure {
            context.err("Error: \(failure)\n")
            return failure.exitCode
        }
        return .success
    }
}
