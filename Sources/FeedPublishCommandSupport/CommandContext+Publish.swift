import FeedCommandSupport
import FeedPublishing
import FeedStorage

/// The publisher's configuration, from rss-publish's settings.
extension CommandContext {
    /// The typed settings of `rss-publish`: where the data is, and how to publish it.
    public func publishConfiguration(full: Bool) -> (data: DataDirectory, publish: PublishConfiguration) {
        var publish = PublishConfiguration()
        publish.outputDirectory = settings[Settings.publishDirectory]
        publish.retainedVersions = settings[Settings.deltas]
        publish.siteURL = settings[Settings.siteURL]
        publish.title = settings[Settings.title]
        publish.full = full
        publish.shard = settings[Settings.shard]
        // Unset, the grace period follows the target: none for a directory, an hour for a bucket.
        publish.retireAfter = settings.shown(Settings.retireAfter).source == .defaultValue
            ? Int64(PublicationTargetChoice.defaultRetireAfter(for: publish.outputDirectory))
            : Int64(settings[Settings.retireAfter].value)
        if let now = fixedNow { publish.fixClock(at: now) }
        // The key itself is read by the command (SigningKeyFile), which can say why it cannot be.
        return (DataDirectory(settings[Settings.dataDirectory], origin: dataDirectoryOrigin), publish)
    }
}
