/// A key press as the reducer sees it, independent of ncurses key codes.
///
/// The shell maps `get_wch` results to these; everything a key does is decided by ``reduce(_:_:)``.
public enum Key: Equatable, Sendable {
    /// A printable character (including non-ASCII ones such as `é` or `千`).
    case character(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Enter or Return.
    case enter
    /// Escape.
    case escape
    /// Backspace (or Delete sending DEL).
    case backspace
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
}
