// Publish benchmark for `Scripts/bench/run publish`: builds a data directory of FEEDS feeds with
// ITEMS entries each (straight through FeedStorage), publishes it once, changes CHANGED% of
// the feeds, then publishes incrementally and, into a second directory, in full. Prints:
//   mode=incremental seconds=S cpu=C files=N bytes=B feeds_written=W
// seconds is the publication's wall clock, cpu its user + system CPU time (getrusage around the
// call): their ratio says whether publishing waits on the disk (issue 41).
import FeedModel
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 5, let feeds = Int(arguments[2]), let items = Int(arguments[3]), let changedPercent = Double(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: feed-publish-bench WORKDIR FEEDS ITEMS CHANGED_PERCENT\n".utf8))
    exit(64)
}
let work = arguments[1]
try? FileManager.default.removeItem(atPath: work)
try FileManager.default.createDirectory(atPath: work + "/data", withIntermediateDirectories: true)
let pipeline: PipelineConfiguration = {
    var configuration = PipelineConfiguration()
    configuration.dataDirectory = work + "/data"
    return configuration
}()
let catalog = try Catalog(path: pipeline.catalogPath)
let added = try catalog.importOutlines((1...feeds).map { CatalogOutline(url: "https://feeds.example/\($0).xml") }, prune: false).added
let body = String(repeating: "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>", count: 12)
func entries(_ feed: Int64, round: Int) -> [Entry] {
    (0..<items).map {
        Entry(id: "f\(feed)-\($0)", idSource: .native, permalink: "https://site.example/\(feed)/\($0)", title: "Entry \($0) of feed \(feed)",
            summary: SafeHTML(body), pubdate: 1_700_000_000 - Int64($0) * 3600 + Int64(round), updated: nil, author: "Author \(feed % 17)")
    }
}
/// The entries written into the feed's database in one transaction, as an update writes them.
func store(_ entries: [Entry], feedID: Int64, now: Int64) throws {
    let upsert = try FeedDatabase(path: pipeline.feedDatabasePath(feedID)).beginUpsert(now: now)
    for entry in entries { try upsert.add(entry) }
    _ = try upsert.commit()
}
for var feed in try catalog.feeds() {
    try store(entries(feed.feedID, round: 0), feedID: feed.feedID, now: 1_700_000_000)
    feed.title = "Feed \(feed.feedID)"
    feed.lastUpdate = 1_700_000_000
    try catalog.save(feed)
}
/// User + system CPU seconds this process has used.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}
/// One publication's report line: wall clock and CPU time measured around the call.
func publish(_ directory: String, full: Bool, mode: String) throws {
    let cpu = cpuSeconds()
    let started = ContinuousClock.now
    let report = try publish(directory, full: full)
    let elapsed = ContinuousClock.now - started
    let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(
        "mode=\(mode) seconds=\(String(format: "%.3f", wall)) cpu=\(String(format: "%.3f", cpuSeconds() - cpu)) files=\(report.filesWritten) "
            + "bytes=\(report.bytesWritten) feeds_written=\(report.feedsWritten)")
}
func publish(_ directory: String, full: Bool) throws -> PublishReport {
    var configuration = PublishConfiguration()
    configuration.outputDirectory = directory
    configuration.full = full
    configuration.clock = pipeline.clock
    return try PublishRun(data: pipeline.data, configuration: configuration, catalog: catalog).run()
}
try publish(work + "/incremental", full: false, mode: "initial")
_ = try publish(work + "/full", full: false)
let changedCount = max(1, Int(Double(feeds) * changedPercent / 100))
for index in stride(from: 0, to: feeds, by: feeds / changedCount).prefix(changedCount) {
    let id = added[index]
    try store(
        [Entry(id: "new-\(id)", idSource: .native, permalink: nil, title: "New", summary: "<p>new</p>", pubdate: 1_800_000_000, updated: nil, author: nil)]
            + entries(id, round: 1).prefix(2), feedID: id, now: 1_800_000_000)
}
for (mode, directory, full) in [("incremental", "/incremental", false), ("full", "/full", true)] {
    try publish(work + directory, full: full, mode: mode)
}
try publish(work + "/incremental", full: false, mode: "unchanged")
