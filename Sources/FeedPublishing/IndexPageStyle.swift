/// The stylesheet of `index.html`, inline (the page is one file). Colours are variables set
/// twice, for the light and the dark scheme (`prefers-color-scheme`), each pair chosen for a
/// contrast of at least 4.5:1 on its background; times never wrap; on a narrow screen the
/// failing feeds' table turns its rows into blocks and any other table scrolls inside its own
/// box, so the page itself never scrolls sideways.
enum IndexPageStyle {
    static let css = """
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1d1d1f; --muted: #595959; --rule: #d0d4d9; --soft: #f1f3f5;
          --link: #0b57d0; --bad: #b3261e; --good: #137333; --fresh: #2e7d32; --aging: #b26a00; --stale: #c62828; --never: #757575; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #121417; --fg: #e8eaed; --muted: #aab0b6; --rule: #3c4043; --soft: #1f2328;
            --link: #8ab4f8; --bad: #f28b82; --good: #81c995; --fresh: #81c995; --aging: #fdd663; --stale: #f28b82; --never: #9aa0a6; }
        }
        * { box-sizing: border-box; }
        html { background: var(--bg); color: var(--fg); }
        body { font: 16px/1.5 system-ui, sans-serif; max-width: 72rem; margin: 0 auto; padding: 0.5rem 1rem 2rem; background: var(--bg); color: var(--fg); }
        a { color: var(--link); }
        h1 { font-size: 1.6rem; margin: 0.8rem 0 0.2rem; overflow-wrap: anywhere; }
        h2 { font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid var(--rule); padding-bottom: 0.3rem; }
        h3 { font-size: 1rem; margin: 1rem 0 0.4rem; }
        nav ul, .counts, .kinds { list-style: none; padding: 0; margin: 0.5rem 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; }
        time { white-space: nowrap; }
        code { font-size: 0.85em; }
        .meta, .source, .url { color: var(--muted); font-size: 0.875rem; }
        .url, td, .source, .excerpt { overflow-wrap: anywhere; }
        .counts { gap: 0.5rem; }
        .counts li { background: var(--soft); border-radius: 6px; padding: 0.3rem 0.8rem; min-width: 7.5rem; }
        .counts strong { display: block; font-size: 1.4rem; }
        .kinds li { background: var(--soft); border-radius: 4px; padding: 0 0.5rem; }
        .chart { margin: 1rem 0; }
        .chart svg { display: block; width: 100%; max-width: 26rem; height: auto; }
        .chart text { fill: var(--fg); font: 13px system-ui, sans-serif; }
        .chart .fresh { fill: var(--fresh); } .chart .aging { fill: var(--aging); } .chart .stale { fill: var(--stale); } .chart .never { fill: var(--never); }
        figcaption { color: var(--muted); font-size: 0.875rem; }
        table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
        th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--rule); vertical-align: top; }
        .num { text-align: right; }
        .ok { color: var(--good); }
        .error, .failing, .gone { color: var(--bad); }
        .error code { color: var(--fg); }
        .scroll { overflow-x: auto; }
        table.reflow { table-layout: fixed; }
        table.reflow th:nth-child(1) { width: 27%; } table.reflow th:nth-child(2) { width: 9%; } table.reflow th:nth-child(3) { width: 30%; }
        table.reflow th:nth-child(4), table.reflow th:nth-child(5) { width: 17%; }
        table.compact { min-width: 40rem; }
        table.compact td, table.compact th { padding: 0.2rem 0.5rem; }
        summary { cursor: pointer; padding: 0.3rem 0; }
        ol.entries { list-style: none; padding: 0; }
        ol.entries li { margin: 0.9rem 0; overflow-wrap: anywhere; }
        ol.entries a { font-weight: 600; text-decoration: none; }
        .excerpt { margin: 0.15rem 0; font-size: 0.92rem; }
        footer { margin-top: 3rem; border-top: 1px solid var(--rule); padding-top: 0.5rem; }
        @media (max-width: 44rem) {
          table.reflow thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
          table.reflow, table.reflow tbody { display: block; width: 100%; }
          table.reflow tr { display: flex; flex-wrap: wrap; column-gap: 1rem; border-bottom: 1px solid var(--rule); padding: 0.4rem 0; line-height: 1.4; }
          table.reflow td { display: block; width: 100%; border: 0; padding: 0.05rem 0; text-align: left; }
          table.reflow td.error { order: 1; }
          table.reflow td.brief { order: 2; width: auto; }
          table.reflow td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }
        }
        """
}
