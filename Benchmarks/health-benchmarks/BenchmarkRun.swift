import CBareSAX

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The parent's side of a benchmark: input, warm-up, runs in children, summary.
struct BenchmarkRun {
    var options: BenchmarkOptions
    var input: InputSource
    /// The 1-minute load average when this program started, before it generated, deflated or
    /// ran anything: read later, the load average would count this program's own earlier runs
    /// (a second input would always look busy after the first).
    var loadAtStart: Double?

    /// The pairs this run measures (the zip ones only with --zip).
    var pairs: [PhasePair] { PhasePair.standard(zip: options.zip) }

    /// The phases of those pairs, each once, in the order they first appear.
    var phases: [Phase] {
        var out: [Phase] = []
        for pair in pairs {
            for phase in [pair.baseline, pair.measured] where !out.contains(phase) { out.append(phase) }
        }
        return out
    }

    func run() throws -> Report {
        let (path, generated) = try resolveInput()
        guard let size = fileSize(path) else {
            throw PhaseError(description: "\(path): cannot read: not a regular file, or missing")
        }
        guard size > 0 else { throw PhaseError(description: "\(path): the file is empty") }

        var report = Report(
            inputPath: path, inputBytes: size, generated: generated, repeats: options.repeats,
            libxml2Version: String(cString: cbaresax_libxml2_version()))
        report.threads = options.threads
        var zipPath: String?
        if options.zip {
            zipPath = path + ".zip"
            if let zipSize = fileSize(zipPath!), zipSize > 0 {
                printError("reusing \(zipPath!) (\(grouped(zipSize)) bytes)")
            } else {
                printError("deflating \(path) into \(zipPath!) ...")
                let start = monotonicNanoseconds()
                try makeZip(of: path, at: zipPath!)
                printError("deflated in \(fixed(Double(monotonicNanoseconds() - start) / 1e9, 2)) s")
            }
            report.zipBytes = fileSize(zipPath!)
        }

        let loadBefore = loadAtStart
        if options.warmup {
            report.warmupSeconds = try warmUp(path)
            if let zipPath { _ = try warmUp(zipPath) }
            printError("warm-up: read \(fixed(Double(size) / 1e6, 1)) MB in \(fixed(report.warmupSeconds!, 3)) s")
        }

        let paired = try runPairedRounds(pairs, rounds: options.repeats) { phase in
            try runPhaseInChild(phase, file: phase.fromZip ? zipPath! : path)
        }
        removeBenchmarkArchive()
        report.machine = MachineLoad(loadBefore: loadBefore, from: paired.start, to: paired.end)
        let (runs, skipped) = (paired.runs, paired.skipped)
        report.phases = phases.map { phase in
            PhaseSummary(phase: phase, runs: runs[phase] ?? [], skippedBecause: skipped[phase])
        }
        report.pairs = paired.pairs
        return report
    }

    /// The file to measure, and whether this run generated it.
    private func resolveInput() throws -> (path: String, generated: Bool) {
        switch input {
        case .file(let path):
            return (path, false)
        case .generate(let days, let out, let regenerate):
            let path = out ?? defaultGeneratedPath(days: days)
            if !regenerate, let size = fileSize(path), size > 0 {
                printError("reusing \(path) (\(grouped(size)) bytes; --regenerate writes it again)")
                return (path, false)
            }
            try makeParentDirectory(of: path)
            printError("generating \(days) days into \(path) ...")
            let start = monotonicNanoseconds()
            let bytes = try generateExportFile(days: days, path: path)
            let seconds = Double(monotonicNanoseconds() - start) / 1e9
            printError("generated \(grouped(bytes)) bytes in \(fixed(seconds, 2)) s")
            return (path, true)
        }
    }

    /// Reads the whole file once so that every run finds it in the page cache; returns the seconds it took.
    private func warmUp(_ path: String) throws -> Double {
        let start = monotonicNanoseconds()
        try forEachChunk(ofFileAt: path) { _, _ in }
        return Double(monotonicNanoseconds() - start) / 1e9
    }
}
