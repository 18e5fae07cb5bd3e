-- Joins, aggregates, window functions, subqueries, views, compound selects.
CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE emp(id INTEGER PRIMARY KEY, name TEXT, dept INTEGER REFERENCES dept(id), salary INTEGER, hired TEXT);
INSERT INTO dept VALUES (1, 'eng'), (2, 'ops'), (3, 'sales'), (4, 'empty');
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300)
INSERT INTO emp SELECT x, 'e' || printf('%03d', x), 1 + x % 3, 1000 + (x * 7919) % 5000,
       date('2000-01-01', '+' || (x * 13) || ' days') FROM c;
SELECT d.name, count(e.id), sum(e.salary), min(e.hired), max(e.hired)
  FROM dept d LEFT JOIN emp e ON e.dept = d.id GROUP BY d.id ORDER BY d.id;
SELECT name, salary, rank() OVER w, dense_rank() OVER w, row_number() OVER w,
       sum(salary) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW),
       lag(salary, 1, -1) OVER (ORDER BY id), lead(name) OVER (ORDER BY id),
       ntile(4) OVER (ORDER BY salary, id), round(percent_rank() OVER (ORDER BY salary, id), 4)
  FROM emp WINDOW w AS (PARTITION BY dept ORDER BY salary DESC, id) ORDER BY id LIMIT 12;
SELECT dept, first_value(name) OVER (PARTITION BY dept ORDER BY salary DESC, id),
       last_value(name) OVER (PARTITION BY dept ORDER BY salary DESC, id
                              RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
  FROM emp GROUP BY dept ORDER BY dept;
SELECT name FROM emp WHERE salary > (SELECT avg(salary) FROM emp) AND dept IN (SELECT id FROM dept WHERE name <> 'ops')
  ORDER BY salary DESC, id LIMIT 5;
SELECT name, (SELECT count(*) FROM emp e2 WHERE e2.dept = e.dept AND e2.salary > e.salary) AS better
  FROM emp e WHERE id % 50 = 0 ORDER BY id;
SELECT EXISTS (SELECT 1 FROM emp WHERE dept = 4), NOT EXISTS (SELECT 1 FROM emp WHERE dept = 4);
CREATE VIEW rich AS SELECT e.name, d.name AS dname, e.salary FROM emp e JOIN dept d ON d.id = e.dept WHERE salary >= 5500;
SELECT dname, count(*), group_concat(name, ';') FROM (SELECT * FROM rich ORDER BY name) GROUP BY dname ORDER BY dname;
SELECT id FROM emp WHERE id < 10 UNION SELECT id * 2 FROM emp WHERE id < 5 ORDER BY 1;
SELECT id FROM emp WHERE id < 10 INTERSECT SELECT id * 2 FROM emp WHERE id < 10 ORDER BY 1;
SELECT id FROM emp WHERE id < 10 EXCEPT SELECT id * 3 FROM emp ORDER BY 1;
SELECT dept, salary / 1000 AS band, count(*) FROM emp GROUP BY 1, 2 HAVING count(*) > 18 ORDER BY 1, 2;
SELECT a.id, b.id, c.id FROM emp a CROSS JOIN emp b JOIN emp c ON c.id = a.id + b.id
  WHERE a.id < 4 AND b.id < 3 ORDER BY 1, 2;
SELECT CASE WHEN salary < 2000 THEN 'low' WHEN salary < 4000 THEN 'mid' ELSE 'high' END AS k, count(*), avg(salary)
  FROM emp GROUP BY k ORDER BY k;
SELECT total(salary), avg(salary), count(DISTINCT dept), max(length(name)), typeof(avg(salary)) FROM emp;
SELECT strftime('%Y', hired) AS y, count(*) FROM emp GROUP BY y ORDER BY y LIMIT 4;
SELECT * FROM emp ORDER BY salary DESC, id LIMIT 3 OFFSET 10;
SELECT coalesce(NULL, NULL, 3), nullif(4, 4), ifnull(NULL, 'x'), iif(1 > 2, 'a', 'b'), NULL IS NULL, NULL = NULL;
