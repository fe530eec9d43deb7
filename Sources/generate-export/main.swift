// generate-export: writes a synthetic Apple Health export.xml and, optionally, its per-day
// truth as CSV. A thin shell over the SyntheticExport library: parse → validate → run.
// Exit codes: 0 success, 64 usage error (EX_USAGE), 1 any other failure.
import Foundation
import SyntheticExport

let usage =
    "usage: generate-export [--days N] [--first-day YYYY-MM-DD] [--tz ZONE] [--zone-change DATE=ZONE[+N][@HH:MM]]... [--no-hktimezone] [--hktimezone-from DATE] [--empty-day DATE]... [--locale ID] [--seed N] [--prolog v14|v12-malformed|none] [--export-date 'YYYY-MM-DD HH:MM'] [--order by-type|by-day] [--extended [--routes DIR]] --out FILE.xml|- [--truth FILE.csv|-]"

let help = """
    \(usage)

    Writes a deterministic synthetic Apple Health export (Export Version 14 shape) and the
    true per-day values it contains.

    Options:
      --days N              local days of data (default 180)
      --first-day DATE      local date of the first day, YYYY-MM-DD (default 2025-10-20)
      --tz ZONE             IANA time zone (default Europe/Berlin)
      --zone-change DATE=ZONE  from local day DATE on the person lives in ZONE (a move or
                            a trip; repeat for several). The day before is a travel day
                            of at least 9 hours (an eastward change of at most 15 hours);
                            DATE=ZONE+N: no HKTimeZone on the first N days in ZONE;
                            DATE=ZONE@HH:MM: depart at HH:MM old-zone time the day before;
                            eastward, DATE starts then; westward (from 12:00, whole hours
                            apart), the rest of the travel day runs in ZONE's clock; either
                            way the travel day has samples in the hours where the two
                            zones' dates differ
      --no-hktimezone       write no HKTimeZone metadata (older exports, iPhone-only users)
      --hktimezone-from DATE  no HKTimeZone before local day DATE (metadata that begins
                            after a move: only the new zone is named)
      --empty-day DATE      local day DATE holds no sample (Watch and iPhone off, no sleep
                            tracking the night before; its ActivitySummary has zero rings);
                            repeat for several; not with --extended
      --locale ID           the HealthData locale attribute (default en_US)
      --seed N              random seed, unsigned 64-bit (default 1)
      --prolog KIND         v14 (default), v12-malformed (the broken iOS 16 DTD) or none
      --export-date TIME    export moment, local 'YYYY-MM-DD HH:MM[:SS]' (default: noon of
                            the day after the last day)
      --order ORDER         Record elements by-type (default, as Apple writes them) or
                            by-day (interleaved day by day; same records and truth)
      --extended            add sleep from a second app, naps, duplicates, multisport and
                            duplicated workouts, route files, and body and heart measures
      --routes DIR          with --extended: write the GPX route files into DIR (the zip's
                            workout-routes/ folder; some referenced routes are left out)
      --out FILE            where to write the XML; - for standard output (required)
      --truth FILE          where to write the per-day truth as CSV; - for standard output
      -h, --help            show this help

    A summary line (bytes, seconds, MB/s) goes to standard error.
    """

struct Options {
    var configuration = SyntheticExportConfiguration()
    var out: String?
    var truth: String?
    var routes: String?
}

struct UsageError: Error { var message: String }

func parse(_ arguments: [String]) throws -> Options? {
    var o = Options()
    var i = 0
    func value(_ name: String) throws -> String {
        i += 1
        guard i < arguments.count else { throw UsageError(message: "option \(name) needs a value") }
        return arguments[i]
    }
    while i < arguments.count {
        let a = arguments[i]
        switch a {
        case "-h", "--help": return nil
        case "--days":
            let v = try value(a)
            guard let n = Int(v) else { throw UsageError(message: "--days: '\(v)' is not a number") }
            o.configuration.days = n
        case "--first-day": o.configuration.firstDay = try value(a)
        case "--tz": o.configuration.timeZoneIdentifier = try value(a)
        case "--zone-change":
            let v = try value(a)
            let parts = v.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw UsageError(message: "--zone-change: '\(v)' is not DATE=ZONE") }
            // DATE=ZONE@HH:MM: the departure; DATE=ZONE+N: the first N days in ZONE carry no HKTimeZone.
            let at = parts[1].split(separator: "@", maxSplits: 1).map(String.init)
            let zone = at[0].split(separator: "+", maxSplits: 1).map(String.init)
            guard let silent = zone.count == 2 ? Int(zone[1]) : 0, silent >= 0 else {
                throw UsageError(message: "--zone-change: '\(v)' is not DATE=ZONE or DATE=ZONE+N")
            }
            o.configuration.zoneChanges.append(
                SyntheticZoneChange(
                    firstDay: parts[0], timeZoneIdentifier: zone[0], daysWithoutTimeZoneMetadata: silent,
                    departure: at.count == 2 ? at[1] : nil))
        case "--no-hktimezone": o.configuration.writesTimeZoneMetadata = false
        case "--empty-day": o.configuration.emptyDays.append(try value(a))
        case "--locale": o.configuration.locale = try value(a)
        case "--hktimezone-from": o.configuration.timeZoneMetadataFrom = try value(a)
        case "--seed":
            let v = try value(a)
            guard let n = UInt64(v) else { throw UsageError(message: "--seed: '\(v)' is not an unsigned integer") }
            o.configuration.seed = n
        case "--prolog":
            switch try value(a) {
            case "v14": o.configuration.prolog = .version14
            case "v12-malformed": o.configuration.prolog = .version12Malformed
            case "none": o.configuration.prolog = .none
            case let v: throw UsageError(message: "--prolog: '\(v)' is not one of v14, v12-malformed, none")
            }
        case "--export-date": o.configuration.exportDate = try value(a)
        case "--extended": o.configuration.extendedHealthData = true
        case "--routes": o.routes = try value(a)
        case "--out": o.out = try value(a)
        case "--truth": o.truth = try value(a)
        case "--order":
            switch try value(a) {
            case "by-type": o.configuration.recordOrder = .byType
            case "by-day": o.configuration.recordOrder = .byDay
            case let v: throw UsageError(message: "--order: '\(v)' is not one of by-type, by-day")
            }
        default: throw UsageError(message: "unknown option '\(a)'")
        }
        i += 1
    }
    guard o.out != nil else { throw UsageError(message: "--out is required") }
    if o.routes != nil && !o.configuration.extendedHealthData {
        throw UsageError(message: "--routes needs --extended (only extended exports have route files)")
    }
    if o.out == "-" && o.truth == "-" { throw UsageError(message: "--out and --truth cannot both be standard output") }
    do {
        try o.configuration.validate()
    } catch {
        throw UsageError(message: error.description)
    }
    return o
}

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("generate-export: \(message)\n".utf8))
    exitProcess(code)
}

let options: Options
do {
    guard let parsed = try parse(Array(CommandLine.arguments.dropFirst())) else {
        print(help)
        exitProcess(0)
    }
    options = parsed
} catch let error as UsageError {
    FileHandle.standardError.write(Data("generate-export: \(error.message)\n\(usage)\n".utf8))
    exitProcess(64)
}

let outPath = options.out!
let started = Date()
let truth: SyntheticTruth
do {
    let file = try OutputFile(outPath)
    truth = try SyntheticExport.write(options.configuration) { chunk in try file.write(UnsafeRawBufferPointer(chunk)) }
    try file.close()
} catch let error as OutputFileError {
    fail("cannot write '\(error.path)': \(error.reason)", code: 1)
}
let seconds = Date().timeIntervalSince(started)

if let truthPath = options.truth {
    do {
        let file = try OutputFile(truthPath)
        try Array(truth.csv().utf8).withUnsafeBytes { try file.write($0) }
        try file.close()
    } catch let error as OutputFileError {
        fail("cannot write '\(error.path)': \(error.reason)", code: 1)
    }
}

if let routes = options.routes {
    do {
        try FileManager.default.createDirectory(atPath: routes, withIntermediateDirectories: true)
        for route in truth.extended.routes {
            try Data(route.gpx).write(to: URL(fileURLWithPath: routes).appendingPathComponent(route.fileName))
        }
    } catch {
        fail("cannot write the route files into '\(routes)': \(error.localizedDescription)", code: 1)
    }
}

let mb = Double(truth.byteCount) / 1_000_000
FileHandle.standardError.write(
    Data(
        String(
            format: "generate-export: %d days, %d records, %lld bytes in %.2f s (%.1f MB/s)\n",
            truth.days.count, truth.totalRecordCount, truth.byteCount, seconds, seconds > 0 ? mb / seconds : 0
        ).utf8))
