// The schema diagram: one box per table with its key and reference fields, one edge per relation.
//
// Layout (pure, deterministic): tables are put in layers by reference depth (a table that references nothing is
// in layer 0, at the top; a table referencing others sits one layer below the deepest of them), sorted by name
// inside a layer, and each layer is cut into rows of at most `maxPerRow` boxes on a grid of equal cells, so boxes
// never overlap. Edges leave the referencing box and end on the referenced one, spread along the sides they touch.
// `renderDiagram` builds the SVG from a layout; it needs a document, given by the caller.

/** Sizes used by the layout, in SVG user units. */
export const METRICS = Object.freeze({
  charWidth: 7.2,
  lineHeight: 18,
  headerHeight: 28,
  paddingX: 10,
  paddingBottom: 8,
  minWidth: 130,
  gapX: 48,
  gapY: 64,
  margin: 28,
  maxPerRow: 4,
});

/** Lines of a table's box: its key fields, then its reference fields, each with a short text. */
export function boxLines(table) {
  const keys = new Set(table.key || []);
  const lines = [];
  for (const column of table.columns || []) {
    const ref = column.references;
    const isKey = keys.has(column.field) || column.key === true;
    if (!isKey && !ref) continue;
    const base = String(column.type || "").replace(/!$/, "");
    lines.push({
      field: column.field,
      key: isKey,
      reference: ref ? ref.type : null,
      text: ref ? `${column.field} → ${ref.type}` : `${column.field}: ${base}`,
    });
  }
  return lines;
}

/** The tables each table references (relations to tables of the model, itself left out), sorted. */
function referencesOf(model) {
  const types = new Set(model.tables.map((t) => t.type));
  const refs = new Map();
  for (const table of model.tables) {
    const targets = new Set();
    for (const relation of table.relations || []) {
      if (relation.type !== table.type && types.has(relation.type)) targets.add(relation.type);
    }
    refs.set(table.type, [...targets].sort());
  }
  return refs;
}

/** Each table's reference depth; a cycle is cut where it is entered again. */
export function referenceDepths(model) {
  const refs = referencesOf(model);
  const depths = new Map();
  const visiting = new Set();
  const depthOf = (type) => {
    if (depths.has(type)) return depths.get(type);
    if (visiting.has(type)) return -1;
    visiting.add(type);
    let depth = 0;
    for (const target of refs.get(type) || []) depth = Math.max(depth, depthOf(target) + 1);
    visiting.delete(type);
    depths.set(type, depth);
    return depth;
  };
  for (const type of [...refs.keys()].sort()) depthOf(type);
  return depths;
}

function compareNames(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Places the model's tables and relations.
 *
 * @returns {{width: number, height: number,
 *   boxes: {type: string, isView: boolean, layer: number, x: number, y: number, width: number, height: number,
 *           lines: {field: string, key: boolean, reference: string|null, text: string}[]}[],
 *   edges: {id: string, from: string, to: string, field: string, points: number[][], path: string}[]}}
 */
export function layoutDiagram(model, metrics = METRICS) {
  const m = { ...METRICS, ...metrics };
  const tables = [...(model && model.tables ? model.tables : [])].sort((a, b) => compareNames(a.type, b.type));
  const depths = referenceDepths({ tables });
  const measured = tables.map((table) => {
    const lines = boxLines(table);
    const longest = Math.max(table.type.length + (table.isView ? 7 : 0), ...lines.map((l) => l.text.length + 2));
    return {
      type: table.type,
      isView: Boolean(table.isView),
      layer: depths.get(table.type) || 0,
      width: Math.max(m.minWidth, Math.ceil(longest * m.charWidth + 2 * m.paddingX)),
      height: m.headerHeight + lines.length * m.lineHeight + m.paddingBottom,
      lines,
    };
  });

  // Rows of the grid: each layer in name order, cut into rows of at most maxPerRow boxes.
  const layers = [...new Set(measured.map((b) => b.layer))].sort((a, b) => a - b);
  const rows = [];
  for (const layer of layers) {
    const inLayer = measured.filter((b) => b.layer === layer);
    for (let i = 0; i < inLayer.length; i += m.maxPerRow) rows.push(inLayer.slice(i, i + m.maxPerRow));
  }
  const cellWidth = Math.max(0, ...measured.map((b) => b.width));
  const widest = Math.max(0, ...rows.map((r) => r.length));
  const gridWidth = widest * cellWidth + Math.max(0, widest - 1) * m.gapX;

  const boxes = [];
  let y = m.margin;
  for (const row of rows) {
    const rowWidth = row.length * cellWidth + (row.length - 1) * m.gapX;
    const left = m.margin + (gridWidth - rowWidth) / 2;
    const rowHeight = Math.max(...row.map((b) => b.height));
    row.forEach((box, i) => {
      const x = left + i * (cellWidth + m.gapX) + (cellWidth - box.width) / 2;
      boxes.push({ ...box, x: Math.round(x), y: Math.round(y) });
    });
    y += rowHeight + m.gapY;
  }
  const height = rows.length ? y - m.gapY + m.margin : 2 * m.margin;
  const width = gridWidth + 2 * m.margin;
  return { width: Math.round(width), height: Math.round(height), boxes, edges: layoutEdges(tables, boxes, m) };
}

/** Where each relation's edge runs: from the referencing box to the referenced one. */
function layoutEdges(tables, boxes, m) {
  const byType = new Map(boxes.map((b) => [b.type, b]));
  const raw = [];
  for (const table of tables) {
    for (const relation of table.relations || []) {
      const from = byType.get(table.type);
      const to = byType.get(relation.type);
      if (!from || !to) continue;
      raw.push({ id: `${table.type}.${relation.field}`, from: table.type, to: relation.type, field: relation.field });
    }
  }
  raw.sort((a, b) => compareNames(a.id, b.id));

  // Which side of each box an edge touches, then where along that side.
  const ends = [];
  for (const edge of raw) {
    const a = byType.get(edge.from);
    const b = byType.get(edge.to);
    let sideA;
    let sideB;
    if (a === b) {
      sideA = "right";
      sideB = "right";
    } else if (b.y + b.height <= a.y) {
      sideA = "top";
      sideB = "bottom";
    } else if (a.y + a.height <= b.y) {
      sideA = "bottom";
      sideB = "top";
    } else if (b.x >= a.x + a.width) {
      sideA = "right";
      sideB = "left";
    } else {
      sideA = "left";
      sideB = "right";
    }
    ends.push({ edge, box: a, side: sideA, other: b, which: "from" });
    ends.push({ edge, box: b, side: sideB, other: a, which: "to" });
  }
  const groups = new Map();
  for (const end of ends) {
    const key = `${end.box.type}|${end.side}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(end);
  }
  const anchor = new Map();
  for (const group of groups.values()) {
    const horizontal = group[0].side === "top" || group[0].side === "bottom";
    group.sort((p, q) => {
      const pc = horizontal ? p.other.x + p.other.width / 2 : p.other.y + p.other.height / 2;
      const qc = horizontal ? q.other.x + q.other.width / 2 : q.other.y + q.other.height / 2;
      return pc - qc || compareNames(p.edge.id, q.edge.id) || compareNames(p.which, q.which);
    });
    group.forEach((end, i) => {
      const box = end.box;
      const t = (i + 1) / (group.length + 1);
      let point;
      if (end.side === "top") point = [box.x + box.width * t, box.y];
      else if (end.side === "bottom") point = [box.x + box.width * t, box.y + box.height];
      else if (end.side === "left") point = [box.x, box.y + m.headerHeight / 2 + (box.height - m.headerHeight / 2) * t];
      else point = [box.x + box.width, box.y + m.headerHeight / 2 + (box.height - m.headerHeight / 2) * t];
      anchor.set(`${end.edge.id}|${end.which}`, { point: point.map((v) => Math.round(v)), side: end.side });
    });
  }

  const rows = rowsOf(boxes);
  const width = Math.max(0, ...boxes.map((b) => b.x + b.width)) + m.margin;
  return raw.map((edge) => {
    const start = anchor.get(`${edge.id}|from`);
    const end = anchor.get(`${edge.id}|to`);
    const vertical = start.side === "top" || start.side === "bottom";
    if (vertical) {
      const points = verticalRoute(start.point, end.point, start.side === "top", rows, width, m);
      return { ...edge, points, path: verticalPath(points) };
    }
    const [sx, sy] = start.point;
    const [ex, ey] = end.point;
    const pull = (side, x, y, distance) => (side === "left" ? [x - distance, y] : [x + distance, y]);
    const distance = edge.from === edge.to ? 40 : Math.max(24, Math.round(Math.abs(ex - sx) / 3));
    const c1 = pull(start.side, sx, sy, distance);
    const c2 = pull(end.side, ex, ey, distance);
    const path = `M ${sx} ${sy} C ${c1.join(" ")}, ${c2.join(" ")}, ${ex} ${ey}`;
    return { ...edge, points: [start.point, end.point], path };
  });
}

/** The grid's rows, top to bottom: their extent and boxes in x order. */
function rowsOf(boxes) {
  const byTop = new Map();
  for (const box of boxes) {
    if (!byTop.has(box.y)) byTop.set(box.y, []);
    byTop.get(box.y).push(box);
  }
  return [...byTop.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([top, list]) => ({
      top,
      bottom: top + Math.max(...list.map((b) => b.height)),
      boxes: list.sort((a, b) => a.x - b.x),
    }));
}

/** The x nearest `ideal` where a vertical line crosses `row` between its boxes (or beside them). */
function freeX(row, ideal, width, m) {
  const pad = 10;
  const intervals = [];
  let left = m.margin / 2;
  for (const box of row.boxes) {
    intervals.push([left, box.x - pad]);
    left = box.x + box.width + pad;
  }
  intervals.push([left, width - m.margin / 2]);
  let best = null;
  for (const [lo, hi] of intervals) {
    if (lo > hi) continue;
    const x = Math.min(hi, Math.max(lo, ideal));
    if (best === null || Math.abs(x - ideal) < Math.abs(best - ideal)) best = x;
  }
  return Math.round(best === null ? ideal : best);
}

/**
 * The waypoints of an edge between rows: from the start anchor, through a free column of every row in between
 * (entering and leaving it vertically), to the end anchor.
 */
function verticalRoute(start, end, upward, rows, width, m) {
  const [sx, sy] = start;
  const [ex, ey] = end;
  const low = Math.min(sy, ey);
  const high = Math.max(sy, ey);
  const crossed = rows.filter((r) => r.top > low && r.bottom < high);
  if (upward) crossed.reverse();
  const points = [start];
  for (const row of crossed) {
    const middle = (row.top + row.bottom) / 2;
    const ideal = sx + ((ex - sx) * (middle - sy)) / (ey - sy || 1);
    const x = freeX(row, ideal, width, m);
    if (upward) points.push([x, row.bottom], [x, row.top]);
    else points.push([x, row.top], [x, row.bottom]);
  }
  points.push(end);
  return points;
}

/** A smooth path through waypoints, leaving and entering each one vertically. */
function verticalPath(points) {
  let path = `M ${points[0][0]} ${points[0][1]}`;
  for (let i = 1; i < points.length; i += 1) {
    const [px, py] = points[i - 1];
    const [qx, qy] = points[i];
    if (px === qx) {
      path += ` L ${qx} ${qy}`;
    } else {
      const my = Math.round((py + qy) / 2);
      path += ` C ${px} ${my}, ${qx} ${my}, ${qx} ${qy}`;
    }
  }
  return path;
}

const SVG = "http://www.w3.org/2000/svg";

function svgElement(doc, name, attributes = {}) {
  const element = doc.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/**
 * Builds `svg[data-testid="schema-diagram"]` for a layout. Boxes are focusable; clicking one, or Enter/Space on
 * it, calls `onSelect(type)`.
 */
export function renderDiagram(doc, layout, { onSelect = () => {}, metrics = METRICS } = {}) {
  const m = { ...METRICS, ...metrics };
  const svg = svgElement(doc, "svg", {
    "data-testid": "schema-diagram",
    class: "diagram",
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    width: layout.width,
    height: layout.height,
    role: "img",
    "aria-label": "Tables and their relations",
  });
  const defs = svgElement(doc, "defs");
  const marker = svgElement(doc, "marker", {
    id: "diagram-arrow",
    viewBox: "0 0 10 10",
    refX: 9,
    refY: 5,
    markerWidth: 7,
    markerHeight: 7,
    orient: "auto-start-reverse",
  });
  marker.appendChild(svgElement(doc, "path", { d: "M 0 0 L 10 5 L 0 10 z", class: "diagram-arrow" }));
  defs.appendChild(marker);
  svg.appendChild(defs);

  const edges = svgElement(doc, "g", { class: "diagram-edges" });
  for (const edge of layout.edges) {
    const path = svgElement(doc, "path", {
      d: edge.path,
      class: "diagram-edge",
      "data-relation": edge.id,
      "marker-end": "url(#diagram-arrow)",
    });
    const title = svgElement(doc, "title");
    title.textContent = `${edge.from}.${edge.field} → ${edge.to}`;
    path.appendChild(title);
    edges.appendChild(path);
  }
  svg.appendChild(edges);

  for (const box of layout.boxes) {
    const g = svgElement(doc, "g", {
      "data-table": box.type,
      class: box.isView ? "diagram-box diagram-view" : "diagram-box",
      transform: `translate(${box.x} ${box.y})`,
      tabindex: 0,
      role: "button",
      "aria-label": `${box.type}${box.isView ? " (view)" : ""}: show its card`,
    });
    g.appendChild(svgElement(doc, "rect", { class: "diagram-frame", width: box.width, height: box.height, rx: 6 }));
    const header = { class: "diagram-header", width: box.width, height: m.headerHeight, rx: 6 };
    g.appendChild(svgElement(doc, "rect", header));
    g.appendChild(
      svgElement(doc, "rect", { class: "diagram-header", y: m.headerHeight - 6, width: box.width, height: 6 }),
    );
    const name = svgElement(doc, "text", { class: "diagram-name", x: m.paddingX, y: m.headerHeight / 2 + 5 });
    name.textContent = box.isView ? `${box.type} (view)` : box.type;
    g.appendChild(name);
    box.lines.forEach((line, i) => {
      const text = svgElement(doc, "text", {
        class: line.key ? "diagram-line diagram-key" : "diagram-line",
        x: m.paddingX,
        y: m.headerHeight + (i + 1) * m.lineHeight - 5,
        "data-field": line.field,
      });
      text.textContent = `${line.key ? "⚷ " : "  "}${line.text}`;
      g.appendChild(text);
    });
    g.addEventListener("click", () => onSelect(box.type));
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onSelect(box.type);
      }
    });
    svg.appendChild(g);
  }
  return svg;
}
