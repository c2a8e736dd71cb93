import Platform

/// One `beacon2mqtt` subcommand. Parsing happens in `init`, so usage errors surface (exit 64)
/// before any work starts.
package protocol Command: SendableMetatype {
    static var help: CommandHelp { get }
    init(_ arguments: inout Arguments) throws(UsageError)
    func run(_ context: CommandContext) -> ExitCode
}
