UPDATE "movie" SET "rating" = ?1 WHERE rowid = (SELECT s.rowid FROM "movie" AS s WHERE s."id" = ?2 LIMIT 1) RETURNING "id";
