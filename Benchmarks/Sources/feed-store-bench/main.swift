// Storage harness that `Scripts/bench/run storage-floor` and `compare-revisions` run. For each feed
// file: parse and normalise (not timed), then time FeedDatabase's create + migrate + upsert into a
// fresh feed_<n>.sqlite, one transaction per feed. Also writes the rows to ROWS (length-prefixed
// fields) so that the C floor (Scripts/bench/lib/engines/store-floor.c) upserts exactly the same
// data. Prints:
//   feeds=N rows=R seconds=S rows_per_second=X
import BenchCorpus
import FeedModel
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
var total = Duration.zero
var rows = 0
for (index, path) in arguments.dropFirst(3).enumerated() {
    guard let data = FileManager.default.contents(atPath: path) else { continue }
    let entries = try Workloads.parseAndNormalise([UInt8](data), feedURL: "https://bench.example/\(index)")
    field(String(entries.count))
    for entry in entries {
        for value in [entry.id, entry.title, entry.summary.text, String(entry.pubdate ?? 1_700_000_000), entry.permalink,
            entry.updated.map(String.init), entry.author, entry.idSource.rawValue]
        {
            field(value)
        }
    }
    let clock = ContinuousClock()
    total += try clock.measure {
        let upsert = try FeedDatabase(path: "\(out)/feed_\(index).sqlite").beginUpsert(now: 1_700_000_000)
        for entry in entries { try upsert.add(entry) }
        _ = try upsert.commit()
    }
    rows += entries.count
}
FileManager.default.createFile(atPath: arguments[2], contents: Data(export))
let seconds = total.inSeconds
print("feeds=\(arguments.count - 3) rows=\(rows) seconds=\(String(format: "%.3f", seconds)) rows_per_second=\(Int(Double(rows) / seconds))")
