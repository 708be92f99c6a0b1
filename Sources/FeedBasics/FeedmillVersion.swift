/// The version every command prints (`--version`) and the User-Agent names.
public enum FeedmillVersion {
    public static let current = "0.1.0"
}
