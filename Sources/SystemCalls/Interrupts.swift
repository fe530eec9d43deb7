#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Calls `call` again for as long as it fails with `EINTR` (a signal arrived before it did
/// anything), and returns its first other result: a count or descriptor (`>= 0`), or a failure
/// (`< 0`) with `errno` set. The one interrupt-retry loop of the platform files
/// (docs/architecture.md, "The platform layer").
///
/// Do not use it for `close`: on Linux the descriptor is gone even when `close` reports EINTR,
/// and a second `close` could close another thread's new descriptor.
@inlinable @inline(__always)
public func retryingOnInterrupt<Result: FixedWidthInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

/// `retryingOnInterrupt(call)`, throwing `Errno.current` when the call fails (`< 0`).
/// - Returns: the call's count or descriptor.
/// - Throws: `Errno` (never `EINTR`).
@inlinable @inline(__always)
public func systemCall<Result: FixedWidthInteger>(_ call: () -> Result) throws(Errno) -> Result {
    let result = retryingOnInterrupt(call)
    if result < 0 { throw Errno.current }
    return result
}
