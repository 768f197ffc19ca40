INSERT INTO "review" ("movie_id", "user_id", "rating", "review_date") VALUES (?1, ?2, ?3, ?4) RETURNING "movie_id", "user_id";
