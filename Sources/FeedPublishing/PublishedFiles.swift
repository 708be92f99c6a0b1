import FeedBasics

/// The only files the publisher ever removes: files it wrote itself, known by name from its
/// own records (current, earlier versions, deltas, pointers, and files it retired), and its
/// own temporary files left by an interrupted publication. Nothing else in the target is
/// touched, whatever it is called, and directories are never entered.
enum PublishedFiles {
    /// The names of a publication's scratch files (``PublicationTarget/scratchPath()``).
    static let scratchPrefix = ".feedmill-scratch."

    /// The retired names of the next record: those of the previous one still there and not
    /// named again, and the files the previous record kept that the next one does not, retired
    /// now (at `now`). `keep` are named elsewhere (the root's catalog). A file the previous
    /// publication served (the usable entries a client of its root downloads: current
    /// snapshots, their deltas, the catalog) is retired by `generation`, and so stays at least
    /// until the next one; any other (an older version kept for deltas) as if by the one
    /// before, so that with no grace period it goes with this publication, as in format 1.
    /// `othersFeeds` are feeds the catalog still lists, of another shard now: their names may be
    /// that shard's by now (a feedid given again to a feed of another host), so they are never retired.
    static func retire(
        previous: Manifest, previousRecord: String?, next: Manifest, keep: Set<String>, now: Int64, generation: Int,
        othersFeeds: Set<Int64> = [], in target: any PublicationTarget
    ) -> [RetiredFile] {
        let named = next.files.union(keep)
        func othersName(_ name: String) -> Bool { feedID(of: name).map(othersFeeds.contains) ?? false }
        var retired = (previous.retired ?? []).filter { !named.contains($0.name) && !othersName($0.name) && target.holdsFile($0.name) }
        var seen = Set(retired.map(\.name))
        var unnamed = previous.files.union(previous.retiredFiles ?? []).subtracting(named)
        if let previousRecord { unnamed.insert(previousRecord) }
        if !previous.isRecord { unnamed.insert(PublishedName.legacyRecord.fileName) }
        let served = previous.servedFiles
        for name in unnamed.sorted() where !seen.contains(name) && isPublisherName(name) && !othersName(name) && target.holdsFile(name) {
            retired.append(RetiredFile(name: name, retiredAt: now, generation: served.contains(name) ? generation : generation - 1))
            seen.insert(name)
        }
        return retired.sorted { $0.name < $1.name }
    }

    /// The retired names due for removal by the publication of `generation` at `now`: retired
    /// at least `grace` seconds ago, by an earlier generation.
    static func due(_ retired: [RetiredFile], now: Int64, generation: Int, grace: Int64) -> [String] {
        // Saturating: a time read back from a record (edited, or from a clock gone wrong) must not trap.
        retired.filter { $0.generation < generation && now.saturatingSubtract($0.retiredAt) >= grace }.map(\.name)
    }

    /// The feed a name of the publisher's is of (its pointer, snapshots, deltas, stable name).
    static func feedID(of name: String) -> Int64? {
        switch PublishedName(fileName: name) {
        case .feed(let id)?, .feedVersion(let id, _)?, .feedDelta(let id, _, _)?, .feedSnapshot(let id, _)?, .feedDeltaFile(let id, _)?,
            .pointer(let id)?:
            return id
        default: return nil
        }
    }

    /// Removes plain files only (``PublicationTarget/delete(_:)``); how many were removed.
    static func remove(_ names: [String], in target: any PublicationTarget) -> Int {
        names.filter { target.delete($0) }.count
    }

    /// A name the publisher gives its files (``PublishedName``), and nothing else: stable
    /// names among them are removed only when the record lists them as written by the publisher.
    static func isPublisherName(_ name: String) -> Bool {
        PublishedName(fileName: name) != nil
    }

    /// Temporary files of an interrupted publication: a publisher name (or the manifest)
    /// followed by `.tmp-<pid>`, possibly with SQLite's `-journal`, and scratch files
    /// (`.feedmill-scratch.<pid>.<n>`, with the same endings). The target is locked while
    /// publishing, so any in the listing taken after the lock belong to a run that has ended.
    static func staleTemporaries(among listing: Set<String>, in target: any PublicationTarget) -> Set<String> {
        listing.filter { name in
            if isScratch(name) { return target.holdsFile(name) }
            guard let mark = temporaryMark(in: name) else { return false }
            let base = String(name[..<mark.lowerBound])
            var suffix = name[mark.upperBound...]
            if suffix.hasSuffix("-journal") { suffix = suffix.dropLast("-journal".count) }
            return !suffix.isEmpty && suffix.allSatisfy { $0.isASCII && $0.isNumber }
                && (isPublisherName(base) || base == ManifestStore.manifestName || isScratch(base))
                && target.holdsFile(name)
        }
    }

    /// Where the last `.tmp-` in `name` is, by its bytes: Foundation's backwards search took a
    /// microsecond a name, for every name a publication holds (issue 51).
    static func temporaryMark(in name: String) -> Range<String.Index>? {
        let mark = Array(".tmp-".utf8)
        let bytes = name.utf8
        guard bytes.count >= mark.count else { return nil }
        var start = bytes.index(bytes.endIndex, offsetBy: -mark.count)
        while true {
            if bytes[start...].starts(with: mark) { return start..<bytes.index(start, offsetBy: mark.count) }
            guard start > bytes.startIndex else { return nil }
            start = bytes.index(before: start)
        }
    }

    /// `.feedmill-scratch.<pid>.<n>`.
    private static func isScratch(_ name: String) -> Bool {
        guard name.hasPrefix(scratchPrefix) else { return false }
        let parts = name.dropFirst(scratchPrefix.count).split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
