import BeaconConfig
import BeaconCore
import BeaconWire
import HCITransport
import Platform
import Settings
import Vocabulary

/// `beacon2mqtt advertise <format> …`: the gateway becomes a beacon (raw HCI, like `scan`) until
/// Ctrl-C / SIGTERM; `--dry-run` prints the advertising data and the HCI commands instead.
struct AdvertiseCommand: Command {
    static let help = CommandHelp(
        name: "advertise",
        abstract: "Act as a beacon: advertise an iBeacon, AltBeacon or Eddystone frame.",
        usage:
            "beacon2mqtt advertise <format> <fields> [--interval <duration>] [--tx-power <dBm>] [--adapter <adapter>] "
            + "[--address <kind>] [--connectable] [--dry-run [--extended]]",
        discussion: """
            Sends the frame as non-connectable advertising (ADV_NONCONN_IND) until Ctrl-C or SIGTERM,
            then disables advertising (and removes the extended advertising set). Uses the extended
            advertising commands where the controller lists them, else the legacy ones; survives a
            controller reset or unplug. Needs CAP_NET_RAW (see docs/advertising.md).
              ibeacon        --uuid <uuid> --major <n> --minor <n> [--measured-power <dBm>]
              altbeacon      --id1 <uuid> --id2 <n> --id3 <n> [--company-id <n>] [--reference-rssi <dBm>]
              eddystone-uid  --namespace <20 hex> --instance <12 hex> [--measured-power <dBm>]
              eddystone-url  --url <url> [--measured-power <dBm>]
            --dry-run prints 'advertising_data: <hex>' (which 'beacon2mqtt decode --ad' reads back) and
            then each HCI command packet it would send, in hex with the H4 type byte first.
            """,
        arguments: [.init("<format>", "ibeacon, altbeacon, eddystone-uid or eddystone-url.")],
        options: [
            .init("--uuid, --major, --minor", "iBeacon identity; major and minor 0–65535 (or 0x0000–0xffff)."),
            .init("--id1, --id2, --id3", "AltBeacon identity (id1 a UUID)."),
            .init("--company-id <n>", "AltBeacon manufacturer id (default 0xffff)."),
            .init("--namespace, --instance", "Eddystone-UID: 10 and 6 octets in hex."),
            .init("--url <url>", "Eddystone-URL: http(s)://…, at most 17 octets once encoded."),
            .init(
                "--measured-power <dBm>",
                "Calibrated RSSI at 1 m (default -59); Eddystone sends it +41 dB as the 0 m power."),
            .init("--reference-rssi <dBm>", "AltBeacon's calibrated RSSI at 1 m (default -59)."),
            .init(
                "--interval <duration>",
                "Advertising interval, 20ms to 10.24s (default 100ms); a controller older than Bluetooth 5.0 gets "
                    + "at least 100ms when not connectable."),
            .init("--tx-power <dBm>", "Requested radio power, -127 to 20 (extended advertising only)."),
            .init("--adapter <adapter>", "hciN, the controller address, or auto (default auto)."),
            .init("--address <kind>", "public (default) or random-static."),
            .init("--connectable", "Send ADV_IND instead of ADV_NONCONN_IND."),
            .init("--dry-run", "Print the advertising data and the HCI commands; send nothing."),
            .init("--extended", "With --dry-run: print the extended advertising commands instead of the legacy ones."),
            .init("-v, --verbose", "Log every command sent."),
        ])

    let settings: AdvertiseSettings
    let adapter: HCIAdapterSelection
    let dryRun: Bool
    let extended: Bool
    let verbose: Bool

    init(_ arguments: inout Arguments) throws(UsageError) {
        var values: [AdvertiseField: String] = [:]
        for field in AdvertiseField.allCases where field != .interval {
            if let text = try arguments.option(field.option) { values[field] = text }
        }
        var interval: TimeSpan?
        if let text = try arguments.option("--interval") {
            guard case .success(let span) = DurationText.parse(text) else {
                throw UsageError("'--interval' takes a duration from 20ms to 10.24s, not '\(text)'")
            }
            interval = span
        }
        let adapterText = try arguments.option("--adapter") ?? "auto"
        guard let adapter = HCIAdapterSelection(adapterText) else {
            throw UsageError(
                "'--adapter' takes hciN, a controller address (aa:bb:cc:dd:ee:ff) or auto, not '\(adapterText)'")
        }
        self.adapter = adapter
        let connectable = arguments.flag("--connectable")
        dryRun = arguments.flag("--dry-run")
        extended = arguments.flag("--extended")
        verbose = arguments.flag("-v", "--verbose")
        let rest = try arguments.positionals()
        let formats = AdvertiseSettings.Format.allCases.map(\.rawValue).joined(separator: ", ")
        guard let first = rest.first else { throw UsageError("missing <format> (\(formats))") }
        guard let format = AdvertiseSettings.Format(rawValue: first) else {
            throw UsageError("unknown <format> '\(first)'; use one of \(formats)")
        }
        if rest.count > 1 { throw UsageError("unexpected argument '\(rest[1])'") }
        if extended, !dryRun { throw UsageError("'--extended' only applies to --dry-run") }
        do {
            settings = try AdvertiseSettings.make(
                format: format, values: values, interval: interval, connectable: connectable)
        } catch {
            throw UsageError("'\(error.field.option)' \(error.message)")
        }
    }

    func run(_ context: CommandContext) -> ExitCode {
        let configuration = AdvertisingConfiguration(
            settings: settings, randomAddress: AdvertisingConfiguration.processRandomAddress)
        if dryRun {
            context.out("advertising_data: \(Hex.string(configuration.data))\n")
            // Under 100 ms non-connectable, the set-up reads the version first (a pre-5.0 controller needs 100 ms).
            let version =
                configuration.needsVersionCheck(extended: extended) ? [HCICommand.readLocalVersionInformation] : []
            let commands =
                [HCICommand.readLocalSupportedCommands] + version + configuration.setUpCommands(extended: extended)
                + configuration.stopCommands(extended: extended)
            for command in commands { context.out(Hex.string(command.packet) + "\n") }
            return .success
        }
        do {
            try LiveScan.preflight(adapter)
        } catch {
            context.err("Error: \(error)\n")
            return error.exitCode
        }
        var options = HCILoopOptions()
        options.failIfAbsentAtStart = true
        options.endOnFailure = true
        options.deliverCommands = false
        let selection = adapter
        let advertiser = HCIControllerLoop(
            AdvertiseController(configuration: configuration),
            opener: { () throws(HCIError) in try HCIAdapterDirectory.open(selection) }, options: options,
            clock: .system,
            log: LiveScan.logger(context, verbose: verbose))
        context.err(
            "advertising \(Hex.string(configuration.data)) on \(adapter) every \(DurationText.format(settings.interval)); Ctrl-C to stop\n"
        )
        if let failure = LiveScan.run(advertiser, duration: nil, deliver: { _ in }) {
            context.err("Error: \(failure)\n")
            return failure.exitCode
        }
        return .success
    }
}
