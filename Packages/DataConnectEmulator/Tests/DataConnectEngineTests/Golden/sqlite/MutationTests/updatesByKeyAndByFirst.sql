-- byKey
UPDATE "review" SET "rating" = ?1 WHERE rowid = (SELECT s.rowid FROM "review" AS s WHERE s."movie_id" = ?2 AND s."user_id" = ?3 LIMIT 1) RETURNING "movie_id", "user_id";

-- byFirst
UPDATE "movie" SET "is_classic" = ?1 WHERE rowid = (SELECT s.rowid FROM "movie" AS s WHERE s."genre" = ?2 ORDER BY s."release_year" ASC NULLS LAST LIMIT 1) RETURNING "id";
