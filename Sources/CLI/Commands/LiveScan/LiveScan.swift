import AgentCore
import BeaconCore
import BeaconWire
import Dispatch
import Glibc
import HCITransport
import Platform
import Synchronization
import Vocabulary

/// Runs a live HCI source on its own thread for an interactive command (`scan`, `record`,
/// `advertise`) until Ctrl-C / SIGTERM, an optional duration, or a fatal error, calling `refresh`
/// about every `interval` on the calling thread. Stopping goes through the source's `stop()`, so the
/// scan (or advertising) is disabled cleanly.
enum LiveScan {
    static func run(
        _ source: any PacketSource, duration: TimeSpan?, refreshEvery interval: TimeSpan = .seconds(1),
        deliver: @escaping @Sendable (SourceEvent) -> Void, refresh: () -> Void = {}
    ) -> HCIError? {
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<HCIError?>(nil)
        PosixThread.start(name: "hci-reader") {
            do {
                try source.run(deliver)
            } catch let error as HCIError {
                failure.withLock { $0 = error }
            } catch {
                failure.withLock { $0 = HCIError(kind: .system, operation: "\(error)") }
            }
            done.signal()
        }

        // Dispatch signal sources take over once the default action is ignored.
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let handler = DispatchSource.makeSignalSource(signal: number, queue: .global())
            handler.setEventHandler { source.stop() }
            handler.resume()
            return handler
        }
        defer {
            for handler in signals { handler.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }

        let started = HCISource.Clock.system.monotonic()
        let slice = DispatchTimeInterval.microseconds(Int(interval.microseconds))
        while done.wait(timeout: .now() + slice) == .timedOut {
            refresh()
            if let duration, HCISource.Clock.system.monotonic() - started >= duration { source.stop() }
        }
        return failure.withLock { $0 }
    }

    /// Log lines on stderr, `info` and above unless verbose.
    static func logger(_ context: CommandContext, verbose: Bool) -> HCISource.Log {
        let threshold: LogLevel = verbose ? .debug : .info
        return { level, message in
            guard level >= threshold else { return }
            context.err("\(level.rawValue): \(message)\n")
        }
    }

    /// Fails fast (exit 69 material) when Bluetooth, the privilege or the adapter is missing, before
    /// an interactive command creates files or draws a screen.
    static func preflight(_ selection: HCIAdapterSelection) throws(HCIError) {
        _ = try HCIAdapterDirectory.resolve(selection)
    }

    /// A source for an interactive command, after `preflight`; on failure the error is printed and
    /// nil returned (the exit code is then `HCIError.exitCode`, 69).
    static func source(
        _ selection: HCIAdapterSelection, _ configuration: ScanConfiguration, deliverCommands: Bool, verbose: Bool,
        context: CommandContext
    ) -> HCISource? {
        do {
            try preflight(selection)
        } catch {
            context.err("Error: \(error)\n")
            return nil
        }
        var options = HCISource.Options()
        options.failIfAbsentAtStart = true
        options.deliverCommands = deliverCommands
        return HCISource(
            adapter: selection, configuration: configuration, options: options, log: logger(context, verbose: verbose))
    }

    static let formatHelp = CommandHelp.Entry("--format <format>", "text (default) or jsonl.")

    /// Parses `--format text|jsonl`; true for jsonl.
    static func isJSONLines(_ text: String?) throws(UsageError) -> Bool {
        let format = text ?? "text"
        guard format == "text" || format == "jsonl" else {
            throw UsageError("'--format' takes text or jsonl, not '\(format)'")
        }
        return format == "jsonl"
    }
}
