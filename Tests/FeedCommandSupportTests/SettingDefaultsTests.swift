import FeedCommandSupport
import FeedFetching
import FeedPipeline
import FeedPublishing
import FeedStorage
import Testing

/// The settings table writes out the defaults of the fetching settings (so that rss-publish
/// does not link the fetcher); each must be the library's own.
@Suite struct SettingDefaultsTests {
    @Test func eachSettingsDefaultIsTheOneTheLibrariesUse() {
        let pipeline = PipelineConfiguration()
        let fetch = FetchConfiguration()
        let defaults: [(Setting, String?)] = [
            (.dataDirectory, pipeline.dataDirectory),
            (.concurrency, String(pipeline.concurrency)),
            (.perHost, String(pipeline.perHostLimit)),
            (.timeout, Setting.formatNumber(fetch.totalTimeout)),
            (.maxSize, String(fetch.maxBodyBytes >> 20)),
            (.contact, FetchConfiguration.defaultContactURL),
            (.staleAfter, Seconds(pipeline.staleAfter).text),
            (.publishDirectory, PublishConfiguration().outputDirectory),
            (.deltas, String(PublishConfiguration().retainedVersions)),
            (.title, PublishConfiguration().title),
        ]
        for (setting, expected) in defaults {
            #expect(setting.defaultValue == expected, "\(setting.key)")
        }
    }
}
