#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Nanoseconds on the monotonic clock (`clock_gettime(CLOCK_MONOTONIC)`); only differences mean anything.
func monotonicNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// `getrusage(RUSAGE_SELF).ru_maxrss`, in KiB on Linux.
///
/// Not this program's own peak in a spawned child: Linux keeps ru_maxrss across execve, and a
/// child started by posix_spawn (vfork + exec) leaves its parent's memory at exec, so the
/// child's ru_maxrss starts at the parent's peak. `highWaterRSSKiB` has no such inheritance.
func maxRSSKiB() -> Int64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int64(usage.ru_maxrss)
}

/// This program's peak resident set size so far, in KiB: `VmHWM` of `/proc/self/status`, the
/// high-water mark of the address space that execve created (nothing of the parent's counts).
/// Falls back to `maxRSSKiB()` when /proc cannot be read.
func highWaterRSSKiB() -> Int64 {
    let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return maxRSSKiB() }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.dropFirst("VmHWM:".count).filter { $0.isNumber }
        if let kib = Int64(String(digits)) { return kib }
    }
    return maxRSSKiB()
}

/// CPU time (user + system) this process has used so far, in nanoseconds.
func cpuNanoseconds() -> UInt64 {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func ns(_ t: timeval) -> UInt64 { UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_usec) * 1000 }
    return ns(usage.ru_utime) + ns(usage.ru_stime)
}

/// The 1-minute load average from `/proc/loadavg`, or nil when it cannot be read.
func loadAverage() -> Double? {
    let fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let n = read(fd, &buffer, buffer.count)
    guard n > 0 else { return nil }
    let text = String(decoding: buffer[0..<n], as: UTF8.self)
    return text.split(separator: " ").first.flatMap { Double($0) }
}

/// The size of a file in bytes, or nil when it cannot be stat'ed or is not a regular file.
func fileSize(_ path: String) -> Int64? {
    var st = stat()
    guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int64(st.st_size)
}

/// Writes `text` to standard error (progress and messages; standard output is for results).
func printError(_ text: String) {
    var line = text
    line += "\n"
    line.withUTF8 { p in
        var rest = UnsafeRawBufferPointer(p)
        while !rest.isEmpty {
            let n = write(2, rest.baseAddress, rest.count)
            if n <= 0 { if n < 0 && errno == EINTR { continue } else { return } }
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        }
    }
}

func errnoText() -> String { String(cString: strerror(errno)) }

/// Reads the file at `path` from start to end in 1 MiB chunks, handing each (its bytes and their
/// count) to `body`; a read interrupted by a signal is retried.
/// - Throws: `PhaseError` ("<path>: cannot open: …", "… cannot read: …") or what `body` throws.
func forEachChunk(ofFileAt path: String, _ body: (UnsafeMutableRawPointer, Int) throws -> Void) throws {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw PhaseError(description: "\(path): cannot open: \(errnoText())") }
    defer { close(fd) }
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    while true {
        let n = read(fd, buffer, 1 << 20)
        if n == 0 { return }
        if n < 0 {
            if errno == EINTR { continue }
            throw PhaseError(description: "\(path): cannot read: \(errnoText())")
        }
        try body(buffer, n)
    }
}
