-- without
SELECT dataconnect_embed((SELECT json_object('title', t1."title", 'releaseYear', t1."release_year") FROM "movie" AS t1 WHERE t1."id" = ?1 LIMIT 1));

-- with
SELECT dataconnect_embed((SELECT json_object('title', t1."title", 'director', dataconnect_embed((SELECT json_object('name', t2."name") FROM "People" AS t2 WHERE t2."id" = t1."director_id" LIMIT 1))) FROM "movie" AS t1 WHERE t1."id" = ?1 LIMIT 1));
