// Fetch-throughput harness for `Scripts/bench/run fetch`: fetches every URL in a list file with
// FetchScheduler and prints one line:
//   feeds=N ok=N failed=N seconds=S feeds_per_second=R bytes=B peak_rss_kib=K
import FeedFetching
import Foundation
import Synchronization

/// Results written by many workers.
final class Results: Sendable {
    private let slots: Mutex<[Result<FetchOutcome, FetchError>?]>
    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
    func set(_ index: Int, _ result: Result<FetchOutcome, FetchError>) { slots.withLock { $0[index] = result } }
    var values: [Result<FetchOutcome, FetchError>?] { slots.withLock { $0 } }
}

var arguments = Array(CommandLine.arguments.dropFirst())
var concurrency = 16
var perHost = 2
var listPath: String?
while let argument = arguments.first {
    arguments.removeFirst()
    switch argument {
    case "--concurrency": concurrency = Int(arguments.removeFirst()) ?? 16
    case "--per-host": perHost = Int(arguments.removeFirst()) ?? 2
    default: listPath = argument
    }
}
guard let listPath, let list = try? String(contentsOfFile: listPath, encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: feed-fetch-bench [--concurrency N] [--per-host N] URL-LIST\n".utf8))
    exit(64)
}
let requests = list.split(separator: "\n").map { FetchRequest(url: String($0)) }
var configuration = FetchConfiguration()
configuration.networkPolicy = .allowAll
let scheduler = FetchScheduler(configuration: configuration, concurrency: concurrency, perHostLimit: perHost)
let start = ContinuousClock.now
let results = Results(count: requests.count)
scheduler.fetchEach(hosts: requests.map { FetchScheduler.hostKey($0.url) }) { index, fetch in
    results.set(index, fetch(requests[index], nil))
}
let elapsed = ContinuousClock.now - start
let seconds = elapsed.inSeconds
let ok = results.values.filter { (try? $0?.get()) != nil }.count
let bytes = results.values.compactMap { try? $0?.get().response.bytesReceived }.reduce(0, +)
let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?.split(separator: " ").dropFirst().first ?? "0"
print("feeds=\(requests.count) ok=\(ok) failed=\(requests.count - ok) seconds=\(String(format: "%.3f", seconds)) feeds_per_second=\(String(format: "%.1f", Double(requests.count) / seconds)) bytes=\(bytes) peak_rss_kib=\(peak)")
