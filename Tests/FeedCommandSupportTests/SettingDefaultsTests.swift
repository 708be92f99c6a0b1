import FeedCommandSupport
import FeedFetching
import FeedPipeline
import FeedPublishing
import FeedStorage
import Testing

/// The settings write out the defaults of the fetching settings (so that rss-publish does not
/// link the fetcher); each must be the library's own.
@Suite struct SettingDefaultsTests {
    @Test func eachSettingsDefaultIsTheOneTheLibrariesUse() {
        let pipeline = PipelineConfiguration()
        let fetch = FetchConfiguration()
        #expect(Settings.dataDirectory.defaultValue == pipeline.dataDirectory)
        #expect(Settings.concurrency.defaultValue == pipeline.concurrency)
        #expect(Settings.perHost.defaultValue == pipeline.perHostLimit)
        #expect(Settings.timeout.defaultValue == fetch.totalTimeout)
        #expect(Settings.maxSize.defaultValue == fetch.maxBodyBytes >> 20)
        #expect(Settings.contact.defaultValue == FetchConfiguration.defaultContactURL)
        #expect(Settings.staleAfter.defaultValue == Seconds(pipeline.staleAfter))
        #expect(Settings.publishDirectory.defaultValue == PublishConfiguration().outputDirectory)
        #expect(Settings.deltas.defaultValue == PublishConfiguration().retainedVersions)
        #expect(Settings.title.defaultValue == PublishConfiguration().title)
    }
}
