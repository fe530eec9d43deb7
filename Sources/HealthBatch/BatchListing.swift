/// Who belongs in a batch's cohort (docs/batch.md §5): every batch records the people of its
/// manifest or folder in `<out>/.listings/<key>.txt`, one small file per listing, the key
/// being the FNV-1a 64 hash (hex) of the listing's resolved path. The file holds the path on
/// its first line (`# <path>`), then the ids in UTF-8 byte order, one a line.
///
/// Every shard of one listing writes the same bytes to the same file, atomically (a temporary
/// file renamed over it), so shards writing at once are safe; a later run over a changed
/// manifest replaces its file, so a person removed from it is no longer listed. The cohort's
/// people are the union of every listing; with no listing at all (folders written before
/// listings existed) they are the person folders and status records found.
public enum BatchListing {
    /// The listings folder of `output`.
    public static func folder(in output: String) -> String { BatchPlatform.join(output, ".listings") }

    /// The listing file of the input `input` (as given; resolved here).
    static func path(of input: String, in output: String) -> String {
        BatchPlatform.join(folder(in: output), fileName(of: input))
    }

    /// The listing file's name (`<key>.txt`) for the input `input`.
    static func fileName(of input: String) -> String {
        String(Shard.hash(BatchPlatform.resolved(input)), radix: 16) + ".txt"
    }

    /// Records `people` as the listing of `input`.
    static func write(_ people: [BatchPerson], input: String, in output: String) throws(BatchPlatform.Failure) {
        try BatchPlatform.makeOwnedFolder(".listings", in: output)
        let ids = people.map(\.id).sorted(by: utf8Order)
        let text = "# " + BatchPlatform.resolved(input) + "\n" + ids.map { $0 + "\n" }.joined()
        let file = [".listings", fileName(of: input)]
        if (try? BatchPlatform.readOwnedText(file, in: output)) == text { return }
        try BatchPlatform.writeOwnedAtomically(text, file, in: output)
    }

    /// Every id of every listing in `output`; nil when there is no listing.
    public static func people(in output: String) -> Set<String>? {
        let names = ((try? BatchPlatform.ownedNames([".listings"], in: output)) ?? []).filter {
            $0.hasSuffix(".txt") && !$0.hasPrefix(".")
        }
        guard !names.isEmpty else { return nil }
        var ids = Set<String>()
        for name in names {
            guard let text = try? BatchPlatform.readOwnedText([".listings", name], in: output) else { continue }
            for line in text.split(separator: "\n") where !line.hasPrefix("#") && PersonID.isValid(String(line)) {
                ids.insert(String(line))
            }
        }
        return ids
    }
}
