import BeaconConfig
import BeaconCore
import Platform
import Settings

extension CommandContext {
    /// The configuration of an offline command's `--config` (`replay`, `scan`, `survey`), or the
    /// built-in defaults with this host's gateway id without one; nil after printing why the file
    /// is unusable, for exit 78.
    func configuration(at path: String?) -> Configuration? {
        guard let path else {
            var defaults = Configuration()
            defaults.gateway.id = HostName.gatewayID()
            return defaults
        }
        do {
            return try ConfigLoader.load(path: path, defaultGatewayID: HostName.gatewayID())
        } catch {
            err("\(error)\n")
            return nil
        }
    }
}
