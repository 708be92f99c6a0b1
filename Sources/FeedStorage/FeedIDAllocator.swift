/// Gives new feeds their feedids: each the next one above every feedid the catalog ever gave
/// (its high-water mark) and every feedid it lists, skipping any feedid that a file in the
/// data directory already has (`feed_<id>.sqlite*`, set-aside copies included), so that no
/// feed ever inherits another feed's file and no feedid is given twice.
///
/// Skipped one by one, not jumped over: a stray `feed_9223372036854775807.sqlite` must not
/// use up every feedid there is. Only when the catalog itself has given the largest one is
/// there none left, which is said, not trapped on.
struct FeedIDAllocator {
    private var last: Int64
    private let onDisk: Set<Int64>

    init(highWater: Int64, listed: Int64, onDisk: Set<Int64>) {
        last = max(highWater, listed, 0)
        self.onDisk = onDisk
    }

    mutating func next(path: String) throws(StorageError) -> Int64 {
        repeat {
            guard last < .max else {
                throw StorageError(
                    path: path,
                    message: "no feedid is left to give: the catalog has given feedid \(Int64.max), the largest there is "
                        + "(feedmill_catalog.feedid_high_water, or a feed listed under it by hand)")
            }
            last += 1
        } while onDisk.contains(last)
        return last
    }
}
