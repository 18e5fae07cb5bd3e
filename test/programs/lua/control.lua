-- Closures, varargs, coroutines, goto, errors, load, string.dump, integer/float maths.
local function counter()
  local n = 0
  return function() n = n + 1; return n end
end
local c1, c2 = counter(), counter()
c1(); c1()
print(c1(), c2())
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...) or 0) end
  return s, select("#", ...)
end
print(sum(1, 2, nil, 4), sum())
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local memo = {}
local function mfib(n) if n < 2 then return n end; if memo[n] then return memo[n] end
  local v = mfib(n - 1) + mfib(n - 2); memo[n] = v; return v end
print(fib(24), mfib(90))
-- tail calls
local function loop(n, acc) if n == 0 then return acc end return loop(n - 1, acc + n) end
print(loop(1000000, 0))
-- coroutines: generators, producer/consumer, wrap, status, yield across pcall
local function gen(n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(i * i) end end)
end
local sq = {}
for v in gen(10) do sq[#sq + 1] = v end
print(table.concat(sq, " "))
local co = coroutine.create(function(a, b)
  local c = coroutine.yield(a + b)
  local d, e = coroutine.yield(c * 2)
  return d + e
end)
print(coroutine.resume(co, 1, 2)); print(coroutine.resume(co, 10)); print(coroutine.resume(co, 3, 4))
print(coroutine.status(co), coroutine.resume(co))
local co2 = coroutine.create(function() pcall(function() coroutine.yield("inside pcall") end) return "done" end)
print(coroutine.resume(co2)); print(coroutine.resume(co2))
print(coroutine.isyieldable(), select(2, coroutine.running()))
-- goto
local out = {}
for i = 1, 3 do
  for j = 1, 3 do
    if j == 2 then goto continue end
    out[#out + 1] = i .. j
    ::continue::
  end
end
print(table.concat(out, " "))
-- errors
print(pcall(error, "plain"))
print(select(2, pcall(error, {code = 7})).code)
print(select(2, pcall(error, "lvl", 0)))
local ok, msg = pcall(function() local x = nil; return x.y end)
print(ok, (msg:gsub("^.-:%d+: ", "")))
print(xpcall(function() error("boom") end, function(m) return "handled: " .. m:gsub("^.-:%d+: ", "") end))
local ok2, e2 = pcall(function() return 1 + {} end)
print(ok2, (e2:gsub("^.-:%d+: ", "")))
print(pcall(string.rep))
local depth = 0
local function deep() depth = depth + 1; return 1 + deep() end
local ok3, e3 = pcall(deep)
print("stack overflow caught", ok3, e3:find("stack overflow") ~= nil, depth > 1000)
-- load, environments, string.dump
local f = load("return 2 + 3 * x", "expr", "t", {x = 4})
print(f())
local chunk = load(string.dump(function(a) return a * 11 end))
print(chunk(3))
print(load("syntax error here"))
local env = {print = print}
local g = load("y = 5; return y", "c", "t", env)
print(g(), env.y, y)
-- integers and floats, bitwise
print(math.maxinteger, math.mininteger, math.maxinteger + 1 == math.mininteger, math.maxinteger * 2.0)
print(5 & 3, 5 | 3, 5 ~ 3, ~5, 1 << 62, 1 << 64, -1 >> 60, 3.0 | 0)
print(math.floor(-3.5), math.ceil(-3.5), math.abs(math.mininteger), math.fmod(7, -3), math.fmod(-7, 3))
print(math.huge, -math.huge, math.pi, math.sqrt(2), math.exp(1), math.log(8, 2), math.log(100, 10))
print(string.format("%.10f %.10f %.10f", math.sin(1), math.cos(1), math.atan(1, 2)))
print(math.ult(1, -1), math.type(1), math.type(1.0), math.type("1"), 3 == 3.0, 2^31 | 0)
print(8 // 0.0, -8 // 0.0, pcall(function() return 1 // 0 end))
print(string.format("%d", 3.0), pcall(string.format, "%d", 3.5))
-- numeric for edge cases
local cnt = 0
for i = math.maxinteger - 2, math.maxinteger do cnt = cnt + 1 end
for i = 1, 0 do cnt = cnt + 100 end
for i = 1.0, 2.0, 0.25 do cnt = cnt + 1 end
print(cnt)
-- deterministic pseudo-random sequence
math.randomseed(42)
local rs = {}
for i = 1, 5 do rs[i] = math.random(1, 100) end
print(#rs, math.random(7, 7))
print("control ok")
