/// Process exit codes, from sysexits(3).
package enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    /// EX_USAGE: the command line was wrong.
    case usage = 64
    /// EX_DATAERR: input bytes could not be decoded.
    case dataError = 65
    /// EX_NOINPUT: an input file could not be opened.
    case noInput = 66
    /// EX_NOUSER: a user named on the command line does not exist.
    case noUser = 67
    /// EX_UNAVAILABLE: a required resource (broker, adapter, Bluetooth in the kernel) is unavailable.
    case unavailable = 69
    /// EX_SOFTWARE: an internal error.
    case software = 70
    /// EX_IOERR
    case ioError = 74
    /// EX_NOPERM: the command needs a privilege the caller lacks (root, to switch users).
    case noPermission = 77
    /// EX_CONFIG: the configuration is invalid.
    case config = 78
}
