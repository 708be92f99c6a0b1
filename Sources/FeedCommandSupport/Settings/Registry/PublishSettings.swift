/// Settings of rss-publish.
///
/// Their defaults are written out rather than read from `PublishConfiguration`, so that the
/// commands that only fetch do not link the publisher; `SettingDefaultsTests` holds each to
/// the library's own.
extension Settings {
    public static let publishDirectory = Setting(
        "out", environment: "FEEDMILL_PUBLISH_DIR", type: .text, default: "./publish", valueName: "dir",
        "The publish directory, or s3://bucket/prefix for S3-compatible object storage (endpoint, region and credentials "
            + "from the AWS_* variables and ~/.aws files).")

    public static let deltas = Setting(
        "deltas", type: .wholeNumber(in: 0...50), default: 3, valueName: "n",
        "Earlier versions of each feed kept, each with a delta to the current one (0-50).")

    public static let siteURL = Setting(
        "site-url", type: SettingType.text("a URL ending with /") { $0.hasSuffix("/") }.orUnset, default: nil, valueName: "url",
        unsetMeans: "none (atom.xml then has no self link)",
        "The URL the publish directory is served at, for atom.xml's links (ends with /).")

    public static let title = Setting(
        "title", type: .text, default: "Feedmill", valueName: "text", "Title of atom.xml and index.html.")

    public static let retireAfter = Setting(
        "retire-after", type: .duration, default: Seconds(0), valueName: "duration",
        "How long a file a publication no longer names stays before a later one removes it (0: the next publication; "
            + "longer than a client's sync on object storage, where 1h is usual).")

    public static let signingKey = Setting(
        "signing-key", environment: "FEEDMILL_SIGNING_KEY", type: SettingType.text.orUnset, default: nil, valueName: "file",
        unsetMeans: "none (the publication is not signed)",
        "Sign the root and every pointer written with the Ed25519 key in this file (made by rss-publish --generate-key, mode "
            + "0600), for clients that pin its public key (rss-pull --trust).")
}
