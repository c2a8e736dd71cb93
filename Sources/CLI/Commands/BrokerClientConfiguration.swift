import BeaconConfig
import BeaconCore
import Glibc
import MQTTTransport
import Platform
import Runtime
import Settings

/// The configuration and broker options of a command that is a client of the agents' broker
/// (`status`, `config`): the file's mqtt section when there is a file, defaults otherwise, and a
/// client id of its own so it never displaces a running agent.
enum BrokerClientConfiguration {
    static func load(
        _ configPath: String?, purpose: String
    ) -> Result<(Configuration, MQTTConnectionOptions), any Error> {
        let path = configPath ?? RunCommand.defaultConfigPath
        var configuration = Configuration()
        configuration.gateway.id = HostName.gatewayID()
        do {
            if configPath != nil || FileSystem.exists(path) {
                configuration = try ConfigLoader.load(path: path, defaultGatewayID: configuration.gateway.id)
            }
            var options = try MQTTConnectionOptions(configuration: configuration)
            options.clientID = "\(options.clientID)-\(purpose)-\(getpid())"
            options.announcesAvailability = false
            return .success((configuration, options))
        } catch {
            return .failure(error)
        }
    }
}
