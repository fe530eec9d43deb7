/// A strict RFC 4180 reader for checking the writer's output: quoted fields may contain commas,
/// doubled quotes, CR and LF; a record ends at LF (or CRLF) outside quotes. Returns nil for
/// text that is not valid CSV (a stray quote inside an unquoted field, an unterminated quote).
func parseCSV(_ text: String) -> [[String]]? {
    var records: [[String]] = []
    var record: [String] = []
    var field: [Unicode.Scalar] = []
    var scalars = Array(text.unicodeScalars)[...]
    var inQuotes = false
    var fieldWasQuoted = false

    func endField() {
        var text = ""
        text.unicodeScalars.append(contentsOf: field)
        record.append(text)
        field = []
        fieldWasQuoted = false
    }
    while let scalar = scalars.popFirst() {
        if inQuotes {
            if scalar == "\"" {
                if scalars.first == "\"" {
                    scalars.removeFirst()
                    field.append("\"")
                } else {
                    inQuotes = false
                }
            } else {
                field.append(scalar)
            }
            continue
        }
        switch scalar {
        case "\"":
            guard field.isEmpty, !fieldWasQuoted else { return nil }
            inQuotes = true
            fieldWasQuoted = true
        case ",":
            endField()
        case "\r" where scalars.first == "\n":
            break
        case "\n":
            endField()
            records.append(record)
            record = []
        default:
            if fieldWasQuoted { return nil }
            field.append(scalar)
        }
    }
    if inQuotes { return nil }
    if !field.isEmpty || !record.isEmpty || fieldWasQuoted {
        endField()
        records.append(record)
    }
    return records
}
