import Platform
import Runtime

/// `beacon2mqtt`: dispatches to subcommands, prints help and version, maps usage errors to 64.
package enum CommandLineTool {
    /// Every subcommand, in the order `--help` lists them. Add new commands here.
    package static let commands: [any Command.Type] = CommandRegistry.all

    package static let overview = "Turns the Bluetooth LE beacons near a gateway into MQTT messages."

    package static func rootHelp() -> String {
        var out = "OVERVIEW: \(overview)\n\n"
        out += "USAGE: beacon2mqtt <subcommand>\n\n"
        out += "OPTIONS:\n"
        out += CommandHelp.table([
            .init("--version", "Show the version."), .init("-h, --help", "Show help information."),
        ])
        out += "\nSUBCOMMANDS:\n"
        out += CommandHelp.table(commands.map { .init($0.help.name, $0.help.abstract) })
        out += "\n  See 'beacon2mqtt help <subcommand>' for detailed help.\n"
        return out
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    package static func main(_ arguments: [String], context: CommandContext) -> ExitCode {
        var args = arguments
        guard let first = args.first else {
            context.err(rootHelp())
            return .usage
        }
        switch first {
        case "-h", "--help":
            context.out(rootHelp())
            return .success
        case "--version", "version":
            context.out("beacon2mqtt \(Version.string)\n")
            return .success
        case "help":
            guard args.count > 1 else {
                context.out(rootHelp())
                return .success
            }
            guard let command = find(args[1]) else { return usage("unknown subcommand '\(args[1])'", nil, context) }
            context.out(command.help.render())
            return .success
        default:
            break
        }
        guard let command = find(first) else { return usage("unknown subcommand '\(first)'", nil, context) }
        args.removeFirst()
        if args.contains("-h") || args.contains("--help") {
            context.out(command.help.render())
            return .success
        }
        var parsed = Arguments(args)
        do throws(UsageError) {
            let instance = try command.init(&parsed)
            return instance.run(context)
        } catch {
            return usage(error.message, command.help, context)
        }
    }

    static func find(_ name: String) -> (any Command.Type)? {
        commands.first { $0.help.name == name }
    }

    static func usage(_ message: String, _ help: CommandHelp?, _ context: CommandContext) -> ExitCode {
        context.err("Error: \(message)\n")
        if let help {
            context.err("Usage: \(help.usage)\n  See 'beacon2mqtt \(help.name) --help' for more information.\n")
        } else {
            context.err("Usage: beacon2mqtt <subcommand>\n  See 'beacon2mqtt --help' for more information.\n")
        }
        return .usage
    }
}
