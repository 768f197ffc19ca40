DELETE FROM "review" WHERE rowid = (SELECT s.rowid FROM "review" AS s WHERE s."movie_id" = ?1 AND s."user_id" = ?2 LIMIT 1) RETURNING "movie_id", "user_id";
