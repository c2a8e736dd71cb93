import AgentCore
import BeaconCore
import BeaconWire
import CaptureTransport
import Platform
import Synchronization
import Vocabulary

/// `beacon2mqtt record FILE`: the live HCI traffic into a btsnoop file (Wireshark, `btmon -r`,
/// and `beacon2mqtt replay` read it), for bug reports.
struct RecordCommand: Command {
    static let help = CommandHelp(
        name: "record",
        abstract: "Record the live HCI traffic to a btsnoop file for Wireshark and 'replay'.",
        usage:
            "beacon2mqtt record <file> [--adapter <adapter>] [--mode <mode>] [--config <file>] [--duration <duration>]",
        discussion: """
            Sets the scan up like 'run' does and writes every HCI command and event (btsnoop, datalink
            1002 H4) until Ctrl-C or the duration. Needs CAP_NET_RAW (see docs/scanning.md).
            """,
        arguments: [.init("<file>", "The btsnoop file to write (replaced if it exists).")],
        options: LiveScanOptions.help(defaultMode: .passive) + [
            .init("--duration <duration>", "Stop after this long, e.g. 30s, 5m (default: until Ctrl-C).")
        ])

    let path: String
    let options: LiveScanOptions
    let duration: TimeSpan?

    init(_ arguments: inout Arguments) throws(UsageError) {
        options = try LiveScanOptions(&arguments)
        if let text = try arguments.option("--duration") {
            guard let span = Self.parseDuration(text), span.microseconds > 0 else {
                throw UsageError("'--duration' takes a duration like 30s, 500ms or 5m, not '\(text)'")
            }
            duration = span
        } else {
            duration = nil
        }
        let files = try arguments.positionals()
        guard files.count == 1 else {
            throw UsageError(files.isEmpty ? "missing <file>" : "only one <file> is allowed")
        }
        path = files[0]
    }

    /// `500ms`, `30s`, `5m`, `1h`, or a bare number of seconds.
    static func parseDuration(_ text: String) -> TimeSpan? {
        let units: [(String, Int64)] = [("ms", 1000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let value = Int64(text.dropLast(suffix.count)), value >= 0 else { continue }
            return TimeSpan(microseconds: value * scale)
        }
        return Int64(text).map { TimeSpan(microseconds: $0 * 1_000_000) }
    }

    func run(_ context: CommandContext) -> ExitCode {
        guard let resolved = options.resolve(defaultMode: .passive, context: context) else { return .config }
        guard
            let source = LiveScan.source(
                resolved.selection, resolved.scan, deliverCommands: true, verbose: options.verbose, context: context)
        else { return .unavailable }
        let file: BtsnoopFile
        do {
            file = try BtsnoopFile(path: path)
        } catch {
            context.err("Error: cannot create '\(path)': \(error)\n")
            return .ioError
        }
        let sink = RecordSink(file)
        context.err("recording to \(path); Ctrl-C to stop\n")
        let failure = LiveScan.run(source, duration: duration, deliver: { sink.handle($0) })
        let summary = sink.finish()
        if let writeError = summary.error {
            context.err("Error: writing '\(path)' failed: \(writeError)\n")
            return .ioError
        }
        context.err("recorded \(summary.packets) packets to \(path)\n")
        if let failure {
            context.err("Error: \(failure)\n")
            return failure.exitCode
        }
        return .success
    }
}

/// Serialises packets from the reader thread into the file; the first write error stops writing.
final class RecordSink: Sendable {
    private struct State {
        var file: BtsnoopFile?
        var packets = 0
        var error: String?
    }

    private let state: Mutex<State>

    init(_ file: sending BtsnoopFile) { state = Mutex(State(file: file)) }

    func handle(_ event: SourceEvent) {
        let packets = event.carriedPackets  // one packet or a batch; nothing for health events
        guard !packets.isEmpty else { return }
        state.withLock { s in
            for packet in packets {
                guard let file = s.file else { return }
                do {
                    try file.write(packet)
                    s.packets += 1
                } catch {
                    s.error = "\(error)"
                    s.file = nil
                }
            }
        }
    }

    /// Closes the file; the packet count and the first error, if any.
    func finish() -> (packets: Int, error: String?) {
        state.withLock { s in
            if let file = s.file {
                do { try file.close() } catch { s.error = s.error ?? "\(error)" }
            }
            s.file = nil
            return (s.packets, s.error)
        }
    }
}
