import BeaconConfig
import BeaconCore
import Platform
import Settings

/// `beacon2mqtt check-config [FILE]`: the checks `run` makes before it connects (`StartChecks`),
/// optionally as the user the service runs as.
struct CheckConfigCommand: Command {
    static let help = CommandHelp(
        name: "check-config",
        abstract: "Check a configuration file as run does before it connects.",
        usage: "beacon2mqtt check-config [<file>] [--as-user <user>]",
        discussion: """
            Makes every check run makes before it connects: the file itself, the files it names
            (password, TLS certificates and key, IRK files: readable, certificates and keys in PEM), the
            broker options, and libmicrohttpd when metrics.listen is set. Exits 0 when run would start,
            78 with file:line:column: key: what is wrong when not (69 when libmicrohttpd is missing).
            Warnings (as run logs them, a world-readable secret among them) go to stderr.
            With --as-user, the files are read as that user, as the service reads them (needs root;
            exit 77 without it, 67 for an unknown user).
            """,
        arguments: [.init("<file>", "The YAML configuration (default: \(RunCommand.defaultConfigPath)).")],
        options: [.init("--as-user <user>", "Read the files as this user, e.g. beacon2mqtt (root only).")])

    let path: String
    let given: Bool
    let user: String?

    init(_ arguments: inout Arguments) throws(UsageError) {
        user = try arguments.option("--as-user")
        let positionals = try arguments.positionals()
        guard positionals.count <= 1 else { throw UsageError("expected at most one configuration file") }
        path = positionals.first ?? RunCommand.defaultConfigPath
        given = !positionals.isEmpty
    }

    func run(_ context: CommandContext) -> ExitCode {
        guard let user else {
            let verdict = check()
            context.out(verdict.out)
            context.err(verdict.err)
            return verdict.code
        }
        let bytes: [UInt8]
        do {
            bytes = try UserSwitch.run(as: user) { Self.encode(check()) }
        } catch {
            context.err("check-config: \(error)\n")
            switch error.reason {
            case .notRoot: return .noPermission
            case .noSuchUser: return .noUser
            case .switchFailed: return .software
            }
        }
        guard let verdict = Self.decode(bytes) else {
            context.err("check-config: no verdict from the check as '\(user)'\n")
            return .software
        }
        context.out(verdict.out)
        context.err(verdict.err)
        return verdict.code
    }

    private struct Verdict {
        var code: ExitCode
        var out = ""
        var err = ""
    }

    private func check() -> Verdict {
        let checked: StartChecks
        do {
            checked = try StartChecks.run(path: path, given: given, role: .gateway)
        } catch {
            return Verdict(code: error.code, err: "\(error)\n")
        }
        var verdict = Verdict(code: .success)
        for warning in checked.warnings { verdict.err += "warning: \(warning)\n" }
        let config = checked.configuration
        let regions =
            config.regions.isEmpty ? "no regions (every beacon is tracked)" : "\(config.regions.count) region(s)"
        let state = checked.builtInDefaults ? "no such file; run uses the built-in defaults" : "OK"
        let failover =
            config.mqtt.failover.isEmpty
            ? ""
            : " (failover "
                + config.mqtt.failover.map { "\($0.host):\($0.port ?? config.mqtt.port)" }
                .joined(separator: ", ") + ")"
        verdict.out =
            "\(path): \(state) — gateway \(config.gateway.id), broker \(config.mqtt.host):\(config.mqtt.port)\(failover), \(regions)\n"
        return verdict
    }

    /// The child's verdict for the parent: the exit code, stdout's length, then stdout and stderr.
    private static func encode(_ verdict: Verdict) -> [UInt8] {
        Array("\(verdict.code.rawValue)\n\(verdict.out.utf8.count)\n\(verdict.out)\(verdict.err)".utf8)
    }

    private static func decode(_ bytes: [UInt8]) -> Verdict? {
        let parts = bytes.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let raw = Int32(String(decoding: parts[0], as: UTF8.self)),
            let code = ExitCode(rawValue: raw), let length = Int(String(decoding: parts[1], as: UTF8.self)),
            length <= parts[2].count
        else { return nil }
        let rest = parts[2]
        return Verdict(
            code: code, out: String(decoding: rest.prefix(length), as: UTF8.self),
            err: String(decoding: rest.dropFirst(length), as: UTF8.self))
    }
}
