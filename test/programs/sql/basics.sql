CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500)
INSERT INTO t SELECT x, 'n' || (x * 37 % 101), x * 1.5 FROM c;
CREATE INDEX t_name ON t(name);
SELECT count(*), sum(v), min(name), max(name) FROM t;
SELECT name, count(*) AS k, round(avg(v), 3) FROM t GROUP BY name ORDER BY k DESC, name LIMIT 5;
SELECT a.id, b.id FROM t a JOIN t b ON a.name = b.name AND a.id < b.id ORDER BY a.id LIMIT 3;
UPDATE t SET v = v * 2 WHERE id % 3 = 0;
DELETE FROM t WHERE id > 450;
SELECT count(*), total(v), group_concat(id, ',') FILTER (WHERE id < 8) FROM t;
SELECT printf('%08.3f|%s', 3.14159, upper('segtime')), json_object('a', 1, 'b', json_array(2, 3));
