import FeedBasics
import FeedFetching
import FeedStorage
import Foundation

/// Why a run could not do its work at all (as opposed to one feed failing).
public enum PipelineError: Error, CustomStringConvertible, Equatable {
    case busy(lockPath: String, holder: String)
    case dataDirectory(path: String, reason: String)
    /// The publish directory cannot be used (it is a file, it cannot be created or locked).
    case outputDirectory(path: String, reason: String)
    case feedList(source: String, reason: String)
    case storage(StorageError)
    /// The publish directory and the data directory overlap.
    case overlappingDirectories(output: String, data: String, relation: String)
    /// The catalog is missing or empty while feed databases exist beside it.
    case catalogLost(path: String, feedDatabases: [Int64])
    /// There is no catalog yet (and no feed databases): `rss-create` comes first.
    case noCatalog(path: String)
    /// `--feed` named feedids the catalog does not have: nothing was done.
    case unknownFeeds([Int64])

    public var description: String {
        switch self {
        case .busy(let lockPath, let holder):
            let who = holder.allSatisfy(\.isNumber) ? "another Feedmill run (pid \(holder))" : holder
            return "\(who) is using \(lockPath); try again when it has finished"
        case .dataDirectory(let path, let reason):
            return "cannot use data directory \(path): \(reason)"
        case .outputDirectory(let path, let reason):
            return "cannot use output directory \(path): \(reason)"
        case .feedList(let source, let reason):
            return "cannot read the feed list \(source): \(reason)"
        case .storage(let error):
            return error.description
        case .overlappingDirectories(let output, let data, let relation):
            return "refusing to publish into \(output): it \(relation) \(data), and publishing removes old files from "
                + "its output directory; choose an output directory outside the data directory"
        case .unknownFeeds(let ids):
            return "no feed with feedid \(ids.map(String.init).joined(separator: ", ")) in the catalog; "
                + "rss-feeds list shows the feedids there are"
        case .noCatalog(let path):
            return "no catalog at \(path): run rss-create first"
        case .catalogLost(let path, let ids):
            let shown = ids.prefix(5).map { "feed_\($0).sqlite" }.joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
            return "\(path) is missing or empty, but \(ids.count) feed database(s) are beside it (\(shown)); "
                + "a new catalog could give their feedids to other feeds. Restore all_feeds.sqlite from a backup, "
                + "or run rss-create --rebuild-catalog to list them again from their own stamps, "
                + "or move the feed_*.sqlite files elsewhere to start a new catalog"
        }
    }

    public var exitCode: Int32 {
        switch self {
        case .busy: return ExitStatus.busy
        case .overlappingDirectories, .unknownFeeds: return ExitStatus.usage
        default: return ExitStatus.fatal
        }
    }
}

extension PipelineError {
    /// Why `path` cannot be used as a directory, if it cannot: it is something else, or it
    /// cannot be created (`create`) or reached.
    public static func directoryProblem(_ path: String, create: Bool) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? nil : "it is a file, not a directory"
        }
        guard errno == ENOENT else { return String(cString: strerror(errno)) }
        guard create else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return nil
        } catch {
            return FileSystemDiagnosis.problem(writing: path) ?? "it cannot be created (\(error.localizedDescription))"
        }
    }

    /// Throws `.unknownFeeds` naming every id in `requested` that `known` lacks, in order.
    public static func refuseUnknown(_ requested: [Int64], known: some Sequence<Int64>) throws(PipelineError) {
        let known = Set(known)
        var seen = Set<Int64>()
        let unknown = requested.filter { !known.contains($0) && seen.insert($0).inserted }
        if !unknown.isEmpty { throw .unknownFeeds(unknown) }
    }
}
