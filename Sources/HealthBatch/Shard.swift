/// One of `count` parts of a batch: the people whose id hashes to `index`.
///
/// The hash is FNV-1a 64 (offset basis 14695981039346656037, prime 1099511628211) of the id's
/// UTF-8 bytes, taken modulo `count`: it depends on the id alone, never on the listing order, the
/// machine or the run, so `count` workers started by any scheduler cover every person exactly
/// once and never write the same files. docs/batch.md gives the rule for other tools.
public struct Shard: Hashable, Sendable, CustomStringConvertible {
    /// 0 ≤ index < count.
    public var index: Int
    public var count: Int

    /// Nil unless 0 ≤ index < count.
    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// `K/N` as `--shard` takes it (whole numbers, 0 ≤ K < N); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let k = Int(parts[0]), let n = Int(parts[1])
        else { return nil }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// True when `id` belongs to this shard.
    public func contains(_ id: String) -> Bool {
        Int(Self.hash(id) % UInt64(count)) == index
    }

    /// FNV-1a 64 of the UTF-8 bytes of `id`.
    public static func hash(_ id: String) -> UInt64 {
        var h: UInt64 = 14_695_981_039_346_656_037
        for byte in id.utf8 {
            h ^= UInt64(byte)
            h = h &* 1_099_511_628_211
        }
        return h
    }
}
