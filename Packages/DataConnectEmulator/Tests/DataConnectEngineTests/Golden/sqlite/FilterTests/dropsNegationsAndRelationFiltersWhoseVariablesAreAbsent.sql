-- director
SELECT (SELECT coalesce(json_group_array(json_object('title', t1."title")), '[]') FROM (SELECT t1."title", t1."title" AS _o0 FROM "movie" AS t1 WHERE EXISTS (SELECT 1 FROM "People" AS f2 WHERE f2."id" = t1."director_id" AND f2."name" = ?1) ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);

-- both
SELECT (SELECT coalesce(json_group_array(json_object('title', t1."title")), '[]') FROM (SELECT t1."title", t1."title" AS _o0 FROM "movie" AS t1 WHERE NOT (t1."title" = ?1) AND EXISTS (SELECT 1 FROM "People" AS f2 WHERE f2."id" = t1."director_id" AND f2."name" = ?2) ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);
