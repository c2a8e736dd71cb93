import CLI
import CMalloc
import Glibc
import Platform

// Everything lives in the CLI module and below, so tests can drive the same code in-process.
signal(SIGPIPE, SIG_IGN)
// One malloc arena: glibc gives a thread that meets a locked arena one of its own, and each arena keeps
// its freed pages (two more arenas, 0.4 MiB resident, in a run at 3,000 reports/s; docs/performance.md).
// The threads allocate little and seldom contend for the lock.
_ = mallopt(M_ARENA_MAX, 1)
// Start-up's code and tables leave the resident set once the daemon runs (StartupPages).
StartupPages.release(after: 2)
let context = CommandContext.process()
let code = CommandLineTool.main(Array(CommandLine.arguments.dropFirst()), context: context)
context.flush()
exit(code.rawValue)
