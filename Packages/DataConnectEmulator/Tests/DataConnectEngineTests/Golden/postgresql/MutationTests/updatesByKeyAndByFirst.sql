-- byKey
UPDATE "review" SET "rating" = $1::int4 WHERE ctid = (SELECT s.ctid FROM "review" AS s WHERE s."movie_id" = $2::uuid AND s."user_id" = $3::text LIMIT 1) RETURNING encode(uuid_send("movie_id"), 'hex') AS "movie_id", "user_id";

-- byFirst
UPDATE "movie" SET "is_classic" = ($1::int4 <> 0) WHERE ctid = (SELECT s.ctid FROM "movie" AS s WHERE s."genre" = $2::"Genre" ORDER BY s."release_year" ASC NULLS LAST LIMIT 1) RETURNING encode(uuid_send("id"), 'hex') AS "id";
