import CLI
import Glibc
import Platform

// Everything lives in the CLI module and below, so tests can drive the same code in-process.
signal(SIGPIPE, SIG_IGN)
let context = CommandContext.process()
let code = CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), context: context)
context.flush()
exit(code.rawValue)
