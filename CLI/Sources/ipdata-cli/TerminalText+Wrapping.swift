extension TerminalText {
    /// `text` broken into lines at its spaces, the first at most `firstWidth` terminal columns
    /// and the others at most `width`, so that none is cut: what the table does with an error too
    /// long for its row, and help with a usage line too long for the terminal.
    ///
    /// A word wider than its line stays whole on a line of its own, wider than the line, unless
    /// `breaksWords`: it is then broken between characters. Runs of spaces count as one.
    static func wrapped(_ text: String, firstWidth: Int, width: Int, breaksWords: Bool = false) -> [String] {
        var lines: [String] = []
        var line = ""
        var used = 0
        var room = max(1, firstWidth)
        func endLine() {
            lines.append(line)
            (line, used, room) = ("", 0, max(1, width))
        }
        for word in text.split(separator: " ") {
            let wordWidth = self.width(word)
            if used > 0 {
                if used + 1 + wordWidth <= room {
                    line += " "
                    used += 1
                } else {
                    endLine()
                }
            }
            guard breaksWords, wordWidth > room - used else {
                line += word
                used += wordWidth
                continue
            }
            for character in word {
                let characterWidth = self.width(of: character)
                if used > 0, used + characterWidth > room { endLine() }
                line.append(character)
                used += characterWidth
            }
        }
        lines.append(line)
        return lines
    }
}
