#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A C library error number (`errno`): why a system call failed, with the system's text for it.
///
/// The one error type of every module's platform file (docs/architecture.md, "The platform
/// layer"), in the manner of swift-system's `Errno`: a failed call throws `Errno.current`, and a
/// message shows `text` ("Permission denied") or `description` ("Permission denied (errno 13)").
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number, as `<errno.h>` defines it on this system (Linux: `EACCES` is 13).
    public var rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now: read it right after the call that failed.
    public static var current: Errno { Errno(rawValue: errno) }

    /// The C library's message for the number (`strerror`): "No such file or directory".
    public var text: String { String(cString: strerror(rawValue)) }

    /// The message and the number: "Permission denied (errno 13)".
    public var description: String { "\(text) (errno \(rawValue))" }

    /// `EINTR`: a signal arrived during the call; `retryingOnInterrupt` calls again.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `ENOENT`: nothing is at the path.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// `EEXIST`: the name exists (`O_EXCL`, `mkdir`, `link`).
    public static let alreadyExists = Errno(rawValue: EEXIST)
    /// `EWOULDBLOCK`: a lock another process holds, or nothing to read without blocking.
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    /// `ELOOP`: a symbolic link where `O_NOFOLLOW` asked for none.
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
}
