// The ncursesw API for Swift: wide-character functions enabled, plus wrappers for what Swift cannot import
// (function-like macros, cast macros, and macros whose values are computed).
#ifndef MOVIES_TUI_CNCURSES_SHIM_H
#define MOVIES_TUI_CNCURSES_SHIM_H

// SwiftPM drops pkg-config -D flags, so the wide-character API (get_wch, waddnwstr, wint_t) must be asked for here.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>

/// The standard screen (a C global, wrapped so Swift does not see mutable global state).
static inline WINDOW *tui_stdscr(void) { return stdscr; }

/// Opens the terminal on stdout/stdin like initscr, but returns NULL instead of exiting on failure.
static inline SCREEN *tui_newterm(void) { return newterm(NULL, stdout, stdin); }

/// Rows of a window (the getmaxy macro).
static inline int tui_getmaxy(WINDOW *window) { return getmaxy(window); }

/// Columns of a window (the getmaxx macro).
static inline int tui_getmaxx(WINDOW *window) { return getmaxx(window); }

/// The attribute of color pair n (the COLOR_PAIR macro).
static inline attr_t tui_color_pair(short n) { return (attr_t)COLOR_PAIR(n); }

static inline attr_t tui_a_normal(void) { return A_NORMAL; }
static inline attr_t tui_a_bold(void) { return A_BOLD; }
static inline attr_t tui_a_reverse(void) { return A_REVERSE; }
static inline attr_t tui_a_dim(void) { return A_DIM; }
static inline attr_t tui_a_underline(void) { return A_UNDERLINE; }

/// Key codes (ncurses macros).
static inline int tui_key_resize(void) { return KEY_RESIZE; }
static inline int tui_key_code_yes(void) { return KEY_CODE_YES; }
static inline int tui_err(void) { return ERR; }

/// Reads one key or character with get_wch; returns ERR on timeout, KEY_CODE_YES for a function key, else OK.
static inline int tui_get_wch(wint_t *out) { return wget_wch(stdscr, out); }

/// Writes a NUL-terminated UTF-8 string at (row, column) with attributes (mvaddstr under a UTF-8 locale).
static inline int tui_draw(int row, int column, const char *utf8, attr_t attributes) {
    attrset(attributes);
    int result = mvaddstr(row, column, utf8);
    attrset(A_NORMAL);
    return result;
}

#endif
