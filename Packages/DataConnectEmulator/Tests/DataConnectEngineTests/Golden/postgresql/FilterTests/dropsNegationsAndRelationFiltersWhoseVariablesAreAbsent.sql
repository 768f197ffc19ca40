-- director
SELECT (SELECT coalesce(json_agg(json_build_object('title', t1."title") ORDER BY _o0 ASC NULLS LAST), '[]'::json) FROM (SELECT t1."title", t1."title" AS _o0 FROM "movie" AS t1 WHERE EXISTS (SELECT 1 FROM "People" AS f2 WHERE f2."id" = t1."director_id" AND f2."name" = $1::text) ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);

-- both
SELECT (SELECT coalesce(json_agg(json_build_object('title', t1."title") ORDER BY _o0 ASC NULLS LAST), '[]'::json) FROM (SELECT t1."title", t1."title" AS _o0 FROM "movie" AS t1 WHERE NOT (t1."title" = $1::text) AND EXISTS (SELECT 1 FROM "People" AS f2 WHERE f2."id" = t1."director_id" AND f2."name" = $2::text) ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);
