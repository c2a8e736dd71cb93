import BeaconWire
import HCITransport
import Platform

/// `beacon2mqtt adapters`: the Bluetooth controllers this machine has, and what they can do.
struct AdaptersCommand: Command {
    static let help = CommandHelp(
        name: "adapters",
        abstract: "List the Bluetooth adapters (index, address, up/down, extended scanning).",
        usage: "beacon2mqtt adapters [--format <format>]",
        discussion: """
            The address survives index changes after a USB reset, so it is the most robust value for
            'scanner.adapter'. Extended scanning is read from the controller (Read Local Supported
            Commands) and shows '?' when the adapter is down or the command is not permitted.
            """,
        options: [LiveScan.formatHelp])

    let jsonl: Bool

    init(_ arguments: inout Arguments) throws(UsageError) {
        jsonl = try LiveScan.isJSONLines(arguments.option("--format"))
        try arguments.finish()
    }

    func run(_ context: CommandContext) -> ExitCode {
        let adapters: [HCIAdapter]
        do {
            adapters = try HCIAdapterDirectory.list()
        } catch {
            context.err("Error: \(error)\n")
            return error.exitCode
        }
        guard !adapters.isEmpty else {
            context.err(
                "Error: no Bluetooth adapters found (is the dongle plugged in? see 'rfkill list' and 'dmesg | grep -i blue')\n"
            )
            return .unavailable
        }
        var rows: [[String]] = [["INDEX", "NAME", "ADDRESS", "STATE", "EXTENDED SCAN"]]
        for adapter in adapters {
            let extended = adapter.isUp ? probe(adapter) : nil
            if jsonl {
                var w = JSONWriter()
                w.beginObject()
                w.field("index", Int(adapter.index))
                w.field("name", adapter.name)
                w.field("address", adapter.address.description)
                w.field("up", adapter.isUp)
                w.key("extended_scan")
                if let extended { w.bool(extended) } else { w.null() }
                w.endObject()
                context.out(w.text + "\n")
            } else {
                rows.append([
                    String(adapter.index), adapter.name, adapter.address.description, adapter.isUp ? "up" : "down",
                    extended.map { $0 ? "yes" : "no" } ?? "?",
                ])
            }
        }
        if !jsonl {
            let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                let cells = row.enumerated().map { i, cell in
                    i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count)
                }
                context.out(cells.joined(separator: "  ") + "\n")
            }
        }
        return .success
    }

    /// nil when the controller cannot be asked (no privilege, busy, no answer).
    private func probe(_ adapter: HCIAdapter) -> Bool? {
        guard let socket = try? HCISocket(deviceID: adapter.index) else { return nil }
        defer { socket.close() }
        return (try? HCIAdapterProbe.supportsExtendedScanning(over: socket)) ?? nil
    }
}
