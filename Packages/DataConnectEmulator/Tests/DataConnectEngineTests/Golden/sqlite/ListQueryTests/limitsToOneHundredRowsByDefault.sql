SELECT (SELECT coalesce(json_group_array(json_object('name', t1."name")), '[]') FROM (SELECT t1."name", t1."id" AS _o0 FROM "event" AS t1 ORDER BY _o0 ASC NULLS LAST LIMIT 100) AS t1);
