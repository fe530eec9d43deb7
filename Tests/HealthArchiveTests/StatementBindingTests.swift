import CSQLite
import Foundation
import TestSupport
import Testing

@testable import HealthArchive

@Suite("Statements check what is bound")
struct StatementBindingTests {
    /// `INSERT INTO t VALUES (?, ?, ?)` has 3 parameters: binding 1 and 3 leaves 2 unbound, and
    /// the step refuses to run (no row with a silent NULL); binding 4 is out of range. With all
    /// three bound it runs, and after the run's reset the bindings must be made again.
    @Test func anUnboundOrOutOfRangeParameterStopsTheStep() throws {
        let path = TestScratch.file("bind", suffix: ".sqlite").path
        defer { unlink(path) }
        let db = try Connection(path: path, readOnly: false, create: true)
        try db.execute("CREATE TABLE t (a, b, c)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?)")
        insert.bind(1, Int64(1))
        insert.bind(3, Int64(3))
        do {
            try insert.run()
            Issue.record("a step with parameter 2 unbound ran")
        } catch {
            #expect(error.code == SQLITE_MISUSE)
            #expect(error.message == "\(path): parameter 2 of 3 not bound: INSERT INTO t VALUES (?, ?, ?)")
        }
        insert.bindAll([.integer(1), .integer(2), .integer(3)])
        try insert.run()
        #expect(throws: SQLiteError.self) { try insert.run() }  // the run reset the bindings
        insert.bindAll([.integer(1), .integer(2), .integer(3), .integer(4)])
        do {
            try insert.run()
            Issue.record("a bind to parameter 4 of 3 ran")
        } catch {
            #expect(
                error.message.hasSuffix(
                    "parameter 4 was bound, but the statement has 3: INSERT INTO t VALUES (?, ?, ?)"))
        }
        let count = try db.prepare("SELECT count(*) FROM t")
        #expect(try count.step())
        #expect(count.int64(0) == 1)
    }
}
