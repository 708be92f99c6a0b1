import FeedBasics
import Foundation

// SHA-256 throughput as Feedmill uses it: whole response bodies (to tell an unchanged 200
// from a changed one, and to name recorded bodies), and short entry fields (ids, content
// hashes), over the given files. Prints one line of JSON.
//   feed-hash-bench [--rounds N] FILE...
var arguments = Array(CommandLine.arguments.dropFirst())
var rounds = 5
if let index = arguments.firstIndex(of: "--rounds"), index + 1 < arguments.count {
    rounds = Int(arguments[index + 1]) ?? rounds
    arguments.removeSubrange(index...index + 1)
}
let bodies = arguments.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
let totalBytes = bodies.map(\.count).reduce(0, +)
// Entry-sized strings: 200-byte slices of the bodies, as the content hash sees fields.
let fields: [String] = bodies.flatMap { body in
    stride(from: 0, to: max(0, body.count - 200), by: 4096).map { String(decoding: body[$0..<$0 + 200], as: UTF8.self) }
}
var checksum = 0
var best = (bodies: Double.infinity, fields: Double.infinity)
for _ in 0..<rounds {
    var start = ContinuousClock.now
    for body in bodies { checksum &+= Int(SHA256.hexDigest(body).utf8.first ?? 0) }
    best.bodies = min(best.bodies, (ContinuousClock.now - start).seconds)
    start = ContinuousClock.now
    for field in fields { checksum &+= Int(SHA256.hexDigest(field).utf8.first ?? 0) }
    best.fields = min(best.fields, (ContinuousClock.now - start).seconds)
}
let megabytes = Double(totalBytes) / 1_000_000
print(
    "{\"bodies_mb_per_s\": \(String(format: "%.1f", megabytes / best.bodies)), "
        + "\"fields_ns_per_hash\": \(String(format: "%.0f", best.fields / Double(max(1, fields.count)) * 1e9)), "
        + "\"fields\": \(fields.count), \"bytes\": \(totalBytes), \"checksum\": \(checksum)}")

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
