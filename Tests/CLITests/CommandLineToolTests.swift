import CLI
import Foundation
import Synchronization
import Testing

@testable import IntegrationSupport
@testable import Platform
@testable import Runtime

@Suite struct CommandLineToolTests {
    @Test func rootHelpUsesTheArgumentParserLayout() {
        let run = CapturedRun(["--help"])
        #expect(run.code == .success)
        let sections = ["OVERVIEW:", "USAGE: beacon2mqtt <subcommand>", "OPTIONS:", "SUBCOMMANDS:"]
        var position = run.stdout.startIndex
        for section in sections {
            let found = run.stdout.range(of: section, range: position..<run.stdout.endIndex)
            #expect(found != nil, "missing or out of order: \(section)")
            if let found { position = found.upperBound }
        }
        #expect(run.stdout.contains("See 'beacon2mqtt help <subcommand>' for detailed help."))
    }

    @Test func everySubcommandIsListedAndHasHelp() {
        let root = CapturedRun(["--help"]).stdout
        for command in CommandLineTool.commands {
            let name = command.help.name
            #expect(root.contains("  \(name) "), "\(name) missing from root help")
            let help = CapturedRun(["help", name])
            #expect(help.code == .success)
            #expect(help.stdout.hasPrefix("OVERVIEW: \(command.help.abstract)"))
            #expect(help.stdout.contains("USAGE: beacon2mqtt \(name)"))
            #expect(CapturedRun([name, "--help"]).stdout == help.stdout)
        }
    }

    @Test func versionPrintsTheReleaseVersion() {
        let run = CapturedRun(["--version"])
        #expect(run.code == .success)
        #expect(run.stdout == "beacon2mqtt \(Version.string)\n")
    }

    @Test func unknownSubcommandIsAUsageErrorWithExit64() {
        let run = CapturedRun(["frobnicate"])
        #expect(run.code == .usage)
        #expect(run.code.rawValue == 64)
        #expect(run.stderr.contains("unknown subcommand 'frobnicate'"))
        #expect(run.stdout.isEmpty)
    }

    @Test func noArgumentsPrintsHelpToStderrWithExit64() {
        let run = CapturedRun([])
        #expect(run.code == .usage)
        #expect(run.stderr.contains("SUBCOMMANDS:"))
    }

    @Test func argumentsRejectUnknownOptionsAndReadValues() throws {
        var args = Arguments(["--config", "a.yaml", "--speed=2", "x", "--flag"])
        #expect(try args.option("--config") == "a.yaml")
        #expect(try args.option("--speed") == "2")
        let flagged = args.flag("--flag")
        #expect(flagged)
        #expect(try args.positionals() == ["x"])
        #expect(throws: UsageError.self) {
            var bad = Arguments(["--nope"])
            try bad.finish()
        }
        #expect(throws: UsageError("missing value for '--config'")) {
            var missing = Arguments(["--config"])
            _ = try missing.option("--config")
        }
    }
}
