import ArgumentParser
import FeedBasics
import FeedCommandSupport
import FeedFetching
import FeedPipeline
import FeedPublishCommandSupport
import FeedPublishing
import FeedPublishingObjectStorage
import FeedServing
import FeedUpdateCommandSupport
import Foundation
import Logging

/// `rss-serve`: the options and the settings (the same configuration file, environment and
/// precedence as the other commands, its `[serve]` section), then one call to ``FeedServer``.
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rss-serve",
        abstract: "Serve a publication and push each new one to connected readers (Server-Sent Events); take WebSub pushes in.",
        usage: "rss-serve [--listen <host:port>] [--out <dir>|s3://<bucket>/<prefix>] [--data-dir <dir> --public-url <url>]",
        discussion: """
            Serves the publication in --out (what rss-publish --out writes) over HTTP: GET and \
            HEAD of its files with the client contract's Content-Type and Cache-Control, strong \
            ETags (If-None-Match answers 304) and byte ranges; nothing outside it, no hidden \
            file, no listing. GET /events[?feeds=ID,ID] is a Server-Sent Events stream: each \
            followed feed's current entry, then, within a second of every root rss-publish \
            commits (from cron, by hand, any host writing the directory), one event per \
            followed feed it changed, with the RFC 6902 JSON Patch of its items \
            (docs/client-contract.md, "Live updates"). GET /healthz answers 200 once a \
            publication is there; GET /metrics is Prometheus' text format. SIGTERM or SIGINT \
            stops it gracefully.

            With --out s3://bucket/prefix (the AWS variables and files of rss-publish), the \
            publication is a bucket's: its root is watched by a conditional GET each second, \
            /events works as above on any number of instances, and clients read the files from \
            the bucket, not from rss-serve.

            With --public-url and --data-dir, it is a WebSub subscriber (W3C): it subscribes to \
            the hub of every feed whose last update advertised one (rel="hub" and rel="self", \
            recorded by rss-update), with a secret per subscription, answers only the \
            verifications it asked for, renews leases, and takes a hub's signed push \
            (X-Hub-Signature sha256, at most --max-size MiB) at <public-url>/websub/<callback>: \
            stored like a fetch under the data directory's lock, then that feed published into \
            --out, so connected readers get it within seconds. Subscriptions and their secrets \
            are kept in <data-dir>/websub.sqlite (mode 0600).

            With --users FILE (lines NAME SHA256-HEX-OF-TOKEN), GET and POST /v1/state keep each \
            user's read and starred marks in <data-dir>/reading-state.sqlite and share them \
            between the user's devices (Authorization: Bearer TOKEN; docs/client-contract.md, \
            "Reading state").

            Exit status: 0 stopped by a signal; 64 usage error or a bad setting; 66 no publication \
            directory or signing key; 70 the address cannot be bound; 77 a signing key others may read.
            """,
        version: FeedmillVersion.line("rss-serve", commit: BuildStamp.commit, built: BuildStamp.date))

    @Option(help: Settings.listen.help)
    var listen: String?

    @Option(help: Settings.publishDirectory.help, completion: .directory)
    var out: String?

    @Option(help: Settings.dataDirectory.help, completion: .directory)
    var dataDir: String?

    @Option(help: Settings.publicURL.help)
    var publicURL: String?

    @Option(help: Settings.users.help, completion: .file())
    var users: String?

    @Option(parsing: .number, help: Settings.deltas.help)
    var deltas: Int?

    @Option(help: Settings.siteURL.help)
    var siteURL: String?

    @Option(help: Settings.title.help)
    var title: String?

    @Option(help: Settings.signingKey.help, completion: .file())
    var signingKey: String?

    @OptionGroup var fetch: FetchOptions

    @OptionGroup var common: CommonOptions

    @Option(name: .long, help: .hidden)
    var websubCheck: Double = 60

    @Option(name: .long, help: .hidden)
    var heartbeat: Double = 15

    @Option(name: .long, help: .hidden)
    var bufferLimit = 256

    @Option(name: .long, help: .hidden)
    var sendTimeout: Double = 60

    /// Requests per second per user at /v1/state (tests lower it to see 429 quickly).
    @Option(name: .long, help: .hidden)
    var stateRate: Double = 1

    @Option(name: .long, help: .hidden)
    var stateBurst = 30

    func validate() throws {
        guard heartbeat > 0, heartbeat <= 3_600 else { throw ValidationError("--heartbeat: seconds between 0 and 3600") }
        guard bufferLimit > 0 else { throw ValidationError("--buffer-limit: at least 1") }
        guard sendTimeout >= 0.1, sendTimeout <= 3_600 else { throw ValidationError("--send-timeout: seconds between 0.1 and 3600") }
        guard websubCheck >= 0.1, websubCheck <= 86_400 else { throw ValidationError("--websub-check: seconds between 0.1 and 86400") }
        guard stateRate > 0, stateRate <= 10_000, stateBurst >= 1, stateBurst <= 10_000 else {
            throw ValidationError("--state-rate and --state-burst: between 1 and 10000")
        }
    }

    /// One descriptor per reader: the soft limit (often 1,024) is raised to the hard one, as
    /// servers do, so that what limits readers is the operator's `LimitNOFILE`, not a default.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    func run() async throws {
        var given = fetch.given
        given.add(Settings.listen, listen)
        given.add(Settings.publishDirectory, out)
        given.add(Settings.dataDirectory, dataDir)
        given.add(Settings.publicURL, publicURL)
        given.add(Settings.users, users)
        given.add(Settings.deltas, deltas)
        given.add(Settings.siteURL, siteURL)
        given.add(Settings.title, title)
        given.add(Settings.signingKey, signingKey)
        let context = try CommandContext.make(.serve, common: common, given: given)
        guard let address = ServeAddress(context.settings[Settings.listen]) else { throw ExitCode(64) }
        let (data, configured) = context.publishConfiguration(full: false)
        let out = configured.outputDirectory
        let publication: FeedServer.Publication
        if ObjectStorageLocation.names(out) {
            // A bucket: the same AWS variables and files as rss-publish --out s3://.
            do {
                publication = .bucket(try ObjectStorageTarget.make(out: out, environment: ProcessInfo.processInfo.environment))
            } catch {
                FileHandle.standardError.write(Data("rss-serve: \(error.description)\n".utf8))
                throw ExitCode(64)
            }
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory), isDirectory.boolValue else {
                FileHandle.standardError.write(Data("rss-serve: \(out): no such directory (the publication rss-publish --out writes)\n".utf8))
                throw ExitCode(66)
            }
            publication = .directory(out)
        }
        Self.raiseDescriptorLimit()
        var settings = FeedServer.Settings(host: address.host, port: address.port, publication: publication)
        settings.heartbeat = .milliseconds(Int64(heartbeat * 1_000))
        settings.bufferLimit = bufferLimit
        settings.sendTimeout = .milliseconds(Int64(sendTimeout * 1_000))
        if let publicURL = context.settings[Settings.publicURL] {
            var publish = configured
            if let path = context.settings[Settings.signingKey] {
                do {
                    publish.signingKey = try SigningKeyFile.read(path)
                } catch {
                    FileHandle.standardError.write(Data("rss-serve: \(error.description)\n".utf8))
                    throw ExitCode(error.exitCode)
                }
            }
            // Pushed items go into the catalog's feeds: without one, there is nothing to subscribe for.
            guard FileManager.default.fileExists(atPath: data.catalogPath) else {
                FileHandle.standardError.write(Data("rss-serve: --public-url: no catalog in \(data.path) (rss-create makes it; data-dir names it)\n".utf8))
                throw ExitCode(66)
            }
            var pipeline = context.dataConfiguration()
            pipeline.dataDirectory = data.path
            pipeline.fetch = try context.fetchConfiguration(fetch)
            var websub = WebSubSettings(publicURL: publicURL, pipeline: pipeline, publish: publish)
            websub.checkInterval = .milliseconds(Int64(websubCheck * 1_000))
            settings.websub = websub
        }
        if let usersFile = context.settings[Settings.users] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: data.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                FileHandle.standardError.write(Data("rss-serve: --users: no data directory \(data.path) to keep reading state in (data-dir names it)\n".utf8))
                throw ExitCode(66)
            }
            var state = ReadingStateSettings(usersFile: usersFile, dataDirectory: data.path)
            state.burst = stateBurst
            state.interval = .milliseconds(Int64(1_000 / stateRate))
            settings.readingState = state
        }
        do {
            try await FeedServer(settings: settings, logger: context.logger).run { bound in
                FileHandle.standardError.write(Data("rss-serve: serving \(out) on \(address.host):\(bound)\n".utf8))
            }
        } catch let error as ServeSettingError {
            FileHandle.standardError.write(Data("rss-serve: \(error.description)\n".utf8))
            throw ExitCode(64)
        } catch {
            FileHandle.standardError.write(Data("rss-serve: \(context.settings[Settings.listen]): \(error)\n".utf8))
            throw ExitCode(70)
        }
    }
}
