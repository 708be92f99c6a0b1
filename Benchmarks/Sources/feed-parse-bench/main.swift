// Parse-throughput harness that `Scripts/bench/run compare-revisions` and `parse-floor` run: reads
// each file once, then parses it (and with --normalize also normalises it) --repeat times, printing
// one line per run:
//   FILE BYTES SECONDS ENTRIES
// Only the parse is timed: the bytes are already in memory, as they are after a fetch.
import BenchCorpus
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
var normalize = false
var repeats = 5
var files: [String] = []
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--normalize": normalize = true
    case "--repeat": repeats = Int(arguments.removeFirst()) ?? 5
    default: files.append(argument)
    }
}
guard !files.isEmpty else {
    FileHandle.standardError.write(Data("usage: feed-parse-bench [--normalize] [--repeat N] FILE...\n".utf8))
    exit(64)
}
for file in files {
    guard let data = FileManager.default.contents(atPath: file) else {
        FileHandle.standardError.write(Data("cannot read \(file)\n".utf8))
        exit(1)
    }
    let bytes = [UInt8](data)
    for _ in 0..<repeats {
        let clock = ContinuousClock()
        var entries = 0
        let elapsed = try clock.measure {
            entries = normalize ? try Workloads.parseAndNormalise(bytes).count : try Workloads.parse(bytes)
        }
        let seconds = elapsed.inSeconds
        print(file, bytes.count, String(format: "%.6f", seconds), entries)
    }
}
