/// The release version, printed by `--version` and put in the .deb.
public enum Version {
    public static let string = "0.1.0"
}
