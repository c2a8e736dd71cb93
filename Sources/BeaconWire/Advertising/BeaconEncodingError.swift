/// Why a beacon cannot be turned into advertising data.
public enum BeaconEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAdvertisable(String)
    case urlScheme(String)
    case urlCharacter(String)
    case urlTooLong(String, encodedLength: Int)

    public var description: String {
        switch self {
        case .notAdvertisable(let frame): return "\(frame) frames are not advertised"
        case .urlScheme(let url):
            return "'\(url)' does not start with http://www., https://www., http:// or https://"
        case .urlCharacter(let url):
            return "'\(url)' has a character Eddystone-URL cannot carry (only printable ASCII without spaces)"
        case .urlTooLong(let url, let length):
            return
                "'\(url)' encodes to \(length) octets; Eddystone-URL holds \(BeaconEncoder.maximumEncodedURLLength) after the scheme"
        }
    }
}
