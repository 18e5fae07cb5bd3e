-- Recursive queries as programs: Mandelbrot, a Sudoku solver, Fibonacci, a graph's shortest paths.
WITH RECURSIVE
  xaxis(x) AS (VALUES(-2.0) UNION ALL SELECT x + 0.05 FROM xaxis WHERE x < 1.2),
  yaxis(y) AS (VALUES(-1.0) UNION ALL SELECT y + 0.1 FROM yaxis WHERE y < 1.0),
  m(iter, cx, cy, x, y) AS (
    SELECT 0, x, y, 0.0, 0.0 FROM xaxis, yaxis
    UNION ALL
    SELECT iter + 1, cx, cy, x * x - y * y + cx, 2.0 * x * y + cy FROM m
     WHERE (x * x + y * y) < 4.0 AND iter < 28),
  m2(iter, cx, cy) AS (SELECT max(iter), cx, cy FROM m GROUP BY cx, cy),
  a(t) AS (SELECT group_concat(substr(' .+*#', 1 + min(iter / 7, 4), 1), '') FROM m2 GROUP BY cy)
SELECT group_concat(rtrim(t), x'0a') FROM a;
WITH RECURSIVE
  input(sud) AS (VALUES('53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79')),
  digits(z, lp) AS (VALUES('1', 1) UNION ALL SELECT CAST(lp + 1 AS TEXT), lp + 1 FROM digits WHERE lp < 9),
  x(s, ind) AS (
    SELECT sud, instr(sud, '.') FROM input
    UNION ALL
    SELECT substr(s, 1, ind - 1) || z || substr(s, ind + 1), instr(substr(s, 1, ind - 1) || z || substr(s, ind + 1), '.')
      FROM x, digits AS z
     WHERE ind > 0
       AND NOT EXISTS (
         SELECT 1 FROM digits AS lp
          WHERE z.z = substr(s, ((ind - 1) / 9) * 9 + lp, 1)
             OR z.z = substr(s, ((ind - 1) % 9) + (lp - 1) * 9 + 1, 1)
             OR z.z = substr(s, (((ind - 1) / 3) % 3) * 3 + ((ind - 1) / 27) * 27 + lp
                                + ((lp - 1) / 3) * 6, 1)))
SELECT s FROM x WHERE ind = 0;
WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n + 1, b, a + b FROM fib WHERE n < 90)
SELECT n, a FROM fib WHERE n % 15 = 0;
CREATE TABLE edge(src INTEGER, dst INTEGER, w INTEGER);
WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 59)
INSERT INTO edge SELECT x, (x * 7 + 3) % 60, 1 + x % 5 FROM c UNION ALL SELECT x, (x + 1) % 60, 4 FROM c;
WITH RECURSIVE path(node, cost, hops) AS (
  SELECT 0, 0, 0
  UNION
  SELECT e.dst, p.cost + e.w, p.hops + 1 FROM path p JOIN edge e ON e.src = p.node WHERE p.hops < 8)
SELECT node, min(cost), min(hops) FROM path GROUP BY node ORDER BY node LIMIT 20;
WITH RECURSIVE cnt(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM cnt LIMIT 100000)
SELECT count(*), sum(x), sum(x * x) % 1000003 FROM cnt;
WITH RECURSIVE s(i, str) AS (SELECT 1, 'a' UNION ALL SELECT i + 1, str || char(97 + i % 26) FROM s WHERE i < 500)
SELECT length(str), substr(str, 1, 30), substr(str, -10) FROM s WHERE i = 500;
