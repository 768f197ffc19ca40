INSERT INTO "review" ("movie_id", "user_id", "rating", "review_date") VALUES ($1::uuid, $2::text, $3::int4, $4::date) RETURNING encode(uuid_send("movie_id"), 'hex') AS "movie_id", "user_id";
