import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A small tmpfs mounted on a test's folder, to be filled for the "disk is full" tests. Mounting
/// needs root: where the test does not run as root (or `mount` fails) there is none, and the
/// test skips visibly.
public struct FullDisk {
    /// The mount point.
    public let folder: URL

    /// Mounts a tmpfs of `size` (as `mount -o size=` reads it, `2m`) on `folder`, made if missing.
    /// Nil, after printing "skipped: a small tmpfs needs root", where it cannot be mounted.
    /// - Throws: the error of creating `folder` or starting `mount`.
    public init?(at folder: URL, size: String = "2m") throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard getuid() == 0,
            try system("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path]) == 0
        else {
            print("skipped: a small tmpfs needs root")
            return nil
        }
        self.folder = folder
    }

    /// Unmounts the tmpfs (errors ignored: for `defer`).
    public func unmount() { _ = try? system("/usr/bin/umount", [folder.path]) }

    /// Copies the file at `path` onto the tmpfs under `name`; returns the copy's path.
    /// - Throws: the error of `FileManager.copyItem`.
    public func copy(_ path: String, as name: String) throws -> String {
        let copy = folder.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        return copy
    }

    /// Fills what is left with a file `filler`, in 4 KiB steps until a write fails, then gives
    /// `free` bytes of it back (truncating it by that much).
    /// - Throws: the errors of opening and closing the filler.
    public func fill(leavingFree free: Int = 0) throws {
        let filler = folder.appendingPathComponent("filler")
        guard FileManager.default.createFile(atPath: filler.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: filler.path])
        }
        let handle = try FileHandle(forWritingTo: filler)
        let block = Data(count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try handle.close()
        guard free > 0 else { return }
        let size = try FileManager.default.attributesOfItem(atPath: filler.path)[.size] as? Int ?? 0
        guard truncate(filler.path, off_t(max(0, size - free))) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: filler.path])
        }
    }
}

/// Runs `command` (an absolute path) with `arguments`, its output and errors discarded; its exit
/// status.
/// - Throws: the error of starting it.
@discardableResult
public func system(_ command: String, _ arguments: [String]) throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: command)
    p.arguments = arguments
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    p.waitUntilExit()
    return p.terminationStatus
}
