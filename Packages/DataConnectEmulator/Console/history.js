// The GraphQL editor's history: the documents run, newest first, at most 50, kept in localStorage.
// Pure: the storage is passed in (localStorage in the page, a Map-backed stub in the tests).

/** The storage key of the history. */
export const historyStorageKey = "dataconnect-console.graphql-history";

/** How many documents the history keeps. */
export const historyLimit = 50;

/**
 * A history stored under `key` in `storage` (an object with `getItem`/`setItem`).
 *
 * Each entry is `{query, variables, time}` (`variables` is the variables text; `time` an ISO string).
 * Adding a document already in the history moves it to the front with its new variables.
 */
export function createHistory(storage, { key = historyStorageKey, limit = historyLimit, now = () => new Date() } = {}) {
  function read() {
    try {
      const parsed = JSON.parse((storage && storage.getItem(key)) || "[]");
      if (!Array.isArray(parsed)) return [];
      return parsed.filter((entry) => entry && typeof entry.query === "string").slice(0, limit);
    } catch {
      return [];
    }
  }

  function write(entries) {
    try {
      if (storage) storage.setItem(key, JSON.stringify(entries));
    } catch {
      // A full or disabled storage loses the history, nothing else.
    }
  }

  return {
    /** The entries, newest first. */
    list() {
      return read();
    },
    /** Records a run of `query` with `variables` (text); returns the new list. Blank documents are not kept. */
    add(query, variables = "") {
      if (typeof query !== "string" || query.trim() === "") return read();
      const normalized = query.trim();
      const entries = read().filter((entry) => entry.query.trim() !== normalized);
      entries.unshift({ query, variables: typeof variables === "string" ? variables : "", time: now().toISOString() });
      const kept = entries.slice(0, limit);
      write(kept);
      return kept;
    },
    /** Forgets every entry. */
    clear() {
      write([]);
      return [];
    },
  };
}

/** A one-line title for an entry: the operation's kind and name, or the document on one line (at most 60 characters). */
export function entryTitle(entry) {
  const text = entry.query.replace(/#[^\n\r]*/g, "");
  const match = /\b(query|mutation|subscription|fragment)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(text);
  if (match) return `${match[1]} ${match[2]}`;
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
