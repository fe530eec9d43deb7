// The style sheet inside `report.html` (docs/outputs.md, "report.html"): one column at most
// 880 px wide (the charts' own width) that narrows with the screen; the words of a table's text
// cells wrap, its numbers do not, and a table still wider than the column scrolls sideways in its
// own box (`.table`), never the page (in a wide window the box may reach past the column, up to
// 16 px from the window's edge); a chart (inline SVG with a
// `viewBox`) scales to the column's width. For print: black on white, no scrolling boxes, and no
// chart or table row split across a page break, and no heading (nor a section's first
// paragraph) left at the foot of a page without what follows.

enum HTMLStyle {
    static let sheet = """
        :root { color-scheme: light; }
        html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
        body { margin: 0; background: #fff; color: #1f2328;
          font: 16px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
        main { box-sizing: border-box; max-width: 912px; margin: 0 auto; padding: 16px; }
        h1, h2 { line-height: 1.25; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; }
        h1 { font-size: 1.75em; margin: .2em 0 .6em; }
        h2 { font-size: 1.35em; margin: 1.6em 0 .7em; }
        p, li { overflow-wrap: anywhere; }
        ul, ol { padding-left: 1.6em; }
        a { color: #0969da; }
        code { font: .875em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
          background: #eff1f3; padding: .1em .3em; border-radius: 4px; }
        .table { overflow-x: auto; margin: 0 0 16px; width: max-content; max-width: 100%; }
        table { border-collapse: collapse; font-size: .875em; font-variant-numeric: tabular-nums; }
        th, td { border: 1px solid #d1d9e0; padding: 4px 8px; vertical-align: top; }
        th { background: #f6f8fa; text-align: left; }
        td { min-width: 7.5em; }
        .n { text-align: right; }
        td.n { min-width: 0; white-space: nowrap; }
        tbody tr:nth-child(2n) { background: #f6f8fa; }
        figure { margin: 0 0 20px; }
        figure svg { display: block; width: 100%; max-width: 880px; height: auto; }
        .warning { border-left: 4px solid #9a6700; background: #fff8c5; padding: 8px 12px; }
        @media screen and (min-width: 944px) {
          /* A wide window: a table may be wider than the column, up to 16 px from the window's edge. */
          .table { max-width: calc(50vw + 424px); }
        }
        @media (max-width: 480px) {
          body { font-size: 15px; }
          main { padding: 12px; }
          th, td { padding: 3px 6px; }
        }
        @media print {
          @page { margin: 15mm; }
          body { font-size: 10pt; color: #000; }
          main { max-width: none; padding: 0; }
          a { color: inherit; text-decoration: none; }
          h1, h2, h2 + p { break-after: avoid; page-break-after: avoid; }
          .table { overflow: visible; width: auto; max-width: none; }
          th, td { padding: 2px 5px; }
          td.n { white-space: normal; }
          tr, figure, svg, .warning { break-inside: avoid; page-break-inside: avoid; }
          figure svg { max-height: 90vh; }
        }

        """
}
