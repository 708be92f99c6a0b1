// Storage harness for Scripts/bench/storage. For each feed file: parse and normalise (not
// timed), then time FeedDatabase's create + migrate + upsert into a fresh feed_<n>.sqlite, one
// transaction per feed. Also writes the rows to ROWS (length-prefixed fields) so that the C
// floor (Scripts/bench/engines/store-floor.c) upserts exactly the same data. Prints:
//   feeds=N rows=R seconds=S rows_per_second=X
import FeedModel
import FeedNormalization
import FeedParsing
import FeedStorage
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: feed-store-bench OUTDIR ROWS-FILE FEED...\n".utf8))
    exit(64)
}
let out = arguments[1]
try? FileManager.default.removeItem(atPath: out)
try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
nonisolated(unsafe) var export: [UInt8] = []  // single-threaded harness
func field(_ text: String?) {
    let bytes = Array((text ?? "").utf8)
    var length = UInt32(bytes.count).littleEndian
    withUnsafeBytes(of: &length) { export.append(contentsOf: $0) }
    export.append(contentsOf: bytes)
}
/// The time of reading, as `rss-update` takes it: it bounds the dates normalisation keeps.
let now = Int64(Date().timeIntervalSince1970)
var total = Duration.zero
var rows = 0
for (index, path) in arguments.dropFirst(3).enumerated() {
    guard let data = FileManager.default.contents(atPath: path) else { continue }
    let feed = FeedNormalizer.normalize(try FeedParser.parse([UInt8](data)), feedURL: "https://bench.example/\(index)", now: now)
    field(String(feed.entries.count))
    for entry in feed.entries {
        for value in [entry.id, entry.title, entry.summary.text, String(entry.pubdate ?? 1_700_000_000), entry.permalink,
            entry.updated.map(String.init), entry.author, entry.idSource.rawValue]
        {
            field(value)
        }
    }
    let clock = ContinuousClock()
    total += try clock.measure {
        let upsert = try FeedDatabase(path: "\(out)/feed_\(index).sqlite").beginUpsert(now: 1_700_000_000)
        for entry in feed.entries { try upsert.add(entry) }
        _ = try upsert.commit()
    }
    rows += feed.entries.count
}
FileManager.default.createFile(atPath: arguments[2], contents: Data(export))
let seconds = total.inSeconds
print("feeds=\(arguments.count - 3) rows=\(rows) seconds=\(String(format: "%.3f", seconds)) rows_per_second=\(Int(Double(rows) / seconds))")
