import BeaconCore
import Platform

extension Configuration {
    /// The secret files it names (the password file, the TLS key, devices' IRK files) that everyone
    /// may read: `run` logs a warning for each, and `check-config` prints the same one, so both judge
    /// a file alike.
    func worldReadableSecrets() -> [String] {
        ([mqtt.passwordFile, mqtt.tls.keyFile].compactMap { $0 } + devices.compactMap(\.irkFile)).filter { file in
            guard let mode = FileSystem.permissions(file) else { return false }
            return mode & 0o004 != 0
        }
    }

    /// The warning for a world-readable secret file (its path is logged beside it, never its content).
    static let worldReadableSecretWarning = "secret file is world-readable; chmod 600 it"
}
