/// The only files the publisher ever removes: files it wrote itself, known by name from its
/// own manifests (current, earlier versions, deltas, pages, and files it retired), and its
/// own temporary files left by an interrupted publication. Nothing else in the target is
/// touched, whatever it is called, and directories are never entered.
enum PublishedFiles {
    /// Files the previous manifest knew that the next one no longer names: those a client may
    /// still be downloading (the previous publication served them) are kept one more round and
    /// listed as retired in the next manifest; the rest are removed once it is written.
    static func retire(
        previous: Manifest, next: Manifest, in target: any PublicationTarget
    ) throws(PublishError) -> (retired: [String], removeNow: [String]) {
        let known = previous.files.union(previous.retiredFiles ?? []).filter { isPublisherName($0) && target.holdsFile($0) }
        let unnamed = known.subtracting(next.files)
        let keptOneMore = unnamed.intersection(previous.servedFiles)
        let removeNow = unnamed.subtracting(keptOneMore).union(try staleTemporaries(in: target))
        // Retired names stay listed until they are gone, so an interrupted removal is retried.
        return (unnamed.sorted(), removeNow.sorted())
    }

    /// Removes plain files only (``PublicationTarget/delete(_:)``); how many were removed.
    static func remove(_ names: [String], in target: any PublicationTarget) -> Int {
        names.filter { target.delete($0) }.count
    }

    /// A name the publisher gives its files (``PublishedName``), and nothing else: stable
    /// names among them are removed only when the manifest lists them as written by the publisher.
    static func isPublisherName(_ name: String) -> Bool {
        PublishedName(fileName: name) != nil
    }

    /// Temporary files of an interrupted publication: a publisher name (or the manifest)
    /// followed by `.tmp-<pid>`, possibly with SQLite's `-journal`. The target is locked
    /// while publishing, so any found now belong to a run that has ended.
    static func staleTemporaries(in target: any PublicationTarget) throws(PublishError) -> Set<String> {
        Set(try target.names().filter { name in
            guard let range = name.range(of: ".tmp-", options: .backwards) else { return false }
            let base = String(name[..<range.lowerBound])
            var suffix = name[range.upperBound...]
            if suffix.hasSuffix("-journal") { suffix = suffix.dropLast("-journal".count) }
            return !suffix.isEmpty && suffix.allSatisfy { $0.isASCII && $0.isNumber }
                && (isPublisherName(base) || base == ManifestStore.manifestName || base == ManifestStore.recordName)
                && target.holdsFile(name)
        })
    }
}
