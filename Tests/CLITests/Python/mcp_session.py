# A whole MCP session with `health-analyzer mcp --db <archive>` through the official MCP Python
# SDK's stdio client (`mcp` from PyPI), checked against the CSV files `report --db` wrote for the
# same archive. Run by CLITests' MCPTests:
#   python mcp_session.py <health-analyzer> <archive> <report dir> <docs dir> <full|daily|cap> <handshake|stateless>
# handshake: the SDK's ClientSession and its initialize handshake (revision 2025-11-25);
# stateless: the SDK's Client in its default mode "auto", which probes server/discover and speaks
# revision 2026-07-28 when the server answers it (docs/mcp.md, "Protocol revisions").
# Prints one line per check group and "ok" at the end; any failed check raises (exit 1).
import asyncio
import contextlib
import csv
import os
import sys

import jsonschema
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

binary, archive, report_dir, docs_dir, mode, era = sys.argv[1:7]
TOOLS = ["summary", "daily", "weekly", "monthly", "sleep", "workouts", "compare", "query"]
IDENTIFYING = {"source"}  # the report columns that can name a person (left out by default)


def read_csv(name):
    with open(os.path.join(report_dir, name), newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def same_cell(value, text, where):
    """A structured cell against daily.csv's text: no value is null, numbers are numbers."""
    if text == "":
        assert value is None, f"{where}: {value!r}, CSV empty"
    elif isinstance(value, bool):
        assert text == ("true" if value else "false"), f"{where}: {value!r} != {text!r}"
    elif isinstance(value, (int, float)):
        assert float(text) == value, f"{where}: {value!r} != {text!r}"
        if isinstance(value, int):
            assert "." not in text, f"{where}: {value!r} != {text!r}"
    else:
        assert value == text, f"{where}: {value!r} != {text!r}"


def check_table(result, csv_name, name):
    """Every cell of a table tool's answer equals the CSV's (the CSV's visible columns, all rows)."""
    assert not result.is_error, result.content
    s = result.structured_content
    header, rows = read_csv(csv_name)
    visible = [c for c in header if c not in IDENTIFYING]
    assert s["columns"] == visible, (s["columns"], visible)
    assert s["truncated"] is False and s["next_from"] is None
    assert s["row_count"] == len(rows) == len(s["rows"]), (s["row_count"], len(rows))
    index = [header.index(c) for c in visible]
    cells = 0
    for r, (got, want) in enumerate(zip(s["rows"], rows)):
        for k, i in enumerate(index):
            same_cell(got[k], want[i], f"{name} row {r} {visible[k]}")
            cells += 1
    # The text rendering is a Markdown table of the same rows.
    text = result.content[0].text
    assert "| " + " | ".join(visible) + " |" in text, text[:200]
    return cells


async def expect_tool_error(session, name, arguments, starts):
    result = await session.call_tool(name, arguments)
    assert result.is_error, (name, arguments, result.structured_content)
    message = result.content[0].text
    assert "\n" not in message and message.startswith(starts), (name, arguments, message)
    return message


@contextlib.asynccontextmanager
async def open_session(params, logs):
    """The SDK's session in the era asked for, log messages at info and above going to `logs`."""

    async def on_log(params):
        logs.append(params)

    if era == "handshake":
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, logging_callback=on_log) as session:
                init = await session.initialize()
                assert init.protocol_version == "2025-11-25", init.protocol_version
                assert init.server_info.name == "health-analyzer"
                assert init.capabilities.tools is not None and init.capabilities.resources is not None
                await session.set_logging_level("info")
                yield session
    else:
        async with Client(params, mode="auto", log_level="info", logging_callback=on_log) as client:
            session = client.session
            assert session.protocol_version == "2026-07-28", session.protocol_version
            assert session.initialize_result is None and session.discover_result is not None
            assert session.discover_result.supported_versions == ["2026-07-28"], session.discover_result
            assert session.server_info is not None and session.server_info.name == "health-analyzer"
            capabilities = session.server_capabilities
            assert capabilities.tools is not None and capabilities.resources is not None
            assert "daily" in (session.instructions or ""), session.instructions
            yield client


async def cap_session(session):
    """More than 400 days: daily over all of them gives the first 400 rows, `truncated`, and
    `next_from` = the 401st day; asking again from there gives the rest. Both pages together
    are daily.csv, cell for cell."""
    header, rows = read_csv("daily.csv")
    assert len(rows) > 400, len(rows)
    first, last = rows[0][0], rows[-1][0]
    page = (await session.call_tool("daily", {"from": first, "to": last})).structured_content
    assert page["truncated"] is True and page["row_count"] == 400 == len(page["rows"]), page["row_count"]
    assert page["rows"][0][0] == rows[0][0] and page["rows"][-1][0] == rows[399][0], page["rows"][-1][0]
    assert page["next_from"] == rows[400][0], (page["next_from"], rows[400][0])
    result = await session.call_tool("daily", {"from": page["next_from"], "to": last})
    rest = result.structured_content
    assert rest["truncated"] is False and rest["next_from"] is None, rest["next_from"]
    assert rest["row_count"] == len(rows) - 400 == len(rest["rows"]), rest["row_count"]
    assert "truncated" not in result.content[0].text.split("\n")[0], result.content[0].text[:200]
    assert page["columns"] == rest["columns"] == header, page["columns"]
    cells = 0
    for r, (got, want) in enumerate(zip(page["rows"] + rest["rows"], rows)):
        for k, text in enumerate(want):
            same_cell(got[k], text, f"daily row {r} {header[k]}")
            cells += 1
    print(f"cap: 400 rows {rows[0][0]} to {rows[399][0]}, then {rest['row_count']} from {page['next_from']};"
          f" {cells} cells equal daily.csv")


async def main():
    params = StdioServerParameters(command=binary, args=["mcp", "--db", archive], env=dict(os.environ))
    logs = []

    async with open_session(params, logs) as session:
        if mode == "cap":
            await cap_session(session)
            print("ok")
            return
        listed = await session.list_tools()
        names = [t.name for t in listed.tools]
        assert names == TOOLS, names
        for t in listed.tools:
            for schema in (t.input_schema, t.output_schema):
                jsonschema.validators.validator_for(schema).check_schema(schema)
                assert schema["type"] == "object"
        print(f"tools: {len(names)} listed, schemas valid")

        header, daily_rows = read_csv("daily.csv")
        first, last = daily_rows[0][0], daily_rows[-1][0]

        # daily: every cell of daily.csv, in pages of at most 400 rows.
        result = await session.call_tool("daily", {"from": first, "to": last})
        cells = check_table(result, "daily.csv", "daily") if len(daily_rows) <= 400 else 0
        print(f"daily: {cells} cells equal daily.csv ({len(daily_rows)} days, {first} to {last})")
        assert any(p.level == "info" and "analys" in str(p.data) for p in logs), logs

        # A window and chosen columns: the same values.
        mid = daily_rows[len(daily_rows) // 2][0]
        result = await session.call_tool("daily", {"from": mid, "to": mid, "columns": ["steps", "sleep_min"]})
        s = result.structured_content
        assert s["columns"] == ["date", "steps", "sleep_min"] and s["row_count"] == 1, s
        row = next(r for r in daily_rows if r[0] == mid)
        same_cell(s["rows"][0][1], row[header.index("steps")], "steps")
        same_cell(s["rows"][0][2], row[header.index("sleep_min")], "sleep_min")

        if mode == "full":
            for tool, file in [("weekly", "weekly.csv"), ("monthly", "monthly.csv"), ("sleep", "sleep.csv"),
                               ("workouts", "workouts.csv")]:
                result = await session.call_tool(tool, {})
                n = check_table(result, file, tool)
                print(f"{tool}: {n} cells equal {file}")

            # summary: the period, the days and the days with data per metric, as daily.csv has them.
            result = await session.call_tool("summary", {})
            s = result.structured_content
            assert (s["first_day"], s["last_day"], s["days"]) == (first, last, len(daily_rows)), s
            assert s["schema_version"] == 3 and len(s["exports"]) >= 1 and s["source_names_shown"] is False
            for m in s["metrics"]:
                i = header.index(m["column"])
                assert m["days_with_data"] == sum(1 for r in daily_rows if r[i] != ""), m
            assert all("names" not in k for k in s["sources"]), s["sources"]
            print(f"summary: {len(s['metrics'])} metrics, {len(s['exports'])} exports")

            # compare: the means per day with data of daily.csv's values.
            a_rows = daily_rows[:28]
            b_rows = daily_rows[28:56]
            result = await session.call_tool("compare", {
                "from": a_rows[0][0], "to": a_rows[-1][0], "baseline_from": b_rows[0][0],
                "baseline_to": b_rows[-1][0], "columns": ["steps", "distance_km"]})
            assert not result.is_error, result.content
            for m in result.structured_content["metrics"]:
                i = header.index(m["metric"])
                va = [float(r[i]) for r in a_rows if r[i] != ""]
                vb = [float(r[i]) for r in b_rows if r[i] != ""]
                assert m["days_with_data"] == len(va) and m["baseline_days_with_data"] == len(vb), m
                # Rounded to one decimal more than the column's (steps: 1): within half of that.
                assert abs(m["mean"] - sum(va) / len(va)) <= 0.05001, m
                assert abs(m["change"] - (sum(va) / len(va) - sum(vb) / len(vb))) <= 0.10001, m
            print("compare: means equal daily.csv's")

            # query: one SELECT, names left out, caps.
            result = await session.call_tool("query", {"sql": "SELECT count(*) AS n FROM exports"})
            assert result.structured_content["rows"] == [[len(s["exports"])]], result.structured_content
            result = await session.call_tool("query", {"sql": "SELECT name FROM sources"})
            assert all(r == [None] for r in result.structured_content["rows"]), result.structured_content
            result = await session.call_tool("query", {"sql": "SELECT start_utc FROM steps"})
            q = result.structured_content
            assert q["row_count"] == 1000 and q["truncated"] is True, (q["row_count"], q["truncated"])
            print("query: counts, names NULL, 1000-row cap")

            # Each bad input: a tool error naming the argument, the session goes on.
            await expect_tool_error(session, "daily", {"from": "2025-13-01"}, "from:")
            await expect_tool_error(session, "daily", {"from": "yesterday"}, "from:")
            await expect_tool_error(session, "daily", {"to": 20250101}, "to:")
            await expect_tool_error(session, "daily", {"from": last, "to": first}, "from:")
            await expect_tool_error(session, "daily", {"columns": ["steps", "nope"]}, "columns:")
            await expect_tool_error(session, "weekly", {"from": "1990-01-01", "to": "1990-01-31"}, "to:")
            await expect_tool_error(session, "sleep", {"from": "2099-01-01"}, "from:")
            await expect_tool_error(session, "daily", {"form": first}, "form:")
            await expect_tool_error(session, "compare", {"from": first, "to": last}, "baseline_from:")
            await expect_tool_error(session, "query", {}, "sql:")
            for sql in ["DELETE FROM exports", "ATTACH '/tmp/x.db' AS x", "PRAGMA query_only = 0",
                        "CREATE TEMP TABLE t (x)", "SELECT load_extension('x')", "SELECT 1; SELECT 2",
                        "SELECT * FROM me", "BEGIN", "SELECT * FROM nope"]:
                await expect_tool_error(session, "query", {"sql": sql}, "sql")
            message = await expect_tool_error(session, "query", {
                "sql": "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"},
                "sql ran longer than 2 s")
            try:
                await session.call_tool("nope", {})
                raise AssertionError("an unknown tool was answered")
            except MCPError as e:
                assert e.error.code == -32602, e.error
            print("errors: every bad input refused with a one-line message")

            # Resources: the docs pages as they are in docs/, and the archive's schema.
            resources = (await session.list_resources()).resources
            uris = [str(r.uri) for r in resources]
            assert "health-analyzer://archive/schema.sql" in uris, uris
            pages = 0
            for r in resources:
                contents = (await session.read_resource(str(r.uri))).contents[0]
                if str(r.uri).startswith("health-analyzer://docs/"):
                    name = str(r.uri).rsplit("/", 1)[1]
                    with open(os.path.join(docs_dir, name), encoding="utf-8") as f:
                        assert contents.text == f.read(), f"{name} differs from docs/{name}"
                    assert contents.mime_type == "text/markdown"
                    pages += 1
                elif str(r.uri).endswith("archive/schema.sql"):
                    assert "CREATE TABLE record_blocks" in contents.text
            assert pages >= 2, uris
            print(f"resources: {pages} docs pages equal docs/, schema served")
    print("ok")


asyncio.run(main())
