-- Small programs: sieve, N-queens, JSON round trip, matrix product, word counting, Brainfuck.
local function sieve(n)
  local is = {}
  for i = 2, n do is[i] = true end
  for i = 2, math.floor(math.sqrt(n)) do
    if is[i] then for j = i * i, n, i do is[j] = false end end
  end
  local c, last = 0, 0
  for i = 2, n do if is[i] then c = c + 1; last = i end end
  return c, last
end
print("primes", sieve(200000))
local function queens(n)
  local count, cols, d1, d2 = 0, {}, {}, {}
  local function place(r)
    if r > n then count = count + 1; return end
    for c = 1, n do
      if not cols[c] and not d1[r + c] and not d2[r - c + n] then
        cols[c], d1[r + c], d2[r - c + n] = true, true, true
        place(r + 1)
        cols[c], d1[r + c], d2[r - c + n] = nil, nil, nil
      end
    end
  end
  place(1)
  return count
end
print("queens", queens(8), queens(9))
-- JSON encode/decode
local function encode(v)
  local t = type(v)
  if t == "table" then
    if #v > 0 or next(v) == nil then
      local out = {}
      for i, x in ipairs(v) do out[i] = encode(x) end
      return "[" .. table.concat(out, ",") .. "]"
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    local out = {}
    for _, k in ipairs(keys) do out[#out + 1] = string.format("%q:%s", k, encode(v[k])) end
    return "{" .. table.concat(out, ",") .. "}"
  elseif t == "string" then return string.format("%q", v)
  elseif t == "number" then return math.type(v) == "integer" and tostring(v) or string.format("%.17g", v)
  else return tostring(v) end
end
local function decode(s)
  local pos = 1
  local function ws() pos = s:find("[^ \n\t]", pos) or #s + 1 end
  local value
  local function str()
    local e = s:find('"', pos + 1, true)
    local r = s:sub(pos + 1, e - 1); pos = e + 1; return r
  end
  function value()
    ws()
    local ch = s:sub(pos, pos)
    if ch == "{" then
      local r = {}; pos = pos + 1; ws()
      if s:sub(pos, pos) == "}" then pos = pos + 1; return r end
      repeat ws(); local k = str(); ws(); pos = pos + 1; r[k] = value(); ws()
        local sep = s:sub(pos, pos); pos = pos + 1 until sep == "}"
      return r
    elseif ch == "[" then
      local r = {}; pos = pos + 1; ws()
      if s:sub(pos, pos) == "]" then pos = pos + 1; return r end
      repeat r[#r + 1] = value(); ws(); local sep = s:sub(pos, pos); pos = pos + 1 until sep == "]"
      return r
    elseif ch == '"' then return str()
    elseif s:sub(pos, pos + 3) == "true" then pos = pos + 4; return true
    elseif s:sub(pos, pos + 4) == "false" then pos = pos + 5; return false
    else local num = s:match("^-?[%d.eE+-]+", pos); pos = pos + #num; return math.tointeger(tonumber(num)) or tonumber(num) end
  end
  return value()
end
local doc = {name = "segtime", list = {1, 2.5, "three", {nested = true}}, flag = false, n = -17}
local js = encode(doc)
print(js)
assert(encode(decode(js)) == js)
-- matrices
local function matmul(a, b, n)
  local c = {}
  for i = 1, n do
    local ci = {}
    for j = 1, n do
      local s = 0
      for k = 1, n do s = s + a[i][k] * b[k][j] end
      ci[j] = s
    end
    c[i] = ci
  end
  return c
end
local n = 60
local A, B = {}, {}
for i = 1, n do A[i], B[i] = {}, {} for j = 1, n do A[i][j] = (i + j) % 7; B[i][j] = (i * j) % 5 - 2 end end
local C = matmul(A, B, n)
local tr = 0
for i = 1, n do tr = tr + C[i][i] end
print("trace", tr, C[1][1], C[n][n])
-- word frequencies
local text = string.rep("the cat sat on the mat and the dog sat on the log ", 200)
local freq = {}
for w in text:gmatch("%a+") do freq[w] = (freq[w] or 0) + 1 end
local ws = {}
for w, c in pairs(freq) do ws[#ws + 1] = {w, c} end
table.sort(ws, function(x, y) if x[2] ~= y[2] then return x[2] > y[2] end return x[1] < y[1] end)
for i = 1, 4 do io.write(ws[i][1], "=", ws[i][2], " ") end
print()
-- a Brainfuck interpreter running a program that prints "Hello World!"
local bf = "++++++++[>++++[>++>+++>+++>+<<<<-]>+>+>->>+[<]<-]>>.>---.+++++++..+++.>>.<-.<.+++.------.--------.>>+.>++."
local tape, ptr, pc, out = {}, 1, 1, {}
local jump, stack = {}, {}
for i = 1, #bf do
  local ch = bf:sub(i, i)
  if ch == "[" then stack[#stack + 1] = i elseif ch == "]" then local j = table.remove(stack); jump[i], jump[j] = j, i end
end
while pc <= #bf do
  local ch = bf:sub(pc, pc)
  if ch == ">" then ptr = ptr + 1 elseif ch == "<" then ptr = ptr - 1
  elseif ch == "+" then tape[ptr] = ((tape[ptr] or 0) + 1) % 256
  elseif ch == "-" then tape[ptr] = ((tape[ptr] or 0) - 1) % 256
  elseif ch == "." then out[#out + 1] = string.char(tape[ptr] or 0)
  elseif ch == "[" and (tape[ptr] or 0) == 0 then pc = jump[pc]
  elseif ch == "]" and (tape[ptr] or 0) ~= 0 then pc = jump[pc] end
  pc = pc + 1
end
io.write(table.concat(out))
-- io: a temporary file written and read back
local tmp = io.tmpfile()
tmp:write("line one\n", 42, "\n", 3.5, "\nlast")
tmp:seek("set")
print(tmp:read("l"), tmp:read("n"), tmp:read("n"), tmp:read("a"))
tmp:close()
print(os.time({year = 2020, month = 1, day = 1, hour = 12}) - os.time({year = 2020, month = 1, day = 2, hour = 12}))
print(os.date("!%Y-%m-%d %H:%M:%S", 86400 * 365), type(os.clock()), os.getenv("SEGTIME_SURELY_UNSET"))
print("programs ok")
