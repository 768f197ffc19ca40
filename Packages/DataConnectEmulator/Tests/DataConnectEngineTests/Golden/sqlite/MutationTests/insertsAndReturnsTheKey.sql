INSERT INTO "movie" ("title", "id", "created_at") VALUES (?1, ?2, ?3) RETURNING "id";
