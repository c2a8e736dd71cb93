import BeaconConfig
import BeaconCore
import BeaconWire
import GatewayPipeline
import Glibc
import IdentityCrypto
import MessageContract
import Platform
import Settings

/// `beacon2mqtt replay FILE`: feeds a capture through the whole pipeline on the capture's own clock,
/// and prints the messages that would be published.
struct ReplayCommand: Command {
    static let help = CommandHelp(
        name: "replay",
        abstract: "Feed a capture file through the pipeline and print the messages it would publish.",
        usage: "beacon2mqtt replay <file> [--config <file>] [--output jsonl|events|none] [--no-drain]",
        discussion: """
            Reads btsnoop (datalink 1001/1002/2001: Android's btsnoop_hci.log, btmon -w), pcap/pcapng
            (LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR 201, 187) and `hcidump --raw` text. Time comes from the
            capture, so the result is deterministic and as fast as the CPU. At the end of the capture the
            clock runs on until every pending exit has fired (unless --no-drain). A summary goes to stderr.
            A truncated or corrupt capture is an error with its byte offset (exit 65), after everything
            before the damage has been processed; a file that is not a capture exits 66.
            """,
        arguments: [.init("<file>", "The capture to replay.")],
        options: [
            .init("--config <file>", "Configuration (regions, gateway, ranging …). Default: built-in defaults."),
            .init(
                "--output <format>",
                "jsonl: every message as {\"topic\",\"payload\",\"qos\",\"retain\"}, one per line, in publish order;\nevents: enter/exit events and beacon telemetry, one line each (default); none: the summary only."
            ),
            .init("--no-drain", "Stop the clock at the last packet instead of letting pending exits fire."),
        ])

    enum Output: String { case jsonl, events, none }

    let path: String
    let configPath: String?
    let output: Output
    let drain: Bool

    init(_ arguments: inout Arguments) throws(UsageError) {
        configPath = try arguments.option("--config")
        let format = try arguments.option("--output") ?? "events"
        guard let output = Output(rawValue: format) else {
            throw UsageError("'--output' must be jsonl, events or none, not '\(format)'")
        }
        self.output = output
        drain = !arguments.flag("--no-drain")
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else { throw UsageError("expected exactly one capture file") }
        path = positionals[0]
    }

    func run(_ context: CommandContext) -> ExitCode {
        guard let config = context.configuration(at: configPath) else { return .config }
        let data: [UInt8]
        do { data = try FileSystem.contents(path) } catch {
            context.err("\(path): cannot read: \(error)\n")
            return .noInput
        }
        // A file with no recognisable container header is not a capture (66, as `run --replay`);
        // damage after the header is a data error (65), after what came before it was processed.
        var reader: CaptureReader
        do throws(CaptureError) { reader = try CaptureReader(data) } catch {
            context.err("\(path): \(error)\n")
            return .noInput
        }
        var pipeline = Pipeline(configuration: config, identityResolver: AESIdentityResolver.factory)
        var messages: [OutboundMessage] = []
        var published = 0
        var telemetry = 0
        func emit() {
            for m in messages {
                published += 1
                if m.kind == .telemetry { telemetry += 1 }
                switch output {
                case .jsonl: context.out(m.jsonLine + "\n")
                case .events where m.kind == .event || m.kind == .telemetry:
                    context.out("\(m.topic) \(m.payload.text)\n")
                case .events, .none: break
                }
            }
            messages.removeAll(keepingCapacity: true)
        }
        var failure: String?
        do throws(CaptureError) {
            while let packet = try reader.next() {
                pipeline.ingest(packet, into: &messages)
                emit()
            }
        } catch {
            failure = "\(path): \(error)"
        }
        if drain {
            pipeline.finish(into: &messages)
            emit()
        }
        let c = pipeline.counters
        // A count and its noun, singular for one: "1 beacon", "2 beacons".
        func counted(_ n: Int, _ noun: String, _ plural: String? = nil) -> String {
            "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
        }
        // With devices configured, their reports and the private addresses no key resolved.
        let devices =
            pipeline.configuration.devices.isEmpty
            ? ""
            : "\(counted(c.devices, "device report")), "
                + "\(counted(c.unresolvedPrivateAddresses, "unresolved private address", "unresolved private addresses")), "
        context.err(
            "replay: \(counted(c.packets, "packet")), \(counted(c.reports, "report")), "
                + "\(counted(c.beacons + c.unidentifiedFrames, "beacon frame")) (\(c.beacons) with an identity), "
                + "\(counted(c.monitor.tracked, "beacon")), \(devices)\(c.malformed) malformed, "
                + "\(counted(published, "message")) (\(c.monitor.enterEvents) enter, \(c.monitor.exitEvents) exit, "
                + "\(telemetry) telemetry)\n")
        if let failure {
            context.err(failure + "\n")
            return .dataError
        }
        return .success
    }
}
