// Building DOM elements from data: text always goes in as text, never as HTML.

/**
 * Builds an element: `props` are attributes (`class`, `text` for the text content, `on*` functions become
 * listeners; `null`, `undefined` and `false` leave an attribute out, `true` sets it empty); children may be
 * elements, strings or numbers (as text), and `null`, `undefined` and `false` are skipped.
 */
export function el(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "text") element.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    const isText = typeof child === "string" || typeof child === "number";
    element.appendChild(isText ? document.createTextNode(String(child)) : child);
  }
  return element;
}

/**
 * `el` with the content as one argument: `h("li", {class: "x"}, "text")` or `h("ul", {}, [children])`.
 * Falsy children of a list are skipped.
 */
export function h(tag, attributes = {}, content = null) {
  if (Array.isArray(content)) return el(tag, attributes, ...content.filter(Boolean));
  return el(tag, attributes, ...(content === null || content === undefined ? [] : [String(content)]));
}
