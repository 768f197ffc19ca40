import { test } from "node:test";
import assert from "node:assert/strict";
import { boxLines, layoutDiagram, referenceDepths } from "../Console/diagram.js";
import { moviesModel } from "./data-queries.fixture.mjs";

function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function assertNoOverlap(layout) {
  for (let i = 0; i < layout.boxes.length; i += 1) {
    for (let j = i + 1; j < layout.boxes.length; j += 1) {
      const [a, b] = [layout.boxes[i], layout.boxes[j]];
      assert.equal(overlaps(a, b), false, `${a.type} overlaps ${b.type}`);
    }
  }
  for (const box of layout.boxes) {
    assert.ok(box.x >= 0 && box.y >= 0, `${box.type} starts inside`);
    assert.ok(box.x + box.width <= layout.width && box.y + box.height <= layout.height, `${box.type} ends inside`);
  }
}

/** A model of `n` tables where table i references table i - 1 and table 0 (a wide, deep graph). */
function syntheticModel(n) {
  const tables = [];
  for (let i = 0; i < n; i += 1) {
    const relations = [];
    const columns = [{ field: "id", type: "UUID!", key: true }];
    if (i > 0) {
      relations.push({ field: `prev`, type: `T${i - 1}` });
      columns.push({ field: "prevId", type: "UUID", references: { type: `T${i - 1}`, field: "prev" } });
    }
    if (i > 1) {
      relations.push({ field: `root`, type: "T0" });
      columns.push({ field: "rootId", type: "UUID", references: { type: "T0", field: "root" } });
    }
    tables.push({ type: `T${i}`, key: ["id"], columns, relations });
  }
  return { tables };
}

/** `count` unrelated tables with names of varied length: one wide layer. */
function flatModel(count) {
  return {
    tables: Array.from({ length: count }, (_, i) => ({
      type: `Table${"x".repeat(i % 7)}${i}`,
      key: ["id"],
      columns: [{ field: "id", type: "Int!" }],
      relations: [],
    })),
  };
}

test("boxes list the key fields and the reference fields", () => {
  const movieActor = moviesModel.tables.find((t) => t.type === "MovieActor");
  assert.deepEqual(boxLines(movieActor), [
    { field: "movieId", key: true, reference: "Movie", text: "movieId → Movie" },
    { field: "actorId", key: true, reference: "Actor", text: "actorId → Actor" },
  ]);
  const movie = moviesModel.tables.find((t) => t.type === "Movie");
  assert.deepEqual(
    boxLines(movie).map((l) => l.text),
    ["id: UUID", "directorId → Person"],
  );
});

test("tables are layered by reference depth", () => {
  const depths = referenceDepths(moviesModel);
  assert.deepEqual(Object.fromEntries([...depths].sort()), {
    Actor: 0, Person: 0, User: 0, MovieSummary: 0,
    Movie: 1,
    FavoriteMovie: 2, MovieActor: 2, MovieMetadata: 2, Review: 2,
  });
});

test("the movies diagram has no overlapping boxes and referenced tables sit above", () => {
  const layout = layoutDiagram(moviesModel);
  assert.equal(layout.boxes.length, moviesModel.tables.length);
  assertNoOverlap(layout);
  const byType = Object.fromEntries(layout.boxes.map((b) => [b.type, b]));
  for (const edge of layout.edges) {
    assert.ok(byType[edge.to].y + byType[edge.to].height <= byType[edge.from].y, `${edge.id} points up`);
  }
  assert.deepEqual(
    layout.edges.map((e) => e.id),
    ["FavoriteMovie.movie", "FavoriteMovie.user", "Movie.director", "MovieActor.actor", "MovieActor.movie",
      "MovieMetadata.movie", "Review.movie", "Review.user"],
  );
});

test("every edge starts on its source box and ends on its target box", () => {
  const layout = layoutDiagram(moviesModel);
  const byType = Object.fromEntries(layout.boxes.map((b) => [b.type, b]));
  const near = (a, b) => Math.abs(a - b) <= 1;
  const onBorder = ([x, y], b) =>
    x >= b.x - 1 && x <= b.x + b.width + 1 && y >= b.y - 1 && y <= b.y + b.height + 1 &&
    (near(x, b.x) || near(x, b.x + b.width) || near(y, b.y) || near(y, b.y + b.height));
  for (const edge of layout.edges) {
    assert.ok(onBorder(edge.points[0], byType[edge.from]), `${edge.id} starts on ${edge.from}`);
    assert.ok(onBorder(edge.points.at(-1), byType[edge.to]), `${edge.id} ends on ${edge.to}`);
    assert.match(edge.path, /^M -?\d+ -?\d+ [CL] /);
  }
  const ends = layout.edges.map((e) => e.points.at(-1).join(","));
  assert.equal(new Set(ends).size, ends.length, "edges into a box do not share an end point");
});

test("the layout is stable: the same output for the same model, whatever the table order", () => {
  const first = layoutDiagram(moviesModel);
  const again = layoutDiagram(JSON.parse(JSON.stringify(moviesModel)));
  const shuffled = layoutDiagram({ ...moviesModel, tables: [...moviesModel.tables].reverse() });
  assert.deepEqual(again, first);
  assert.deepEqual(shuffled, first);
  assert.equal(JSON.stringify(shuffled), JSON.stringify(first));
});

test("wide layers wrap into rows without overlap", () => {
  const layout = layoutDiagram(flatModel(23));
  assertNoOverlap(layout);
  const rows = new Set(layout.boxes.map((b) => b.y));
  assert.equal(rows.size, 6);
});

test("deep chains and cycles still lay out without overlap", () => {
  const deep = layoutDiagram(syntheticModel(12));
  assertNoOverlap(deep);
  assert.equal(deep.edges.length, 21);
  const referencing = (type, field, target) => ({
    type,
    key: ["id"],
    columns: [{ field: `${field}Id`, type: "UUID", references: { type: target, field } }],
    relations: [{ field, type: target }],
  });
  const cyclic = { tables: [referencing("A", "b", "B"), referencing("B", "a", "A"), referencing("C", "parent", "C")] };
  const layout = layoutDiagram(cyclic);
  assertNoOverlap(layout);
  assert.deepEqual(layout.edges.map((e) => e.id), ["A.b", "B.a", "C.parent"]);
  const self = layout.edges.find((e) => e.id === "C.parent");
  assert.notDeepEqual(self.points[0], self.points.at(-1));
});

/** Asserts that no edge runs through a box: each leg between waypoints keeps out of every box's inside. */
function assertEdgesAvoidBoxes(layout) {
  for (const edge of layout.edges) {
    for (let i = 1; i < edge.points.length; i += 1) {
      const [[px, py], [qx, qy]] = [edge.points[i - 1], edge.points[i]];
      const leg = {
        x: Math.min(px, qx) + 0.5,
        y: Math.min(py, qy) + 0.5,
        width: Math.max(Math.abs(qx - px) - 1, 0.01),
        height: Math.max(Math.abs(qy - py) - 1, 0.01),
      };
      for (const box of layout.boxes) {
        assert.equal(overlaps(leg, box), false, `${edge.id} leg ${i} crosses ${box.type}`);
      }
    }
  }
}

test("edges that skip rows go around the boxes in between", () => {
  const layout = layoutDiagram(moviesModel);
  assertEdgesAvoidBoxes(layout);
  const skipping = layout.edges.find((e) => e.id === "FavoriteMovie.user");
  assert.equal(skipping.points.length, 4, "one row crossed: enter and leave it");
  assert.equal(skipping.points[1][0], skipping.points[2][0], "it crosses the row vertically");
  const deep = layoutDiagram(syntheticModel(12));
  assertEdgesAvoidBoxes(deep);
  assertEdgesAvoidBoxes(layoutDiagram(flatModel(9)));
});

test("an empty model gives an empty diagram", () => {
  assert.deepEqual(layoutDiagram({ tables: [] }).boxes, []);
  assert.deepEqual(layoutDiagram(null).edges, []);
});
