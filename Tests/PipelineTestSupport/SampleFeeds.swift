/// Feeds small enough to read in a test, shared by the tests of the library and of the binaries.
public enum SampleFeeds {
    /// RSS 2.0 with a relative link, an unsafe attribute, an author and an undated item.
    public static let small = """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>Small &amp; Fine</title><link>https://small.example/</link>
        <item><title>Hello</title><link>/hello</link><guid isPermaLink="false">h-1</guid>
        <description>&lt;p onclick="x()"&gt;Hi &lt;a href="/there"&gt;there&lt;/a&gt;&lt;/p&gt;</description>
        <pubDate>Tue, 21 Apr 2009 23:32:00 +0000</pubDate><author>a@b.c (Ann)</author></item>
        <item><title>No date "quoted"</title></item>
        </channel></rss>
        """
}
