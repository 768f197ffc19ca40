import CNCurses
import Foundation
import MoviesModels
import MoviesTUICore

/// What one read of the keyboard produced.
enum Input: Equatable {
    /// A key for the reducer.
    case key(Key)
    /// The terminal was resized.
    case resize
    /// Ctrl-C arrived as a character (only when the terminal does not turn it into SIGINT).
    case interrupt
}

/// Why the terminal could not be set up.
struct TerminalError: Error, CustomStringConvertible {
    var description: String
}

/// The ncurses screen: set-up and tear-down, drawing ``Frame``s, and reading keys. No app logic.
///
/// `@unchecked Sendable` because it is handed to the ``TerminalThread``: one thread uses it at a time (the main
/// thread to open and close it, the terminal thread in between), which is what ncurses requires.
final class Terminal: @unchecked Sendable {
    private var isActive = false

    /// Switches the terminal to the full-screen mode: UTF-8 locale, no echo, keypad keys, hidden cursor.
    ///
    /// - Throws: ``TerminalError`` when the terminal cannot be opened (e.g. `TERM` is unset or unknown).
    init() throws {
        setlocale(LC_ALL, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_ALL, "C.UTF-8") }
        guard tui_newterm() != nil else {
            throw TerminalError(
                description: "cannot open the terminal (TERM=\(ProcessInfo.processInfo.environment["TERM"] ?? "unset"))"
            )
        }
        isActive = true
        cbreak()  // Ctrl-C still raises SIGINT, which SignalFlag turns into a clean quit.
        noecho()
        nonl()
        keypad(tui_stdscr(), true)
        _ = curs_set(0)
        set_escdelay(25)
        wtimeout(tui_stdscr(), 50)
        if has_colors() {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_BLACK), Int16(COLOR_CYAN))  // title
            init_pair(2, Int16(COLOR_WHITE), Int16(COLOR_RED))  // error
            init_pair(3, Int16(COLOR_WHITE), Int16(COLOR_BLUE))  // overlay
            init_pair(4, Int16(COLOR_BLACK), Int16(COLOR_YELLOW))  // overlay selection
        }
    }

    deinit {
        end()
    }

    /// Restores the terminal; safe to call more than once.
    func end() {
        guard isActive else { return }
        isActive = false
        _ = curs_set(1)
        endwin()
    }

    /// The screen's size now.
    var size: ScreenSize {
        ScreenSize(rows: Int(tui_getmaxy(tui_stdscr())), columns: Int(tui_getmaxx(tui_stdscr())))
    }

    /// Draws a frame: every line, then the overlay, then refreshes.
    func draw(_ frame: Frame) {
        werase(tui_stdscr())
        for (row, line) in frame.lines.enumerated() {
            draw(line, row: row, column: 0)
        }
        if let overlay = frame.overlay {
            for (offset, line) in overlay.lines.enumerated() {
                draw(line, row: overlay.top + offset, column: overlay.left)
            }
        }
        wrefresh(tui_stdscr())
    }

    private func draw(_ line: Line, row: Int, column: Int) {
        var column = column
        for span in line.spans where !span.text.isEmpty {
            _ = tui_draw(Int32(row), Int32(column), span.text, attributes(span.style))
            column += DisplayWidth.of(span.text)
        }
    }

    private func attributes(_ style: Style) -> attr_t {
        let colors = has_colors()
        switch style {
        case .normal: return tui_a_normal()
        case .title: return colors ? tui_color_pair(1) | tui_a_bold() : tui_a_reverse()
        case .heading: return tui_a_bold()
        case .selected: return tui_a_reverse()
        case .dim: return tui_a_dim()
        case .status: return tui_a_reverse()
        case .error: return colors ? tui_color_pair(2) | tui_a_bold() : tui_a_bold()
        case .overlay: return colors ? tui_color_pair(3) : tui_a_reverse()
        case .overlaySelected: return colors ? tui_color_pair(4) | tui_a_bold() : tui_a_bold()
        }
    }

    /// Waits up to 50 ms for a key.
    ///
    /// - Returns: The input, or `nil` when none arrived (or it means nothing here).
    func read() -> Input? {
        var character: wint_t = 0
        let status = tui_get_wch(&character)
        if status == tui_err() { return nil }
        if status == tui_key_code_yes() { return Self.functionKey(Int32(character)) }
        return Self.character(UInt32(character))
    }

    /// Maps an ncurses function key code.
    static func functionKey(_ code: Int32) -> Input? {
        switch code {
        case tui_key_resize(): return .resize
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_ENTER: return .key(.enter)
        case KEY_BACKSPACE, KEY_DC: return .key(.backspace)
        case KEY_BTAB: return .key(.backTab)
        default: return nil
        }
    }

    /// Maps a character code.
    static func character(_ code: UInt32) -> Input? {
        switch code {
        case 3: return .interrupt
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }
}
