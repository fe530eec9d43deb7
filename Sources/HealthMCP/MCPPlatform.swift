import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls of the MCP server: its standard input, output and error, and the clock.
enum MCPPlatform {
    /// Up to `maximum` bytes of standard input; empty at its end, nil when it cannot be read.
    static func readStandardInput(maximum: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: maximum)
        let n = bytes.withUnsafeMutableBytes { b in retryingOnInterrupt { read(0, b.baseAddress, maximum) } }
        guard n >= 0 else { return nil }
        bytes.removeSubrange(n...)
        return bytes
    }

    /// Writes all of `text` to file descriptor `fd`; false when it cannot (the reader is gone).
    static func write(_ text: String, to fd: Int32) -> Bool {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { b in
                retryingOnInterrupt {
                    #if canImport(Glibc)
                        Glibc.write(fd, b.baseAddress! + offset, b.count - offset)
                    #elseif canImport(Musl)
                        Musl.write(fd, b.baseAddress! + offset, b.count - offset)
                    #else
                        Darwin.write(fd, b.baseAddress! + offset, b.count - offset)
                    #endif
                }
            }
            guard n > 0 else { return false }
            offset += n
        }
        bytes.removeAll()
        return true
    }

    static func writeStandardOutput(_ text: String) -> Bool { write(text, to: 1) }

    static func writeStandardError(_ text: String) { _ = write(text, to: 2) }

    /// A closed standard output fails a write (EPIPE) instead of killing the process.
    static func ignoreBrokenPipe() { signal(SIGPIPE, SIG_IGN) }

    /// A monotonic clock in seconds, for the timings logged at debug level.
    static func seconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
