SELECT (SELECT coalesce(json_group_array(json_object('title', t1."title")), '[]') FROM (SELECT t1."title", t1."release_year" AS _o0 FROM "movie" AS t1 ORDER BY _o0 DESC NULLS FIRST LIMIT 100) AS t1);
