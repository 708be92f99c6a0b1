import FeedBasics
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The only files the publisher ever removes: files it wrote itself, known by name from its
/// own manifests (current, earlier versions, deltas, pages, and files it retired), and its
/// own temporary files left by an interrupted publication. Nothing else in the output
/// directory is touched, whatever it is called, and directories are never entered.
enum PublishedFiles {
    /// Files the previous manifest knew that the next one no longer names: those a client may
    /// still be downloading (the previous publication served them) are kept one more round and
    /// listed as retired in the next manifest; the rest are removed once it is written.
    static func retire(previous: Manifest, next: Manifest, in directory: String) -> (retired: [String], removeNow: [String]) {
        let known = previous.files.union(previous.retiredFiles ?? []).filter { isPublisherName($0) && isRegularFile(directory + "/" + $0) }
        let unnamed = known.subtracting(next.files)
        let keptOneMore = unnamed.intersection(previous.servedFiles)
        let removeNow = unnamed.subtracting(keptOneMore).union(staleTemporaries(in: directory))
        // Retired names stay listed until they are gone, so an interrupted removal is retried.
        return (unnamed.sorted(), removeNow.sorted())
    }

    /// Removes regular files only (`unlink`, which removes a link itself, never its target).
    static func remove(_ names: [String], in directory: String) -> Int {
        names.filter { isRegularFile(directory + "/" + $0) && unlink(directory + "/" + $0) == 0 }.count
    }

    /// A name the publisher gives its files, and nothing else: `feed_3.v2.sqlite`,
    /// `feed_3.v1-v2.delta.json`, `all_feeds.v4.sqlite`, `atom.xml`, `index.html`, and the
    /// stable names `feed_3.sqlite` and `all_feeds.sqlite` (removed only when the manifest
    /// lists them as written by the publisher).
    static func isPublisherName(_ name: String) -> Bool {
        if name == "atom.xml" || name == "index.html" { return true }
        return matches(name, publisherNames)
    }

    /// Temporary files of an interrupted publication: a publisher name (or the manifest)
    /// followed by `.tmp-<pid>`, possibly with SQLite's `-journal`. The output directory is
    /// locked while publishing, so any found now belong to a run that has ended.
    static func staleTemporaries(in directory: String) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Set(names.filter { name in
            guard let range = name.range(of: ".tmp-", options: .backwards) else { return false }
            let base = String(name[..<range.lowerBound])
            var suffix = name[range.upperBound...]
            if suffix.hasSuffix("-journal") { suffix = suffix.dropLast("-journal".count) }
            return !suffix.isEmpty && suffix.allSatisfy { $0.isASCII && $0.isNumber }
                && (isPublisherName(base) || base == ManifestStore.manifestName || base == ManifestStore.recordName)
                && isRegularFile(directory + "/" + name)
        })
    }

    private static let publisherNames: NSRegularExpression = {
        // Built from a constant pattern: failing would be a programming error caught by every test.
        guard let expression = try? NSRegularExpression(
            pattern: #"^(feed_[0-9]+(\.v[0-9]+)?\.sqlite|feed_[0-9]+\.v[0-9]+-v[0-9]+\.delta\.json|all_feeds(\.v[0-9]+)?\.sqlite)$"#)
        else { preconditionFailure("invalid publisher-name pattern") }
        return expression
    }()

    private static func matches(_ name: String, _ expression: NSRegularExpression) -> Bool {
        expression.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }
}
