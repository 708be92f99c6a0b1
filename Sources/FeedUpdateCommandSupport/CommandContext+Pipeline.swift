import FeedCommandSupport
import FeedPipeline

/// The pipeline's configuration, from the settings of the commands that work on a data directory.
extension CommandContext {
    /// The typed settings of `rss-create` and `rss-update`.
    public func pipelineConfiguration(_ options: PipelineOptions) throws -> PipelineConfiguration {
        var configuration = dataConfiguration()
        configuration.fetch = try fetchConfiguration(options.fetch)
        configuration.concurrency = settings[Settings.concurrency]
        configuration.perHostLimit = settings[Settings.perHost]
        configuration.deadline = settings[Settings.deadline].map { Double($0.value) }
        configuration.shard = settings[Settings.shard]
        if let keepItems = settings[Settings.keepItems] { configuration.retention.keepItems = keepItems }
        if let keepDays = settings[Settings.keepDays] { configuration.retention.keepDays = keepDays }
        return configuration
    }

    /// Where the data directory is, when a feed is due, and the clock: what every command
    /// that opens the catalog needs.
    public func dataConfiguration() -> PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.dataDirectory = settings[Settings.dataDirectory]
        configuration.dataDirectoryOrigin = dataDirectoryOrigin
        configuration.writer = otherUserPolicy
        configuration.staleAfter = settings[Settings.staleAfter].value
        if let now = fixedNow { configuration.fixClock(at: now) }
        return configuration
    }
}
