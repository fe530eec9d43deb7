// libFuzzer target `zip_path`, built and run by scripts/fuzz; not part of the package.
//
// The input is a zip file. scripts/fuzz compiles this file together with Sources/HealthExport/*.swift
// into one module (swiftc -sanitize=fuzzer,address; CHealthSAX built with the toolchain's clang and
// the same sanitizers), so what runs is the package's own Swift code, not a copy of it: the
// input is written to a file and read the ways the CLI reads a zip:
//   1. `ExportReader.read(.path)`: libarchive's seekable zip reader, `ZipEntrySource` choosing the
//      export entry by content (`selectExportEntry`) and streaming it into the parser;
//   2. `ZipEntrySource` alone: select the entry, then read every byte of it (a read that stops at an
//      XML error never reaches the damaged end of an entry), in chunks of 1 byte to 64 KiB;
//   3. `RouteFileIndex.read(.path)`: every `…/workout-routes/*.gpx` entry read in place and
//      summarized by `RouteSummary.read` (CHealthSAX's hsax_gpx_summarize);
//   4. for one input in four, `ExportReader.read(_:threads: 2)`, the parallel read.
// Options (chunk size, batch size, segment size) come from a hash of the input, so an input always
// runs the same way and an artifact is a plain zip that the CLI reads too.
//
// Findings: any crash, Swift trap, ASan report, and these checks (each a trap with a message):
//   - every error thrown is an `ExportReadError` with a non-empty description;
//   - when (1) succeeds, (2) selects the same entry and reads it to the end without an error,
//     and the bytes it reads are the summary's `bytesRead`;
//   - (4) ends as (1) does: the same error (ExportReadError is Equatable), or a summary with the
//     same header, counts, diagnostics and bytes read.
#if canImport(Glibc)
    import Glibc
#endif

private let inputPath: String = {
    let dir = getenv("ZIP_PATH_DIR").map { String(cString: $0) } ?? "/tmp"
    return "\(dir)/zip_path-\(getpid()).zip"
}()

private func writeInput(_ data: UnsafePointer<UInt8>?, _ size: Int) {
    let fd = open(inputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    precondition(fd >= 0, "zip_path: cannot create \(inputPath)")
    var done = 0
    while done < size {
        let n = write(fd, data! + done, size - done)
        precondition(n > 0, "zip_path: cannot write \(inputPath)")
        done += n
    }
    close(fd)
}

/// FNV-1a over the input: picks the options.
private func hash(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for i in 0..<size {
        h = (h ^ UInt64(data![i])) &* 0x0000_0100_0000_01B3
    }
    return h
}

/// ZIP_PATH_PROFILE=1: each step's time on stderr (to see where an input's time goes).
private let profile = getenv("ZIP_PATH_PROFILE") != nil
private func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
private func lap(_ what: String, _ since: inout Double) {
    guard profile else { return }
    let t = now()
    let line = Array("zip_path: \(what) \(Int((t - since) * 1e6)) µs\n".utf8)
    _ = write(2, line, line.count)
    since = t
}

private func check(_ error: any Error, _ what: String) -> ExportReadError {
    guard let e = error as? ExportReadError else { fatalError("zip_path: \(what) threw a \(type(of: error)): \(error)") }
    precondition(!e.description.isEmpty, "zip_path: \(what) threw an error with an empty description")
    return e
}

/// What a parallel read must give as a serial read does (ExportSummary is not Equatable).
private func fingerprint(_ s: ExportSummary) -> String {
    "\(s.inputName) \(String(describing: s.exportDate)) \(String(describing: s.exportVersion)) \(String(describing: s.locale))"
        + " \(String(describing: s.me)) \(s.bytesRead) \(s.elementCounts.sorted { $0.key < $1.key })"
        + " \(s.unmodeledElementCounts.sorted { $0.key < $1.key }) \(s.timeZoneCounts.sorted { $0.key < $1.key })"
        + " \(s.removedControlCharacters) \(s.droppedDoctype) \(s.diagnostics) \(s.rejectedRecordStarts)"
}

@_cdecl("LLVMFuzzerTestOneInput")
public func zipPathTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var t0 = now()
    writeInput(data, size)
    lap("write", &t0)
    let h = hash(data, size)
    // The parser is fed 64 bytes to 512 KiB at a time (the glue targets feed it 1-64 bytes; libxml2
    // fed single bytes rescans a long token per byte, 100 times slower here); the entry alone is
    // read from 1 byte up.
    let chunkSizes = [1, 7, 64, 4096, 65536, 512 * 1024]
    let options = ReaderOptions(
        batchSize: [1, 3, 4096][Int(h % 3)], chunkSize: chunkSizes[2 + Int((h >> 8) % 4)],
        segmentSize: [64, 4096, 512 * 1024][Int((h >> 16) % 3)])
    let input = ExportInput.path(inputPath)

    // 1. The serial read, as `inspect` and `report` do it with --threads 1.
    var elements = 0
    let serial: Result<ExportSummary, ExportReadError>
    do {
        serial = .success(try ExportReader(options: options).read(input) { batch in elements += batch.count })
    } catch {
        serial = .failure(check(error, "ExportReader.read"))
    }

    lap("ExportReader.read (chunk \(options.chunkSize), batch \(options.batchSize))", &t0)

    // 2. The zip entry alone, read to its end (only for zips: `resolve` sends other inputs to the
    // XML path, which ZipEntrySource does not handle).
    let isZip = size >= 4 && data![0] == 0x50 && data![1] == 0x4B && ((data![2] == 3 && data![3] == 4) || (data![2] == 5 && data![3] == 6))
    if isZip {
        var streamed: Int64 = 0
        var entry = ""
        var streamError: ExportReadError?
        do {
            var zip = try ZipEntrySource(path: inputPath)
            defer { zip.close() }
            entry = try zip.selectExportEntry()
            let readSize = chunkSizes[Int((h >> 24) % 5)]
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let n = try zip.read(into: buffer)
                precondition(n >= 0 && n <= readSize, "zip_path: ZipEntrySource.read returned \(n) for \(readSize) bytes")
                if n == 0 { break }
                streamed += Int64(n)
            }
            _ = zip.consumed
        } catch {
            streamError = check(error, "ZipEntrySource")
        }
        if case .success(let s) = serial {
            precondition(streamError == nil, "zip_path: the read succeeded but reading the entry alone fails: \(streamError!)")
            precondition(s.inputName == "\(inputPath):\(entry)", "zip_path: the read chose \(s.inputName), ZipEntrySource \(entry)")
            precondition(s.bytesRead == streamed, "zip_path: the read took \(s.bytesRead) bytes, the entry holds \(streamed)")
        }
    }

    lap("ZipEntrySource", &t0)

    // 3. The route files, as `report` reads them.
    if let routes = RouteFileIndex.read(input) {
        for (key, result) in routes.files {
            precondition(key.hasPrefix("/workout-routes/"), "zip_path: route key \(key)")
            switch result {
            case .success(let summary):
                precondition(summary.pointCount >= 0 && summary.distanceKm >= 0 && summary.distanceKm.isFinite,
                    "zip_path: route \(key): \(summary)")
                if let gain = summary.elevationGainM { precondition(gain >= 0 && gain.isFinite, "zip_path: route \(key) gain \(gain)") }
            case .failure(let error):
                precondition(!error.description.isEmpty, "zip_path: route \(key): empty message")
            }
        }
    }

    lap("RouteFileIndex.read", &t0)

    // 4. The parallel read for one input in four: it ends exactly as the serial read does.
    if (h >> 32) % 4 == 0 {
        var parallelElements = 0
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        defer {
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }
        let parallel: Result<ExportSummary, ExportReadError>
        do {
            parallel = .success(
                try ExportReader(options: options).read(input, threads: 2) { _ in
                    { batch in
                        pthread_mutex_lock(lock)
                        parallelElements += batch.count
                        pthread_mutex_unlock(lock)
                    }
                })
        } catch {
            parallel = .failure(check(error, "the parallel read"))
        }
        switch (serial, parallel) {
        case (.failure(let a), .failure(let b)):
            precondition(a == b, "zip_path: the serial read throws \(a), the parallel read \(b)")
        case (.success(let a), .success(let b)):
            precondition(
                fingerprint(a) == fingerprint(b) && elements == parallelElements,
                "zip_path: the serial and parallel reads differ:\n\(a)\n\(b)")
        case (.success, .failure(let b)):
            fatalError("zip_path: the serial read succeeds, the parallel read throws \(b)")
        case (.failure(let a), .success):
            fatalError("zip_path: the serial read throws \(a), the parallel read succeeds")
        }
        lap("parallel read (segment \(options.segmentSize))", &t0)
    }
    return 0
}
