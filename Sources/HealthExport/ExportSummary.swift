import Foundation

/// A problem with part of the input that did not stop the read: the element was skipped (or a
/// field ignored) and counted. Diagnostics with the same kind and detail are merged.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// A date attribute that is not `yyyy-MM-dd HH:mm:ss ±hhmm`; the element was skipped.
        case badDate = "bad date"
        /// A quantity record whose `value` is not a number; the record was skipped.
        case nonNumericValue = "non-numeric value"
        /// A quantity record whose `unit` the reader does not know; the record was skipped.
        case unknownUnit = "unknown unit"
        /// A required attribute is missing; the element was skipped.
        case missingAttribute = "missing attribute"
        /// An optional attribute could not be decoded and was ignored; the element was kept.
        case ignoredAttribute = "ignored attribute"
        /// Control characters XML forbids were deleted by the pre-filter (docs/export-format.md §6).
        case controlCharactersRemoved = "control characters removed"
        /// A date before 1900 or more than a day after the export's `ExportDate` (after the time
        /// of the read when the export has no `ExportDate` before it): the element was skipped
        /// (an optional date ignored), so that one bad date cannot widen a report to millennia.
        case implausibleDate = "implausible date"
        /// A number beyond ±3.4 × 10^38 (what a `Float` holds, the analysis' storage): the
        /// record was skipped (an optional number ignored) instead of becoming infinity.
        case valueOutOfRange = "value out of range"
        /// A name (source, version, device, type, unit, key) longer than 1,024 bytes: kept as its
        /// first 1,024 bytes and a hash of the whole, so memory stays bounded (docs/export-format.md §8);
        /// `count` is the records naming one, the detail says the bytes left out.
        case nameCut = "name cut"
    }

    public var kind: Kind
    /// What exactly was wrong, e.g. `unit 'furlong' on HKQuantityTypeIdentifierStepCount`.
    public var detail: String
    public var count: Int
    /// Line (1-based) of the first occurrence in the export file; 0 when not tied to a line.
    public var firstLine: Int

    public init(kind: Kind, detail: String, count: Int, firstLine: Int) {
        self.kind = kind
        self.detail = detail
        self.count = count
        self.firstLine = firstLine
    }

    /// `12 × unknown unit: unit 'furlong' on HKQuantityTypeIdentifierStepCount (first at line 40)`.
    public var description: String {
        "\(count) × \(kind.rawValue): \(detail)" + (firstLine > 0 ? " (first at line \(firstLine))" : "")
    }
}

/// What a complete read found besides the samples: the header, counts and diagnostics.
public struct ExportSummary: Sendable {
    /// The input as named in messages: a path, `<stdin>`, or `archive.zip:entry/export.xml`.
    public var inputName: String
    /// `ExportDate`: the moment of export. Its offset is the one printed on every timestamp.
    public var exportDate: Timestamp?
    /// The `HealthKit Export Version: N` number from the DOCTYPE comment, when there was one.
    public var exportVersion: Int?
    /// `HealthData locale` (`en_US`, …).
    public var locale: String?
    public var me: Me?
    /// Bytes of XML read (after decompression, before the pre-filter).
    public var bytesRead: Int64
    /// Every element seen, by name (modelled or not).
    public var elementCounts: [String: Int]
    /// Elements the reader does not model (VisionPrescription, future additions), by name.
    public var unmodeledElementCounts: [String: Int]
    /// How many elements carried each `HKTimeZone` metadata value.
    public var timeZoneCounts: [String: Int]
    /// Control characters deleted by the pre-filter.
    public var removedControlCharacters: Int64
    /// True when an internal DOCTYPE was dropped before parsing.
    public var droppedDoctype: Bool
    /// Skipped or partly ignored elements, merged by kind and detail, in order of first line.
    public var diagnostics: [Diagnostic]
    /// Start instants (UTC seconds, rounded down to 15 minutes, at most 100,000 distinct) of the
    /// records skipped for their value or unit after their dates were read, so that a report can
    /// say which days lost records (an empty cell then is rejected input, not "no data").
    public var rejectedRecordStarts: [Int64] = []
    /// In an archive, the `ExportDate` of every export but the latest (`exportDate`), oldest
    /// first: each one's printed offset names the zones the person may have been in when it was
    /// made (docs/days-and-time-zones.md §6.1). Empty for an export.
    public var earlierExportDates: [Timestamp] = []

    /// The most frequent `HKTimeZone` value (ties broken by name), or nil when none was seen.
    public var mostFrequentTimeZone: String? {
        timeZoneCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key
    }
}

/// Why a read failed. Every case names the input; `description` is a one-line message for people.
public enum ExportReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case cannotOpen(path: String, reason: String)
    /// The input holds no bytes at all.
    case empty(input: String)
    /// libxml2 found the document not well-formed (truncated, broken markup, not XML).
    /// `elementsRead` elements had been read before the error; they are not a complete export.
    case notWellFormed(input: String, line: Int, column: Int, message: String, elementsRead: Int)
    /// The input ends inside markup: libxml2 found the error only once told that no more bytes
    /// come (a cut inside a record, an unfinished copy). `line` and `column` are where the bytes
    /// end; `message` is libxml2's; `elementsRead` as for `notWellFormed`.
    case truncated(input: String, line: Int, column: Int, message: String, elementsRead: Int)
    /// Something other than whitespace, comments and processing instructions after the root's
    /// end tag (a second root element, text): `found` is the input there, up to its line's end.
    case contentAfterRoot(input: String, line: Int, column: Int, found: String, message: String)
    /// A comment, CDATA section or text of more than 10,000,000 bytes (libxml2's
    /// `XML_MAX_LOOKUP_LIMIT`) ends before `line` (nil: before the end of the input); libxml2
    /// notices it only later, so the line is where it stopped, not where the long piece is.
    case tooLong(input: String, line: Int?, elementsRead: Int)
    /// The input is not XML at all: libxml2 stopped before the root element.
    case notXML(input: String, line: Int, column: Int, message: String)
    /// Well-formed XML (or a zip) that is not an Apple Health export.
    case notHealthExport(input: String, reason: String)
    /// libarchive could not read the zip; `message` is its text (and the entry being read). A
    /// zip cut short ("Truncated ZIP file data") is described with the advice to export again,
    /// as a cut-short XML file is (docs/export-format.md).
    case zip(path: String, message: String)
    /// The consumer stopped the read by throwing; the consumer's error is described.
    case consumerFailed(input: String, message: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "\(path): cannot read: \(reason)"
        case .empty(let input):
            return "\(input): the file is empty; expected an Apple Health export (export.xml or export.zip)"
        case .truncated(let input, let line, let column, let message, let elementsRead):
            return Self.truncatedText(input, line, column, Self.oneLine(message), elementsRead)
        case .notWellFormed(let input, let line, let column, let message, let elementsRead):
            let text = Self.oneLine(message)
            if Self.meansTruncated(text) { return Self.truncatedText(input, line, column, text, elementsRead) }
            return "\(input): line \(line), column \(column): not well-formed XML: \(text)"
                + " (stopped after \(elementsRead) elements; the export is incomplete or damaged:"
                + " export again from the Health app)"
        case .contentAfterRoot(let input, let line, let column, let found, let message):
            let what = found.hasPrefix("<") && !found.hasPrefix("</") ? "a second root element" : "more content"
            let shown = Self.oneLine(found).unicodeScalars.map { $0.value < 0x20 || $0 == "\u{7F}" ? "?" : String($0) }
                .joined()
            return "\(input): line \(line), column \(column): \(what) after </HealthData>, which ends the export:"
                + " '\(shown)' (libxml2: \(Self.oneLine(message))). The export itself is complete; the file has"
                + " something appended to it (two files joined?): remove what follows </HealthData>"
        case .tooLong(let input, let line, let elementsRead):
            return "\(input): a comment, CDATA section or text longer than 10,000,000 bytes comes before "
                + (line.map { "line \($0)" } ?? "the end of the file")
                + " (libxml2's limit, XML_MAX_LOOKUP_LIMIT; stopped after \(elementsRead) elements); no Apple Health"
                + " export holds one, so the file is damaged or not an export: export again from the Health app"
        case .notXML(let input, let line, let column, let message):
            return "\(input): line \(line), column \(column): not an XML document (libxml2: \(Self.oneLine(message)));"
                + " expected an Apple Health export (export.xml or export.zip)"
        case .notHealthExport(let input, let reason):
            return "\(input): not an Apple Health export: \(reason)"
        case .zip(let path, let message):
            var text = Self.oneLine(message)
            guard Self.meansZipCutShort(text) else { return "\(path): cannot read the zip archive: \(text)" }
            // The entry readers (ChunkSources.swift) end their text with this; the advice says it.
            let suffix = "; the archive is damaged or truncated"
            if text.hasSuffix(suffix) { text.removeLast(suffix.count) }
            // When libarchive gave no text, `zipErrorText`'s fallback says only what the
            // advice says.
            let said = text == String(suffix.dropFirst(2)) ? "" : ": \(text)"
            return "\(path): cannot read the zip archive\(said). "
                + Self.exportAgainAdvice("zip is incomplete or damaged")
        case .consumerFailed(let input, let message):
            return "\(input): \(Self.oneLine(message))"
        }
    }

    private static func truncatedText(_ input: String, _ line: Int, _ column: Int, _ text: String, _ elementsRead: Int)
        -> String
    {
        // Between two records the pre-filtered stream ends without the root's end tag, and
        // libxml2 calls that "Extra content at the end of the document", which is not what
        // happened: its text is quoted only where it says something true about the cut.
        let libxml2 = text.hasPrefix("Extra content at the end of the document") ? "" : "libxml2: \(text); "
        return "\(input): line \(line), column \(column): the export is truncated: it ends before </HealthData>"
            + " (\(libxml2)stopped after \(elementsRead) elements). \(exportAgainAdvice("file is incomplete"))"
    }

    /// What to do about an export cut short: `what` is "file is incomplete" (an XML file that
    /// ends early) or "zip is incomplete or damaged" (libarchive cannot tell the two apart).
    static func exportAgainAdvice(_ what: String) -> String {
        "The \(what): export again from the Health app (profile picture, Export All Health"
            + " Data) and copy the whole file"
    }

    /// libarchive's words for a zip that stops early or whose records do not add up: a cut
    /// download or copy, which exporting again fixes.
    static func meansZipCutShort(_ message: String) -> Bool {
        let lower = message.lowercased()
        return lower.contains("truncated") || lower.contains("premature end")
    }

    /// libxml2's messages end with a newline and can hold more: one line, spaces collapsed.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: { $0.isNewline }).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// libxml2's words for a document that stops early: inside an element ("Premature end of
    /// data", an end tag never found), or exactly between two records, where the pre-filtered
    /// stream ends without the root's end tag ("Extra content at the end of the document").
    static func meansTruncated(_ message: String) -> Bool {
        ["Premature end of data", "Extra content at the end of the document", "EndTag: '</' not found"].contains {
            message.contains($0)
        }
    }
}
