/// `mqtt.username` and `mqtt.password_file`: who the agent says it is to the broker. The password
/// itself never appears in the YAML.
package struct MQTTCredentials: Sendable, Equatable {
    /// No authentication without it.
    package var username: String? = nil
    /// File holding the password; needs `username`.
    package var passwordFile: String? = nil

    package init(username: String? = nil, passwordFile: String? = nil) {
        self.username = username
        self.passwordFile = passwordFile
    }
}
