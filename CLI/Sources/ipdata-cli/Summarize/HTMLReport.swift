import Foundation

/// The summary as one self-contained HTML page (`ipdata summarize --html FILE`): a world map
/// shaded by country, bars of the top countries, networks, company types, threats and
/// blocklists, and the top addresses with their flags; the same figures as the text summary.
///
/// The page loads nothing: no script, font, image or style sheet from anywhere, and its
/// Content-Security-Policy forbids them, so that opening it sends nothing to any host. The map is
/// inline SVG (`WorldMap`), hover text is each shape's `<title>`, the bars are CSS.
struct HTMLReport {
    let summary: Summary
    /// How many of each list to show, as `--top` says.
    let top: Int
    let cost: Summary.Cost

    /// The page's Content-Security-Policy: nothing but its own inline style and `data:` images.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

    /// The fills of the map's five shades, lightest first, and of a country without addresses.
    static let shades = ["#c6dbef", "#9ecae1", "#6baed6", "#3182bd", "#08519c"]
    static let emptyFill = "#e3e3e3"

    /// The page.
    func html() -> String {
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>ipdata summary</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <h1>ipdata summary</h1>

            """
        if let partial = summary.partialLine {
            page += "<p id=\"partial\" class=\"partial\">\(Self.escaped(partial))</p>\n"
        }
        page += "<section id=\"totals\">\n"
        page +=
            "<p class=\"totals\" data-total=\"\(summary.total)\" data-unique=\"\(summary.unique)\" "
            + "data-public=\"\(summary.publicAddresses)\" data-private=\"\(summary.privateAddresses)\" "
            + "data-failed=\"\(summary.failed)\">\(summary.total) addresses: \(summary.unique) unique, "
            + "\(summary.publicAddresses) public, \(summary.privateAddresses) private"
            + (summary.failed > 0 ? ", \(summary.failed) without an answer" : "") + "</p>\n"
        if let lookups = summary.lookupsLine(cost: cost) {
            let text = lookups.dropFirst("lookups".count).trimmingCharacters(in: .whitespaces)
            page += "<p class=\"lookups\">Lookups \(Self.escaped(text))</p>\n"
        }
        page += "</section>\n"
        page += map()
        page += bars("countries", "Top countries", Summary.top(summary.countries, top))
        page += bars("networks", "Top networks (ASN)", Summary.top(summary.networks, top))
        page += bars("company-types", "Company types", Summary.top(summary.companyTypes, top))
        page += bars("threats", "Threats", Summary.threatNames.map { (value: $0, count: summary.threats[$0] ?? 0) })
        page += bars("blocklists", "Top blocklists", Summary.top(summary.blocklists, top))
        page += addresses()
        page += "<footer>Written by ipdata summarize. Map: Natural Earth (public domain).</footer>\n</body>\n</html>\n"
        return page
    }

    /// The shade of `count` among counts up to `maximum`: 0 to 4, on a logarithmic scale.
    static func shade(_ count: Int, maximum: Int) -> Int {
        guard maximum > 1 else { return shades.count - 1 }
        let level = log(Double(count)) / log(Double(maximum)) * Double(shades.count)
        return min(shades.count - 1, max(0, Int(level.rounded(.up)) - 1))
    }

    /// The map: each country a path shaded by its records, with its name and count as hover text,
    /// the legend, and the countries the map has no shape for.
    private func map() -> String {
        let counts = summary.countryCodes
        let maximum = counts.values.max() ?? 0
        var drawn: Set<String> = []
        var paths = ""
        for line in WorldMap.countryLines.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let code = String(parts[0].trimmingCharacters(in: .whitespaces))
            let name = String(parts[1])
            let count = code.isEmpty ? 0 : counts[code] ?? 0
            if !code.isEmpty { drawn.insert(code) }
            let fill = count > 0 ? Self.shades[Self.shade(count, maximum: maximum)] : Self.emptyFill
            let label = code.isEmpty ? name : "\(name) (\(code))"
            paths +=
                "<path class=\"country\" data-code=\"\(code)\" data-count=\"\(count)\" fill=\"\(fill)\" d=\"\(parts[2])\">"
                + "<title>\(Self.escaped(label)): \(count) address\(count == 1 ? "" : "es")</title></path>\n"
        }
        var section = "<section id=\"map\">\n<h2>Countries</h2>\n"
        section +=
            "<svg id=\"world\" viewBox=\"\(WorldMap.viewBox)\" role=\"img\" aria-label=\"world map of the "
            + "addresses by country\" xmlns=\"http://www.w3.org/2000/svg\">\n\(paths)</svg>\n"
        section += legend(maximum: maximum)
        let offMap = Summary.top(counts.filter { !drawn.contains($0.key) }, counts.count)
        if !offMap.isEmpty {
            let list = offMap.map { "\(Self.escaped($0.value)) \($0.count)" }.joined(separator: ", ")
            section += "<p class=\"off-map\">Too small for the map: \(list)</p>\n"
        }
        return section + "</section>\n"
    }

    /// The legend: each shade with the counts it stands for.
    private func legend(maximum: Int) -> String {
        guard maximum > 0 else { return "<p class=\"legend\">No address has a country.</p>\n" }
        var lowest: [Int: Int] = [:]
        var highest: [Int: Int] = [:]
        for count in Set(summary.countryCodes.values) {
            let shade = Self.shade(count, maximum: maximum)
            lowest[shade] = min(lowest[shade] ?? count, count)
            highest[shade] = max(highest[shade] ?? count, count)
        }
        var items = ""
        for shade in lowest.keys.sorted() {
            let (low, high) = (lowest[shade] ?? 0, highest[shade] ?? 0)
            let range = low == high ? "\(low)" : "\(low)–\(high)"
            items += "<li><span class=\"swatch\" style=\"background:\(Self.shades[shade])\"></span>\(range)</li>"
        }
        items += "<li><span class=\"swatch\" style=\"background:\(Self.emptyFill)\"></span>none</li>"
        return "<ul class=\"legend\" aria-label=\"addresses per country\">\(items)</ul>\n"
    }

    /// A bar chart of `rows`, each bar as long as its count against the largest.
    private func bars(_ id: String, _ title: String, _ rows: [(value: String, count: Int)]) -> String {
        guard !rows.isEmpty else { return "" }
        let largest = max(1, rows.map(\.count).max() ?? 1)
        var table = "<section id=\"\(id)\">\n<h2>\(title)</h2>\n<table class=\"bars\">\n"
        for row in rows {
            let width = String(format: "%.1f", Double(row.count) / Double(largest) * 100)
            table +=
                "<tr data-value=\"\(Self.escaped(row.value))\" data-count=\"\(row.count)\"><th>"
                + "\(Self.escaped(row.value))</th><td class=\"count\">\(row.count)</td><td class=\"bar\">"
                + "<span style=\"width:\(width)%\"></span></td></tr>\n"
        }
        return table + "</table>\n</section>\n"
    }

    /// The top addresses, with their country, network, company type and threat flags.
    private func addresses() -> String {
        let rows = summary.topAddresses(top)
        guard !rows.isEmpty else { return "" }
        var table = "<section id=\"top-addresses\">\n<h2>Top addresses</h2>\n<table class=\"addresses\">\n"
        table += "<tr><th>Address</th><th>Count</th><th>Country</th><th>Network</th><th>Type</th><th>Flags</th></tr>\n"
        for row in rows {
            let digest = row.digest
            let flags = (digest?.threats ?? []).map { "<span class=\"flag\">\($0)</span>" }.joined(separator: " ")
            table +=
                "<tr data-ip=\"\(row.address)\" data-count=\"\(row.count)\" "
                + "data-threats=\"\((digest?.threats ?? []).joined(separator: ","))\"><td>\(row.address)</td>"
                + "<td class=\"count\">\(row.count)</td><td>\(Self.escaped(digest?.country ?? "—"))</td>"
                + "<td>\(Self.escaped(digest == nil ? "no answer" : digest?.network ?? "—"))</td>"
                + "<td>\(Self.escaped(digest?.companyType ?? "—"))</td><td>\(flags)</td></tr>\n"
        }
        return table + "</table>\n</section>\n"
    }

    /// `text` with HTML's special characters escaped, for text and attribute values alike.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    private static let style = """
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1100px;\
        padding:0 1em;color:#1b1b1b}
        h1{font-size:1.6em;margin:0 0 .4em}h2{font-size:1.15em;margin:1.6em 0 .5em}
        .partial{background:#fff3cd;border:1px solid #e0b94f;padding:.6em .8em;font-weight:600}
        #world{width:100%;height:auto;background:#f3f7fa;border-radius:6px}
        #world path{stroke:#fff;stroke-width:.4}#world path:hover{stroke:#222;stroke-width:1}
        .legend{list-style:none;padding:0;display:flex;gap:1em;flex-wrap:wrap;font-size:.9em}
        .swatch{display:inline-block;width:1.2em;height:.9em;margin-right:.35em;vertical-align:middle}
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.2em .5em;vertical-align:middle}
        .bars th{font-weight:normal;width:35%;overflow-wrap:anywhere}.count{text-align:right;width:5em;\
        font-variant-numeric:tabular-nums}
        .bar span{display:block;height:.9em;background:#3182bd;border-radius:2px;min-width:1px}
        .addresses tr:nth-child(even){background:#f5f5f5}.addresses td{font-size:.95em}
        .flag{display:inline-block;background:#fde2e1;color:#8a1c14;border-radius:3px;padding:0 .35em;\
        margin:0 .2em .1em 0;font-size:.85em}
        footer{margin-top:2em;color:#666;font-size:.85em}
        """
}
