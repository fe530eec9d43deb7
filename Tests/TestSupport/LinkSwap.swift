import Foundation

/// A folder outside an output folder that a symbolic link planted inside it points at, and
/// the swaps that plant such links while a write runs (docs/batch.md §6): the tests check
/// that nothing in the canary changes, whatever the write does.
public struct LinkCanary {
    /// `<parent>/canary`, holding `victim/` (the link's target) and `victim.json`.
    public let root: URL
    /// The folder links point at: a `daily.csv` and a note, both dated 2001-09-09.
    public var folder: URL { root.appendingPathComponent("victim") }
    /// A file a link named like a status record can point at.
    public var file: URL { root.appendingPathComponent("victim.json") }

    public init(in parent: URL) throws {
        root = parent.appendingPathComponent("canary")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("victim"), withIntermediateDirectories: true)
        try "date,steps\n2020-01-01,1\n".write(
            to: folder.appendingPathComponent("daily.csv"), atomically: false, encoding: .utf8)
        try "not the tool's\n".write(
            to: folder.appendingPathComponent("note.txt"), atomically: false, encoding: .utf8)
        try "{\"outcome\": \"done\"}\n".write(to: file, atomically: false, encoding: .utf8)
        // Old times, so that a rewrite with the same bytes still shows.
        for url in [folder.appendingPathComponent("daily.csv"), folder.appendingPathComponent("note.txt"), file] {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: url.path)
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)], ofItemAtPath: folder.path)
    }

    /// Every entry under the canary (hidden ones included) with its bytes and modification
    /// time (a folder's too: a file made and removed in it shows).
    public func snapshot() -> [String: String] {
        var result: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let name = walker?.nextObject() as? String {
            let path = root.appendingPathComponent(name).path
            let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
            let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            let bytes =
                (try? Data(contentsOf: URL(fileURLWithPath: path))).map { $0.base64EncodedString() } ?? "dir"
            result[name] = "\(time) \(bytes)"
        }
        return result
    }

    /// The names under the canary made, removed or changed (bytes or time) since `before`, a
    /// `snapshot()`; empty when nothing changed.
    public func changes(since before: [String: String]) -> [String] {
        let now = snapshot()
        return Set(before.keys).union(now.keys).filter { before[$0] != now[$0] }.sorted()
    }
}

/// Swaps a symbolic link in at a name inside an output folder, as someone with write access to
/// it could while a write runs, and reads what the output folder holds afterwards.
public enum LinkSwap {
    /// Which name of a folder write the link is put at.
    public enum Place: String, CaseIterable, Sendable {
        /// The output folder's own name (`person=p`, `cohort`).
        case output
        /// The hidden staging (or aside) folder beside it (`.person=p.tmp-…`, `.cohort.old-…`).
        case staging
    }

    /// Renames the real folder at `place` inside `folder` (the output folder `name`, or the
    /// first staging or aside folder of it) to `moved`, and puts a link to `target` at its
    /// name (at a free output name, just the link). Returns the name swapped, nil when nothing
    /// is there to swap.
    @discardableResult
    public static func swap(_ place: Place, of name: String, in folder: URL, to target: URL, moved: String) -> String? {
        let fm = FileManager.default
        let entries = ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        let victim: String?
        switch place {
        case .output: victim = entries.contains(name) ? name : nil
        case .staging:
            victim = entries.first { $0.hasPrefix("." + name + ".tmp-") || $0.hasPrefix("." + name + ".old-") }
        }
        // A free output name (between the renames without the exchange): the link is just put there.
        if victim == nil && place == .output {
            let path = folder.appendingPathComponent(name).path
            return (try? fm.createSymbolicLink(atPath: path, withDestinationPath: target.path)).map { name }
        }
        guard let victim else { return nil }
        let path = folder.appendingPathComponent(victim).path
        guard (try? fm.destinationOfSymbolicLink(atPath: path)) == nil else { return nil }
        do {
            try fm.moveItem(atPath: path, toPath: folder.appendingPathComponent(moved).path)
            try fm.createSymbolicLink(atPath: path, withDestinationPath: target.path)
        } catch {
            return nil
        }
        return victim
    }

    /// Swaps once, at the write step named `step` (as `OutputStep.name` spells it), from
    /// whatever thread the write's step hook runs on.
    public final class Swapper: @unchecked Sendable {
        let step: String
        let place: Place
        let name: String
        let out: URL
        let target: URL
        let lock = NSLock()
        var result: String?

        /// A swap of `place` for the write of `name` in `out`, a link to `target` put there.
        public init(at step: String, _ place: Place, of name: String, in out: URL, to target: URL) {
            (self.step, self.place, self.name, self.out, self.target) = (step, place, name, out, target)
        }

        /// Swaps when `step` is the one asked for, the first time only.
        public func hook(_ step: String) {
            lock.lock()
            defer { lock.unlock() }
            guard step == self.step, result == nil else { return }
            result = LinkSwap.swap(place, of: name, in: out, to: target, moved: "moved-by-someone") ?? ""
        }

        /// The name swapped; "" when nothing was there, nil before the step came.
        public var swapped: String? {
            lock.lock()
            defer { lock.unlock() }
            return result
        }
    }

    /// The real folders directly inside `folder` (links and hidden tool folders `.status`,
    /// `.listings` left out), each as its files' names and bytes.
    public static func folders(in folder: URL) -> [String: [String: Data]] {
        let fm = FileManager.default
        var result: [String: [String: Data]] = [:]
        for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
        where name != ".status" && name != ".listings" {
            let path = folder.appendingPathComponent(name).path
            var isFolder: ObjCBool = false
            guard (try? fm.destinationOfSymbolicLink(atPath: path)) == nil,
                fm.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
            else { continue }
            result[name] = files(in: URL(fileURLWithPath: path))
        }
        return result
    }

    /// The files of `folder` (not followed into sub-folders), names and bytes.
    public static func files(in folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            if let data = try? Data(contentsOf: folder.appendingPathComponent(name)) { result[name] = data }
        }
        return result
    }

    /// The names directly inside `folder` that are symbolic links.
    public static func links(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent($0).path)) != nil
        }.sorted()
    }

    /// What is wrong with `out` after a write of `name` that a link swap disturbed, given the
    /// earlier set `old`, the new one `new` and how the write ended (`failure`: its message,
    /// nil when it succeeded); empty when nothing is. The write must either refuse with one
    /// line, the earlier set then intact in some folder, or succeed with the new set complete
    /// in some folder; every real folder holds nothing, the earlier set or the new one (never
    /// a mixture); no link is left at a staging or aside name.
    public static func problems(
        in out: URL, name: String, old: [String: Data], new: [String: Data], failure: String?
    ) -> [String] {
        var problems: [String] = []
        let folders = folders(in: out)
        for (folder, files) in folders.sorted(by: { $0.key < $1.key })
        where !files.isEmpty && files != old && files != new {
            problems.append("\(folder) holds neither set: \(files.keys.sorted())")
        }
        if let failure {
            if failure.contains("\n") || failure.isEmpty { problems.append("not one line: \(failure)") }
            if !folders.values.contains(old) { problems.append("refused, but the earlier set is gone") }
        } else if !folders.values.contains(new) {
            problems.append("done, but no folder holds the new set")
        }
        let strayLinks = links(in: out).filter { $0 != name }
        if !strayLinks.isEmpty { problems.append("links left: \(strayLinks)") }
        return problems
    }
}
