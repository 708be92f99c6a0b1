import ArgumentParser
import FeedServing
import Foundation
import Logging

/// `rss-serve`: the long-running server beside the batch commands. Thin: options, a logger,
/// one call to ``FeedServer``. An executable of its own, not a link to `feedmill`: it alone
/// links SwiftNIO.
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rss-serve",
        abstract: "Serve a publication and push each new one to connected readers (Server-Sent Events).",
        usage: "rss-serve [--listen <host:port>] [--out <dir>]",
        discussion: """
            Serves the publication in --out (what rss-publish --out writes) over HTTP: GET and \
            HEAD of its files with the client contract's Content-Type and Cache-Control, strong \
            ETags (If-None-Match answers 304) and byte ranges; nothing outside it, no hidden \
            file, no listing. GET /events[?feeds=ID,ID] is a Server-Sent Events stream: each \
            followed feed's current entry, then, within a second of every root rss-publish \
            commits (from cron, by hand, any host writing the directory), one event per \
            followed feed it changed, with the RFC 6902 JSON Patch of its items \
            (docs/client-contract.md, "Live updates"). GET /healthz answers 200 once a \
            publication is there. SIGTERM or SIGINT stops it gracefully.

            Exit status: 0 stopped by a signal; 64 usage error; 70 the address cannot be bound.
            """)

    @Option(name: .long, help: ArgumentHelp("Address and port to listen on.", valueName: "host:port"))
    var listen = "127.0.0.1:8080"

    @Option(name: .long, help: ArgumentHelp("The publication directory to serve.", valueName: "dir"))
    var out = "./publish"

    @Option(name: .long, help: .hidden)
    var heartbeat: Double = 15

    @Option(name: .long, help: .hidden)
    var bufferLimit = 256

    func validate() throws {
        guard Self.address(listen) != nil else { throw ValidationError("--listen: expected HOST:PORT (127.0.0.1:8080, [::1]:8080), got \(listen)") }
        guard heartbeat > 0, heartbeat <= 3_600 else { throw ValidationError("--heartbeat: seconds between 0 and 3600") }
        guard bufferLimit > 0 else { throw ValidationError("--buffer-limit: at least 1") }
    }

    static func address(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    func run() async throws {
        guard let (host, port) = Self.address(listen) else { throw ExitCode(64) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory), isDirectory.boolValue else {
            FileHandle.standardError.write(Data("rss-serve: \(out): no such directory (the publication rss-publish --out writes)\n".utf8))
            throw ExitCode(66)
        }
        var logger = Logger(label: "rss-serve")
        logger.logLevel = .info
        var settings = FeedServer.Settings(host: host, port: port, directory: out)
        settings.heartbeat = .milliseconds(Int64(heartbeat * 1_000))
        settings.bufferLimit = bufferLimit
        do {
            try await FeedServer(settings: settings, logger: logger).run { bound in
                FileHandle.standardError.write(Data("rss-serve: serving \(out) on \(host):\(bound)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("rss-serve: \(listen): \(error)\n".utf8))
            throw ExitCode(70)
        }
    }
}
