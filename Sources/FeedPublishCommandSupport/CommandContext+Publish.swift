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
        publish.retireAfter = Int64(settings[Settings.retireAfter].value)
        if let now = fixedNow { publish.fixClock(at: now) }
        return (DataDirectory(settings[Settings.dataDirectory]), publish)
    }
}
