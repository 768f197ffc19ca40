INSERT INTO "actor" ("name", "id") VALUES (?1, ?2) RETURNING "id";
INSERT INTO "actor" ("name", "id") VALUES (?1, ?2) RETURNING "id";
