INSERT INTO "event" ("id", "day", "created_at", "owner") VALUES (?1, ?2, ?3, ?4) RETURNING "id";
