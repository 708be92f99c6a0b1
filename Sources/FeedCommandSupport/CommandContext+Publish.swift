import FeedPipeline
import FeedPublishing

/// The publisher's configuration, from rss-publish's settings.
extension CommandContext {
    /// The typed settings of `rss-publish`: where the data is, and how to publish it.
    public func publishConfiguration(full: Bool) -> (data: PipelineConfiguration, publish: PublishConfiguration) {
        var publish = PublishConfiguration()
        publish.outputDirectory = settings[Settings.publishDirectory]
        publish.retainedVersions = settings[Settings.deltas]
        publish.siteURL = settings[Settings.siteURL]
        publish.title = settings[Settings.title]
        publish.full = full
        return (dataConfiguration(), publish)
    }
}
