import Foundation

/// A broker user of a test's mosquitto with users and an ACL: its password file (mode 0600, in
/// `directory`) and the `mqtt:` section of a configuration file that logs in with it.
enum BrokerUser {
    static func mqttSection(_ user: String, password: String, port: Int, in directory: URL) throws -> String {
        let secret = directory.appendingPathComponent("\(user).password").path
        try password.write(toFile: secret, atomically: true, encoding: .utf8)
        chmod(secret, 0o600)
        return """
            mqtt:
              host: 127.0.0.1
              port: \(port)
              username: \(user)
              password_file: \(secret)
              reconnect_min: 200ms
              reconnect_max: 1s
            """
    }
}
